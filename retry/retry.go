// Package retry holds the retry helpers a client wraps around a
// read-modify-write: Backoff (how long to wait between tries, and how many
// tries), OnError (try again while the error is one worth retrying) and
// RetryOnConflict (try again while the server answers 409 Conflict).
//
// A write to Kubernetes carries the metadata.resourceVersion the client read.
// If the object changed since, the server refuses the write with 409 Conflict
// and keeps the other writer's change: optimistic concurrency. The client then
// reads the object again, re-applies its change and writes again. The
// function given to RetryOnConflict must do all three every time it runs;
// retrying only the write would send the same stale version again.
//
// client-go counterpart: k8s.io/client-go/util/retry (DefaultRetry,
// DefaultBackoff, OnError, RetryOnConflict) and the Backoff type of
// k8s.io/apimachinery/pkg/util/wait.
//
// Tutorial: 000 §3.3 (optimistic locking under concurrent writers) and
// 004 §2.5 (resourceVersion and 409). Walkthrough: Step 12
// (go test -v -run Step12 ./retry).
package retry

import (
	"math/rand/v2"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
)

// Backoff says how long to wait between tries and how many tries to make.
// The zero value makes one try.
type Backoff struct {
	// Duration is the first wait.
	Duration time.Duration
	// Factor multiplies the wait after each try; 0 or 1 keeps it constant.
	Factor float64
	// Jitter adds a random part of up to Jitter×wait to each wait, so that
	// writers that collided once do not collide again in lockstep.
	Jitter float64
	// Steps is the number of tries (so at most Steps-1 waits).
	Steps int
	// Cap, when positive, is the longest wait: once the wait would grow past
	// it, the wait stays at Cap and no further tries are made.
	Cap time.Duration
}

// DefaultRetry is the backoff for retrying a write after a conflict: five
// tries, about 10 ms apart. Conflicts clear quickly, so short waits suffice.
var DefaultRetry = Backoff{
	Steps:    5,
	Duration: 10 * time.Millisecond,
	Factor:   1.0,
	Jitter:   0.1,
}

// DefaultBackoff is the backoff for errors that take longer to clear (a
// server that is briefly unavailable): four tries, waits of 10, 50, 250 ms.
var DefaultBackoff = Backoff{
	Steps:    4,
	Duration: 10 * time.Millisecond,
	Factor:   5.0,
	Jitter:   0.1,
}

// Step returns the next wait and advances b: one step fewer, and the wait
// multiplied by Factor (up to Cap). With no steps left it returns the
// current wait unchanged.
func (b *Backoff) Step() time.Duration {
	if b.Steps < 1 {
		return b.jittered(b.Duration)
	}
	b.Steps--
	d := b.Duration
	if b.Factor != 0 {
		b.Duration = time.Duration(float64(b.Duration) * b.Factor)
		if b.Cap > 0 && b.Duration > b.Cap {
			b.Duration = b.Cap
			b.Steps = 0 // reaching the cap ends the retries
		}
	}
	return b.jittered(d)
}

func (b *Backoff) jittered(d time.Duration) time.Duration {
	if b.Jitter <= 0 {
		return d
	}
	return d + time.Duration(rand.Float64()*b.Jitter*float64(d))
}

// OnError runs fn until it succeeds, returns an error retriable rejects, or
// the backoff's tries run out; it waits backoff.Step() between tries. It
// returns nil on success, else the last error fn returned. fn runs at least
// once, even when backoff.Steps is 0.
func OnError(backoff Backoff, retriable func(error) bool, fn func() error) error {
	return onError(clock.RealClock{}, backoff, retriable, fn)
}

// RetryOnConflict runs fn again after each 409 Conflict (informer.IsConflict), as
// OnError does. fn must read the object afresh, apply its change to what it
// read, and write: each try then carries the current resourceVersion.
//
// Use DefaultRetry unless many writers are expected to collide often.
func RetryOnConflict(backoff Backoff, fn func() error) error {
	return OnError(backoff, informer.IsConflict, fn)
}

// onError is OnError with its clock given, so that tests can run the waits
// on clock/testing's FakeClock.
func onError(clock clock.Clock, backoff Backoff, retriable func(error) bool, fn func() error) error {
	for {
		err := fn()
		if err == nil || !retriable(err) || backoff.Steps <= 1 {
			return err
		}
		t := clock.NewTimer(backoff.Step())
		<-t.C()
	}
}

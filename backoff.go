// backoff.go holds the Reflector's backoff: how long to wait after a failed
// list/watch cycle, or before re-watching after "connection refused" or a
// 429. It grows exponentially from 800 ms, doubling, capped at 30 s, with up
// to 100 % jitter, and starts over every 2 minutes: a fixed period counted
// from the manager's creation or its last reset, whether or not failures
// kept coming meanwhile (not 2 minutes of quiet). Time comes from a Clock,
// so tests step through it instantly.
//
// client-go counterpart: in v0.37.2, NewReflectorWithOptions builds a
// wait.Backoff{Duration: 800ms, Cap: 30s, Factor: 2, Jitter: 1} and calls
// its DelayWithReset(clock, 2*time.Minute) (k8s.io/apimachinery/pkg/util/wait);
// RunWithContext loops with that delay's Until. The reset rule is that
// backoffManager's Step.
//
// Tutorial: 000 §4.3 (exponential backoff after failures).

package informer

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// The Reflector's backoff settings, client-go's numbers: with them a broken
// server sees a request every 30–60 s instead of every second.
const (
	backoffInitial    = 800 * time.Millisecond
	backoffCap        = 30 * time.Second
	backoffResetAfter = 2 * time.Minute
	backoffFactor     = 2.0
	backoffJitter     = 1.0
)

// backoffManager hands out ever longer waits. It is safe for concurrent use.
type backoffManager struct {
	clock  Clock
	jitter func(d time.Duration) time.Duration // adds the random part; replaceable in tests

	mu sync.Mutex
	// next is the un-jittered length of the next wait.
	next time.Duration
	// lastReset is when the sequence last started over: the manager's
	// creation, then every reset.
	lastReset time.Time
}

func newBackoffManager(clock Clock) *backoffManager {
	return &backoffManager{clock: clock, jitter: jitter, next: backoffInitial, lastReset: clock.Now()}
}

// jitter returns d plus a random part of up to backoffJitter×d, so that many
// clients that failed together do not all come back together.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Float64()*backoffJitter*float64(d))
}

// Step returns the length of the next wait. When more than backoffResetAfter
// has passed since the last reset, the sequence starts over first. As in
// client-go, the period is fixed: a server failing without a pause still
// sees the waits drop back to 800 ms every two minutes or so.
func (b *backoffManager) Step() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now := b.clock.Now(); now.Sub(b.lastReset) > backoffResetAfter {
		b.next = backoffInitial
		b.lastReset = now
	}
	d := b.next
	b.next = min(time.Duration(float64(b.next)*backoffFactor), backoffCap)
	return b.jitter(d)
}

// Backoff returns a timer for the next wait.
func (b *backoffManager) Backoff() Timer { return b.clock.NewTimer(b.Step()) }

// wait blocks for the next backoff; it returns false if ctx ended first.
func (b *backoffManager) wait(ctx context.Context) bool {
	t := b.Backoff()
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// backoff.go holds the Reflector's backoff: how long to wait after a failed
// list/watch cycle, or before re-watching after "connection refused" or a
// 429. It grows exponentially from 800 ms, doubling, capped at 30 s, with up
// to 100 % jitter, and starts over after 2 minutes without trouble. Time
// comes from a Clock, so tests step through it instantly.
//
// client-go counterpart: in v0.37.2, NewReflectorWithOptions builds a
// wait.Backoff{Duration: 800ms, Cap: 30s, Factor: 2, Jitter: 1} and calls
// its DelayWithReset(clock, 2*time.Minute) (k8s.io/apimachinery/pkg/util/wait);
// RunWithContext loops with that delay's Until.
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
	// lastStart is when the last wait was handed out; zero before the first.
	lastStart time.Time
}

func newBackoffManager(clock Clock) *backoffManager {
	return &backoffManager{clock: clock, jitter: jitter, next: backoffInitial}
}

// jitter returns d plus a random part of up to backoffJitter×d, so that many
// clients that failed together do not all come back together.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Float64()*backoffJitter*float64(d))
}

// Step returns the length of the next wait. If the last wait was handed out
// more than backoffResetAfter ago, things have been healthy since: start over.
func (b *backoffManager) Step() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	if !b.lastStart.IsZero() && now.Sub(b.lastStart) > backoffResetAfter {
		b.next = backoffInitial
	}
	b.lastStart = now
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

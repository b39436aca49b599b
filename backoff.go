// backoff.go holds the Reflector's wait after a failed list/watch, a refused connection or a 429.
// client-go counterpart: the wait.Backoff NewReflectorWithOptions runs through DelayWithReset.
// Tutorial: 000 §4.3 (exponential backoff after failures).

package informer

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

const (
	backoffInitial    = 800 * time.Millisecond
	backoffCap        = 30 * time.Second
	backoffResetAfter = 2 * time.Minute
)

// backoffManager hands out ever longer waits; it is safe for concurrent use.
type backoffManager struct {
	clock     Clock
	jitter    func(d time.Duration) time.Duration // adds up to d at random; replaceable in tests
	mu        sync.Mutex                          // guards next and lastReset
	next      time.Duration                       // the next wait, before jitter
	lastReset time.Time                           // creation, then every backoffResetAfter
}

func newBackoffManager(clock Clock) *backoffManager {
	jitter := func(d time.Duration) time.Duration { return d + time.Duration(rand.Float64()*float64(d)) }
	return &backoffManager{clock: clock, jitter: jitter, next: backoffInitial, lastReset: clock.Now()}
}

// Step returns the next wait: doubled up to backoffCap, reset to backoffInitial
// every backoffResetAfter even if failures never paused (as in client-go).
func (b *backoffManager) Step() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now := b.clock.Now(); now.Sub(b.lastReset) > backoffResetAfter {
		b.next, b.lastReset = backoffInitial, now
	}
	d := b.jitter(b.next)
	b.next = min(2*b.next, backoffCap)
	return d
}

// wait blocks for the next backoff; it returns false if ctx ended first.
func (b *backoffManager) wait(ctx context.Context) bool {
	t := b.clock.NewTimer(b.Step())
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

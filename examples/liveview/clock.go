// clock.go holds the live view's clock: real time plus an offset that the
// "resync now" control moves forward, firing every timer that falls due,
// as if that much time had passed. It also tells the wire panel about
// backoff timers: every timer the informer asks for that is not its resync
// timer is the Reflector's backoff.
//
// client-go counterpart: k8s.io/utils/clock (the informer's clock).
// Tutorial: 004 §4.4 (resync), 000 §4.3 (backoff).

package main

import (
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// jumpClock is a clock.Clock whose time can jump forward.
type jumpClock struct {
	resyncPeriod time.Duration
	// onBackoff is told of each backoff timer: the wait the Reflector
	// asked for, and how long it really runs.
	onBackoff func(asked, real time.Duration)
	// backoffScale, when above 0, shortens the backoff timers' real
	// durations by that factor (tests only: the page shows the backoff the
	// Reflector asked for).
	backoffScale float64

	mu     sync.Mutex
	offset time.Duration
	timers map[*jumpTimer]struct{}
}

var _ clock.Clock = (*jumpClock)(nil)

func newJumpClock(resyncPeriod time.Duration, onBackoff func(asked, real time.Duration)) *jumpClock {
	return &jumpClock{resyncPeriod: resyncPeriod, onBackoff: onBackoff, timers: map[*jumpTimer]struct{}{}}
}

// setResyncPeriod tells the clock the resync period of the informer that
// uses it next, so that it can tell the resync timer from a backoff.
func (c *jumpClock) setResyncPeriod(d time.Duration) {
	c.mu.Lock()
	c.resyncPeriod = d
	c.mu.Unlock()
}

// Now is the real time plus the jumps so far.
func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Since is Now minus t.
func (c *jumpClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// NewTimer returns a real timer that a jump past its deadline fires early.
func (c *jumpClock) NewTimer(d time.Duration) clock.Timer {
	c.mu.Lock()
	backoff := d != c.resyncPeriod && c.onBackoff != nil
	real := c.realLocked(d, backoff)
	c.mu.Unlock()
	if backoff {
		c.onBackoff(d, real)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &jumpTimer{c: c, backoff: backoff, t: time.NewTimer(c.realLocked(d, backoff)), deadline: time.Now().Add(c.offset + d)}
	c.timers[t] = struct{}{}
	return t
}

// realLocked is how long a timer of d really runs.
func (c *jumpClock) realLocked(d time.Duration, backoff bool) time.Duration {
	if backoff && c.backoffScale > 0 {
		return time.Duration(float64(d) * c.backoffScale)
	}
	return d
}

// Jump moves the time forward by d and fires the timers that fall due.
func (c *jumpClock) Jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
	now := time.Now().Add(c.offset)
	for t := range c.timers {
		if !t.deadline.After(now) {
			t.t.Reset(0)
		}
	}
}

type jumpTimer struct {
	c        *jumpClock
	backoff  bool // a backoff timer, not the resync timer
	t        *time.Timer
	deadline time.Time // guarded by c.mu
}

func (t *jumpTimer) C() <-chan time.Time { return t.t.C }

func (t *jumpTimer) Stop() bool {
	t.c.mu.Lock()
	delete(t.c.timers, t)
	t.c.mu.Unlock()
	return t.t.Stop()
}

func (t *jumpTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	t.deadline = time.Now().Add(t.c.offset + d)
	t.c.timers[t] = struct{}{}
	real := t.c.realLocked(d, t.backoff)
	t.c.mu.Unlock()
	return t.t.Reset(real)
}

// clock.go holds the small clock the Reflector, the controller and the
// shared informer read time through, and FakeClock, which tests move by
// hand so that backoff, resync and timeouts run instantly without sleeping.
//
// client-go counterpart: k8s.io/utils/clock (Clock, Timer, RealClock) and
// k8s.io/utils/clock/testing (FakeClock).
//
// Tutorial: 000 §4.3 (exponential backoff) and 004 §4.4 (resync), where
// time is what the code waits on.

package informer

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Clock tells the time and makes timers. Production code uses RealClock;
// tests use a FakeClock they advance themselves.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Since returns the time elapsed since t.
	Since(t time.Time) time.Duration
	// NewTimer returns a timer that fires once, d from now.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer, like time.Timer but as an interface so a fake
// can stand in for it.
type Timer interface {
	// C is the channel the time is sent on when the timer fires.
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it was active.
	Stop() bool
	// Reset makes the timer fire d from now; it reports whether it was active.
	Reset(d time.Duration) bool
}

// runEvery calls f once every period, counted from the end of the previous
// call, until ctx ends; the first call comes one period after the start.
// The controller's resync and the two detectors use it. (client-go's
// wait.Until is the same loop, except that it calls f at once.)
func runEvery(ctx context.Context, clock Clock, period time.Duration, f func()) {
	t := clock.NewTimer(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		f()
		t.Reset(period)
	}
}

// RunEvery calls f once every period on clock, counted from the end of the
// previous call, until ctx ends; the first call comes one period after the
// start. The detectors of the consistencydetector and mutationdetector
// packages run their checks with it. (client-go's wait.Until is the same
// loop, except that it calls f at once.)
func RunEvery(ctx context.Context, clock Clock, period time.Duration, f func()) {
	runEvery(ctx, clock, period, f)
}

// RealClock is the Clock of the time package.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Since returns time.Since(t).
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }

// NewTimer returns a time.Timer wrapped as a Timer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// FakeClock is a Clock whose time moves only when a test calls Step or
// SetTime. Timers fire when the fake time reaches their deadline. It is safe
// for concurrent use.
type FakeClock struct {
	mu  sync.Mutex
	now time.Time
	// waiters are the timers that have not fired and were not stopped.
	waiters []*fakeTimer
}

// NewFakeClock returns a FakeClock set to t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now returns the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Since returns the fake time elapsed since t.
func (f *FakeClock) Since(t time.Time) time.Duration { return f.Now().Sub(t) }

// NewTimer returns a timer that fires when the fake time reaches now+d.
func (f *FakeClock) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, c: make(chan time.Time, 1)}
	t.deadline = f.now.Add(d)
	f.addLocked(t)
	return t
}

// Step moves the fake time forward by d and fires every timer that is due.
func (f *FakeClock) Step(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(f.now.Add(d))
}

// SetTime sets the fake time to t and fires every timer that is due.
func (f *FakeClock) SetTime(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(t)
}

// HasWaiters reports whether any timer is waiting to fire. Tests poll it to
// know that the code under test is now blocked on the clock.
func (f *FakeClock) HasWaiters() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters) > 0
}

// Waiters returns how long from the fake now each waiting timer has left,
// shortest first. Tests use it to check a backoff's length.
func (f *FakeClock) Waiters() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	left := make([]time.Duration, 0, len(f.waiters))
	for _, w := range f.waiters {
		left = append(left, w.deadline.Sub(f.now))
	}
	slices.Sort(left)
	return left
}

func (f *FakeClock) setTimeLocked(t time.Time) {
	f.now = t
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if !w.deadline.After(t) {
			w.c <- t // buffered and drained on Reset, so this never blocks
			continue
		}
		kept = append(kept, w)
	}
	clear(f.waiters[len(kept):])
	f.waiters = kept
}

func (f *FakeClock) addLocked(t *fakeTimer) {
	if !t.deadline.After(f.now) {
		t.c <- f.now
		return
	}
	f.waiters = append(f.waiters, t)
}

// removeLocked drops t from the waiters and reports whether it was there.
func (f *FakeClock) removeLocked(t *fakeTimer) bool {
	i := slices.Index(f.waiters, t)
	if i < 0 {
		return false
	}
	f.waiters = slices.Delete(f.waiters, i, i+1)
	return true
}

type fakeTimer struct {
	clock    *FakeClock
	c        chan time.Time
	deadline time.Time // guarded by clock.mu
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	return t.clock.removeLocked(t)
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	active := t.clock.removeLocked(t)
	select { // drop a tick nobody read, as time.Timer.Reset does since Go 1.23
	case <-t.c:
	default:
	}
	t.deadline = t.clock.now.Add(d)
	t.clock.addLocked(t)
	return active
}

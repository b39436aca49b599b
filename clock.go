// clock.go holds the Clock the pipeline reads time through, and FakeClock, which tests move by hand.
// client-go counterpart: k8s.io/utils/clock and its testing.FakeClock.
// Tutorial: 000 §4.3 (exponential backoff) and 004 §4.4 (resync).

package informer

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	Since(t time.Time) time.Duration
	NewTimer(d time.Duration) Timer // fires once, d from now
}

// Timer is a one-shot timer: time.Timer as an interface, so a fake can stand in.
type Timer interface {
	C() <-chan time.Time
	Stop() bool                 // prevents firing; reports whether it was active
	Reset(d time.Duration) bool // fires d from now; reports whether it was active
}

// RunEvery calls f every period on clock, counted from the end of the last
// call, until ctx ends. Unlike client-go's wait.Until, the first call comes
// after one period. The resync timer and the detector packages use it.
func RunEvery(ctx context.Context, clock Clock, period time.Duration, f func()) {
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

// RealClock is the Clock of the time package.
type RealClock struct{}

func (RealClock) Now() time.Time                  { return time.Now() }
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }
func (RealClock) NewTimer(d time.Duration) Timer  { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// FakeClock is a Clock whose time moves only by Step or SetTime. It is safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters map[*fakeTimer]time.Time // the timers not fired nor stopped → their deadline
}

// NewFakeClock returns a FakeClock set to t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t, waiters: map[*fakeTimer]time.Time{}}
}

// Now, Since and NewTimer implement Clock on the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}
func (f *FakeClock) Since(t time.Time) time.Duration { return f.Now().Sub(t) }
func (f *FakeClock) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{clock: f, c: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// Step moves the fake time forward by d and fires every timer then due.
func (f *FakeClock) Step(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	for t, deadline := range f.waiters {
		if !deadline.After(f.now) {
			t.c <- f.now // buffered, and drained on Reset: never blocks
			delete(f.waiters, t)
		}
	}
}

// SetTime sets the fake time to t, firing the timers then due.
func (f *FakeClock) SetTime(t time.Time) { f.Step(t.Sub(f.Now())) }

// HasWaiters reports whether a timer waits: the code under test is blocked on the clock.
func (f *FakeClock) HasWaiters() bool { return len(f.Waiters()) > 0 }

// Waiters returns how long each waiting timer has left, shortest first.
func (f *FakeClock) Waiters() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	left := make([]time.Duration, 0, len(f.waiters))
	for _, deadline := range f.waiters {
		left = append(left, deadline.Sub(f.now))
	}
	slices.Sort(left)
	return left
}

type fakeTimer struct {
	clock *FakeClock
	c     chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	_, active := t.clock.waiters[t]
	delete(t.clock.waiters, t)
	return active
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	active := t.Stop()
	select { // drop a tick nobody read, as time.Timer.Reset does since Go 1.23
	case <-t.c:
	default:
	}
	t.clock.mu.Lock()
	t.clock.waiters[t] = t.clock.now.Add(d)
	t.clock.mu.Unlock()
	t.clock.Step(0) // fires it at once if d <= 0
	return active
}

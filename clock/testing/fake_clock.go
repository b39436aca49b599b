// fake_clock.go holds FakeClock, the Clock that tests move by hand: its
// time stands still until Step or SetTime, which fire the timers then due.
// client-go counterpart: k8s.io/utils/clock/testing (FakeClock, NewFakeClock).
// Tutorial: none (test machinery).

// Package testing holds the fake clock of package clock. Import it as
// testingclock, as client-go users import k8s.io/utils/clock/testing:
//
//	import testingclock "github.com/learn-k8s/informer/clock/testing"
package testing

import (
	"slices"
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// FakeClock is a Clock whose time moves only by Step or SetTime. It is safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters map[*fakeTimer]time.Time // the timers not fired nor stopped → their deadline
}

var _ clock.Clock = (*FakeClock)(nil)

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
func (f *FakeClock) NewTimer(d time.Duration) clock.Timer {
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
// (Ours: k8s.io/utils' FakeClock has no such method.)
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

// fakeTimer is a Timer of a FakeClock: it fires when Step reaches its deadline.
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

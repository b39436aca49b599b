// clock.go holds the Clock the pipeline reads time through, its Timer, and
// RealClock, the Clock of the time package. Tests move time with the
// FakeClock of clock/testing instead.
// client-go counterpart: k8s.io/utils/clock (Clock, Timer, RealClock).
// Tutorial: 000 §4.3 (exponential backoff) and 004 §4.4 (resync).

// Package clock is the time the informer reads: an interface, so that tests
// can stand a fake clock (package clock/testing) in for the real one.
package clock

import "time"

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

// RealClock is the Clock of the time package.
type RealClock struct{}

// Now, Since and NewTimer implement Clock with the time package.
func (RealClock) Now() time.Time                  { return time.Now() }
func (RealClock) Since(t time.Time) time.Duration { return time.Since(t) }
func (RealClock) NewTimer(d time.Duration) Timer  { return realTimer{time.NewTimer(d)} }

// realTimer is a time.Timer behind the Timer interface.
type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// fake_clock_test.go checks FakeClock's timers without sleeping: Stop
// reports whether the timer was active, a stopped timer never fires, and a
// Reset timer fires exactly when Step reaches its deadline.
// client-go counterpart: k8s.io/utils/clock/testing's fake_clock_test.go.
// Tutorial: none (test machinery).

package testing

import (
	"testing"
	"time"
)

func TestFakeClockTimerStopAndReset(t *testing.T) {
	clock := NewFakeClock(time.Unix(0, 0))
	tm := clock.NewTimer(time.Second)
	if !tm.Stop() || tm.Stop() {
		t.Fatal("Stop should report active once")
	}
	clock.Step(2 * time.Second)
	select {
	case <-tm.C():
		t.Fatal("a stopped timer fired")
	default:
	}
	tm.Reset(time.Second)
	clock.Step(999 * time.Millisecond)
	select {
	case <-tm.C():
		t.Fatal("fired early")
	default:
	}
	clock.Step(time.Millisecond)
	fired(t, "the reset timer to fire at its deadline", tm.C())
}

func TestFakeClockSetTimeAndWaiters(t *testing.T) {
	clock := NewFakeClock(time.Unix(0, 0))
	late, soon := clock.NewTimer(3*time.Second), clock.NewTimer(time.Second)
	if got := clock.Waiters(); len(got) != 2 || got[0] != time.Second || got[1] != 3*time.Second {
		t.Fatalf("Waiters() = %v, want [1s 3s]", got)
	}
	clock.SetTime(time.Unix(2, 0))
	fired(t, "the 1s timer to fire after SetTime(2s)", soon.C())
	if !clock.HasWaiters() || clock.Since(time.Unix(0, 0)) != 2*time.Second {
		t.Fatalf("after SetTime(2s): HasWaiters %v, Since(0) %v", clock.HasWaiters(), clock.Since(time.Unix(0, 0)))
	}
	clock.Step(time.Second)
	fired(t, "the 3s timer to fire after Step(1s)", late.C())
	if clock.HasWaiters() {
		t.Fatal("a fired timer still waits")
	}
}

// fired waits for a timer's channel c to deliver, failing the test if it has
// not within 10 s; what names the firing awaited. (A hang must fail, not
// stall the suite.)
func fired(t *testing.T, what string, c <-chan time.Time) {
	t.Helper()
	limit := time.NewTimer(10 * time.Second)
	defer limit.Stop()
	select {
	case <-c:
	case <-limit.C:
		t.Fatalf("timed out after 10s waiting for %s", what)
	}
}

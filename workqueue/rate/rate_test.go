// rate_test.go tests the token bucket at chosen times: the burst, the
// refill, reserving ahead, time going backwards, and the limits Inf and 0.
//
// client-go counterpart: golang.org/x/time/rate's rate_test.go (v0.15.0)
// tests the same rules.
//
// Tutorial: 000 §5 (backpressure: a token bucket).

package rate

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func delay(lim *Limiter, at time.Time) time.Duration { return lim.ReserveN(at, 1).DelayFrom(at) }

func TestLimiterBurstThenOneTokenPerInterval(t *testing.T) {
	lim := NewLimiter(10, 3)
	for i := range 3 {
		if d := delay(lim, t0); d != 0 {
			t.Fatalf("reservation %d waits %v, want 0 within the burst", i, d)
		}
	}
	// Reserving ahead: each further token is 100 ms after the one before.
	for i, want := range []time.Duration{100, 200, 300} {
		if d := delay(lim, t0); d != want*time.Millisecond {
			t.Fatalf("reservation %d past the burst waits %v, want %vms", i, d, want)
		}
	}
	// 1 s later the debt of 3 is paid and 7 tokens came: the bucket is full again (3).
	later := t0.Add(time.Second)
	for range 3 {
		if d := delay(lim, later); d != 0 {
			t.Fatalf("after a second the bucket should be full, got a wait of %v", d)
		}
	}
}

func TestLimiterTimeGoingBackwardsAddsNothing(t *testing.T) {
	lim := NewLimiter(1, 1)
	delay(lim, t0)
	if d := delay(lim, t0.Add(-time.Hour)); d != time.Second {
		t.Fatalf("wait = %v at an earlier time, want 1s: no tokens came", d)
	}
}

func TestLimiterInfAndZeroAndTooMany(t *testing.T) {
	inf := NewLimiter(Inf, 0)
	if d := delay(inf, t0); d != 0 {
		t.Fatalf("Inf limit waits %v, want 0", d)
	}
	zero := NewLimiter(0, 1)
	if d := delay(zero, t0); d != 0 {
		t.Fatalf("limit 0 with a token: wait %v, want 0", d)
	}
	if d := delay(zero, t0); d != InfDuration {
		t.Fatalf("limit 0 with no token left: wait %v, want InfDuration", d)
	}
	r := NewLimiter(10, 2).ReserveN(t0, 3)
	if r.OK() || r.DelayFrom(t0) != InfDuration {
		t.Fatal("reserving more than the burst must fail with InfDuration")
	}
}

func TestEvery(t *testing.T) {
	if Every(100*time.Millisecond) != 10 || Every(0) != Inf {
		t.Fatalf("Every(100ms) = %v, Every(0) = %v; want 10 and Inf", Every(100*time.Millisecond), Every(0))
	}
}

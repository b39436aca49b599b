// backoff_test.go checks the Reflector's backoff on clock/testing's
// FakeClock: 800 ms doubling to a 30 s cap, jitter within [d, 2d), a reset
// after two minutes of health — all without sleeping.

package informer

import (
	"context"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
)

func TestBackoffSequenceCapAndReset(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Unix(1000, 0))
	b := newBackoffManager(clock)
	b.jitter = func(d time.Duration) time.Duration { return d } // see the bare sequence
	want := []time.Duration{
		800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
		6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond,
		30 * time.Second, 30 * time.Second,
	}
	for i, w := range want {
		if got := b.Step(); got != w {
			t.Fatalf("step %d: got %v, want %v", i, got, w)
		}
		clock.Step(time.Second) // failures keep coming: no reset
	}
	clock.Step(backoffResetAfter + time.Second)
	if got := b.Step(); got != backoffInitial {
		t.Fatalf("after two healthy minutes: got %v, want %v", got, backoffInitial)
	}
	say(t, "Failures in a row back off %v (without jitter); two healthy minutes later it starts again at %v.",
		"连续失败的退避依次是 %v（不带抖动）；健康两分钟之后，又从 %v 开始。", want, backoffInitial)
	say(t, "client-go's Reflector: wait.Backoff{800ms, ×2, cap 30s, jitter 1.0} with DelayWithReset after 2 min.",
		"client-go 的 Reflector：wait.Backoff{800ms，×2，上限 30s，抖动 1.0}，2 分钟后 DelayWithReset 重置。")
}

func TestBackoffJitterStaysWithinOneToTwoTimes(t *testing.T) {
	b := newBackoffManager(testingclock.NewFakeClock(time.Unix(0, 0)))
	base := backoffInitial
	var steps []time.Duration
	for i := range 12 {
		got := b.Step()
		if got < base || got >= 2*base {
			t.Fatalf("step %d: %v outside [%v, %v)", i, got, base, 2*base)
		}
		steps = append(steps, got.Round(time.Millisecond))
		base = min(2*base, backoffCap)
	}
	say(t, "12 backoff steps, base %v doubling to the cap %v, each in [base, 2×base): %v",
		"12 次退避，基数 %v 翻倍直到上限 %v，每次都落在 [基数, 2×基数) 内：%v", backoffInitial, backoffCap, steps)
	say(t, "client-go: NewReflectorWithOptions (reflector.go) sets 800ms, cap 30s, factor 2.0, jitter 1.0.",
		"client-go：NewReflectorWithOptions（reflector.go）设定 800ms、上限 30s、倍数 2.0、抖动 1.0。")
}

func TestBackoffWaitUsesTheClockAndHonoursCancel(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	b := newBackoffManager(clock)
	done := make(chan bool)
	go func() { done <- b.wait(context.Background()) }()
	waitFor(t, "the backoff timer", clock.HasWaiters)
	left := clock.Waiters()[0]
	if left < backoffInitial || left >= 2*backoffInitial {
		t.Fatalf("first wait %v, want within [800ms, 1.6s)", left)
	}
	clock.Step(left)
	if !receive(t, "wait to return after the timer fired", done) {
		t.Fatal("wait returned false after the timer fired")
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- b.wait(ctx) }()
	waitFor(t, "the second timer", clock.HasWaiters)
	cancel()
	if receive(t, "wait to return after the cancel", done) {
		t.Fatal("wait returned true after cancel")
	}
	if clock.HasWaiters() {
		t.Fatal("a cancelled wait left its timer behind")
	}
}

// client-go v0.37.2's backoffManager.Step (wait.Backoff.DelayWithReset)
// resets on a fixed period counted from the last reset, not after a quiet
// period: failures that never pause still start over every two minutes.
func TestBackoffResetsOnAFixedPeriodNotAfterQuiet(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Unix(1000, 0))
	b := newBackoffManager(clock)
	b.jitter = func(d time.Duration) time.Duration { return d }
	var got []time.Duration
	for range 10 {
		d := b.Step()
		got = append(got, d)
		clock.Step(d) // fail again as soon as the wait is over
	}
	// 0.8+1.6+3.2+6.4+12.8+25.6+30+30 = 110.4 s: the ninth step comes
	// before the period ends, the tenth after 140.4 s, past it. (With a
	// quiet period the waits would stay at 30 s for ever.)
	if got[8] != backoffCap || got[9] != backoffInitial {
		t.Fatalf("waits of failures without a pause: %v; want the tenth reset to %v", got, backoffInitial)
	}
	// The next period counts from that reset: 100 s later, no reset yet.
	clock.Step(100 * time.Second)
	if d := b.Step(); d != 2*backoffInitial {
		t.Fatalf("100 s after a reset: got %v, want %v", d, 2*backoffInitial)
	}
}

// retry_test.go holds the edge cases of OnError, RetryOnConflict and
// Backoff: the waits between tries (on a clock whose timers fire at once),
// giving up, other errors, and the cap.

package retry

import (
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// instantClock is a Clock whose timers fire at once; it records the waits
// asked for, so retry tests check their lengths without sleeping.
type instantClock struct {
	*testingclock.FakeClock
	waits []time.Duration
}

func (c *instantClock) NewTimer(d time.Duration) clock.Timer {
	c.waits = append(c.waits, d)
	return c.FakeClock.NewTimer(0)
}

var errConflict = &informer.StatusError{ErrStatus: informer.Status{Code: http.StatusConflict, Reason: informer.StatusReasonConflict, Message: "conflict"}}

func TestOnErrorRetriesUntilSuccess(t *testing.T) {
	clock := &instantClock{FakeClock: testingclock.NewFakeClock(time.Unix(0, 0))}
	calls := 0
	err := onError(clock, Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 2}, informer.IsConflict, func() error {
		calls++
		if calls < 3 {
			return errConflict
		}
		return nil
	})
	walkthrough.Must(t, err)
	if calls != 3 || !slices.Equal(clock.waits, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}) {
		t.Fatalf("calls = %d, waits = %v; want 3 calls, waits [10ms 20ms]", calls, clock.waits)
	}
}

func TestOnErrorGivesUpWhenTriesRunOut(t *testing.T) {
	clock := &instantClock{FakeClock: testingclock.NewFakeClock(time.Unix(0, 0))}
	calls := 0
	err := onError(clock, DefaultRetry, informer.IsConflict, func() error { calls++; return errConflict })
	if !informer.IsConflict(err) || calls != DefaultRetry.Steps || len(clock.waits) != DefaultRetry.Steps-1 {
		t.Fatalf("err = %v, calls = %d, waits = %d; want the conflict after %d calls", err, calls, len(clock.waits), DefaultRetry.Steps)
	}
	for _, w := range clock.waits { // 10 ms plus up to 10 % jitter
		if w < 10*time.Millisecond || w > 11*time.Millisecond {
			t.Fatalf("wait %v outside DefaultRetry's [10ms, 11ms]", w)
		}
	}
}

func TestOnErrorStopsAtOtherErrors(t *testing.T) {
	clock := &instantClock{FakeClock: testingclock.NewFakeClock(time.Unix(0, 0))}
	boom := errors.New("boom")
	calls := 0
	err := onError(clock, DefaultRetry, informer.IsConflict, func() error { calls++; return boom })
	if err != boom || calls != 1 || len(clock.waits) != 0 {
		t.Fatalf("err = %v, calls = %d; want boom after one call and no wait", err, calls)
	}
}

func TestOnErrorZeroBackoffTriesOnce(t *testing.T) {
	calls := 0
	err := RetryOnConflict(Backoff{}, func() error { calls++; return errConflict })
	if !informer.IsConflict(err) || calls != 1 {
		t.Fatalf("err = %v, calls = %d; want one try", err, calls)
	}
}

func TestBackoffCapLimitsEachDelay(t *testing.T) {
	b := Backoff{Duration: 10 * time.Millisecond, Factor: 2, Steps: 10, Cap: 35 * time.Millisecond}
	got := []time.Duration{b.Step(), b.Step(), b.Step()}
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 35 * time.Millisecond}
	if !slices.Equal(got, want) || b.Steps != 0 {
		t.Fatalf("steps = %v (steps left %d), want %v and 0 left: reaching the cap ends the retries", got, b.Steps, want)
	}
}

// rate_limiting_queue_test.go tests AddRateLimited, Forget and NumRequeues
// on a fake clock: each failure waits longer, and Forget starts over.
//
// client-go counterpart: k8s.io/client-go/util/workqueue
// rate_limiting_queue_test.go (v0.37.2) tests the same rules.
//
// Tutorial: 000 §5 (backpressure: retries slow down as failures repeat).

package workqueue

import (
	"testing"
	"time"

	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestRateLimitingQueueWaitsLongerAfterEachFailure(t *testing.T) {
	c := newTimerClock()
	limiter := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	q := NewTypedRateLimitingQueueWithConfig(limiter, TypedRateLimitingQueueConfig[string]{Clock: c})
	t.Cleanup(q.ShutDown)
	for failures, wait := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond} {
		q.AddRateLimited("a")
		if got := walkthrough.Receive(t, "the rate-limited Add's timer", (<-chan time.Duration)(c.timers)); got != wait {
			t.Fatalf("failure %d: the item waits %v, want %v", failures+1, got, wait)
		}
		if q.Len() != 0 {
			t.Fatal("a rate-limited item was queued before its wait")
		}
		c.Step(wait)
		walkthrough.WaitFor(t, "the item to be queued after its wait", func() bool { return q.Len() == 1 })
		q.Done(getNow(t, q))
	}
	if q.NumRequeues("a") != 3 {
		t.Fatalf("NumRequeues = %d, want 3", q.NumRequeues("a"))
	}
	q.Forget("a")
	if q.NumRequeues("a") != 0 {
		t.Fatalf("NumRequeues = %d after Forget, want 0", q.NumRequeues("a"))
	}
	q.AddRateLimited("a")
	if got := walkthrough.Receive(t, "the timer after Forget", (<-chan time.Duration)(c.timers)); got != time.Millisecond {
		t.Fatalf("after Forget the item waits %v, want the first wait again (1ms)", got)
	}
}

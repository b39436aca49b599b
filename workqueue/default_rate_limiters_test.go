// default_rate_limiters_test.go tests the rate limiters' waits: the
// exponential sequence and its cap, fast then slow, the bucket's burst and
// refill, the longest of several, and the cut of WithMaxWait.
//
// client-go counterpart: k8s.io/client-go/util/workqueue
// default_rate_limiters_test.go (v0.37.2) tests the same numbers.
//
// Tutorial: 000 §5 (backpressure: rate limits and token buckets).

package workqueue

import (
	"slices"
	"testing"
	"time"

	"github.com/learn-k8s/informer/workqueue/rate"
)

// whens returns n waits for item.
func whens(r TypedRateLimiter[string], item string, n int) []time.Duration {
	var out []time.Duration
	for range n {
		out = append(out, r.When(item))
	}
	return out
}

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	r := NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second)
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		40 * time.Millisecond, 80 * time.Millisecond, 160 * time.Millisecond, 320 * time.Millisecond,
		640 * time.Millisecond, time.Second, time.Second}
	if got := whens(r, "a", 10); !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v (doubling from 5 ms, capped at 1 s)", got, want)
	}
	if r.NumRequeues("a") != 10 || r.NumRequeues("b") != 0 {
		t.Fatalf("NumRequeues a = %d, b = %d; want 10 and 0 (per item)", r.NumRequeues("a"), r.NumRequeues("b"))
	}
	r.Forget("a")
	if r.NumRequeues("a") != 0 || r.When("a") != 5*time.Millisecond {
		t.Fatal("after Forget the next failure must count as the first")
	}
}

func TestItemExponentialFailureRateLimiterNeverOverflows(t *testing.T) {
	r := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second)
	var last time.Duration
	for range 2000 { // 2^2000 ms overflows every integer type
		last = r.When("a")
	}
	if last != 1000*time.Second {
		t.Fatalf("wait after 2000 failures = %v, want the cap 1000s", last)
	}
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	r := NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 10*time.Second, 3)
	want := []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond,
		10 * time.Second, 10 * time.Second}
	if got := whens(r, "a", 5); !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v (3 fast, then slow)", got, want)
	}
	r.Forget("a")
	if r.NumRequeues("a") != 0 {
		t.Fatal("NumRequeues is not 0 after Forget")
	}
}

func TestMaxOfRateLimiterTakesTheLongestAndForgetsInAll(t *testing.T) {
	r := NewTypedMaxOfRateLimiter(
		NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3),
		NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
	)
	want := []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond,
		3 * time.Second, 3 * time.Second}
	if got := whens(r, "a", 5); !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	if r.NumRequeues("a") != 5 {
		t.Fatalf("NumRequeues = %d, want 5", r.NumRequeues("a"))
	}
	r.Forget("a")
	if got := r.When("a"); got != 5*time.Millisecond {
		t.Fatalf("first wait after Forget = %v, want 5ms: every limiter forgot", got)
	}
}

func TestWithMaxWaitRateLimiterCutsTheWait(t *testing.T) {
	r := NewTypedWithMaxWaitRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Hour), 3*time.Second)
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}
	if got := whens(r, "a", 4); !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	r := DefaultTypedControllerRateLimiter[string]()
	// The bucket starts full (100 tokens): the per-item backoff decides.
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	if got := whens(r, "a", 3); !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	if r.NumRequeues("a") != 3 {
		t.Fatalf("NumRequeues = %d, want 3 (the bucket counts none)", r.NumRequeues("a"))
	}
}

func TestBucketRateLimiterBurstThenRefill(t *testing.T) {
	b := &TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(10), 100)}
	for i := range 100 {
		if d := b.When("x"); d != 0 {
			t.Fatalf("wait %d = %v, want 0 while the burst of 100 lasts", i, d)
		}
	}
	// The 101st token is not there yet: it comes 100 ms (1/10 s) later.
	// (The real clock runs while we look: allow it a little.)
	if d := b.When("x"); d <= 90*time.Millisecond || d > 100*time.Millisecond {
		t.Fatalf("wait after the burst = %v, want about 100ms", d)
	}
	if b.NumRequeues("x") != 0 {
		t.Fatal("the bucket counts no requeues")
	}
}

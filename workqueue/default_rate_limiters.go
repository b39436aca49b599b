// default_rate_limiters.go holds the rate limiters: given an item that
// failed, how long it should wait before it is tried again. Per item, the
// wait doubles with each failure (ItemExponentialFailure) or steps from
// fast to slow (ItemFastSlow); over all items, a token bucket caps the
// retries per second (Bucket); MaxOf takes the longest of several, and
// DefaultTypedControllerRateLimiter is the one most controllers use.
//
// client-go counterpart: TypedRateLimiter and the limiters of
// k8s.io/client-go/util/workqueue default_rate_limiters.go (v0.37.2).
//
// Tutorial: 000 §5 (backpressure: rate limits and token buckets).

package workqueue

import (
	"math"
	"sync"
	"time"

	"github.com/learn-k8s/informer/workqueue/rate"
)

// TypedRateLimiter decides how long a failed item waits before its retry.
type TypedRateLimiter[T comparable] interface {
	// When is the wait before item's next try; it counts one more failure.
	When(item T) time.Duration
	// Forget drops what the limiter knows about item: its next failure is
	// counted as its first. Call it when the item succeeded (or was given
	// up on).
	Forget(item T)
	// NumRequeues is how many failures of item are counted.
	NumRequeues(item T) int
}

// DefaultTypedControllerRateLimiter returns the limiter client-go's
// controllers use: the longer of a per-item exponential backoff (5 ms,
// doubling with each failure, at most 1,000 s) and an overall token bucket
// (10 retries a second, in bursts of up to 100).
// (client-go: DefaultTypedControllerRateLimiter.)
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		// The bucket limits how fast all items together are retried, not each one.
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// TypedBucketRateLimiter limits retries of all items together with a token
// bucket: each When takes a token, and waits for one when the bucket is
// empty. It counts no failures (NumRequeues is 0; Forget does nothing).
// (client-go: TypedBucketRateLimiter, on golang.org/x/time/rate.)
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

// When reserves a token and returns how long until it is there: 0 while the
// bucket has tokens. The bucket runs on the real clock, as in client-go.
func (r *TypedBucketRateLimiter[T]) When(item T) time.Duration {
	return r.Limiter.Reserve().Delay()
}

// NumRequeues is always 0: the bucket does not count per item.
func (r *TypedBucketRateLimiter[T]) NumRequeues(item T) int { return 0 }

// Forget does nothing: the bucket keeps no per-item state.
func (r *TypedBucketRateLimiter[T]) Forget(item T) {}

// TypedItemExponentialFailureRateLimiter makes item wait
// baseDelay×2^failures, at most maxDelay: 5 ms, 10 ms, 20 ms, ... for
// baseDelay 5 ms. It never forgets a failure by itself: call Forget.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	failureCounts[T] // NumRequeues and Forget

	baseDelay time.Duration
	maxDelay  time.Duration
}

// NewTypedItemExponentialFailureRateLimiter returns a limiter whose waits
// start at baseDelay and double with each failure, up to maxDelay.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay time.Duration, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

// DefaultTypedItemBasedRateLimiter returns the per-item exponential limiter
// alone, from 1 ms up to 1,000 s.
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// When returns baseDelay×2^n for an item with n failures counted, at most
// maxDelay, and counts one more.
// (client-go: (*TypedItemExponentialFailureRateLimiter).When.)
func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	exp := r.count(item)
	// Computed in floating point, so that 2^n cannot overflow an int64.
	backoff := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(exp))
	if backoff > math.MaxInt64 {
		return r.maxDelay
	}
	return min(time.Duration(backoff), r.maxDelay)
}

// TypedItemFastSlowRateLimiter makes item wait fastDelay for its first
// maxFastAttempts failures, then slowDelay.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	failureCounts[T] // NumRequeues and Forget

	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// NewTypedItemFastSlowRateLimiter returns a limiter that waits fastDelay
// for an item's first maxFastAttempts failures, then slowDelay.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{
		fastDelay:       fastDelay,
		slowDelay:       slowDelay,
		maxFastAttempts: maxFastAttempts,
	}
}

// When counts one more failure of item and returns fastDelay while the
// count is at most maxFastAttempts, slowDelay after.
func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	failures := r.count(item) + 1 // this one included
	if failures <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

// TypedMaxOfRateLimiter asks every limiter it holds and takes the longest
// wait. Each of them counts the failure. With a bucket among them, an item
// held back longer by another limiter still took a token, so the bucket's
// burst can seem exceeded when the waits end together.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewTypedMaxOfRateLimiter returns a limiter that waits as long as the
// slowest of limiters.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

// When asks every limiter (each counts the failure) and returns the longest
// wait.
func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	longest := time.Duration(0)
	for _, limiter := range r.limiters {
		longest = max(longest, limiter.When(item))
	}
	return longest
}

// NumRequeues is the largest count of the limiters.
func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	most := 0
	for _, limiter := range r.limiters {
		most = max(most, limiter.NumRequeues(item))
	}
	return most
}

// Forget makes every limiter forget item.
func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, limiter := range r.limiters {
		limiter.Forget(item)
	}
}

// TypedWithMaxWaitRateLimiter is a limiter whose waits are cut to maxDelay.
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// NewTypedWithMaxWaitRateLimiter returns limiter with its waits cut to
// maxDelay.
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When is the wrapped limiter's wait, at most maxDelay.
func (w TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(w.limiter.When(item), w.maxDelay)
}

// Forget makes the wrapped limiter forget item.
func (w TypedWithMaxWaitRateLimiter[T]) Forget(item T) { w.limiter.Forget(item) }

// NumRequeues is the wrapped limiter's count.
func (w TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int { return w.limiter.NumRequeues(item) }

// failureCounts counts each item's failures, for the per-item limiters: it
// gives them NumRequeues and Forget.
type failureCounts[T comparable] struct {
	failuresLock sync.Mutex // guards failures
	failures     map[T]int  // item → failures counted; nil until the first
}

// count counts one more failure of item and returns how many there were
// before it.
func (f *failureCounts[T]) count(item T) int {
	f.failuresLock.Lock()
	defer f.failuresLock.Unlock()
	if f.failures == nil {
		f.failures = map[T]int{}
	}
	before := f.failures[item]
	f.failures[item] = before + 1
	return before
}

// NumRequeues is how many failures of item are counted.
func (f *failureCounts[T]) NumRequeues(item T) int {
	f.failuresLock.Lock()
	defer f.failuresLock.Unlock()
	return f.failures[item]
}

// Forget drops item's failures: its next failure counts as its first.
func (f *failureCounts[T]) Forget(item T) {
	f.failuresLock.Lock()
	defer f.failuresLock.Unlock()
	delete(f.failures, item)
}

// rate_limiting_queue.go holds the rate-limiting queue, the one a
// controller uses: a delaying queue whose AddRateLimited asks a rate
// limiter how long a failed item should wait, and whose Forget tells the
// limiter the item succeeded.
//
// client-go counterpart: TypedRateLimitingInterface,
// TypedRateLimitingQueueConfig, NewTypedRateLimitingQueue,
// NewTypedRateLimitingQueueWithConfig and rateLimitingType in
// k8s.io/client-go/util/workqueue rate_limiting_queue.go (v0.37.2).
//
// Tutorial: 000 §5 (backpressure: retries slow down as failures repeat).

package workqueue

import "github.com/learn-k8s/informer/clock"

// TypedRateLimitingInterface is a delaying queue that retries failed items
// after the wait a rate limiter decides.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]
	// AddRateLimited adds item after the wait the rate limiter gives it;
	// the limiter counts one more failure.
	AddRateLimited(item T)
	// Forget tells the rate limiter to drop item's failures, after a
	// success (or when giving up). It does not take the item out of the
	// queue: the worker still calls Done.
	Forget(item T)
	// NumRequeues is how many failures the rate limiter counts for item.
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig holds the choices a rate-limiting queue can
// be built with.
type TypedRateLimitingQueueConfig[T comparable] struct {
	// Name names the queue's metrics (see TypedQueueConfig.Name).
	Name string
	// MetricsProvider makes them; nil is the one SetProvider set.
	MetricsProvider MetricsProvider
	// Clock is the time AddAfter's delays are measured on; nil is the real
	// clock. (A TypedBucketRateLimiter keeps the real clock whatever this
	// is, as in client-go.)
	Clock clock.Clock
	// DelayingQueue is the queue items go into; nil is a new
	// NewTypedDelayingQueueWithConfig queue on Clock.
	DelayingQueue TypedDelayingInterface[T]
}

// NewTypedRateLimitingQueue returns an empty rate-limiting queue whose
// AddRateLimited waits as rateLimiter says. Call Forget when an item
// succeeds, or its failures are counted for ever. Its goroutine runs until
// ShutDown (or ShutDownWithDrain) is called.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig is NewTypedRateLimitingQueue built as
// config says.
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	delaying := config.DelayingQueue
	if delaying == nil {
		delaying = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
			Clock:           config.Clock,
		})
	}
	return &rateLimitingType[T]{
		TypedDelayingInterface: delaying,
		rateLimiter:            rateLimiter,
	}
}

// rateLimitingType adds the rate limiter to a delaying queue it wraps.
type rateLimitingType[T comparable] struct {
	TypedDelayingInterface[T]

	rateLimiter TypedRateLimiter[T]
}

// AddRateLimited adds item after the wait rateLimiter.When gives it.
// (client-go: (*rateLimitingType).AddRateLimited.)
func (q *rateLimitingType[T]) AddRateLimited(item T) {
	q.TypedDelayingInterface.AddAfter(item, q.rateLimiter.When(item))
}

// NumRequeues is the rate limiter's count of item's failures.
func (q *rateLimitingType[T]) NumRequeues(item T) int {
	return q.rateLimiter.NumRequeues(item)
}

// Forget makes the rate limiter drop item's failures.
func (q *rateLimitingType[T]) Forget(item T) {
	q.rateLimiter.Forget(item)
}

// Package workqueue is the queue a controller puts between its informer's
// handlers and its workers: handlers Add the key of an object that changed,
// workers Get a key, reconcile it, and say Done. It makes four promises a
// controller is built on:
//
//   - A key waits in the queue once, however many times it is added before a
//     worker takes it: a burst of changes to one object is one reconcile
//     (the dirty set).
//   - A key is never handed to two workers at once: one added again while a
//     worker has it waits until that worker calls Done, then is queued once
//     (the processing set).
//   - A key that failed comes back later, and later again each time it
//     fails (AddRateLimited, the rate limiters), until Forget.
//   - Shutting down stops new work; ShutDownWithDrain also waits for the
//     work in hand.
//
// The queue holds keys ("namespace/name"), not objects: a worker reads the
// object's current state from the informer's cache when it gets the key, so
// it always acts on the newest version, and a change missed for any reason
// is repaired by the next reconcile of that key.
//
// The layers, each a wrapper around the one before, as in client-go:
//
//	Typed[T]                    queue.go                  Add, Get, Done, Len, ShutDown...
//	TypedDelayingInterface      delaying_queue.go         + AddAfter: a heap, by due time
//	TypedRateLimitingInterface  rate_limiting_queue.go    + AddRateLimited, Forget, NumRequeues
//	TypedRateLimiter            default_rate_limiters.go  how long a failed item waits
//	MetricsProvider             metrics.go                what a queue reports about itself
//
// client-go counterpart: k8s.io/client-go/util/workqueue (v0.37.2), with the
// same names: TypedInterface, NewTyped, TypedDelayingInterface,
// TypedRateLimitingInterface, the Typed…RateLimiter types and
// DefaultTypedControllerRateLimiter, and its metrics (MetricsProvider,
// SetProvider, metrics.go). The untyped names client-go keeps (Interface,
// New, RateLimitingInterface, ...) are deprecated there and left out here,
// and so is ParallelizeUntil. The bucket limiter's token bucket,
// golang.org/x/time/rate in client-go, is package workqueue/rate.
//
// Tutorial: 004 §2.3 (what comes after the handler: the informer's cache
// feeds a business processor) and 000 §5 (backpressure: a slow consumer
// must not drown in events). Walkthrough: Step 19
// (go test -v -run Step19 ./workqueue); the chapter: docs/controller.md.
package workqueue

// hooks.go holds the two hooks the extras plug into, so that the core never
// calls an extra by name and builds without any of them: an observer that
// hears what an informer's Reflector and controller do (health.go's figures
// use it), and a wrapper around the transform an informer applies to every
// object entering its queue (mutation.go's detector uses it). An extra's
// file sets its hook in an init function; delete the file and the hook stays
// empty, and the informer runs as before.
//
// client-go counterpart: SetReflectorMetricsProvider and
// SetInformerMetricsProvider in tools/cache reflector_metrics.go and
// informer_metrics.go (a process-wide provider, a no-op until whoever links
// the metrics in sets it), and the informer's cacheMutationDetector
// (mutation_detector.go), a no-op unless KUBE_CACHE_MUTATION_DETECTOR is set.
//
// Tutorial: 000 ch. 5 (observability) and §2.3 (deep copies), seen from the
// core's side: what it offers, not what it does with it.

package informer

import (
	"context"
	"time"
)

// pipelineObserver hears what an informer's Reflector and controller do.
// Its methods run on the pipeline's goroutines, so they must be quick and
// must not block.
type pipelineObserver interface {
	// listed: a list completed (a paged list counts once).
	listed()
	// watchStarted: the server accepted a watch.
	watchStarted()
	// event: a watch event or a bookmark arrived.
	event()
	// failed: a list or a watch failed with err.
	failed(err error)
	// resynced: a resync started at start and took took.
	resynced(start time.Time, took time.Duration)
}

// nopObserver hears nothing: the observer of a Reflector used on its own,
// and of every informer when no extra set newInformerObserver.
type nopObserver struct{}

func (nopObserver) listed()                           {}
func (nopObserver) watchStarted()                     {}
func (nopObserver) event()                            {}
func (nopObserver) failed(error)                      {}
func (nopObserver) resynced(time.Time, time.Duration) {}

// newInformerObserver, when set, makes the observer of each new shared
// informer, which passes it to its controller and Reflector. health.go sets
// it.
var newInformerObserver func(clock Clock) pipelineObserver

// wrapInformerTransform, when set, is called as a shared informer starts:
// it may wrap the informer's transform (which may be nil) and start work
// that ends with ctx; wait returns once that work has ended. mutation.go
// sets it.
var wrapInformerTransform func(ctx context.Context, s *sharedIndexInformer, transform TransformFunc) (_ TransformFunc, wait func())

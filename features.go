// features.go holds PipelineGates: the five client-go feature gates that
// decide which pipeline an informer runs, one switch each, defaulting to
// client-go v0.37.2's defaults. Switch them all off (PipelineGates132) and an
// informer runs the pipeline of client-go 1.32 — DeltaFIFO, one key's
// Deltas per Pop, list then watch — which is the one the tutorial teaches.
//
// client-go counterpart: k8s.io/client-go/features known_features.go (the
// gates and their defaults) and newQueueFIFO in tools/cache controller.go,
// which reads them. client-go reads them once per process (from
// KUBE_FEATURE_<name> variables); here they are an option per informer.
// It also holds two looks at a DeltaFIFO from outside that the first reading
// does without: IsClosed, as client-go's, and QueuedDeltas, for tools.
//
// Tutorial: the "what changed in client-go 1.33–1.37" chapter; the
// walkthrough's Step03RealFIFO.

// The gates, in full (informer.go declares PipelineGates with one line each):
//   - InOrderInformers runs the informer on a RealFIFO (every notification,
//     in order) instead of a DeltaFIFO (one entry per key). In v0.37.2 the
//     gate is GA and locked on: KUBE_FEATURE_InOrderInformers=false is
//     refused ("feature is locked") by getEnabledMapFromEnvVar, and only
//     client-go's own tests (features.SetForTesting) can turn it off.
//     Turning it off here is that: a way to run and read the 1.32 pipeline,
//     which no v0.37.2 program runs.
//   - AtomicFIFO (beta, on since 1.36) makes the RealFIFO atomic: a relist
//     is one ReplacedAll delta, a resync one SyncAll, bookmarks reach the
//     cache as Bookmark deltas, and the queue no longer reads the cache.
//     Off, the RealFIFO reads the cache (KnownObjects) and queues one delta
//     per object; and the cache's LastStoreSyncResourceVersion answers "".
//   - InOrderInformersBatchProcess (beta, on since 1.35) pops runs of
//     deltas with PopBatch and applies each run to the cache in one
//     Transaction before calling the handlers.
//   - UnlockWhileProcessingFIFO (beta, on since 1.36) lets the RealFIFO
//     take new notifications while the informer processes popped ones.
//   - WatchListClient (beta, on since 1.35) makes the Reflector start with
//     a streaming list (a watch with sendInitialEvents=true), falling back
//     to list and watch when the server cannot.
// (The type is not called FeatureGates: that is client-go's process-wide
// registry, features.FeatureGates(), which this is not.)

package informer

import "fmt"

// DefaultPipelineGates returns client-go v0.37.2's defaults: every gate on.
func DefaultPipelineGates() PipelineGates {
	return PipelineGates{
		InOrderInformers:             true,
		AtomicFIFO:                   true,
		InOrderInformersBatchProcess: true,
		UnlockWhileProcessingFIFO:    true,
		WatchListClient:              true,
	}
}

// PipelineGates132 returns the gates as client-go v0.32 had them: every one
// off (the first four did not exist yet; WatchListClient was off by
// default). An informer with these runs a DeltaFIFO and lists then watches.
func PipelineGates132() PipelineGates { return PipelineGates{} }

// String names the pipeline the gates select, for logs and test names.
func (g PipelineGates) String() string {
	if !g.InOrderInformers {
		return fmt.Sprintf("DeltaFIFO (client-go ≤1.32), watchList=%t", g.WatchListClient)
	}
	return fmt.Sprintf("RealFIFO (atomic=%t, batch=%t, unlock=%t), watchList=%t",
		g.AtomicFIFO, g.InOrderInformersBatchProcess, g.AtomicFIFO && g.UnlockWhileProcessingFIFO, g.WatchListClient)
}

// newQueueFIFO builds the queue the informer's gates choose, as
// client-go's newQueueFIFO does: a RealFIFO when InOrderInformers is on
// (atomic, with bookmarks and no KnownObjects when AtomicFIFO is on), else
// the DeltaFIFO with Replaced deltas; and, with InOrderInformersBatchProcess,
// the batch process function the run loop pops it with. layers.go makes it
// the informer's newQueue (informer.go).
func newQueueFIFO(s *sharedIndexInformer, transform TransformFunc) (Queue, ProcessBatchFunc) {
	gates, clientState := s.gates, s.indexer
	// client-go's cache answers "" for its version while AtomicFIFO is off.
	clientState.(*cache).hideStoreVersion = !gates.AtomicFIFO
	if !gates.InOrderInformers {
		return NewDeltaFIFOWithOptions(DeltaFIFOOptions{
			KnownObjects:          clientState,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
		}), nil
	}
	var processBatch ProcessBatchFunc
	if gates.InOrderInformersBatchProcess {
		processBatch = func(deltas []Delta, isInInitialList bool) error {
			s.blockDeltas.Lock()
			defer s.blockDeltas.Unlock()
			return processDeltasInBatch(s, clientState, deltas, isInInitialList, DeletionHandlingMetaNamespaceKeyFunc)
		}
	}
	opts := RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, Transformer: transform}
	if gates.AtomicFIFO {
		opts.AtomicEvents = true
		opts.UnlockWhileProcessing = gates.UnlockWhileProcessingFIFO
		opts.EmitDeltaTypeBookmark = true
	} else {
		opts.KnownObjects = clientState
	}
	return NewRealFIFOWithOptions(opts), processBatch
}

// QueuedDeltas returns what the DeltaFIFO holds, without popping: one copy of
// each queued key's Deltas (the objects are shared), in the order Pop hands
// them out. client-go v0.37.2's DeltaFIFO has no way to look inside (it
// dropped List, ListKeys, Get and GetByKey); this is for tools that show the
// 1.32 pipeline's queue, such as examples/liveview, not for the informer.
func (f *DeltaFIFO) QueuedDeltas() []Deltas {
	f.lock.RLock()
	defer f.lock.RUnlock()
	out := make([]Deltas, len(f.queue))
	for i, key := range f.queue {
		out[i] = append(Deltas(nil), f.items[key]...)
	}
	return out
}

// IsClosed reports whether Close was called, as client-go's DeltaFIFO.IsClosed.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.closed
}

// features.go holds PipelineGates: the five client-go feature gates that
// decide which pipeline an informer runs, one switch each, defaulting to
// client-go v0.37.2's defaults. Switch them all off (PipelineGates132) and an
// informer runs the pipeline of client-go 1.32 (a DeltaFIFO, one key's Deltas
// per Pop, list then watch), which is the one the tutorial teaches.
//
// Reading 2: today's client-go; the first reading has no gates, only the 1.32 pipeline.
//
// client-go counterpart: k8s.io/client-go/features known_features.go (the
// gates and their defaults), read where each decides: newQueueFIFO
// (controller.go), processLoop (the batch gate), the Reflector
// (WatchListClient), the cache's LastStoreSyncResourceVersion (AtomicFIFO).
// client-go reads them once per process, from KUBE_FEATURE_<name>
// environment variables; here they are an option per informer.
//
// Tutorial: the "what changed in client-go 1.33–1.37" chapter; the
// walkthrough's Step03RealFIFO.

package informer

import "fmt"

// PipelineGates sets, per informer, the client-go gates that shape its
// pipeline. The gates, in full:
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
//
// (The type is not called FeatureGates: that is client-go's process-wide
// registry, features.FeatureGates(), which this is not.)
type PipelineGates struct {
	// InOrderInformers: a RealFIFO, not a DeltaFIFO.
	InOrderInformers bool
	// AtomicFIFO: a relist is one ReplacedAll delta, a resync one SyncAll
	// (needs InOrderInformers).
	AtomicFIFO bool
	// InOrderInformersBatchProcess: pop runs of deltas with PopBatch
	// (needs InOrderInformers).
	InOrderInformersBatchProcess bool
	// UnlockWhileProcessingFIFO: the RealFIFO takes deltas while the
	// informer processes (needs AtomicFIFO).
	UnlockWhileProcessingFIFO bool
	// WatchListClient: the Reflector starts with a streaming list.
	WatchListClient bool
}

// defaultPipelineGates are the gates of an informer whose options name
// none: client-go v0.37.2's defaults. It is a variable only so that this
// package's tests can run the whole suite in each pipeline
// (pipelines_test.go), as client-go's own tests switch its process-wide
// gates with features.SetForTesting; no other code assigns it.
var defaultPipelineGates = DefaultPipelineGates()

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
	unlock := g.AtomicFIFO && g.UnlockWhileProcessingFIFO // the queue allows it only when atomic
	return fmt.Sprintf("RealFIFO (atomic=%t, batch=%t, unlock=%t), watchList=%t",
		g.AtomicFIFO, g.InOrderInformersBatchProcess, unlock, g.WatchListClient)
}

// informer.go holds the SharedIndexInformer: one list and watch of a
// resource, cached in an Indexer and shared by any number of handlers. Its
// Run builds the pipeline (queue, controller, Reflector) and runs it; its
// process function applies each popped change to the cache first, then
// hands it to the handlers (processor.go). The handler types and the
// methods that add and remove handlers are in informer_handlers.go.
//
// client-go counterpart: tools/cache shared_informer.go (SharedInformer,
// SharedIndexInformer, sharedIndexInformer, NewSharedIndexInformerWithOptions,
// RunWithContext, handleDeltas, OnAdd, OnUpdate, OnDelete).
//
// Tutorial: 004 §2.1 (List + Watch + local cache + events), §2.3 (the
// roles: Reflector, DeltaFIFO, controller, Indexer), §4.3 (handlers).

package informer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// minimumResyncPeriod is the least resync period a handler may ask for.
const minimumResyncPeriod = time.Second

// SharedInformer keeps a local cache of one resource's objects, filled and
// kept up to date by one list and watch, and tells every handler of every
// change. Its promises are client-go's; each names what shows it (a parity
// case runs client-go v0.37.2's informer beside ours on the same scripted
// server: the repository's parity/ module):
//
//   - The cache is eventually consistent with the server: unless the
//     informer is stopped or the server stays unreachable, every object the
//     server holds ends up in the cache in that state or a later one, and
//     every object the server deleted ends up gone from it
//     (TestStep11WhenThingsGoWrong, TestRandomScenarios).
//   - For one object, the states the cache holds are a subsequence of the
//     object's states on the server, in order: some states may be skipped
//     (several changes can arrive as one), none is repeated out of order.
//     Nothing is promised about the order between different objects
//     (TestRandomScenarios compares each object's with client-go's).
//   - An object is identified by its namespace and name, not its UID: one
//     deleted and created again with the same name while the watch was
//     down reaches the handlers as a single update. Compare the UIDs of
//     oldObj and newObj in OnUpdate if that matters (parity case
//     ServerDown).
//   - Every handler is told of every change to the cache, after the cache
//     (and its indexes) hold it, one notification at a time, in order, until
//     the informer stops or the handler is removed. A handler added before
//     Run gets everything from the initial list on; one added while running
//     first gets an add for each object the cache holds, then the changes
//     after it (parity case LateHandler).
//   - oldObj in OnUpdate is the state the cache held before, which may fold
//     several changes together: it is not the previous event. An update
//     that kept the resource version (a resync, or an object a relist found
//     unchanged) goes only to the handlers due for a resync: every handler
//     until the first resync check, then those whose period has come
//     (parity case D3).
//   - OnDelete gets the last state the cache held or, when the deletion was
//     noticed by a relist, a DeletedFinalStateUnknown tombstone (parity case
//     ServerDown).
//   - Stopping drops work: the change being processed when Run's context
//     ends is the last the cache takes, what is still queued is never
//     processed, and what a handler has buffered is dropped (its call in
//     progress ends; one or two more may start). Removing a handler drops
//     its buffer the same way, without waiting (parity cases D1, D2;
//     TestInformerStopDropsWhatIsQueued).
//   - Each handler has its own buffer and goroutine: a slow one delays only
//     itself, while its buffer grows (parity case SlowHandler).
//
// What a handler must do in return: never change an object it is given
// (see Store), and return promptly (hand long work off, to a work queue
// for example).
type SharedInformer interface {
	// AddEventHandler adds handler with the informer's default resync
	// period. It fails once the informer has stopped.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod adds handler with its own resync
	// period (0: none). A period under the informer's resync check period
	// lowers that period before Run, and is raised to it after.
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler removes a handler AddEventHandler added, without
	// waiting for it: its call in progress ends, and one or two of the calls
	// buffered for it may still start after RemoveEventHandler returns (its
	// pop goroutine picks at random between them and the removal); the rest
	// are dropped. Its registration's HasSynced stays false unless it had
	// synced. Removing one twice is no error. (parity case D2)
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache, the objects handlers are told of (see
	// Store before changing one).
	GetStore() Store
	// Run runs the informer until ctx ends, and returns once everything it
	// started has ended. An informer runs once: a second Run only logs.
	Run(ctx context.Context)
	// HasSynced reports whether the initial list has been processed: the
	// cache holds it, and every handler added before Run has been handed it.
	HasSynced() bool
	// LastSyncResourceVersion returns the last version the Reflector saw,
	// where its next watch starts; "" before Run.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler sets the function told of failed list/watch
	// cycles. It fails once the informer has started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetTransform sets a function applied to each object before it is
	// queued and cached. It fails once the informer has started.
	SetTransform(handler TransformFunc) error
	// IsStopped reports whether the informer has stopped: its controller
	// has ended and no handler can be added any more (its handlers may
	// still be finishing their calls).
	IsStopped() bool
}

// HandlerOptions configures AddEventHandlerWithOptions. (client-go's has a
// Logger too.)
type HandlerOptions struct {
	// ResyncPeriod is the handler's resync period (0: none); nil takes the
	// informer's default.
	ResyncPeriod *time.Duration
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes to the cache, even while the informer runs
	// (processing waits meanwhile). It fails once the informer has stopped.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the cache GetStore returns, with its indexes.
	GetIndexer() Indexer
}

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the handlers' default resync period; 0 none.
	ResyncPeriod time.Duration
	Indexers     Indexers
	// ObjectDescription names the objects in log messages.
	ObjectDescription string
	// Clock is where the informer reads time (ours: client-go sets it in
	// tests only); RealClock when nil.
	Clock clock.Clock
	// WatchListPageSize is the Reflector's list page size (0: its choice).
	WatchListPageSize int64
	// Reading 2: today's client-go pipeline, and a hook for tools.
	// PipelineGates chooses the pipeline (features.go); nil runs client-go
	// v0.37.2's defaults. client-go's gates are process-wide; here they are
	// an option per informer.
	PipelineGates *PipelineGates
	// WrapQueue wraps Run's queue, for tests and tools that watch it
	// (ours). A wrapper must hand every call on, PopBatch, Bookmark and
	// Transformer included.
	WrapQueue func(Queue) Queue
	// End of reading 2.
}

// sharedIndexInformer is the SharedIndexInformer of NewSharedIndexInformer.
type sharedIndexInformer struct {
	indexer       *cache
	processor     *sharedProcessor
	listerWatcher ListerWatcher
	objectType    any
	options       SharedIndexInformerOptions
	clock         clock.Clock
	// Reading 2: the gates this informer runs with.
	gates PipelineGates
	// End of reading 2.

	// controller holds the Controller, once Run has made it.
	controller atomic.Value
	// syncedAtStop is whether the controller had synced when Run's context
	// ended; stopping is set once it is written. HasSynced answers
	// syncedAtStop from then on.
	syncedAtStop, stopping atomic.Bool
	// blockDeltas is held while a popped change is processed, and while a
	// handler is added, removed or an index added: so a handler added while
	// running gets the cache as adds, then exactly the changes after it.
	blockDeltas sync.Mutex

	// startedMu guards the fields below. Run sets started and, when it
	// ends, stopped, both under it; AddEventHandler checks stopped under it
	// for its whole course, so it never adds to a processor that stopped.
	startedMu         sync.Mutex
	started           bool
	stopped           bool
	resyncCheckPeriod time.Duration
	watchErrorHandler WatchErrorHandler
	transform         TransformFunc
}

// NewSharedInformer returns a SharedInformer of lw's objects, which must be
// of exampleObject's type (for example &Pod{}).
func NewSharedInformer(lw ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer is NewSharedInformer with indexes on the cache.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration,
	indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions is NewSharedIndexInformer with options.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject any,
	options SharedIndexInformerOptions) SharedIndexInformer {
	c := options.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	// The cache is keyed like the queue's tombstones, so a tombstone
	// deletes the object it stands for.
	indexer := newCache(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers)
	s := &sharedIndexInformer{
		indexer:           indexer,
		processor:         &sharedProcessor{clock: c},
		listerWatcher:     lw,
		objectType:        exampleObject,
		options:           options,
		clock:             c,
		resyncCheckPeriod: options.ResyncPeriod,
	}
	// Reading 2: the gates, read where client-go reads them.
	s.gates = defaultPipelineGates
	if options.PipelineGates != nil {
		s.gates = *options.PipelineGates
	}
	// client-go's cache answers "" for its version while AtomicFIFO is off.
	indexer.hideStoreVersion = !s.gates.AtomicFIFO
	// End of reading 2.
	return s
}

// Run builds the pipeline (a queue that knows the cache, a controller with
// its Reflector) and runs it and the handlers until ctx ends. It returns
// once everything it started has ended: the controller first, then the
// handlers. Stopping drops work (see SharedInformer; parity case D1), and
// an informer stopped before it synced never reports synced.
func (s *sharedIndexInformer) Run(ctx context.Context) {
	c, ok := s.start()
	if !ok {
		slog.Warn("the shared informer has already been started; " +
			"running it more than once is not allowed")
		return
	}
	s.processor.start()
	defer s.processor.stop() // runs last: after stopped is set
	defer func() {
		s.startedMu.Lock()
		defer s.startedMu.Unlock()
		s.stopped = true // no handler can be added from now on
	}()
	// client-go's informer marks itself synced only while it runs (a
	// goroutine that waits for the controller's sync or the stop): from the
	// stop on, HasSynced says whether it had synced by then.
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		<-ctx.Done()
		s.syncedAtStop.Store(c.HasSynced())
		s.stopping.Store(true)
	})
	c.Run(ctx)
}

// start makes the controller and marks the informer started, under
// startedMu; false if it had already started.
func (s *sharedIndexInformer) start() (Controller, bool) {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.started {
		return nil, false
	}
	queue := newQueueFIFO(s.indexer, s.transform,
		// Reading 2: the gates choose the queue.
		s.gates,
		// End of reading 2.
	)
	cfg := &Config{
		Queue:             queue,
		ListerWatcher:     s.listerWatcher,
		ObjectType:        s.objectType,
		ObjectDescription: s.options.ObjectDescription,
		FullResyncPeriod:  s.resyncCheckPeriod,
		ShouldResync:      s.processor.shouldResync,
		Process:           s.HandleDeltas,
		WatchErrorHandler: s.watchErrorHandler,
		WatchListPageSize: s.options.WatchListPageSize,
		Clock:             s.clock,
	}
	// Reading 2: the gates of the Reflector and the run loop, and the tools' hook.
	if s.gates.InOrderInformersBatchProcess {
		cfg.ProcessBatch = s.handleBatchDeltas
	}
	cfg.UseWatchList = s.gates.WatchListClient
	if s.options.WrapQueue != nil {
		cfg.Queue = s.options.WrapQueue(cfg.Queue)
	}
	// End of reading 2.
	c := New(cfg)
	s.controller.Store(c)
	s.started = true
	return c, true
}

// HandleDeltas is the controller's process function (client-go's
// handleDeltas): it applies one popped Deltas to the cache and tells the
// handlers, with handlers held still (blockDeltas).
func (s *sharedIndexInformer) HandleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return errors.New("object given as Process argument is not Deltas")
	}
	return processDeltas(s, s.indexer, deltas, isInInitialList)
}

// Reading 2: client-go 1.35+ processes runs of deltas at once (realfifo_batch.go).

// handleBatchDeltas is the controller's batch process function (client-go's
// handleBatchDeltas): a run of deltas of distinct keys, applied to the cache
// in one Transaction, then told to the handlers.
func (s *sharedIndexInformer) handleBatchDeltas(deltas []Delta, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return processDeltasInBatch(s, s.indexer, deltas, isInInitialList)
}

// End of reading 2.

// OnAdd implements ResourceEventHandler for processDeltas: it hands the add
// to every handler.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
}

// OnUpdate implements ResourceEventHandler for processDeltas: it hands the
// update to every handler. An update that kept the resource version (a
// resync, or an unchanged object in a relist) goes only to the handlers
// whose resync is due.
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	o, okOld := oldObj.(Object)
	n, okNew := newObj.(Object)
	isSync := okOld && okNew && o.GetResourceVersion() == n.GetResourceVersion()
	s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
}

// OnDelete implements ResourceEventHandler for processDeltas: it hands the
// deletion to every handler.
func (s *sharedIndexInformer) OnDelete(obj any) {
	s.processor.distribute(deleteNotification{oldObj: obj}, false)
}

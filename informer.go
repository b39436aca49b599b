// informer.go holds SharedIndexInformer, the piece programs use: one
// list/watch of a resource, kept in an Indexer everybody reads, and shared by
// any number of event handlers. Run builds the pipeline the PipelineGates
// choose (features.go). For each pop it first updates the Indexer, then
// notifies the handlers (process.go, processor.go), so a handler that reads
// the cache sees at least the state it is told about.
//
// client-go counterpart: k8s.io/client-go/tools/cache shared_informer.go
// (SharedInformer, SharedIndexInformer, NewSharedIndexInformer,
// WaitForCacheSync, handleDeltas, handleBatchDeltas).
//
// Tutorial: 004 §2.1 (List + Watch + cache + events), §2.3 (the roles of
// Reflector, DeltaFIFO, controller and Indexer), §4.3 (handlers), §4.4
// (resync).

package informer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// minimumResyncPeriod is the shortest per-handler resync period allowed.
const minimumResyncPeriod = time.Second

// SharedInformer is one list/watch of a resource shared by many handlers.
type SharedInformer interface {
	// AddEventHandler registers handler with the informer's default resync
	// period. A handler added while the informer runs first gets the
	// cache's contents as adds. It fails only after the informer stopped.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod is AddEventHandler with the handler's
	// own resync period (0: no resync for this handler).
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions is AddEventHandler with options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler unregisters a handler; removing one twice is fine.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache.
	GetStore() Store
	// Run runs the informer until ctx ends. A second Run only logs a warning.
	Run(ctx context.Context)
	// HasSynced reports whether the initial list has been processed.
	HasSynced() bool
	// LastSyncResourceVersion is the last version the Reflector saw.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler sets what is told about failed list/watch cycles.
	// It fails once the informer has started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetTransform sets a function applied to each object before it is
	// cached. It fails once the informer has started.
	SetTransform(handler TransformFunc) error
	// IsStopped reports whether Run has returned.
	IsStopped() bool
}

// HandlerOptions configures AddEventHandlerWithOptions. (client-go's also
// has a Logger.)
type HandlerOptions struct {
	// ResyncPeriod is the handler's resync period (0: none); nil means
	// the informer's default.
	ResyncPeriod *time.Duration
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes, even while the informer runs (the existing
	// objects are indexed at once). It fails once the informer stopped.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the cache.
	GetIndexer() Indexer
}

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default resync period of handlers; 0 none.
	ResyncPeriod time.Duration
	// Indexers are the cache's indexes.
	Indexers Indexers
	// ObjectDescription names the objects in log messages.
	ObjectDescription string
	// Clock is where time comes from; RealClock when nil. (Ours: client-go
	// sets its clock only in its own tests.)
	Clock Clock
	// PipelineGates chooses the pipeline (features.go); nil means client-go
	// v0.37.2's defaults, DefaultPipelineGates. (client-go reads its gates
	// from the process, not from these options.)
	PipelineGates *PipelineGates
	// WatchListPageSize sets the Reflector's list page size.
	WatchListPageSize int64
	// WrapQueue, when set, is called once by Run with the queue Run built;
	// the informer then uses the Queue it returns: the Reflector writes into
	// it and the run loop pops from it. Tests and tools use it to look into
	// the queue or to pace the consumer; a wrapper hands every call on,
	// the optional ones too (a RealFIFO's PopBatch, Bookmark and
	// Transformer, which the run loop and the Reflector look for). (Ours: client-go has no such
	// option.)
	WrapQueue func(Queue) Queue
}

type sharedIndexInformer struct {
	indexer       Indexer
	keyFunc       KeyFunc
	gates         PipelineGates
	processor     *sharedProcessor
	listerWatcher ListerWatcher
	objectType    any
	options       SharedIndexInformerOptions
	clock         Clock

	// startedMu guards the fields below.
	startedMu         sync.Mutex
	started, stopped  bool
	controller        Controller
	resyncCheckPeriod time.Duration
	watchErrorHandler WatchErrorHandler
	transform         TransformFunc

	// blockDeltas is held while deltas are processed, so that adding or
	// removing a handler never interleaves with a notification.
	blockDeltas sync.Mutex
}

// NewSharedInformer returns a SharedInformer for lw's objects, which have the
// type of exampleObject (e.g. &Pod{}).
func NewSharedInformer(lw ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer returns a SharedIndexInformer whose cache has the
// given indexes.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions is NewSharedIndexInformer with options.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject any, options SharedIndexInformerOptions) SharedIndexInformer {
	clock := options.Clock
	if clock == nil {
		clock = RealClock{}
	}
	gates := defaultPipelineGates
	if options.PipelineGates != nil {
		gates = *options.PipelineGates
	}
	indexer := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers)
	return &sharedIndexInformer{
		indexer:           indexer,
		keyFunc:           DeletionHandlingMetaNamespaceKeyFunc,
		gates:             gates,
		processor:         &sharedProcessor{clock: clock},
		listerWatcher:     lw,
		objectType:        exampleObject,
		options:           options,
		clock:             clock,
		resyncCheckPeriod: options.ResyncPeriod,
	}
}

// Run builds the pipeline — the queue the PipelineGates choose (a RealFIFO
// by default, a DeltaFIFO with InOrderInformers off), the controller and its
// Reflector — and runs it and the handlers until ctx ends. It returns when every goroutine it
// started has ended (which waits for handler calls in progress).
func (s *sharedIndexInformer) Run(ctx context.Context) {
	s.startedMu.Lock()
	if s.started {
		s.startedMu.Unlock()
		slog.Warn("the shared informer has already been started; running it more than once is not allowed")
		return
	}
	transform := s.transform
	queue, processBatch := newQueue(s, transform) // hook: layers.go
	if s.options.WrapQueue != nil {
		queue = s.options.WrapQueue(queue)
	}
	s.controller = New(&Config{
		Queue:             queue,
		ListerWatcher:     s.listerWatcher,
		ObjectType:        s.objectType,
		ObjectDescription: s.options.ObjectDescription,
		FullResyncPeriod:  s.resyncCheckPeriod,
		ShouldResync:      s.processor.shouldResync,
		Process:           s.HandleDeltas,
		ProcessBatch:      processBatch,
		WatchErrorHandler: s.watchErrorHandler,
		WatchListPageSize: s.options.WatchListPageSize,
		UseWatchList:      s.gates.WatchListClient,
		Clock:             s.clock,
	})
	s.started = true
	s.startedMu.Unlock()

	// The handlers start before the run loop can notify them, and stop only
	// after it has stopped.
	s.processor.start()
	defer s.processor.stop()
	defer func() {
		s.startedMu.Lock()
		s.stopped = true
		s.startedMu.Unlock()
	}()
	s.controller.Run(ctx)
}

// HandleDeltas is the controller's process function: it applies one popped
// Deltas to the Indexer and notifies the handlers (process.go). In
// v0.37.2 client-go's is unexported: sharedIndexInformer.handleDeltas.
func (s *sharedIndexInformer) HandleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return errors.New("object given as Process argument is not Deltas")
	}
	return processPop(s, s.indexer, deltas, isInInitialList) // hook: layers.go
}

// The two steps of the pipeline that client-go 1.33–1.37 changed are
// package variables, so that the first reading runs the tutorial's pipeline
// on its own, and layers.go (when the second reading is present) makes it
// client-go v0.37.2's. Nothing else sets them.
var (
	// newQueue builds the queue Run fills and drains, and the function its
	// run loop hands a batch to (nil: one Deltas per Pop). The first
	// reading's is the tutorial's DeltaFIFO; layers.go sets newQueueFIFO
	// (features.go), which chooses by the informer's PipelineGates.
	newQueue = func(s *sharedIndexInformer, transform TransformFunc) (Queue, ProcessBatchFunc) {
		return NewDeltaFIFOWithOptions(DeltaFIFOOptions{
			KnownObjects:          s.indexer,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
		}), nil
	}
	// processPop applies one popped Deltas: processDeltas (process.go);
	// layers.go sets processDeltasAtomic (realfifo_batch.go), which also
	// knows the whole-queue deltas of an atomic RealFIFO.
	processPop = processDeltas
	// defaultPipelineGates are the gates of an informer made without
	// PipelineGates: every gate off, client-go 1.32's pipeline. layers.go
	// sets client-go v0.37.2's defaults (DefaultPipelineGates).
	defaultPipelineGates = PipelineGates{}
)

// PipelineGates switches, per informer, the client-go feature gates that
// shape its pipeline; each field is named after its gate. The first
// reading runs with every gate off. features.go (the second reading)
// explains each gate and builds the pipeline they choose.
type PipelineGates struct {
	// InOrderInformers runs the informer on a RealFIFO instead of a DeltaFIFO.
	InOrderInformers bool
	// AtomicFIFO makes a relist one ReplacedAll delta and a resync one
	// SyncAll; bookmarks reach the cache. Needs InOrderInformers.
	AtomicFIFO bool
	// InOrderInformersBatchProcess pops runs of deltas with PopBatch.
	// Needs InOrderInformers.
	InOrderInformersBatchProcess bool
	// UnlockWhileProcessingFIFO lets the RealFIFO queue while the informer
	// processes. Needs AtomicFIFO.
	UnlockWhileProcessingFIFO bool
	// WatchListClient starts the Reflector with a streaming list.
	WatchListClient bool
}

// OnAdd distributes an add to every handler.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
}

// OnUpdate distributes an update. One that did not change the resource
// version (a resync, or a relist that found the object as it was) goes
// only to the handlers whose resync is due.
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	isSync := false
	o, okOld := oldObj.(Object)
	n, okNew := newObj.(Object)
	if okOld && okNew {
		isSync = o.GetResourceVersion() == n.GetResourceVersion()
	}
	s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
}

// OnDelete distributes a delete to every handler.
func (s *sharedIndexInformer) OnDelete(obj any) {
	s.processor.distribute(deleteNotification{oldObj: obj}, false)
}

// informer.go holds SharedIndexInformer: one list/watch of a resource, kept
// in an Indexer and shared by many event handlers. Each pop updates the
// Indexer first, then tells the handlers (processDeltas; processor.go), so a
// handler reading the cache sees at least the state it is told about.
//
// client-go counterpart: tools/cache shared_informer.go, and processDeltas in
// controller.go.
//
// Tutorial: 004 §2.1 (List + Watch + cache + events), §2.3 (the roles of
// Reflector, DeltaFIFO, controller and Indexer; the cache before the
// handlers), §4.3 (handlers), §4.4 (resync); 000 §4.2 (tombstones).

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
	// AddEventHandler registers handler with the default resync period; one
	// added while running first gets the cache as adds. Fails once stopped.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod is AddEventHandler with its own resync
	// period (0: none).
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions is AddEventHandler with options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler unregisters a handler; removing one twice is fine.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	GetStore() Store                 // the cache
	Run(ctx context.Context)         // runs until ctx ends; a second Run only warns
	HasSynced() bool                 // the initial list has been processed
	LastSyncResourceVersion() string // the last version the Reflector saw
	// SetWatchErrorHandler sets what is told of failed list/watch cycles, and
	// SetTransform a function applied to objects before they are cached;
	// both fail once the informer has started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	SetTransform(handler TransformFunc) error
	IsStopped() bool // Run has returned
}

// HandlerOptions configures AddEventHandlerWithOptions (client-go's also
// has a Logger).
type HandlerOptions struct {
	ResyncPeriod *time.Duration // the handler's (0: none); nil: the informer's default
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes, even while running (existing objects are
	// indexed at once). It fails once the informer stopped.
	AddIndexers(indexers Indexers) error
	GetIndexer() Indexer // the cache
}

// SharedIndexInformerOptions configures NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	ResyncPeriod      time.Duration  // handlers' default resync period; 0 none
	Indexers          Indexers       // the cache's indexes
	ObjectDescription string         // names the objects in log messages
	Clock             Clock          // RealClock when nil (ours)
	PipelineGates     *PipelineGates // nil: defaultPipelineGates (ours: client-go's are process-wide)
	WatchListPageSize int64          // the Reflector's list page size
	// WrapQueue, if set, wraps the queue Run built, for tests and tools to
	// look into it or pace the consumer. A wrapper must hand every call on,
	// the optional ones too (PopBatch, Bookmark, Transformer). (Ours.)
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

	startedMu         sync.Mutex // guards the fields below
	started, stopped  bool
	controller        Controller
	resyncCheckPeriod time.Duration
	watchErrorHandler WatchErrorHandler
	transform         TransformFunc

	blockDeltas sync.Mutex // held while processing: handlers come and go between pops
}

// NewSharedInformer returns a SharedInformer of lw's objects (e.g. &Pod{}).
func NewSharedInformer(lw ListerWatcher, exampleObject any, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer returns a SharedIndexInformer with indexes.
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
	return &sharedIndexInformer{
		indexer:           NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers),
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

// Run builds the pipeline (queue, controller, Reflector) and runs it and the
// handlers until ctx ends; it returns once every goroutine it started ended.
func (s *sharedIndexInformer) Run(ctx context.Context) {
	s.startedMu.Lock()
	if s.started {
		s.startedMu.Unlock()
		slog.Warn("the shared informer has already been started; running it more than once is not allowed")
		return
	}
	queue, processBatch := newQueue(s, s.transform) // hook: layers.go
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

	s.processor.start() // handlers start before, and stop after, the run loop
	defer s.processor.stop()
	defer func() {
		s.startedMu.Lock()
		s.stopped = true
		s.startedMu.Unlock()
	}()
	s.controller.Run(ctx)
}

// HandleDeltas is the controller's process function: it applies a popped
// Deltas to the Indexer and notifies the handlers (client-go: handleDeltas).
func (s *sharedIndexInformer) HandleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return errors.New("object given as Process argument is not Deltas")
	}
	return processPop(s, s.indexer, deltas, isInInitialList) // hook: layers.go
}

// The pipeline steps client-go 1.33–1.37 changed are package variables:
// the first reading's are the tutorial's; layers.go alone sets v0.37.2's.
var (
	// newQueue builds Run's queue and the function a batch goes to (nil: one
	// Deltas per Pop): a DeltaFIFO; layers.go: newQueueFIFO (features.go).
	newQueue = func(s *sharedIndexInformer, transform TransformFunc) (Queue, ProcessBatchFunc) {
		return NewDeltaFIFOWithOptions(DeltaFIFOOptions{
			KnownObjects:          s.indexer,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
		}), nil
	}
	// processPop applies one popped Deltas: processDeltas (process.go);
	// layers.go: processDeltasAtomic (realfifo_batch.go).
	processPop = processDeltas
	// defaultPipelineGates are used when the options have none: all off
	// (client-go 1.32); layers.go: DefaultPipelineGates.
	defaultPipelineGates = PipelineGates{}
)

// PipelineGates switches, per informer, the client-go feature gates (one
// field each) that shape its pipeline; features.go explains them.
type PipelineGates struct {
	InOrderInformers             bool // a RealFIFO, not a DeltaFIFO
	AtomicFIFO                   bool // a relist is one ReplacedAll delta, a resync one SyncAll (needs InOrderInformers)
	InOrderInformersBatchProcess bool // pop runs of deltas with PopBatch (needs InOrderInformers)
	UnlockWhileProcessingFIFO    bool // the RealFIFO takes deltas while the informer processes (needs AtomicFIFO)
	WatchListClient              bool // the Reflector starts with a streaming list
}

// OnAdd distributes an add to every handler.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
}

// OnUpdate distributes an update; one that kept the resource version (a
// resync, or a relist that found the object unchanged) goes only to the
// handlers whose resync is due.
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	o, okOld := oldObj.(Object)
	n, okNew := newObj.(Object)
	isSync := okOld && okNew && o.GetResourceVersion() == n.GetResourceVersion()
	s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
}

// OnDelete distributes a delete to every handler.
func (s *sharedIndexInformer) OnDelete(obj any) {
	s.processor.distribute(deleteNotification{oldObj: obj}, false)
}

// processDeltas applies deltas to clientState, oldest first, telling handler.
func processDeltas(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool) error {
	for _, d := range deltas {
		if err := processDelta(handler, clientState, d, isInInitialList); err != nil {
			return err
		}
	}
	return nil
}

// processDelta applies one delta: an object the cache has is an update (old
// is the cached one), else an add; Deleted is a delete (of a tombstone too).
func processDelta(handler ResourceEventHandler, clientState Store, d Delta, isInInitialList bool) error {
	switch obj := d.Object; d.Type {
	case Sync, Replaced, Added, Updated:
		if old, exists, err := clientState.Get(obj); err == nil && exists {
			if err := clientState.Update(obj); err != nil {
				return err
			}
			handler.OnUpdate(old, obj)
		} else if err := clientState.Add(obj); err != nil {
			return err
		} else {
			handler.OnAdd(obj, isInInitialList)
		}
	case Deleted:
		if err := clientState.Delete(obj); err != nil {
			return err
		}
		handler.OnDelete(obj)
	}
	return nil
}

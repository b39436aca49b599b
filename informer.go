// informer.go holds SharedIndexInformer: one list/watch, cached in an Indexer, shared by handlers.
// client-go counterpart: tools/cache shared_informer.go, controller.go.
// Tutorial: 004 §2.1 (List + Watch + cache + events), §2.3 (the roles), §4.3 (handlers).

package informer

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

const minimumResyncPeriod = time.Second // the least resync period of a handler

// SharedInformer is one list/watch of a resource shared by many handlers.
type SharedInformer interface {
	// AddEventHandler registers handler with the default resync period (or
	// its own; 0: none); one added while running first gets the cache as
	// adds. It fails once stopped. Removing a handler twice is fine.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	GetStore() Store                 // the cache
	Run(ctx context.Context)         // runs until ctx ends; a second Run only warns
	HasSynced() bool                 // the initial list has been processed
	LastSyncResourceVersion() string // the last version the Reflector saw
	// SetWatchErrorHandler (told of failed cycles) and SetTransform (applied
	// to objects before they are cached) fail once the informer has started.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	SetTransform(handler TransformFunc) error
	IsStopped() bool // Run has returned
}

// HandlerOptions configures AddEventHandlerWithOptions (client-go's has a Logger too).
type HandlerOptions struct {
	ResyncPeriod *time.Duration // the handler's (0: none); nil: the informer's default
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes, even while running (deltas wait); fails once stopped.
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
	// WrapQueue wraps Run's queue, for tests and tools (ours); a wrapper must
	// hand every call on, also PopBatch, Bookmark and Transformer.
	WrapQueue func(Queue) Queue
}

type sharedIndexInformer struct {
	indexer       Indexer
	gates         PipelineGates
	processor     *sharedProcessor
	listerWatcher ListerWatcher
	objectType    any
	options       SharedIndexInformerOptions
	clock         Clock
	controller    atomic.Value // the Controller, once Run made it
	stopped       atomic.Bool  // Run has returned
	blockDeltas   sync.Mutex   // held while processing: handlers come and go between pops

	startedMu         sync.Mutex // guards the fields below
	started           bool
	resyncCheckPeriod time.Duration
	watchErrorHandler WatchErrorHandler
	transform         TransformFunc
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
	clock := cmp.Or[Clock](options.Clock, RealClock{})
	gates := defaultPipelineGates
	if options.PipelineGates != nil {
		gates = *options.PipelineGates
	}
	return &sharedIndexInformer{
		indexer:           NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers),
		gates:             gates,
		processor:         &sharedProcessor{clock: clock},
		clock:             clock,
		listerWatcher:     lw,
		objectType:        exampleObject,
		options:           options,
		resyncCheckPeriod: options.ResyncPeriod,
	}
}

// Run builds the pipeline and runs it and the handlers until ctx ends; it
// returns once all it started has ended.
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
	c := New(&Config{
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
	s.controller.Store(c)
	s.started = true
	s.startedMu.Unlock()

	s.processor.start() // handlers start before, and stop after, the run loop
	defer s.processor.stop()
	defer s.stopped.Store(true)
	c.Run(ctx)
}

// HandleDeltas is the controller's process function (client-go: handleDeltas).
func (s *sharedIndexInformer) HandleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return errors.New("object given as Process argument is not Deltas")
	}
	return processPop(s, s.indexer, deltas, isInInitialList) // hook: layers.go
}

// The pipeline steps client-go 1.33–1.37 changed; layers.go alone sets them.
var (
	// newQueue builds Run's queue and its batch function (nil: one Deltas
	// per Pop); layers.go: newQueueFIFO (features.go).
	newQueue = func(s *sharedIndexInformer, transform TransformFunc) (Queue, ProcessBatchFunc) {
		return NewDeltaFIFOWithOptions(DeltaFIFOOptions{
			KnownObjects:          s.indexer,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
		}), nil
	}
	// processPop applies one popped Deltas; layers.go: processDeltasAtomic.
	processPop = processDeltas
	// defaultPipelineGates: all off (1.32); layers.go: DefaultPipelineGates.
	defaultPipelineGates = PipelineGates{}
)

// PipelineGates sets, per informer, the client-go gates that shape its pipeline.
type PipelineGates struct {
	InOrderInformers             bool // a RealFIFO, not a DeltaFIFO
	AtomicFIFO                   bool // a relist is one ReplacedAll delta, a resync one SyncAll (needs InOrderInformers)
	InOrderInformersBatchProcess bool // pop runs of deltas with PopBatch (needs InOrderInformers)
	UnlockWhileProcessingFIFO    bool // the RealFIFO takes deltas while the informer processes (needs AtomicFIFO)
	WatchListClient              bool // the Reflector starts with a streaming list
}

// OnAdd, OnUpdate and OnDelete hand a change to every handler; an update that
// kept the resource version (a resync, an unchanged relist) only to those due a resync.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
}

func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	o, okOld := oldObj.(Object)
	n, okNew := newObj.(Object)
	isSync := okOld && okNew && o.GetResourceVersion() == n.GetResourceVersion()
	s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
}

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

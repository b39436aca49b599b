// controller.go holds the run loop behind every informer: a Reflector fills
// a queue (and, while it watches, asks it to resync now and then), and the
// loop pops it and hands each item to a process function. It also holds
// what the informer's process function does with popped deltas
// (processDeltas), and the choice of the queue (newQueueFIFO), both where
// client-go keeps them.
//
// client-go counterpart: tools/cache controller.go (Config, Controller, New,
// controller.Run, processLoop, processDeltas, newQueueFIFO); RunEvery is
// apimachinery's wait.Until on a k8s.io/utils/clock Clock.
//
// Tutorial: 004 §2.3 (the controller's role), §4.2 (the run loop), §4.4
// (resync). (§4.2 drifts into Apple's CFRunLoop: nothing of it is here.)

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// Queue is the run loop's queue: the Reflector writes into it, the loop
// pops it. newQueueFIFO chooses which queue an informer gets.
type Queue interface {
	ReflectorStore
	// Pop waits for an item, removes it and calls process with it.
	Pop(process PopProcessFunc) (any, error)
	// HasSynced reports whether the initial list has been popped.
	HasSynced() bool
	// Close makes Pop return ErrFIFOClosed once the queue is empty.
	Close()
}

// ProcessFunc handles one popped item, a Deltas; an error drops the item
// (see processLoop).
type ProcessFunc func(obj any, isInInitialList bool) error

// ShouldResyncFunc says whether a resync is due now.
type ShouldResyncFunc func() bool

// Config configures the controller that New returns: the Reflector lists
// and watches with ListerWatcher objects of ObjectType's type (&Pod{}) into
// Queue, and the run loop pops Queue into Process.
type Config struct {
	Queue         Queue
	ListerWatcher ListerWatcher
	Process       ProcessFunc
	ObjectType    any
	// ObjectDescription names the objects in log messages.
	ObjectDescription string
	// FullResyncPeriod is how often to consider a resync while the
	// Reflector watches (its ResyncPeriod); 0 never.
	FullResyncPeriod time.Duration
	// ShouldResync is asked before each resync; nil means always.
	ShouldResync ShouldResyncFunc
	// WatchErrorHandler: DefaultWatchErrorHandler when nil.
	WatchErrorHandler WatchErrorHandler
	// WatchListPageSize is the Reflector's list page size (0: its choice).
	WatchListPageSize int64
	// Clock is where the Reflector and the resync timer read time;
	// RealClock when nil.
	Clock clock.Clock
	// Reading 2: the pipeline of client-go 1.35+.
	// ProcessBatch, when set and the queue is a QueueWithBatch, makes the
	// loop pop runs of deltas with PopBatch (the InOrderInformersBatchProcess
	// gate).
	ProcessBatch ProcessBatchFunc
	// UseWatchList makes the Reflector stream the list (the WatchListClient
	// gate).
	UseWatchList bool
	// End of reading 2.
}

// Controller is the low-level run loop behind every informer.
type Controller interface {
	// Run runs until ctx ends, and returns once all it started has ended.
	Run(ctx context.Context)
	// HasSynced reports whether the initial list has been processed.
	HasSynced() bool
	// LastSyncResourceVersion is the version the Reflector last saw; ""
	// before Run.
	LastSyncResourceVersion() string
}

// controller is the Controller that New returns.
type controller struct {
	config Config
	// reflector is set by Run, and read by LastSyncResourceVersion from
	// any goroutine.
	reflector atomic.Pointer[Reflector]
}

// New returns a Controller for cfg. Nothing runs until Run.
func New(cfg *Config) Controller {
	return &controller{config: *cfg}
}

// Run runs the Reflector and the process loop until ctx ends; then it
// closes the queue, so that a waiting Pop returns, and waits for both to
// end.
func (c *controller) Run(ctx context.Context) {
	options := ReflectorOptions{
		TypeDescription:   c.config.ObjectDescription,
		Clock:             c.config.Clock,
		WatchListPageSize: c.config.WatchListPageSize,
		WatchErrorHandler: c.config.WatchErrorHandler,
		ResyncPeriod:      c.config.FullResyncPeriod,
	}
	// Reading 2: the streaming list.
	options.UseWatchList = c.config.UseWatchList
	// End of reading 2.
	r := NewReflectorWithOptions(
		c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, options)
	r.ShouldResync = c.config.ShouldResync
	c.reflector.Store(r)

	var wg sync.WaitGroup
	wg.Go(func() {
		<-ctx.Done()
		c.config.Queue.Close() // wakes the loop's Pop
	})
	wg.Go(func() {
		r.Run(ctx)
	})
	c.processLoop(ctx)
	wg.Wait()
}

// processLoop pops until ctx ends, checking it before every Pop: the item
// being processed when the stop comes is the last, and what is still queued
// never reaches the cache (nor the handlers). An item whose processing
// failed is logged and dropped (client-go drops it silently), not retried:
// its object is missing from the cache until a later change or relist
// brings it again (a resync does not: it re-sends only what the cache
// holds).
func (c *controller) processLoop(ctx context.Context) {
	for ctx.Err() == nil {
		err := c.popOnce()
		if errors.Is(err, ErrFIFOClosed) {
			return
		}
		if err != nil {
			slog.Error("processing an item failed", "type", c.config.ObjectDescription, "err", err)
		}
	}
}

func (c *controller) popOnce() error {
	// Reading 2: client-go 1.35+ pops runs of deltas at once (realfifo_batch.go).
	if q, ok := c.config.Queue.(QueueWithBatch); ok && c.config.ProcessBatch != nil {
		return q.PopBatch(c.config.ProcessBatch, PopProcessFunc(c.config.Process))
	}
	// End of reading 2.
	_, err := c.config.Queue.Pop(PopProcessFunc(c.config.Process))
	return err
}

func (c *controller) HasSynced() bool {
	return c.config.Queue.HasSynced()
}

func (c *controller) LastSyncResourceVersion() string {
	if r := c.reflector.Load(); r != nil {
		return r.LastSyncResourceVersion()
	}
	return ""
}

// newQueueFIFO builds an informer's queue, as client-go's newQueueFIFO
// does: a DeltaFIFO that knows the informer's cache (so that Replace finds
// missed deletions and Resync re-delivers) and queues Replaced deltas for
// relists.
func newQueueFIFO(clientState *cache, transform TransformFunc,
	// Reading 2: the gates that choose today's queue.
	gates PipelineGates,
	// End of reading 2.
) Queue {
	// Reading 2: client-go 1.33+ runs a RealFIFO (the InOrderInformers gate, realfifo.go).
	if gates.InOrderInformers {
		opts := RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, Transformer: transform}
		if gates.AtomicFIFO {
			// An atomic queue must not read the cache: it may be unlocked
			// while the informer writes it.
			opts.AtomicEvents = true
			opts.UnlockWhileProcessing = gates.UnlockWhileProcessingFIFO
			opts.EmitDeltaTypeBookmark = true
		} else {
			opts.KnownObjects = clientState
		}
		return NewRealFIFOWithOptions(opts)
	}
	// End of reading 2.
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KnownObjects:          clientState,
		EmitDeltaTypeReplaced: true,
		Transformer:           transform,
	})
}

// processDeltas applies one key's deltas to clientState, oldest first, and
// tells handler of each change once the cache holds it:
//   - Added, Updated, Replaced and Sync store the object. If the cache
//     already held one under its key, that is an update (oldObj is the
//     cached one); otherwise an add. So a relist (Replaced) of an object the
//     cache has is an update, even if nothing changed, and an object deleted
//     and created again while the watch was down arrives as one update.
//   - Deleted removes the object (the delta's object may be a tombstone).
//
// The first error stops it: the deltas after it are dropped (see
// processLoop for what brings their objects back).
func processDeltas(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool) error {
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		// Reading 2: the whole-queue deltas of an atomic RealFIFO (client-go 1.36+).
		case ReplacedAll:
			info, ok := obj.(ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", obj)
			}
			// An informer's cache is keyed by DeletionHandlingMetaNamespaceKeyFunc.
			err := processReplacedAllInfo(handler, info, clientState, isInInitialList,
				DeletionHandlingMetaNamespaceKeyFunc)
			if err != nil {
				return err
			}
		case SyncAll:
			if _, ok := obj.(SyncAllInfo); !ok {
				return fmt.Errorf("SyncAll did not contain SyncAllInfo: %T", obj)
			}
			for _, cached := range clientState.List() {
				handler.OnUpdate(cached, cached)
			}
			return nil // as client-go: a SyncAll ends its Deltas
		case Bookmark:
			info, ok := obj.(BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", obj)
			}
			clientState.Bookmark(info.ResourceVersion)
		// End of reading 2.
		case Sync, Replaced, Added, Updated:
			old, exists, err := clientState.Get(obj)
			if err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				handler.OnUpdate(old, obj)
				continue
			}
			if err := clientState.Add(obj); err != nil {
				return err
			}
			handler.OnAdd(obj, isInInitialList)
		case Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			handler.OnDelete(obj)
		}
	}
	return nil
}

// RunEvery calls f every period on clock c, the period counted from the end
// of the last call, until ctx ends. Unlike client-go's wait.Until, the first
// call comes after one period, not at once. The detector packages use it.
func RunEvery(ctx context.Context, c clock.Clock, period time.Duration, f func()) {
	t := c.NewTimer(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		f()
		t.Reset(period)
	}
}

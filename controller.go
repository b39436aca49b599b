// controller.go holds the run loop that joins the pipeline: a Reflector
// fills a queue (a RealFIFO or a DeltaFIFO) from the API server, and the
// loop pops from it — a batch with PopBatch when the queue and the config
// allow, else one Deltas with Pop — and hands what it popped to a process
// function, until the context ends. It also runs the resync timer, which
// every full-resync period asks ShouldResync and, if some handler is due,
// has the queue re-deliver everything in the cache (Sync deltas, or one
// SyncAll from an atomic RealFIFO).
//
// client-go counterpart: k8s.io/client-go/tools/cache controller.go (Config,
// Controller, New, processLoop) and the resync timer of reflector.go.
//
// Tutorial: 004 §4.2 (the controller run loop; the CFRunLoop detour of the
// text is not part of it) and §4.4 (resync).

package informer

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// ReflectorStore is what a Reflector writes into: a queue in an informer,
// or any Store.
type ReflectorStore interface {
	// Add records that obj was created.
	Add(obj any) error
	// Update records that obj changed.
	Update(obj any) error
	// Delete records that obj was deleted.
	Delete(obj any) error
	// Replace records a full list, as of resourceVersion.
	Replace(list []any, resourceVersion string) error
	// Resync re-delivers what the consumer holds (queues only).
	Resync() error
}

// ReflectorBookmarkStore is a ReflectorStore that wants to hear of watch
// bookmarks: the Reflector calls Bookmark with each bookmark's version.
// A RealFIFO is one.
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// Queue is what the run loop needs of its queue: a ReflectorStore the
// Reflector writes into, plus Pop, HasSynced and Close. *DeltaFIFO and
// *RealFIFO are Queues.
type Queue interface {
	ReflectorStore
	// Pop blocks until an item is queued, then calls process with it.
	Pop(process PopProcessFunc) (any, error)
	// HasSynced reports whether the first list has been popped.
	HasSynced() bool
	// Close makes Pop return ErrFIFOClosed once the queue is empty.
	Close()
}

// QueueWithBatch is a Queue that can also pop several deltas at once.
// *RealFIFO is one.
type QueueWithBatch interface {
	Queue
	// PopBatch pops one or more deltas of distinct keys: several go to
	// processBatch, a single one to processSingle (as a Deltas). Both must
	// process alike.
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// ProcessFunc processes one popped item (a Deltas).
type ProcessFunc func(obj any, isInInitialList bool) error

// ProcessBatchFunc processes deltas popped together; no two of them have
// the same key.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// ShouldResyncFunc says whether a resync is due now.
type ShouldResyncFunc func() bool

// Config configures a controller made by New.
type Config struct {
	// Queue is filled by the Reflector and drained by the run loop.
	Queue Queue
	// ListerWatcher is how the Reflector reaches the server.
	ListerWatcher ListerWatcher
	// Process handles each popped item.
	Process ProcessFunc
	// ProcessBatch, when set and the Queue is a QueueWithBatch, makes the
	// loop pop with PopBatch: runs of deltas go to ProcessBatch, single ones
	// to Process. In client-go the InOrderInformersBatchProcess gate must be
	// on as well; here the informer leaves ProcessBatch nil when it is off.
	ProcessBatch ProcessBatchFunc
	// ObjectType is an example object of the expected type (e.g. &Pod{}).
	ObjectType any
	// ObjectDescription names the objects in log messages.
	ObjectDescription string
	// FullResyncPeriod is how often to consider a resync; 0 never.
	FullResyncPeriod time.Duration
	// ShouldResync, if set, is asked before each resync; nil means always.
	ShouldResync ShouldResyncFunc
	// WatchErrorHandler is told about failed list/watch cycles.
	WatchErrorHandler WatchErrorHandler
	// WatchListPageSize is passed to the Reflector.
	WatchListPageSize int64
	// UseWatchList makes the Reflector start with a streaming list (the
	// WatchListClient gate; in client-go the Reflector reads the gate
	// itself).
	UseWatchList bool
	// Clock is where time comes from; RealClock when nil.
	Clock Clock
}

// Controller is the low-level run loop behind every informer.
type Controller interface {
	// Run runs the Reflector and the loop until ctx ends, then returns with
	// the queue closed and every goroutine it started ended.
	Run(ctx context.Context)
	// HasSynced reports whether the first list has been processed.
	HasSynced() bool
	// LastSyncResourceVersion is the version the Reflector last saw.
	LastSyncResourceVersion() string
}

type controller struct {
	config Config
	clock  Clock

	mu        sync.Mutex
	reflector *Reflector // set by Run
}

// New returns a Controller for cfg. Nothing runs until Run.
func New(cfg *Config) Controller {
	c := &controller{config: *cfg, clock: cfg.Clock}
	if c.clock == nil {
		c.clock = RealClock{}
	}
	return c
}

// Run starts the Reflector, the resync timer and the process loop, and
// blocks until ctx ends. Then it closes the queue, so the loop's Pop
// returns, and waits for all three to finish.
func (c *controller) Run(ctx context.Context) {
	r := NewReflectorWithOptions(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, ReflectorOptions{
		TypeDescription:   c.config.ObjectDescription,
		Clock:             c.clock,
		UseWatchList:      c.config.UseWatchList,
		WatchListPageSize: c.config.WatchListPageSize,
		WatchErrorHandler: c.config.WatchErrorHandler,
	})
	c.mu.Lock()
	c.reflector = r
	c.mu.Unlock()

	var wg sync.WaitGroup
	wg.Go(func() {
		<-ctx.Done()
		c.config.Queue.Close() // wakes the Pop in processLoop
	})
	wg.Go(func() { r.Run(ctx) })
	if c.config.FullResyncPeriod > 0 {
		wg.Go(func() { c.resyncLoop(ctx) })
	}
	c.processLoop()
	wg.Wait()
}

// processLoop pops until the queue is closed: with PopBatch when the queue
// and the config allow it, else with Pop. A failed item is logged and
// dropped (client-go's processLoop drops it silently); the next relist or
// resync delivers its object again.
func (c *controller) processLoop() {
	batchQueue, useBatch := c.config.Queue.(QueueWithBatch)
	useBatch = useBatch && c.config.ProcessBatch != nil
	for {
		var err error
		if useBatch {
			err = batchQueue.PopBatch(c.config.ProcessBatch, PopProcessFunc(c.config.Process))
		} else {
			_, err = c.config.Queue.Pop(PopProcessFunc(c.config.Process))
		}
		if errors.Is(err, ErrFIFOClosed) {
			return
		}
		if err != nil {
			slog.Error("processing an item failed", "type", c.config.ObjectDescription, "err", err)
		}
	}
}

// resyncLoop calls the queue's Resync every FullResyncPeriod, when
// ShouldResync says some handler is due. (In client-go this timer lives in
// the Reflector; the behaviour is the same.)
func (c *controller) resyncLoop(ctx context.Context) {
	runEvery(ctx, c.clock, c.config.FullResyncPeriod, func() {
		if c.config.ShouldResync == nil || c.config.ShouldResync() {
			if err := c.config.Queue.Resync(); err != nil {
				slog.Error("resync failed", "type", c.config.ObjectDescription, "err", err)
			}
		}
	})
}

// HasSynced reports whether the queue has handed out the whole first list.
func (c *controller) HasSynced() bool { return c.config.Queue.HasSynced() }

// LastSyncResourceVersion returns the Reflector's last seen version, or ""
// before Run.
func (c *controller) LastSyncResourceVersion() string {
	c.mu.Lock()
	r := c.reflector
	c.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

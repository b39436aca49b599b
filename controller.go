// controller.go holds the run loop: a Reflector fills a queue, the loop pops it, a timer resyncs
// (RunEvery, at the end, with the root's names for package clock's Clock, Timer and RealClock;
// tests move time with clock/testing's FakeClock).
// client-go counterpart: tools/cache controller.go (and reflector.go's resync); RunEvery is
// apimachinery's wait.Until, on a k8s.io/utils/clock Clock.
// Tutorial: 004 §4.2 (the controller run loop) and §4.4 (resync).

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

// ReflectorStore is what a Reflector writes into: a queue, or any Store.
type ReflectorStore interface {
	Add(obj any) error                                // obj was created
	Update(obj any) error                             // obj changed
	Delete(obj any) error                             // obj was deleted
	Replace(list []any, resourceVersion string) error // a full list, as of resourceVersion
	Resync() error                                    // re-deliver what the consumer holds (queues only)
}

// Queue is the run loop's queue (*DeltaFIFO, *RealFIFO).
type Queue interface {
	ReflectorStore
	Pop(process PopProcessFunc) (any, error) // blocks for an item, then calls process with it
	HasSynced() bool                         // the first list has been popped
	Close()                                  // Pop then returns ErrFIFOClosed once empty
}

// ProcessFunc processes one popped item (a Deltas).
type ProcessFunc func(obj any, isInInitialList bool) error

// ProcessBatchFunc processes deltas popped together, no two of one key.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// ShouldResyncFunc says whether a resync is due now.
type ShouldResyncFunc func() bool

// Config configures a controller made by New.
type Config struct {
	Queue             Queue             // filled by the Reflector, drained by the loop
	ListerWatcher     ListerWatcher     // how the Reflector reaches the server
	Process           ProcessFunc       // handles each popped item
	ProcessBatch      ProcessBatchFunc  // if set, and Queue is a QueueWithBatch, pop with PopBatch
	ObjectType        any               // an object of the expected type, e.g. &Pod{}
	ObjectDescription string            // names the objects in log messages
	FullResyncPeriod  time.Duration     // how often to consider a resync; 0 never
	ShouldResync      ShouldResyncFunc  // asked before each resync; nil: always
	WatchErrorHandler WatchErrorHandler // told of failed list/watch cycles
	WatchListPageSize int64             // the Reflector's list page size
	UseWatchList      bool              // streaming list (the WatchListClient gate)
	Clock             Clock             // RealClock when nil
}

// Controller is the low-level run loop behind every informer.
type Controller interface {
	Run(ctx context.Context)         // until ctx ends, and all it started ended
	HasSynced() bool                 // the first list has been processed
	LastSyncResourceVersion() string // the version the Reflector last saw; "" before Run
}

type controller struct {
	config    Config
	reflector atomic.Pointer[Reflector] // set by Run
}

// New returns a Controller for cfg. Nothing runs until Run.
func New(cfg *Config) Controller { return &controller{config: *cfg} }

// Run runs the Reflector, the resync timer and the process loop until ctx
// ends; then it closes the queue, so Pop returns, and waits for all three.
func (c *controller) Run(ctx context.Context) {
	r := NewReflectorWithOptions(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, ReflectorOptions{
		TypeDescription:   c.config.ObjectDescription,
		Clock:             c.config.Clock,
		UseWatchList:      c.config.UseWatchList,
		WatchListPageSize: c.config.WatchListPageSize,
		WatchErrorHandler: c.config.WatchErrorHandler,
	})
	c.reflector.Store(r)
	var wg sync.WaitGroup
	wg.Go(func() {
		<-ctx.Done()
		c.config.Queue.Close()
	})
	wg.Go(func() { r.Run(ctx) })
	if c.config.FullResyncPeriod > 0 {
		wg.Go(func() { // client-go's Reflector owns this timer
			RunEvery(ctx, r.clock, c.config.FullResyncPeriod, func() {
				if c.config.ShouldResync == nil || c.config.ShouldResync() {
					if err := c.config.Queue.Resync(); err != nil {
						slog.Error("resync failed", "type", c.config.ObjectDescription, "err", err)
					}
				}
			})
		})
	}
	c.processLoop()
	wg.Wait()
}

// processLoop pops until the queue is closed. A failed item is logged and
// dropped (client-go drops it silently); a relist or resync redelivers it.
func (c *controller) processLoop() {
	for {
		if err := popAndProcess(c.config); errors.Is(err, ErrFIFOClosed) { // hook: layers.go
			return
		} else if err != nil {
			slog.Error("processing an item failed", "type", c.config.ObjectDescription, "err", err)
		}
	}
}

// popAndProcess pops one item of cfg.Queue to cfg.Process; layers.go sets
// realfifo_batch.go's popBatch, which pops runs of deltas to cfg.ProcessBatch.
var popAndProcess = func(cfg Config) error {
	_, err := cfg.Queue.Pop(PopProcessFunc(cfg.Process))
	return err
}

func (c *controller) HasSynced() bool { return c.config.Queue.HasSynced() }

func (c *controller) LastSyncResourceVersion() string {
	if r := c.reflector.Load(); r != nil {
		return r.LastSyncResourceVersion()
	}
	return ""
}

// Clock, Timer and RealClock are package clock's (k8s.io/utils/clock in
// client-go), named here so that Options read informer.Clock.
type (
	Clock     = clock.Clock
	Timer     = clock.Timer
	RealClock = clock.RealClock
)

// RunEvery calls f every period on clock, counted from the end of the last
// call, until ctx ends. Unlike client-go's wait.Until, the first call comes
// after one period. The resync timer and the detector packages use it.
func RunEvery(ctx context.Context, clock Clock, period time.Duration, f func()) {
	t := clock.NewTimer(period)
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

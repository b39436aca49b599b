// queue.go holds the work queue itself, Typed[T]: a FIFO of items in which
// an item waits at most once (the dirty set) and is never handed to two
// workers at once (the processing set), and its shutdown, with or without
// waiting for the work in hand.
//
// client-go counterpart: Typed, TypedInterface, TypedQueueConfig, Queue,
// DefaultQueue, NewTyped and NewTypedWithConfig in
// k8s.io/client-go/util/workqueue queue.go (v0.37.2).
//
// Tutorial: 004 §2.2 (a queue that de-duplicates by key, as the DeltaFIFO
// does for deltas).

package workqueue

import (
	"sync"

	"github.com/learn-k8s/informer/clock"
)

// TypedInterface is what a work queue does. Every item a worker gets from
// Get must be given back to Done when the worker has finished with it.
type TypedInterface[T comparable] interface {
	// Add marks item as needing work.
	Add(item T)
	// Len is how many items wait in the queue (not those being worked on).
	Len() int
	// Get blocks until an item waits, and hands it to the caller; shutdown
	// is true when the queue has shut down and holds nothing more.
	Get() (item T, shutdown bool)
	// Done says the caller has finished with item.
	Done(item T)
	// ShutDown makes the queue ignore Add from now on; Get still returns
	// what waits, then reports shutdown.
	ShutDown()
	// ShutDownWithDrain is ShutDown that also waits for the items being
	// worked on to be Done.
	ShutDownWithDrain()
	// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
	ShuttingDown() bool
}

// Queue is the order in which a Typed queue hands out its items: the
// default is first in, first out (DefaultQueue); a priority order is a
// Queue of one's own. Typed calls it with its lock held, so a Queue needs
// no lock of its own.
type Queue[T comparable] interface {
	// Touch is called when an item already waiting is added again; a
	// priority queue may move it. The FIFO does nothing.
	Touch(item T)
	// Push appends an item that is not in the queue.
	Push(item T)
	// Len is the number of items in the queue.
	Len() int
	// Pop removes and returns the next item; the queue is not empty.
	Pop() (item T)
}

// DefaultQueue returns a first-in, first-out Queue kept in a slice.
func DefaultQueue[T comparable]() Queue[T] { return new(fifo[T]) }

// fifo is the slice behind DefaultQueue.
type fifo[T comparable] []T

func (q *fifo[T]) Touch(item T) {}
func (q *fifo[T]) Push(item T)  { *q = append(*q, item) }
func (q *fifo[T]) Len() int     { return len(*q) }

func (q *fifo[T]) Pop() T {
	item := (*q)[0]
	var zero T
	(*q)[0] = zero // the array still holds this slot: let its item be collected
	*q = (*q)[1:]
	return item
}

// TypedQueueConfig holds the choices a Typed queue can be built with.
type TypedQueueConfig[T comparable] struct {
	// Name names the queue's metrics; a queue without a name has none.
	Name string
	// MetricsProvider makes the queue's metrics (metrics.go); nil is the
	// one SetProvider set, by default none.
	MetricsProvider MetricsProvider
	// Clock times the metrics; nil is the real clock.
	Clock clock.Clock
	// Queue is the order of the items; nil means DefaultQueue.
	Queue Queue[T]
}

// NewTyped returns an empty work queue of items of type T.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig returns an empty work queue built as config says. A
// queue with metrics (a Name and a provider) runs a goroutine that sets
// the work-in-progress gauges until ShutDown.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	order := config.Queue
	if order == nil {
		order = DefaultQueue[T]()
	}
	clk := config.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	q := &Typed[T]{
		queue:      order,
		dirty:      set[T]{},
		processing: set[T]{},
		metrics:    newQueueMetrics[T](config.MetricsProvider, config.Name, clk),
		stopCh:     make(chan struct{}),
	}
	q.cond = sync.NewCond(&q.mu)
	if q.metrics != nil {
		q.wg.Go(func() { q.updateUnfinishedWorkLoop(clk) })
	}
	return q
}

// set is a set of items.
type set[T comparable] map[T]struct{}

func (s set[T]) insert(item T) { s[item] = struct{}{} }
func (s set[T]) delete(item T) { delete(s, item) }

func (s set[T]) has(item T) bool {
	_, ok := s[item]
	return ok
}

// Typed is a work queue of items of type T (usually string keys). It is
// safe for use by any number of goroutines. Make one with NewTyped.
//
// An item is in one of four states: unknown; dirty (waiting in queue);
// processing (a worker has it); or both processing and dirty (added again
// while a worker has it: it goes back into queue when the worker calls
// Done, so that it is never worked on twice at once).
type Typed[T comparable] struct {
	mu sync.Mutex // guards every field below; cond waits on it
	// cond wakes goroutines waiting in Get (an item was queued, or the
	// queue shut down) and in ShutDownWithDrain (the last item was Done).
	cond *sync.Cond

	// queue is the order of the items waiting for a worker. Every item in
	// it is in dirty and not in processing.
	queue Queue[T]
	// dirty holds every item that needs work: those in queue, and those
	// added again while being processed.
	dirty set[T]
	// processing holds the items handed out by Get and not yet Done.
	processing set[T]

	shuttingDown bool // ShutDown or ShutDownWithDrain was called: Add does nothing
	drain        bool // ShutDownWithDrain waits for processing to empty

	// metrics reports on the queue (nil: no metrics). Its maps are guarded
	// by mu too: Add, Get and Done call it with mu held.
	metrics *queueMetrics[T]
	// stopCh is closed, once, by the first shutdown, to end the
	// unfinished-work goroutine; wg waits for that goroutine.
	stopCh   chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

// Add marks item as needing work. An item already waiting is not queued
// again; an item being worked on is queued again when its worker calls
// Done. After ShutDown, Add does nothing.
// (client-go: (*Typed).Add.)
func (q *Typed[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if q.dirty.has(item) {
		if !q.processing.has(item) {
			q.queue.Touch(item) // it is waiting in queue: the order may move it
		}
		return
	}
	q.metrics.add(item)
	q.dirty.insert(item)
	if q.processing.has(item) {
		return // Done queues it: never two workers on one item
	}
	q.queue.Push(item)
	q.cond.Signal() // one item: wake one waiting Get
}

// Len returns how many items wait in the queue, not counting those being
// worked on (nor, in a delaying queue, those waiting for their time). It is
// for information only: by the time the caller reads it, it may be wrong.
func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queue.Len()
}

// Get blocks until an item waits in the queue or the queue shuts down. It
// returns the next item, now being processed: the caller must call Done
// with it when finished. After a shutdown Get still returns the items that
// wait; once none is left it returns shutdown true (and the zero item), and
// the worker should end.
// (client-go: (*Typed).Get.)
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		var zero T
		return zero, true // shut down, and nothing left
	}
	item = q.queue.Pop()
	q.metrics.get(item)
	q.processing.insert(item)
	q.dirty.delete(item) // from now on an Add of item marks it dirty again
	return item, false
}

// Done marks item as no longer being processed. If it was added again
// meanwhile, it goes back into the queue now. Call it exactly once for each
// item Get returned, even when the work failed (AddRateLimited before Done
// to retry).
// (client-go: (*Typed).Done.)
func (q *Typed[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.metrics.done(item)
	q.processing.delete(item)
	if q.dirty.has(item) {
		q.queue.Push(item)
		q.cond.Signal()
	} else if len(q.processing) == 0 {
		q.cond.Signal() // a ShutDownWithDrain may wait for this
	}
}

// ShutDown makes the queue ignore every Add from now on and wakes every
// waiting Get. Workers go on getting the items already queued, then Get
// reports shutdown. It does not wait for anything; it also ends a
// ShutDownWithDrain that is waiting.
// (client-go: (*Typed).ShutDown.)
func (q *Typed[T]) ShutDown() {
	defer q.stopMetrics()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast()
}

// ShutDownWithDrain is ShutDown, then waits until no item is being
// processed: until every item handed out by Get is Done. It waits for the
// items in workers' hands, not for the queue to empty: if no worker holds
// an item when it is called, it returns at once, and what is still queued
// is left to the workers' Gets. A worker that never calls Done makes it
// wait for good; ShutDown, from another goroutine, ends the wait.
// (client-go: (*Typed).ShutDownWithDrain, which behaves so in v0.37.2
// although its comment speaks of the items "in the queue".)
func (q *Typed[T]) ShutDownWithDrain() {
	defer q.stopMetrics()
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for len(q.processing) != 0 && q.drain {
		q.cond.Wait()
	}
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain has been
// called.
func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

// stopMetrics ends the unfinished-work goroutine, if any, and waits for
// it. The shutdowns call it.
func (q *Typed[T]) stopMetrics() {
	q.stopOnce.Do(func() { close(q.stopCh) })
	q.wg.Wait()
}

// updateUnfinishedWorkLoop sets the work-in-progress gauges every
// unfinishedWorkUpdatePeriod on clk, until the queue shuts down.
// (client-go: (*Typed).updateUnfinishedWorkLoop.)
func (q *Typed[T]) updateUnfinishedWorkLoop(clk clock.Clock) {
	t := clk.NewTimer(unfinishedWorkUpdatePeriod)
	defer t.Stop()
	for {
		select {
		case <-t.C():
			q.mu.Lock()
			if !q.shuttingDown {
				q.metrics.updateUnfinishedWork()
			}
			q.mu.Unlock()
			t.Reset(unfinishedWorkUpdatePeriod)
		case <-q.stopCh:
			return
		}
	}
}

// delaying_queue.go holds the delaying queue: a work queue with AddAfter,
// which adds an item once a delay has passed. Items waiting for their time
// sit in a heap ordered by when they are due, owned by one goroutine that
// sleeps on the clock until the first of them is due.
//
// client-go counterpart: TypedDelayingInterface, TypedDelayingQueueConfig,
// NewTypedDelayingQueue, NewTypedDelayingQueueWithConfig, delayingType,
// waitingLoop and insert in k8s.io/client-go/util/workqueue
// delaying_queue.go (v0.37.2).
//
// Tutorial: 000 §5 (backpressure: a failed item comes back later, not at
// once).

package workqueue

import (
	"container/heap"
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// TypedDelayingInterface is a work queue that can also add an item later:
// how a controller retries without spinning.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item to the queue once duration has passed; at once
	// when duration is 0 or less.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig holds the choices a delaying queue can be built
// with.
type TypedDelayingQueueConfig[T comparable] struct {
	// Name names the queue's metrics (see TypedQueueConfig.Name).
	Name string
	// MetricsProvider makes them; nil is the one SetProvider set.
	MetricsProvider MetricsProvider
	// Clock is the time the delays are measured on; nil is the real clock.
	// Tests pass clock/testing's FakeClock and move time by hand.
	Clock clock.Clock
	// Queue is the work queue the items go into when due; nil is a new
	// NewTypedWithConfig queue.
	Queue TypedInterface[T]
}

// NewTypedDelayingQueue returns an empty delaying queue on the real clock.
// Its goroutine runs until ShutDown (or ShutDownWithDrain) is called.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// NewTypedDelayingQueueWithConfig returns an empty delaying queue built as
// config says. Its goroutine runs until ShutDown (or ShutDownWithDrain) is
// called.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	c := config.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	inner := config.Queue
	if inner == nil {
		inner = NewTypedWithConfig(TypedQueueConfig[T]{Name: config.Name,
			MetricsProvider: config.MetricsProvider, Clock: c})
	}
	q := &delayingType[T]{
		TypedInterface:  inner,
		clock:           c,
		stopCh:          make(chan struct{}),
		loopDone:        make(chan struct{}),
		waitingForAddCh: make(chan *waitFor[T], 1000),
		metrics:         newRetryMetrics(config.MetricsProvider, config.Name),
	}
	go q.waitingLoop()
	return q
}

// delayingType adds AddAfter to a work queue it wraps: the wrapped queue's
// methods are its own, but for the shutdowns, which also stop its goroutine.
type delayingType[T comparable] struct {
	TypedInterface[T]

	clock clock.Clock

	// stopCh is closed, once (stopOnce), to end waitingLoop.
	stopCh   chan struct{}
	stopOnce sync.Once
	// loopDone is closed when waitingLoop has returned.
	loopDone chan struct{}

	// waitingForAddCh carries AddAfter's items to waitingLoop, which owns
	// the heap: only that goroutine touches it, so the heap needs no lock.
	// Its buffer lets AddAfter return without waiting for the loop.
	waitingForAddCh chan *waitFor[T]

	// metrics counts AddAfter calls (nil: no metrics).
	metrics *retryMetrics
}

// waitFor is an item waiting for its time.
type waitFor[T any] struct {
	data    T
	readyAt time.Time // when it is due
	index   int       // its place in the heap, kept by Swap, for heap.Fix
}

// waitForPriorityQueue is a min-heap of waiting items, the earliest due at
// index 0, through container/heap.
type waitForPriorityQueue[T any] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int           { return len(pq) }
func (pq waitForPriorityQueue[T]) Less(i, j int) bool { return pq[i].readyAt.Before(pq[j].readyAt) }

func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}

// Push and Pop are container/heap's: call heap.Push and heap.Pop instead.
func (pq *waitForPriorityQueue[T]) Push(x any) {
	entry := x.(*waitFor[T])
	entry.index = len(*pq)
	*pq = append(*pq, entry)
}

func (pq *waitForPriorityQueue[T]) Pop() any {
	last := len(*pq) - 1
	entry := (*pq)[last]
	entry.index = -1
	(*pq)[last] = nil
	*pq = (*pq)[:last]
	return entry
}

// ShutDown shuts the wrapped queue down and stops the goroutine. It may be
// called more than once, but only the first call (of ShutDown, or a
// finished ShutDownWithDrain) reaches the wrapped queue: a ShutDown after a
// ShutDown does not end a ShutDownWithDrain waiting in between, as in
// client-go.
// (client-go: (*delayingType).ShutDown.)
func (q *delayingType[T]) ShutDown() {
	q.stopOnce.Do(func() {
		q.TypedInterface.ShutDown()
		close(q.stopCh)
	})
}

// ShutDownWithDrain shuts the wrapped queue down, waits for the items being
// processed to be Done, then stops the goroutine. (client-go's delayingType
// does not override ShutDownWithDrain: its goroutine notices the shutdown at
// its next wake-up, at most 10 s later. Items coming due meanwhile are
// ignored by the shut-down queue either way: the difference shows only in a
// count of goroutines.)
func (q *delayingType[T]) ShutDownWithDrain() {
	q.TypedInterface.ShutDownWithDrain()
	q.stopOnce.Do(func() { close(q.stopCh) })
}

// AddAfter adds item to the queue once duration has passed on the queue's
// clock: at once when duration is 0 or less, never once the queue is
// shutting down. An item already waiting keeps the earlier of its two
// times. AddAfter does not block, unless 1,000 items are on their way to
// the goroutine.
// (client-go: (*delayingType).AddAfter.)
func (q *delayingType[T]) AddAfter(item T, duration time.Duration) {
	if q.ShuttingDown() {
		return
	}
	q.metrics.retry() // every AddAfter counts, a due one too, as in client-go
	if duration <= 0 {
		q.Add(item)
		return
	}
	entry := &waitFor[T]{data: item, readyAt: q.clock.Now().Add(duration)}
	select {
	case q.waitingForAddCh <- entry:
	case <-q.stopCh: // shut down while the channel was full
	}
}

// waitingLoop owns the heap of waiting items: it adds each item to the
// queue when due, and takes new ones from AddAfter, until the queue shuts
// down. One timer, for the earliest item, is all it sleeps on.
// (client-go: (*delayingType).waitingLoop. client-go also wakes every 10 s,
// maxWait, in case a timer is missed; on a clock whose timers fire that
// changes nothing, and this loop leaves it out.)
func (q *delayingType[T]) waitingLoop() {
	defer close(q.loopDone)
	waiting := &waitForPriorityQueue[T]{}
	byItem := map[T]*waitFor[T]{} // the heap's entries by item: an item waits once
	var timer clock.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		if q.TypedInterface.ShuttingDown() {
			return
		}
		now := q.clock.Now()
		for waiting.Len() > 0 && !(*waiting)[0].readyAt.After(now) {
			entry := heap.Pop(waiting).(*waitFor[T])
			delete(byItem, entry.data)
			q.Add(entry.data)
		}

		var nextReady <-chan time.Time // nil, so it never fires, while the heap is empty
		if waiting.Len() > 0 {
			if timer != nil {
				timer.Stop()
			}
			timer = q.clock.NewTimer((*waiting)[0].readyAt.Sub(now))
			nextReady = timer.C()
		}

		select {
		case <-q.stopCh:
			return
		case <-nextReady:
			// due: the top of the loop adds it
		case entry := <-q.waitingForAddCh:
			q.addOrWait(waiting, byItem, entry)
			q.takeQueuedAdds(waiting, byItem)
		}
	}
}

// takeQueuedAdds takes every entry already in waitingForAddCh, without
// blocking, so that a burst of AddAfter costs one pass of the loop.
func (q *delayingType[T]) takeQueuedAdds(waiting *waitForPriorityQueue[T], byItem map[T]*waitFor[T]) {
	for {
		select {
		case entry := <-q.waitingForAddCh:
			q.addOrWait(waiting, byItem, entry)
		default:
			return
		}
	}
}

// addOrWait adds entry's item to the queue if it is already due (time may
// have moved since AddAfter), else puts it in the heap.
func (q *delayingType[T]) addOrWait(waiting *waitForPriorityQueue[T], byItem map[T]*waitFor[T], entry *waitFor[T]) {
	if !entry.readyAt.After(q.clock.Now()) {
		q.Add(entry.data)
		return
	}
	insert(waiting, byItem, entry)
}

// insert puts entry in the heap. If its item is already waiting, it is not
// added twice: the entry there keeps the earlier time.
// (client-go: insert.)
func insert[T comparable](waiting *waitForPriorityQueue[T], byItem map[T]*waitFor[T], entry *waitFor[T]) {
	if existing, ok := byItem[entry.data]; ok {
		if existing.readyAt.After(entry.readyAt) {
			existing.readyAt = entry.readyAt
			heap.Fix(waiting, existing.index)
		}
		return
	}
	heap.Push(waiting, entry)
	byItem[entry.data] = entry
}

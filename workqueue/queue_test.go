// queue_test.go tests the work queue alone: the dirty and processing sets,
// Get blocking and waking, the two shutdowns, and many workers at once.
//
// client-go counterpart: k8s.io/client-go/util/workqueue queue_test.go
// (v0.37.2) tests the same rules.
//
// Tutorial: 004 §2.2 (de-duplication by key).

package workqueue

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/learn-k8s/informer/internal/walkthrough"
)

// getNow gets an item that must already be waiting.
func getNow[T comparable](t *testing.T, q TypedInterface[T]) T {
	t.Helper()
	if q.Len() == 0 {
		t.Fatal("Get would block: the queue is empty")
	}
	item, shutdown := q.Get()
	if shutdown {
		t.Fatal("Get reported shutdown with items waiting")
	}
	return item
}

// getAsync calls Get in a goroutine; the channel gets what it returned.
func getAsync[T comparable](q TypedInterface[T]) <-chan getResult[T] {
	ch := make(chan getResult[T], 1)
	go func() {
		item, shutdown := q.Get()
		ch <- getResult[T]{item, shutdown}
	}()
	return ch
}

type getResult[T comparable] struct {
	item     T
	shutdown bool
}

func TestQueueWaitingItemIsQueuedOnce(t *testing.T) {
	q := NewTyped[string]()
	for _, k := range []string{"a", "b", "a", "a", "c", "b"} {
		q.Add(k)
	}
	if q.Len() != 3 {
		t.Fatalf("Len = %d after adding a, b, a, a, c, b; want 3 (each waiting key once)", q.Len())
	}
	var got []string
	for q.Len() > 0 {
		got = append(got, getNow(t, q))
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("Get order = %v, want [a b c]: first added, first out", got)
	}
}

func TestQueueItemAddedWhileProcessingWaitsForDone(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	a := getNow(t, q)
	q.Add("a")
	q.Add("a")
	if q.Len() != 0 {
		t.Fatalf("Len = %d: an item added while a worker has it must not be handed out yet", q.Len())
	}
	q.Done(a)
	if q.Len() != 1 {
		t.Fatalf("Len = %d after Done: the item added twice meanwhile must be queued once", q.Len())
	}
	q.Done(getNow(t, q))
	if q.Len() != 0 {
		t.Fatalf("Len = %d: Done with nothing added meanwhile queues nothing", q.Len())
	}
}

func TestQueueGetBlocksUntilAddOrShutDown(t *testing.T) {
	q := NewTyped[string]()
	got := getAsync[string](q)
	q.Add("a")
	if r := walkthrough.Receive(t, "the waiting Get to return a", got); r.item != "a" || r.shutdown {
		t.Fatalf("a waiting Get returned %+v, want a", r)
	}
	got = getAsync[string](q)
	q.ShutDown()
	if r := walkthrough.Receive(t, "the waiting Get to return after ShutDown", got); !r.shutdown {
		t.Fatalf("a waiting Get returned %+v after ShutDown, want shutdown", r)
	}
}

func TestQueueShutDownIgnoresAddButHandsOutWhatWaits(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	processing := getNow(t, q)
	q.ShutDown()
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown is false after ShutDown")
	}
	q.Add("c")
	q.Add(processing) // would be dirty again without the shutdown
	q.Done(processing)
	if q.Len() != 1 {
		t.Fatalf("Len = %d after ShutDown, Add c, Add and Done a; want 1 (only b)", q.Len())
	}
	if item := getNow(t, q); item != "b" {
		t.Fatalf("Get = %q after ShutDown, want b: what waited is still handed out", item)
	}
	if r := walkthrough.Receive(t, "a Get on the shut-down, empty queue", getAsync[string](q)); !r.shutdown {
		t.Fatal("Get did not report shutdown once the queue was empty")
	}
}

func TestQueueShutDownWithDrainWaitsForProcessingOnly(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	a := getNow(t, q)
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	walkthrough.WaitFor(t, "the queue to be shutting down", q.ShuttingDown)
	// b still waits, and a worker may take it: drain lets workers finish.
	b := getNow(t, q)
	q.Done(a)
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while b was still being processed")
	default:
	}
	q.Done(b)
	walkthrough.Receive(t, "ShutDownWithDrain to return after Done(b)", drained)

	// With nothing being processed it returns at once, whatever is queued.
	q2 := NewTyped[string]()
	q2.Add("queued")
	q2.ShutDownWithDrain()
	if q2.Len() != 1 {
		t.Fatalf("Len = %d: ShutDownWithDrain does not empty the queue, it waits for processing", q2.Len())
	}
}

func TestQueueShutDownEndsAWaitingDrain(t *testing.T) {
	q := NewTyped[string]()
	q.Add("stuck")
	getNow(t, q) // never Done
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	walkthrough.WaitFor(t, "the queue to be shutting down", q.ShuttingDown)
	q.ShutDown()
	walkthrough.Receive(t, "ShutDownWithDrain to return after ShutDown", drained)
}

// touchCounter is a FIFO that counts Touch calls.
type touchCounter struct {
	Queue[string]
	touched []string
}

func (c *touchCounter) Touch(item string) { c.touched = append(c.touched, item) }

func TestQueueTouchesAWaitingItemAddedAgain(t *testing.T) {
	order := &touchCounter{Queue: DefaultQueue[string]()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Queue: order})
	q.Add("a")
	q.Add("a") // waiting: touched
	getNow(t, q)
	q.Add("a") // processing: now dirty, not touched
	q.Add("a") // processing and dirty: not touched
	if !slices.Equal(order.touched, []string{"a"}) {
		t.Fatalf("Touch calls = %v, want [a]: only an item waiting in the queue is touched", order.touched)
	}
}

func TestQueueNoItemIsProcessedTwiceAtOnce(t *testing.T) {
	q := NewTyped[int]()
	const workers, keys, adds = 8, 10, 2000
	var busy [keys]atomic.Int32
	var processed atomic.Int64
	var twice atomic.Int64 // counted, not reported from the workers: they may outlive a failed test
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				if busy[k].Add(1) != 1 {
					twice.Add(1)
				}
				processed.Add(1)
				busy[k].Add(-1)
				q.Done(k)
			}
		})
	}
	for i := range adds {
		q.Add(i % keys)
	}
	walkthrough.ReturnsWithin(t, "the drain, the shutdown and the workers' end", func() {
		q.ShutDownWithDrain()
		q.ShutDown()
		wg.Wait() // every worker ends once the queue is shut down and empty
	})
	if n := twice.Load(); n != 0 {
		t.Fatalf("a key was handed to two workers at once, %d times", n)
	}
	if n := processed.Load(); n < keys || n > adds {
		t.Fatalf("%d items processed for %d adds of %d keys", n, adds, keys)
	}
}

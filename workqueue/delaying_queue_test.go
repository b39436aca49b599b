// delaying_queue_test.go tests AddAfter on a fake clock: nothing is queued
// before its time, items come out in the order they are due, an item
// waiting twice keeps its earlier time, and the goroutine ends with the
// queue.
//
// client-go counterpart: k8s.io/client-go/util/workqueue
// delaying_queue_test.go (v0.37.2) tests the same rules.
//
// Tutorial: 000 §5 (a retry comes back later, not at once).

package workqueue

import (
	"slices"
	"testing"
	"time"

	"github.com/learn-k8s/informer/clock"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// timerClock is a FakeClock that tells, on timers, each time a timer is
// made: the waiting loop makes one at the end of each pass that leaves
// items in its heap, so a test knows the loop has taken an AddAfter in.
type timerClock struct {
	*testingclock.FakeClock
	timers chan time.Duration
}

func newTimerClock() *timerClock {
	return &timerClock{
		FakeClock: testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		timers:    make(chan time.Duration, 100),
	}
}

func (c *timerClock) NewTimer(d time.Duration) clock.Timer {
	t := c.FakeClock.NewTimer(d)
	c.timers <- d
	return t
}

// newDelaying returns a delaying queue on c that is shut down when the test
// ends, and checks that its goroutine has ended then.
func newDelaying(t *testing.T, c clock.Clock) *delayingType[string] {
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c}).(*delayingType[string])
	t.Cleanup(func() {
		q.ShutDown()
		walkthrough.Receive(t, "the waiting loop to end after ShutDown", (<-chan struct{})(q.loopDone))
	})
	return q
}

// addAfter calls AddAfter and waits until the loop has put the item in its
// heap and set its timer for the earliest item: want is that timer.
func addAfter(t *testing.T, q *delayingType[string], c *timerClock, item string, d, want time.Duration) {
	t.Helper()
	q.AddAfter(item, d)
	if got := walkthrough.Receive(t, "the loop to set its timer", (<-chan time.Duration)(c.timers)); got != want {
		t.Fatalf("after AddAfter(%s, %v) the loop waits %v, want %v", item, d, got, want)
	}
}

// drain gets (and Dones) every waiting item, in order.
func drain(t *testing.T, q TypedInterface[string]) []string {
	var got []string
	for q.Len() > 0 {
		item := getNow(t, q)
		q.Done(item)
		got = append(got, item)
	}
	return got
}

func TestDelayingQueueAddsWhenDueInOrder(t *testing.T) {
	c := newTimerClock()
	q := newDelaying(t, c)
	addAfter(t, q, c, "late", 50*time.Millisecond, 50*time.Millisecond)
	addAfter(t, q, c, "early", 10*time.Millisecond, 10*time.Millisecond)
	addAfter(t, q, c, "middle", 30*time.Millisecond, 10*time.Millisecond)
	if q.Len() != 0 {
		t.Fatalf("Len = %d before any delay has passed, want 0", q.Len())
	}
	c.Step(30 * time.Millisecond)
	walkthrough.WaitFor(t, "early and middle to be queued at 30 ms", func() bool { return q.Len() == 2 })
	c.Step(20 * time.Millisecond)
	walkthrough.WaitFor(t, "late to be queued at 50 ms", func() bool { return q.Len() == 3 })
	if got := drain(t, q); !slices.Equal(got, []string{"early", "middle", "late"}) {
		t.Fatalf("order = %v, want the order they were due: [early middle late]", got)
	}
}

func TestDelayingQueueItemWaitingTwiceKeepsTheEarlierTime(t *testing.T) {
	c := newTimerClock()
	q := newDelaying(t, c)
	addAfter(t, q, c, "a", 10*time.Millisecond, 10*time.Millisecond)
	addAfter(t, q, c, "a", 50*time.Millisecond, 10*time.Millisecond) // later: ignored
	addAfter(t, q, c, "b", 20*time.Millisecond, 10*time.Millisecond)
	c.Step(10 * time.Millisecond)
	walkthrough.WaitFor(t, "a to be queued at 10 ms", func() bool { return q.Len() == 1 })
	// The loop sets its timer for b, the only one left: a waited once.
	if got := walkthrough.Receive(t, "the loop's timer for b", (<-chan time.Duration)(c.timers)); got != 10*time.Millisecond {
		t.Fatalf("after a came due the loop waits %v, want 10ms (b alone is left)", got)
	}
	addAfter(t, q, c, "b", 5*time.Millisecond, 5*time.Millisecond) // earlier: moves b up
	c.Step(5 * time.Millisecond)
	walkthrough.WaitFor(t, "b to be queued at 15 ms", func() bool { return q.Len() == 2 })
}

func TestDelayingQueueAddAfterZeroAddsAtOnce(t *testing.T) {
	c := newTimerClock()
	q := newDelaying(t, c)
	q.AddAfter("now", 0)
	q.AddAfter("past", -time.Second)
	if q.Len() != 2 {
		t.Fatalf("Len = %d after AddAfter with 0 and a negative delay, want 2", q.Len())
	}
}

func TestDelayingQueueShutDownStopsTheLoopAndAddAfter(t *testing.T) {
	c := newTimerClock()
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c}).(*delayingType[string])
	addAfter(t, q, c, "waiting", time.Second, time.Second)
	q.ShutDown()
	q.ShutDown() // a second call is harmless
	walkthrough.Receive(t, "the waiting loop to end after ShutDown", (<-chan struct{})(q.loopDone))
	q.AddAfter("late", time.Millisecond)
	q.AddAfter("now", 0)
	c.Step(time.Hour)
	if q.Len() != 0 || c.HasWaiters() {
		t.Fatalf("Len = %d, timers waiting %v: nothing is added after ShutDown", q.Len(), c.Waiters())
	}
}

func TestDelayingQueueShutDownWithDrainStopsTheLoop(t *testing.T) {
	c := newTimerClock()
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c}).(*delayingType[string])
	q.Add("a")
	a := getNow(t, q)
	addAfter(t, q, c, "b", time.Second, time.Second)
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	walkthrough.WaitFor(t, "the queue to be shutting down", q.ShuttingDown)
	q.Done(a)
	walkthrough.Receive(t, "ShutDownWithDrain to return after Done(a)", (<-chan struct{})(drained))
	walkthrough.Receive(t, "the waiting loop to end after the drain", (<-chan struct{})(q.loopDone))
}

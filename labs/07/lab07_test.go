// lab07_test.go grades lab 7: the work queue's dirty and processing sets
// (Add, Get, Done), its two shutdowns, the per-item exponential backoff and
// the rate-limiting queue's AddRateLimited and Forget. Copied into the
// student repository's workqueue/ package.
//
// client-go counterpart: (*Typed).Add, Get, Done, ShutDown and
// ShutDownWithDrain in k8s.io/client-go/util/workqueue queue.go; the
// ItemExponentialFailureRateLimiter in default_rate_limiters.go; the
// rateLimitingType in rate_limiting_queue.go (v0.37.2).
//
// Tutorial: 004 §2.3; 000 §5 (backpressure).

//go:build informerlab

package workqueue

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
)

// lab07Got is what one call of Get returned.
type lab07Got struct {
	item     string
	shutdown bool
}

// lab07GetAsync calls Get on a goroutine of its own; the channel gets what
// it returned.
func lab07GetAsync(q TypedInterface[string]) <-chan lab07Got {
	ch := make(chan lab07Got, 1)
	go func() {
		item, shutdown := q.Get()
		ch <- lab07Got{item, shutdown}
	}()
	return ch
}

// lab07Get calls Get, which must return within 5 s (an item waits, or the
// queue is shut down), and returns what it returned.
func lab07Get(t *testing.T, q TypedInterface[string], section int, what string) lab07Got {
	t.Helper()
	var got lab07Got
	labWithin(t, 7, section, what, func() { got.item, got.shutdown = q.Get() })
	return got
}

// lab07Receive waits 5 s at most for a value on ch; ok is false if none came.
func lab07Receive[T any](ch <-chan T) (v T, ok bool) {
	select {
	case v = <-ch:
		return v, true
	case <-time.After(5 * time.Second):
		return v, false
	}
}

// lab07NotWithin waits d for a value on ch, which must NOT come: it reports
// whether none came. A right answer never sends, so it always passes; the
// wait only gives a wrong answer (a Get or a drain that does not wait) the
// time to show itself. It is not synchronisation: nothing waits on it.
func lab07NotWithin[T any](ch <-chan T, d time.Duration) (v T, none bool) {
	select {
	case v = <-ch:
		return v, false
	case <-time.After(d):
		return v, true
	}
}

// TestLab07AddQueuesAKeyOnce: a key waits in the queue once, however often
// it is added; Get hands keys out first in, first out.
func TestLab07AddQueuesAKeyOnce(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	for _, k := range []string{"a", "b", "a", "a", "c", "b"} {
		labWithin(t, 7, 1, "Add("+k+")", func() { q.Add(k) })
	}
	labExpect(t, 7, 1, "Len after Add a, b, a, a, c, b (each waiting key once)",
		"依次 Add a、b、a、a、c、b 之后的 Len（每个在排队的键只算一次）", 3, q.Len())
	var order []string
	for q.Len() > 0 && len(order) < 6 {
		got := lab07Get(t, q, 1, labPick("Get with keys waiting", "有键在排队时的 Get"))
		order = append(order, got.item)
		labWithin(t, 7, 1, "Done("+got.item+")", func() { q.Done(got.item) })
	}
	labExpect(t, 7, 1, "the keys Get hands out (first added, first out)",
		"Get 交出的键（先加入的先出）", []string{"a", "b", "c"}, order)
	labExpect(t, 7, 1, "Len once every key was Done", "每个键都 Done 之后的 Len", 0, q.Len())
}

// TestLab07GetWaitsForAnAdd: a Get on an empty queue waits until an Add
// gives it a key.
func TestLab07GetWaitsForAnAdd(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	got := lab07GetAsync(q)
	if early, none := lab07NotWithin(got, 100*time.Millisecond); !none {
		labFailf(t, 7, 1, "a Get on an empty queue returned %+v before any Add: it must wait (sync.Cond's Wait, in a loop)",
			"空队列上的 Get 在任何 Add 之前就返回了 %+v：它必须等待（在循环里调用 sync.Cond 的 Wait）", early)
		return
	}
	labWithin(t, 7, 1, labPick("Add(a) while a Get waits", "有 Get 在等待时 Add(a)"), func() { q.Add("a") })
	r, ok := lab07Receive(got)
	if !ok {
		labFailf(t, 7, 1, "a waiting Get did not return within 5 s of Add(a): does Add wake a waiting Get?",
			"Add(a) 之后 5 秒内，正在等待的 Get 没有返回：Add 唤醒正在等待的 Get 了吗？")
		return
	}
	labExpect(t, 7, 1, "what the waiting Get returned after Add(a)", "Add(a) 之后正在等待的 Get 返回的内容",
		lab07Got{"a", false}, r)
}

// TestLab07GetWokenWithNothingQueuedWaitsOn: a Get woken while the queue
// is still empty and open waits again. Done signals when processing
// becomes empty (a ShutDownWithDrain may wait for that), and the signal can
// wake a waiting Get: with an if around cond.Wait instead of a for, that
// Get returns shutdown true with the queue open, and its worker ends.
func TestLab07GetWokenWithNothingQueuedWaitsOn(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	q.Add("a")
	labExpect(t, 7, 1, "the first Get", "第一次 Get", lab07Got{"a", false},
		lab07Get(t, q, 1, labPick("Get with a waiting", "a 在排队时的 Get")))
	waiting := lab07GetAsync(q)
	if early, none := lab07NotWithin(waiting, 50*time.Millisecond); !none {
		labFailf(t, 7, 1, "a Get on an empty queue returned %+v before any Add or ShutDown", "空队列上的 Get 在任何 Add 或 ShutDown 之前就返回了 %+v", early)
		return
	}
	labWithin(t, 7, 1, "Done(a)", func() { q.Done("a") })
	if early, none := lab07NotWithin(waiting, 100*time.Millisecond); !none {
		labFailf(t, 7, 1, "after Done(a), the Get waiting on the empty queue returned %+v, with nothing queued and no ShutDown:"+
			" woken, it must look again and wait on (a for around cond.Wait, not an if)",
			"Done(a) 之后，在空队列上等待的 Get 返回了 %+v，而队列里什么都没有、也没有 ShutDown："+
				"被唤醒后它必须再看一次、继续等待（cond.Wait 外面是 for，不是 if）", early)
		return
	}
	labWithin(t, 7, 1, labPick("Add(b) while a Get waits", "有 Get 在等待时 Add(b)"), func() { q.Add("b") })
	r, ok := lab07Receive(waiting)
	if !ok {
		labFailf(t, 7, 1, "a waiting Get did not return within 5 s of Add(b)", "Add(b) 之后 5 秒内，正在等待的 Get 没有返回")
		return
	}
	labExpect(t, 7, 1, "what the waiting Get returned after Add(b)", "Add(b) 之后正在等待的 Get 返回的内容", lab07Got{"b", false}, r)
}

// TestLab07NeverTwoWorkersOnOneKey: a key being processed is not handed to
// a second worker, even when it is added again; Done puts it back.
func TestLab07NeverTwoWorkersOnOneKey(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	q.Add("a")
	first := lab07Get(t, q, 1, labPick("Get with a waiting", "a 在排队时的 Get"))
	labExpect(t, 7, 1, "the first Get", "第一次 Get", lab07Got{"a", false}, first)
	labWithin(t, 7, 1, labPick("Add(a) while a worker has a", "工作协程拿着 a 时 Add(a)"), func() { q.Add("a") })
	labExpect(t, 7, 1, "Len after Add(a) while a worker has a (not queued until Done)",
		"有工作协程拿着 a 时 Add(a) 之后的 Len（Done 之前不入队）", 0, q.Len())
	second := lab07GetAsync(q)
	if early, none := lab07NotWithin(second, 100*time.Millisecond); !none {
		labFailf(t, 7, 1, "a second worker's Get returned %+v while the first still had a: a key being processed must not be handed out",
			"第一个工作协程还拿着 a，第二个工作协程的 Get 就返回了 %+v：正在处理的键不能再交出去", early)
		return
	}
	labWithin(t, 7, 1, labPick("Add(b) while a is being processed", "a 在处理中时 Add(b)"), func() { q.Add("b") })
	r, ok := lab07Receive(second)
	if !ok {
		labFailf(t, 7, 1, "the second worker's Get did not return within 5 s of Add(b)", "Add(b) 之后 5 秒内第二个工作协程的 Get 没有返回")
		return
	}
	labExpect(t, 7, 1, "the second worker's Get, after Add(b)", "Add(b) 之后第二个工作协程的 Get", lab07Got{"b", false}, r)
	labWithin(t, 7, 1, "Done(a)", func() { q.Done("a") })
	labExpect(t, 7, 1, "Len after Done(a), a having been added again meanwhile (queued again, once)",
		"Done(a) 之后的 Len（期间 a 又被加入过：重新入队，只一次）", 1, q.Len())
	third := lab07Get(t, q, 1, labPick("Get after Done(a)", "Done(a) 之后的 Get"))
	labExpect(t, 7, 1, "the Get after Done(a)", "Done(a) 之后的 Get", lab07Got{"a", false}, third)
}

// TestLab07AddDuringProcessingIsQueuedOnceAfterDone: several Adds of a key
// being processed queue it once, after Done; a Done with no Add meanwhile
// queues nothing.
func TestLab07AddDuringProcessingIsQueuedOnceAfterDone(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	q.Add("a")
	lab07Get(t, q, 1, labPick("Get with a waiting", "a 在排队时的 Get"))
	for range 3 {
		labWithin(t, 7, 1, labPick("Add(a) while a is being processed", "a 在处理中时 Add(a)"), func() { q.Add("a") })
	}
	labExpect(t, 7, 1, "Len after three Add(a) while a is being processed", "a 正在处理时三次 Add(a) 之后的 Len", 0, q.Len())
	labWithin(t, 7, 1, "Done(a)", func() { q.Done("a") })
	labExpect(t, 7, 1, "Len after Done(a): added three times meanwhile, queued once", "Done(a) 之后的 Len：期间加入三次，只入队一次",
		1, q.Len())
	if q.Len() != 1 {
		return
	}
	lab07Get(t, q, 1, labPick("Get after Done(a)", "Done(a) 之后的 Get"))
	labWithin(t, 7, 1, "Done(a)", func() { q.Done("a") })
	labExpect(t, 7, 1, "Len after the second Done(a), with no Add meanwhile (Get cleared its dirty mark)",
		"第二次 Done(a) 之后的 Len，期间没有 Add（Get 已清除了它的 `dirty` 标记）", 0, q.Len())
	labWithin(t, 7, 1, labPick("Add(a) once nobody has it", "没人拿着 a 之后 Add(a)"), func() { q.Add("a") })
	labExpect(t, 7, 1, "Len after Add(a) once nobody has it", "没人拿着 a 时 Add(a) 之后的 Len", 1, q.Len())
}

// TestLab07ShutDownHandsOutWhatWaitsThenStops: after ShutDown, Add does
// nothing, Get hands out what waits, then reports shutdown, and every Get
// waiting wakes up.
func TestLab07ShutDownHandsOutWhatWaitsThenStops(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	lab07Get(t, q, 1, labPick("Get with a and b waiting", "a 和 b 在排队时的 Get"))
	labWithin(t, 7, 2, "ShutDown", q.ShutDown)
	labExpect(t, 7, 2, "ShuttingDown after ShutDown", "ShutDown 之后的 ShuttingDown", true, q.ShuttingDown())
	labWithin(t, 7, 2, labPick("Add after ShutDown", "ShutDown 之后的 Add"), func() {
		q.Add("c")
		q.Add("a") // being processed: it would be queued again after Done
	})
	labWithin(t, 7, 2, labPick("Done(a) after ShutDown", "ShutDown 之后的 Done(a)"), func() { q.Done("a") })
	labExpect(t, 7, 2, "Len after ShutDown, then Add c, Add a and Done a (Adds are ignored, b still waits)",
		"ShutDown 后 Add c、Add a、Done a 之后的 Len（Add 被忽略，b 还在排队）", 1, q.Len())
	labExpect(t, 7, 2, "Get after ShutDown with b waiting", "ShutDown 后 b 还在排队时的 Get", lab07Got{"b", false},
		lab07Get(t, q, 2, labPick("Get after ShutDown with b waiting", "ShutDown 之后 b 还在排队时的 Get")))
	labExpect(t, 7, 2, "Get after ShutDown on the empty queue", "ShutDown 后在空队列上 Get", lab07Got{"", true},
		lab07Get(t, q, 2, labPick("Get after ShutDown on the empty queue", "ShutDown 之后在空队列上 Get")))

	// Three workers wait in Get; one ShutDown must wake them all.
	q2 := NewTyped[string]()
	var waiting []<-chan lab07Got
	for range 3 {
		waiting = append(waiting, lab07GetAsync(q2))
	}
	if early, none := lab07NotWithin(waiting[0], 50*time.Millisecond); !none {
		labFailf(t, 7, 1, "a Get on an empty queue returned %+v before any Add or ShutDown", "空队列上的 Get 在任何 Add 或 ShutDown 之前就返回了 %+v", early)
		return
	}
	labWithin(t, 7, 2, labPick("ShutDown with three Gets waiting", "三个 Get 在等待时 ShutDown"), q2.ShutDown)
	// Count the Gets that returned within 5 s, whichever they are: one
	// Signal wakes any one of them.
	deadline := make(chan struct{})
	timer := time.AfterFunc(5*time.Second, func() { close(deadline) })
	defer timer.Stop()
	var returned []lab07Got
	for _, ch := range waiting {
		select {
		case r := <-ch:
			returned = append(returned, r)
		case <-deadline:
		}
	}
	if len(returned) < len(waiting) {
		labFailf(t, 7, 2, "%d of the 3 Gets waiting on an empty queue returned within 5 s of ShutDown: it must wake every waiting Get (Broadcast, not Signal)",
			"ShutDown 之后 5 秒内，在空队列上等待的 3 个 Get 只有 %d 个返回：它必须唤醒所有等待的 Get（Broadcast，不是 Signal）", len(returned))
	}
	for _, r := range returned {
		labExpect(t, 7, 2, "a waiting Get after ShutDown", "ShutDown 之后正在等待的 Get", lab07Got{"", true}, r)
	}
}

// TestLab07ShutDownWithDrainWaitsForTheWorkInHand: ShutDownWithDrain waits
// until every key handed out is Done, not for the queue to empty; a
// ShutDown ends a drain that waits.
func TestLab07ShutDownWithDrainWaitsForTheWorkInHand(t *testing.T) {
	defer labStart(t, 7)()
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	lab07Get(t, q, 1, labPick("Get with a and b waiting", "a 和 b 在排队时的 Get"))
	drained := make(chan struct{}, 1)
	go func() {
		q.ShutDownWithDrain()
		drained <- struct{}{}
	}()
	if !labWaitFor(q.ShuttingDown) {
		labFailf(t, 7, 2, "ShuttingDown is still false 5 s after ShutDownWithDrain was called", "调用 ShutDownWithDrain 5 秒后 ShuttingDown 仍是 false")
		return
	}
	if _, none := lab07NotWithin(drained, 100*time.Millisecond); !none {
		labFailf(t, 7, 2, "ShutDownWithDrain returned while a was still being processed: it waits until every key handed out is Done",
			"a 还在处理中，ShutDownWithDrain 就返回了：它要等每个交出去的键都 Done")
		return
	}
	labExpect(t, 7, 2, "Get during the drain, b waiting (workers finish what is queued)",
		"排空期间 b 还在排队时的 Get（工作协程把排队的做完）", lab07Got{"b", false}, lab07Get(t, q, 2, labPick("Get during the drain", "排空期间的 Get")))
	labWithin(t, 7, 2, labPick("Done(a) during the drain", "排空期间的 Done(a)"), func() { q.Done("a") })
	if _, none := lab07NotWithin(drained, 50*time.Millisecond); !none {
		labFailf(t, 7, 2, "ShutDownWithDrain returned while b was still being processed", "b 还在处理中，ShutDownWithDrain 就返回了")
		return
	}
	labWithin(t, 7, 2, labPick("Done(b) during the drain", "排空期间的 Done(b)"), func() { q.Done("b") })
	if _, ok := lab07Receive(drained); !ok {
		labFailf(t, 7, 2, "ShutDownWithDrain did not return within 5 s of the last Done: does Done wake it when nothing is left in processing?",
			"最后一次 Done 之后 5 秒内 ShutDownWithDrain 没有返回：`processing` 清空时 Done 唤醒它了吗？")
		return
	}

	// A Done that puts a key back signals too: the drain must look again.
	q4 := NewTyped[string]()
	q4.Add("a")
	q4.Add("b")
	lab07Get(t, q4, 1, labPick("Get with a and b waiting", "a 和 b 在排队时的 Get"))
	lab07Get(t, q4, 1, labPick("Get with b waiting", "b 在排队时的 Get"))
	labWithin(t, 7, 1, labPick("Add(a) while a is being processed", "a 在处理中时 Add(a)"), func() { q4.Add("a") })
	drained4 := make(chan struct{}, 1)
	go func() {
		q4.ShutDownWithDrain()
		drained4 <- struct{}{}
	}()
	if !labWaitFor(q4.ShuttingDown) {
		labFailf(t, 7, 2, "ShuttingDown is still false 5 s after ShutDownWithDrain was called", "调用 ShutDownWithDrain 5 秒后 ShuttingDown 仍是 false")
		return
	}
	labWithin(t, 7, 2, labPick("Done(a), which puts a back, during the drain", "排空期间把 a 放回队列的 Done(a)"), func() { q4.Done("a") })
	if _, none := lab07NotWithin(drained4, 100*time.Millisecond); !none {
		labFailf(t, 7, 2, "ShutDownWithDrain returned after Done(a) put a back, while b was still being processed: woken, it must look again (a for around cond.Wait, not an if)",
			"Done(a) 把 a 放回队列之后 ShutDownWithDrain 就返回了，而 b 还在处理中：被唤醒后它必须再看一次（cond.Wait 外面是 for，不是 if）")
		return
	}
	labWithin(t, 7, 2, labPick("Done(b) during the drain", "排空期间的 Done(b)"), func() { q4.Done("b") })
	if _, ok := lab07Receive(drained4); !ok {
		labFailf(t, 7, 2, "ShutDownWithDrain did not return within 5 s of the last Done", "最后一次 Done 之后 5 秒内 ShutDownWithDrain 没有返回")
		return
	}

	// With nothing in hand it returns at once, leaving what is queued.
	q2 := NewTyped[string]()
	q2.Add("queued")
	labWithin(t, 7, 2, labPick("ShutDownWithDrain with nothing being processed", "没有条目在处理中时 ShutDownWithDrain"), q2.ShutDownWithDrain)
	labExpect(t, 7, 2, "Len after ShutDownWithDrain with nothing being processed (it does not empty the queue)",
		"没有键在处理时 ShutDownWithDrain 之后的 Len（它不清空队列）", 1, q2.Len())

	// A worker that never calls Done: ShutDown ends the wait.
	q3 := NewTyped[string]()
	q3.Add("stuck")
	lab07Get(t, q3, 1, labPick("Get with stuck waiting", "`stuck` 在排队时的 Get"))
	stuck := make(chan struct{}, 1)
	go func() {
		q3.ShutDownWithDrain()
		stuck <- struct{}{}
	}()
	if !labWaitFor(q3.ShuttingDown) {
		return
	}
	labWithin(t, 7, 2, labPick("ShutDown while a drain waits", "排空在等待时 ShutDown"), q3.ShutDown)
	if _, ok := lab07Receive(stuck); !ok {
		labFailf(t, 7, 2, "a ShutDownWithDrain waiting for a key never Done did not return within 5 s of ShutDown: ShutDown ends the wait",
			"ShutDownWithDrain 在等一个永远不会 Done 的键；ShutDown 之后 5 秒内它没有返回：ShutDown 应结束这次等待")
	}
}

// TestLab07ExponentialBackoff: the per-item wait doubles from the base with
// each failure, up to the cap, never overflows, and Forget starts over.
func TestLab07ExponentialBackoff(t *testing.T) {
	defer labStart(t, 7)()
	r := NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second)
	var waits []time.Duration
	for range 10 {
		waits = append(waits, r.When("a"))
	}
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		40 * time.Millisecond, 80 * time.Millisecond, 160 * time.Millisecond, 320 * time.Millisecond,
		640 * time.Millisecond, time.Second, time.Second}
	labExpect(t, 7, 3, "the waits of ten failures of a (5 ms doubling, at most 1 s)",
		"a 连续失败十次的等待（从 5 毫秒起翻倍，最多 1 秒）", want, waits)
	labExpect(t, 7, 3, "NumRequeues(a) after ten failures", "失败十次后的 NumRequeues(a)", 10, r.NumRequeues("a"))
	labExpect(t, 7, 3, "the first wait of b (each key is counted on its own)", "b 的第一次等待（每个键各自计数）",
		5*time.Millisecond, r.When("b"))
	r.Forget("a")
	labExpect(t, 7, 3, "NumRequeues(a) after Forget(a)", "Forget(a) 之后的 NumRequeues(a)", 0, r.NumRequeues("a"))
	labExpect(t, 7, 3, "the wait of a after Forget(a) (the first again)", "Forget(a) 之后 a 的等待（又是第一次）",
		5*time.Millisecond, r.When("a"))

	long := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second)
	var last time.Duration
	for range 2000 { // 2^2000 ms overflows every integer type
		last = long.When("x")
	}
	labExpect(t, 7, 3, "the wait after 2,000 failures (base 1 ms, cap 1,000 s): the cap, never an overflow",
		"失败 2000 次之后的等待（起点 1 毫秒，上限 1000 秒）：是上限，不能溢出", 1000*time.Second, last)

	// Failures counted from many goroutines at once (run with -race).
	many := NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				many.When("k")
				many.NumRequeues("k")
			}
		})
	}
	labWithin(t, 7, 3, labPick("When and NumRequeues from 8 goroutines", "8 个 goroutine 同时调用 When 和 NumRequeues"), wg.Wait)
	labExpect(t, 7, 3, "NumRequeues after 400 failures counted from 8 goroutines", "8 个 goroutine 共计 400 次失败之后的 NumRequeues",
		400, many.NumRequeues("k"))

	// Forget, too, from many goroutines at once, beside failures of other
	// keys (run with -race: every method holds failuresLock).
	var wg2 sync.WaitGroup
	for g := range 8 {
		wg2.Go(func() {
			key := fmt.Sprint("k", g)
			for range 50 {
				many.When(key)
				many.Forget(key)
			}
		})
	}
	labWithin(t, 7, 3, labPick("When and Forget from 8 goroutines", "8 个 goroutine 同时调用 When 和 Forget"), wg2.Wait)
	labExpect(t, 7, 3, "NumRequeues of a key each goroutine forgot last", "每个 goroutine 最后都 Forget 了的键的 NumRequeues",
		0, many.NumRequeues("k3"))
}

// TestLab07RateLimitedRetries: AddRateLimited puts a key back after the
// limiter's wait (on a fake clock), longer each time, until Forget.
func TestLab07RateLimitedRetries(t *testing.T) {
	defer labStart(t, 7)()
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		TypedRateLimitingQueueConfig[string]{Clock: clock})
	t.Cleanup(q.ShutDown)
	try := func(failure int, want time.Duration) bool {
		labWithin(t, 7, 4, "AddRateLimited(a)", func() { q.AddRateLimited("a") })
		if q.Len() != 0 {
			labFailf(t, 7, 4, "failure %d: AddRateLimited(a) queued a at once: it must wait as the rate limiter says (AddAfter)",
				"第 %d 次失败：AddRateLimited(a) 立刻就把 a 入队了：它要按限速器说的等待（AddAfter）", failure)
			return false
		}
		if !labWaitFor(clock.HasWaiters) {
			labFailf(t, 7, 4, "failure %d: after AddRateLimited(a) nothing waits on the queue's clock", "第 %d 次失败：AddRateLimited(a) 之后没有东西在队列的时钟上等待", failure)
			return false
		}
		wait := clock.Waiters()[0]
		if !labExpect(t, 7, 4, fmt.Sprintf("failure %d: the wait before a comes back", failure),
			fmt.Sprintf("第 %d 次失败：a 回来之前的等待", failure), want, wait) {
			return false
		}
		clock.Step(wait)
		if !labWaitFor(func() bool { return q.Len() == 1 }) {
			labFailf(t, 7, 4, "failure %d: a was not queued once its wait had passed", "第 %d 次失败：等待过去之后 a 没有入队", failure)
			return false
		}
		got := lab07Get(t, q, 4, labPick("Get after the wait", "等待之后的 Get"))
		labWithin(t, 7, 4, "Done(a)", func() { q.Done(got.item) })
		return true
	}
	for i, want := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond} {
		if !try(i+1, want) {
			return
		}
	}
	labExpect(t, 7, 4, "NumRequeues(a) after three AddRateLimited", "三次 AddRateLimited 之后的 NumRequeues(a)", 3, q.NumRequeues("a"))
	labWithin(t, 7, 4, "Forget(a)", func() { q.Forget("a") })
	labExpect(t, 7, 4, "NumRequeues(a) after Forget(a)", "Forget(a) 之后的 NumRequeues(a)", 0, q.NumRequeues("a"))
	try(4, time.Millisecond) // the first wait again
}

// lab07Model is the work queue as client-go v0.37.2 defines it, small
// enough to trust: a FIFO of keys, the dirty set, the processing set.
type lab07Model struct {
	queue        []string
	dirty        map[string]bool
	processing   map[string]bool
	shuttingDown bool
}

func (m *lab07Model) add(k string) {
	if m.shuttingDown || m.dirty[k] {
		return
	}
	m.dirty[k] = true
	if !m.processing[k] {
		m.queue = append(m.queue, k)
	}
}

func (m *lab07Model) get() lab07Got {
	if len(m.queue) == 0 {
		return lab07Got{"", true} // called only when shut down
	}
	k := m.queue[0]
	m.queue = m.queue[1:]
	m.processing[k] = true
	delete(m.dirty, k)
	return lab07Got{k, false}
}

func (m *lab07Model) done(k string) {
	delete(m.processing, k)
	if m.dirty[k] {
		m.queue = append(m.queue, k)
	}
}

// TestLab07RandomOpsMatchAModel drives a work queue and lab07Model with the
// same random Add, Get, Done and ShutDown calls (Get only when it cannot
// block, Done only of a key being processed); after each call, Len,
// ShuttingDown and what Get returned must be the model's.
func TestLab07RandomOpsMatchAModel(t *testing.T) {
	defer labStart(t, 7)()
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		q := NewTyped[string]()
		m := &lab07Model{dirty: map[string]bool{}, processing: map[string]bool{}}
		var ops []string
		fail := func(step int, what, whatZH string, want, got any) {
			labFailf(t, 7, 1, "random operations (seed %d, step %d, last ops %v): %s: expected %s, got %s",
				"随机操作（种子 %d，第 %d 步，最近的操作 %v）：%s：期望 %s，实际 %s",
				seed, step, ops[max(0, len(ops)-8):], labPick(what, whatZH), labShow(want), labShow(got))
		}
		for step := range 80 {
			r := rng.IntN(100)
			var processing []string
			for k := range m.processing {
				processing = append(processing, k)
			}
			slices.Sort(processing)
			switch {
			case r < 45:
				k := string(rune('a' + rng.IntN(5)))
				ops = append(ops, "Add "+k)
				labWithin(t, 7, 1, "Add("+k+")", func() { q.Add(k) })
				m.add(k)
			case r < 70 && (len(m.queue) > 0 || m.shuttingDown):
				ops = append(ops, "Get")
				got := lab07Get(t, q, 1, fmt.Sprintf("Get (seed %d, step %d, %d keys waiting in the model)", seed, step, len(m.queue)))
				if want := m.get(); want != got {
					ops[len(ops)-1] = fmt.Sprintf("Get→%+v", got)
					fail(step, "what Get returned", "Get 返回的内容", want, got)
					return
				}
				ops[len(ops)-1] = "Get→" + got.item
			case r < 97 && len(processing) > 0:
				k := processing[rng.IntN(len(processing))]
				ops = append(ops, "Done "+k)
				labWithin(t, 7, 1, "Done("+k+")", func() { q.Done(k) })
				m.done(k)
			case r >= 97 && step > 40:
				ops = append(ops, "ShutDown")
				labWithin(t, 7, 2, "ShutDown", q.ShutDown)
				m.shuttingDown = true
			default:
				continue
			}
			if q.Len() != len(m.queue) {
				fail(step, "Len", "Len", len(m.queue), q.Len())
				return
			}
			if q.ShuttingDown() != m.shuttingDown {
				fail(step, "ShuttingDown", "ShuttingDown", m.shuttingDown, q.ShuttingDown())
				return
			}
		}
		q.ShutDown()
	}
}

// TestLab07WorkersNeverShareAKeyAndMissNoAdd: 8 workers take keys while
// 2,000 Adds of 10 keys come in (run with -race): no key is with two
// workers at once, and every Add is followed by a processing of its key
// that starts after it.
func TestLab07WorkersNeverShareAKeyAndMissNoAdd(t *testing.T) {
	defer labStart(t, 7)()
	const workers, keys, adds = 8, 10, 2000
	q := NewTyped[int]()
	var added [keys]atomic.Int64     // Adds of each key so far
	var processed [keys]atomic.Int64 // the highest count of Adds a processing of the key started after
	var busy [keys]atomic.Int32
	var shared atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				if k < 0 || k >= keys {
					shared.Store(-1)
					q.Done(k)
					continue
				}
				if busy[k].Add(1) != 1 {
					shared.Add(1)
				}
				seen := added[k].Load()
				for {
					old := processed[k].Load()
					if seen <= old || processed[k].CompareAndSwap(old, seen) {
						break
					}
				}
				busy[k].Add(-1)
				q.Done(k)
			}
		})
	}
	labWithin(t, 7, 1, labPick("2,000 Adds while 8 workers Get and Done", "8 个工作协程 Get 和 Done 时 2,000 次 Add"), func() {
		for i := range adds {
			k := i % keys
			added[k].Add(1) // counted before the Add: a Get after the Add sees it
			q.Add(k)
		}
	})
	// Every Add is in; once the queue is empty and nobody holds a key,
	// everything added has been processed.
	if !labWaitFor(func() bool {
		if q.Len() != 0 {
			return false
		}
		for k := range keys {
			if processed[k].Load() != added[k].Load() {
				return false
			}
		}
		return true
	}) {
		var missed []string
		for k := range keys {
			if processed[k].Load() != added[k].Load() {
				missed = append(missed, fmt.Sprintf(labPick("%d (added %d times, last processed after add %d)", "%d（Add 了 %d 次，最后一次处理是在第 %d 次 Add 之后）"), k, added[k].Load(), processed[k].Load()))
			}
		}
		labFailf(t, 7, 1, "keys whose last Add was never followed by a processing: %v (Len %d): an Add while a key is processed must queue it again at Done",
			"最后一次 Add 之后再也没有被处理的键：%v（Len %d）：键在处理中时的 Add，要在 Done 时让它重新入队", missed, q.Len())
	}
	labWithin(t, 7, 2, labPick("ShutDown, then the workers' last Gets", "ShutDown，然后工作协程最后的 Get"), func() {
		q.ShutDown()
		wg.Wait()
	})
	if n := shared.Load(); n != 0 {
		labFailf(t, 7, 1, "a key was handed to two workers at once (%d times) or Get returned a key never added",
			"有键同时交给了两个工作协程（%d 次），或者 Get 返回了从未加入的键", n)
	}
}

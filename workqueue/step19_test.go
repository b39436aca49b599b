// step19_test.go is Step 19 of the walkthrough, the work queue: a key
// waits once however often it is added (the dirty set), is never handed to
// two workers at once (the processing set), comes back later and later as
// it fails (the rate limiters, on a fake clock), and a shutdown with drain
// waits for the work in hand. `go test -v -run Step ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 004 §2.3 and 000 §5 (backpressure).

package workqueue_test

import (
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/workqueue"
	"github.com/learn-k8s/informer/workqueue/rate"
)

func TestStep19WorkQueue(t *testing.T) {
	walkthrough.Say(t, "Step 19 — the work queue: dedup, the processing set, rate limiting, shutdown with drain.",
		"第 19 步 — 工作队列：去重、处理中集合、限速、排空后关闭。")
	walkthrough.Say(t, "Tutorial 004 §2.3 and 000 §5 (backpressure); package workqueue (client-go util/workqueue).",
		"教程 004 §2.3 和 000 §5（背压）；包 workqueue（client-go 的 util/workqueue）。")
	step19Dedup(t)
	step19ProcessingSet(t)
	step19RateLimiting(t)
	step19Bucket(t)
	step19ShutDownWithDrain(t)
}

// step19Dedup: a key waits in the queue once.
func step19Dedup(t *testing.T) {
	q := workqueue.NewTyped[string]()
	walkthrough.Say(t, "A handler only Adds a key. Adds: default/web, default/api, default/web, default/web.",
		"事件处理器只做一件事：Add 一个键。依次 Add：default/web、default/api、default/web、default/web。")
	for _, k := range []string{"default/web", "default/api", "default/web", "default/web"} {
		q.Add(k)
	}
	var order []string
	n := q.Len()
	for q.Len() > 0 {
		k, _ := q.Get()
		q.Done(k)
		order = append(order, k)
	}
	walkthrough.Say(t, "  Len = %d, Get order %v: a key waits once (the dirty set).",
		"  Len = %d，Get 的顺序 %v：一个键只排一次（dirty 集合）。", n, order)
	walkthrough.Say(t, "  Four events, two reconciles: the worker reads the newest state when it gets the key.",
		"  四个事件，两次调谐：工作协程取到键时，读的是最新的状态。")
	if n != 2 || len(order) != 2 || order[0] != "default/web" {
		t.Fatalf("Len %d, order %v; want 2, [default/web default/api]", n, order)
	}
}

// step19ProcessingSet: a key is never with two workers at once.
func step19ProcessingSet(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("default/web")
	held, _ := q.Get()
	walkthrough.Say(t, "Worker 1 got %s; while it works, an event Adds the key again.",
		"工作协程 1 取到了 %s；它处理期间，又一个事件再次 Add 这个键。", held)
	q.Add("default/web")
	second := make(chan string, 1)
	go func() { // worker 2, waiting for work
		k, _ := q.Get()
		second <- k
	}()
	walkthrough.Say(t, "  Len = %d: the key is marked dirty but not queued, so worker 2 waits in Get.",
		"  Len = %d：键被标记为 dirty，但不入队，所以工作协程 2 在 Get 里等着。", q.Len())
	if q.Len() != 0 {
		t.Fatal("a key being processed was queued again before Done")
	}
	select {
	case k := <-second:
		t.Fatalf("worker 2 got %q while worker 1 still had it", k)
	default:
	}
	q.Done(held)
	got := walkthrough.Receive(t, "worker 2's Get to return the key", (<-chan string)(second))
	walkthrough.Say(t, "  Worker 1 calls Done: the key goes back, once, and worker 2 gets %s.",
		"  工作协程 1 调用 Done：键回到队列（只一次），工作协程 2 取到 %s。", got)
	walkthrough.Say(t, "  Never two workers on one key: that is why a reconcile needs no lock of its own.",
		"  同一个键永远不会同时在两个工作协程手里：所以调谐逻辑不需要自己加锁。")
	q.Done(got)
	q.ShutDown()
}

// step19RateLimiting: each failure waits twice as long, until Forget.
func step19RateLimiting(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Clock: clock})
	defer q.ShutDown()
	walkthrough.Say(t, "Rate limiting: default/web fails three times; each time the worker calls AddRateLimited.",
		"限速：default/web 连续失败三次；每次工作协程都调用 AddRateLimited。")
	walkthrough.Say(t, "  DefaultTypedControllerRateLimiter: 5 ms × 2^failures, up to 1000 s (and a bucket, below).",
		"  DefaultTypedControllerRateLimiter：5 毫秒 × 2^失败次数，最多 1000 秒（另有一个令牌桶，见下）。")
	var waits []time.Duration
	for range 3 {
		q.AddRateLimited("default/web")
		walkthrough.WaitFor(t, "the queue's timer for default/web", clock.HasWaiters)
		wait := clock.Waiters()[0]
		waits = append(waits, wait)
		if q.Len() != 0 {
			t.Fatal("a rate-limited key was queued before its wait")
		}
		clock.Step(wait)
		walkthrough.WaitFor(t, "default/web to come back after its wait", func() bool { return q.Len() == 1 })
		k, _ := q.Get()
		q.Done(k)
	}
	walkthrough.Say(t, "  it waited %v before each retry (on a fake clock); NumRequeues = %d.",
		"  每次重试前分别等了 %v（在假时钟上）；NumRequeues = %d。", waits, q.NumRequeues("default/web"))
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	if len(waits) != 3 || waits[0] != want[0] || waits[1] != want[1] || waits[2] != want[2] {
		t.Fatalf("waits %v, want %v", waits, want)
	}
	q.Forget("default/web")
	walkthrough.Say(t, "  The fourth try succeeds: Forget. NumRequeues = %d; a later failure waits 5 ms again.",
		"  第四次成功了：调用 Forget。NumRequeues = %d；以后再失败，又从 5 毫秒开始等。", q.NumRequeues("default/web"))
	if q.NumRequeues("default/web") != 0 {
		t.Fatal("Forget did not reset the count")
	}
}

// step19Bucket: the overall token bucket, at one instant.
func step19Bucket(t *testing.T) {
	lim := rate.NewLimiter(10, 100)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var waits []time.Duration
	for range 102 {
		waits = append(waits, lim.ReserveN(now, 1).DelayFrom(now))
	}
	walkthrough.Say(t, "The bucket in that limiter: 10 retries a second over all keys, in bursts of up to 100.",
		"那个限速器里的令牌桶：所有键加起来每秒 10 次重试，突发最多 100 次。")
	walkthrough.Say(t, "  102 failures at one instant: the first 100 wait %v, the 101st %v, the 102nd %v.",
		"  同一时刻 102 次失败：前 100 次等 %v，第 101 次等 %v，第 102 次等 %v。", waits[99], waits[100], waits[101])
	walkthrough.Say(t, "  So a burst of failures (an API server that is down) cannot turn into a storm of retries.",
		"  所以一阵失败（比如 API 服务器宕机）不会变成一场重试风暴。")
	if waits[99] != 0 || waits[100] != 100*time.Millisecond || waits[101] != 200*time.Millisecond {
		t.Fatalf("waits %v, %v, %v; want 0, 100ms, 200ms", waits[99], waits[100], waits[101])
	}
}

// step19ShutDownWithDrain: stop taking work, finish what is in hand.
func step19ShutDownWithDrain(t *testing.T) {
	q := workqueue.NewTyped[string]()
	q.Add("default/web")
	held, _ := q.Get()
	walkthrough.Say(t, "Shutting down: a worker holds %s; another goroutine calls ShutDownWithDrain.",
		"关闭：一个工作协程拿着 %s；另一个协程调用 ShutDownWithDrain。", held)
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	walkthrough.WaitFor(t, "the queue to be shutting down", q.ShuttingDown)
	q.Add("default/api")
	walkthrough.Say(t, "  ShuttingDown = %v; an Add now is ignored: Len = %d.",
		"  ShuttingDown = %v；此时的 Add 被忽略：Len = %d。", q.ShuttingDown(), q.Len())
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while an item was being processed")
	default:
	}
	walkthrough.Say(t, "  ShutDownWithDrain is still waiting: the worker has not called Done.",
		"  ShutDownWithDrain 还在等：工作协程还没调用 Done。")
	q.Done(held)
	walkthrough.Receive(t, "ShutDownWithDrain to return after Done", (<-chan struct{})(drained))
	_, shutdown := q.Get()
	walkthrough.Say(t, "  Done: ShutDownWithDrain returns; the next Get says shutdown = %v, and the worker ends.",
		"  Done 之后 ShutDownWithDrain 返回；下一次 Get 返回 shutdown = %v，工作协程结束。", shutdown)
	if !shutdown || q.Len() != 0 {
		t.Fatalf("Get after the drain: shutdown %v, Len %d", shutdown, q.Len())
	}
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 10) }

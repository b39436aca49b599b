// step20_test.go is Step 20 of the walkthrough, a controller: two
// informers whose handlers only enqueue keys, a work queue, one worker that
// reconciles a ReplicaSet (pods with an ownerReference, status.replicas
// through /status); a burst of three changes becoming one reconcile; a
// failed create retried after the rate limiter's wait, on a fake clock; and
// everything ending with the context. `go test -v -run Step ./...` runs
// every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 004 §2.3 and 000 §5 (backpressure).

package main

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/workqueue"
)

// countingQueue is the controller's queue, counting the Adds of each key.
type countingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu   sync.Mutex
	adds map[string]int
}

func (q *countingQueue) Add(key string) {
	q.mu.Lock()
	q.adds[key]++
	q.mu.Unlock()
	q.TypedRateLimitingInterface.Add(key)
}

func (q *countingQueue) addsOf(key string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.adds[key]
}

func TestStep20Controller(t *testing.T) {
	walkthrough.Say(t, "Step 20 — a controller: informers → work queue → workers that reconcile.",
		"第 20 步 — 控制器：Informer → 工作队列 → 做调谐的工作协程。")
	walkthrough.Say(t, "Tutorial 004 §2.3, 000 §5; examples/controller (controller.go, sync.go), package workqueue.",
		"教程 004 §2.3、000 §5；examples/controller（controller.go、sync.go），包 workqueue。")
	clock := testingclock.NewFakeClock(time.Now())
	f := newFixture(t, 1, clock)
	c := f.r.controller
	queue := &countingQueue{TypedRateLimitingInterface: c.workqueue, adds: map[string]int{}}
	c.workqueue = queue
	hold := make(chan struct{})        // closed to let a held sync go on
	holding := make(chan struct{})     // closed when the worker is held
	var holdOnce sync.Once             // only slow's first sync is held
	var websSyncs atomic.Int32         // syncs of default/web
	var syncsAtLastCreate atomic.Int32 // web's syncs when its last pod was created
	next := c.syncHandler
	c.syncHandler = func(ctx context.Context, key string) error {
		if key == "default/slow" {
			holdOnce.Do(func() {
				close(holding)
				<-hold // the one worker is busy elsewhere for a while
			})
		}
		if key == "default/web" {
			websSyncs.Add(1)
		}
		return next(ctx, key)
	}
	f.events.hook = func(reason, message string) {
		if reason == "SuccessfulCreate" && message == "Created pod: web-4" {
			syncsAtLastCreate.Store(websSyncs.Load())
		}
	}
	f.start(t)
	walkthrough.Say(t, "Two informers (ReplicaSets, pods); their handlers only Add \"namespace/name\" keys;",
		"两个 Informer（ReplicaSet、Pod）；它们的事件处理器只 Add “命名空间/名称”形式的键；")
	walkthrough.Say(t, "one worker Gets a key, reconciles it from the caches, and calls Done.",
		"一个工作协程 Get 一个键，根据缓存调谐，然后调用 Done。")

	rs := f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, "web with 2 replicas")
	obj, err := f.srv.Get(fakeapi.Pods, "default", "web-0")
	walkthrough.Must(t, err)
	ref := obj["metadata"].(map[string]any)["ownerReferences"].([]any)[0].(map[string]any)
	walkthrough.Say(t, "A ReplicaSet default/web asks for 2 pods: the worker created %v.",
		"ReplicaSet default/web 要 2 个 Pod：工作协程创建了 %v。", podsOf(f.srv, "default", rs.GetUID()))
	walkthrough.Say(t, "  Each pod's ownerReference names its controller: %v %v %v, controller=%v.",
		"  每个 Pod 的 ownerReference 指向它的控制器：%v %v %v，controller=%v。",
		ref["apiVersion"], ref["kind"], ref["name"], ref["controller"])
	walkthrough.Say(t, "  status.replicas = 2, written through the /status subresource (RetryOnConflict around it).",
		"  status.replicas = 2，通过 /status 子资源写入（外面包着 RetryOnConflict）。")

	walkthrough.Say(t, "A burst: the worker is busy with another ReplicaSet, default/slow, and meanwhile",
		"一阵突发：工作协程正忙着另一个 ReplicaSet default/slow，与此同时")
	walkthrough.Say(t, "web is scaled 2 → 3 → 4 → 5: three updates, three events, three Adds of default/web.",
		"web 被依次扩容 2 → 3 → 4 → 5：三次更新、三个事件、三次 Add default/web。")
	f.createReplicaSet(t, "slow", 0)
	walkthrough.Receive(t, "the worker to hold default/slow", (<-chan struct{})(holding))
	before := queue.addsOf("default/web")
	for _, n := range []int{3, 4, 5} {
		f.scale(t, "web", n)
	}
	walkthrough.WaitFor(t, "the three Adds of default/web", func() bool { return queue.addsOf("default/web") >= before+3 })
	walkthrough.Say(t, "  Adds of default/web: %d; Len = %d: the key waits in the queue once.",
		"  default/web 被 Add 了 %d 次；Len = %d：这个键在队列里只排一次。", queue.addsOf("default/web")-before, c.workqueue.Len())
	if c.workqueue.Len() != 1 {
		t.Fatalf("Len = %d with three Adds of one key waiting, want 1", c.workqueue.Len())
	}
	syncsBefore := websSyncs.Load()
	close(hold)
	f.waitConverged(t, "web scaled to 5")
	walkthrough.Say(t, "  The worker is free: one reconcile of web created web-2, web-3, web-4 (syncs of web: %d).",
		"  工作协程空出来后，web 的一次调谐就创建了 web-2、web-3、web-4（web 的同步次数：%d）。",
		syncsAtLastCreate.Load()-syncsBefore)
	if syncsAtLastCreate.Load()-syncsBefore != 1 {
		t.Fatalf("web-4 was created in web's sync number %d after the burst, want 1", syncsAtLastCreate.Load()-syncsBefore)
	}

	walkthrough.Say(t, "A failure: web-0 is deleted while the server fails the next request (500).",
		"一次失败：web-0 被删除，同时服务器让下一个请求失败（500）。")
	f.srv.FailNext(1, 500)
	walkthrough.Must(t, f.srv.Delete(fakeapi.Pods, "default", "web-0"))
	walkthrough.WaitFor(t, "the failed create", func() bool { return len(f.events.find("SyncFailed", "default/web")) > 0 })
	walkthrough.WaitFor(t, "the queue's timer for the retry", clock.HasWaiters)
	walkthrough.Say(t, "  The create fails; the worker calls AddRateLimited: NumRequeues = %d, the key waits %v.",
		"  创建失败；工作协程调用 AddRateLimited：NumRequeues = %d，键要等 %v。",
		c.workqueue.NumRequeues("default/web"), clock.Waiters()[0])
	if w := clock.Waiters(); len(w) != 1 || w[0] != 5*time.Millisecond {
		t.Fatalf("timers waiting on the fake clock: %v, want [5ms]", w)
	}
	clock.Step(5 * time.Millisecond)
	f.waitConverged(t, "web-0 made again after the retry")
	walkthrough.Say(t, "  The fake clock moves 5 ms: the retry creates web-0; Forget: NumRequeues = %d.",
		"  假时钟走了 5 毫秒：重试创建了 web-0；调用 Forget：NumRequeues = %d。", c.workqueue.NumRequeues("default/web"))

	walkthrough.Say(t, "Stopping: the context ends, the queue shuts down, the worker finishes its key and ends;",
		"停止：context 结束，队列关闭，工作协程做完手上的键后结束；")
	stopAndCheck(t, f.r)
	walkthrough.Say(t, "the informers end too: no goroutine of the controller is left.",
		"Informer 也都结束了：控制器的协程一个不剩。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 10) }

// step20_test.go is Step 20 of the walkthrough, a controller: two
// informers whose handlers only enqueue keys, a work queue, one worker that
// reconciles a ReplicaSet (pods named by the server, with an
// ownerReference; status.replicas through /status); a burst of three changes becoming one reconcile; a
// failed status write retried after the rate limiter's wait, on a fake
// clock; and
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
		if reason == "SuccessfulCreate" {
			syncsAtLastCreate.Store(websSyncs.Load())
		}
	}
	f.start(t)
	walkthrough.Say(t, "Two informers (ReplicaSets, pods); their handlers only Add \"namespace/name\" keys;",
		"两个 Informer（ReplicaSet、Pod）；它们的事件处理器只 Add “命名空间/名称”形式的键；")
	walkthrough.Say(t, "one worker Gets a key, reconciles it from the caches, and calls Done.",
		"一个工作协程 Get 一个键，根据缓存调谐，然后调用 Done。")

	f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, inReaderLanguage("web with 2 replicas", "`web` 有 2 个副本"))
	pods := f.activePods(t, "web")
	obj, err := f.srv.Get(fakeapi.Pods, "default", pods[0])
	walkthrough.Must(t, err)
	ref := obj["metadata"].(map[string]any)["ownerReferences"].([]any)[0].(map[string]any)
	walkthrough.Say(t, "A ReplicaSet default/web asks for 2 pods: the worker created %d.", "ReplicaSet default/web 要 2 个 Pod：工作协程创建了 %d 个。", len(pods))
	walkthrough.Say(t, "  The server named them from generateName web-: %v.", "  服务器按 generateName web- 给它们起了名字：%v。", pods)
	walkthrough.Say(t, "  Each pod's ownerReference names its controller: %v %v %v, controller=%v.",
		"  每个 Pod 的 ownerReference 指向它的控制器：%v %v %v，controller=%v。",
		ref["apiVersion"], ref["kind"], ref["name"], ref["controller"])
	walkthrough.Say(t, "  status.replicas = %d, written through the /status subresource.",
		"  status.replicas = %d，通过 /status 子资源写入。", f.serverReplicaSet(t, "web").Status.Replicas)

	walkthrough.Say(t, "A burst: the worker is busy with another ReplicaSet, default/slow, and meanwhile",
		"一阵突发：工作协程正忙着另一个 ReplicaSet default/slow，与此同时")
	walkthrough.Say(t, "web is scaled 2 → 3 → 4 → 5: three updates, three events, three Adds of default/web.",
		"web 被依次扩容 2 → 3 → 4 → 5：三次更新、三个事件、三次 Add default/web。")
	f.createReplicaSet(t, "slow", 0)
	walkthrough.Receive(t, inReaderLanguage("the worker to hold default/slow", "工作协程扣住 `default/slow`"), (<-chan struct{})(holding))
	before := queue.addsOf("default/web")
	for _, n := range []int{3, 4, 5} {
		f.scale(t, "web", n)
	}
	walkthrough.WaitFor(t, inReaderLanguage("the three Adds of default/web", "`default/web` 的三次 Add"), func() bool { return queue.addsOf("default/web") >= before+3 })
	walkthrough.Say(t, "  Adds of default/web: %d; Len = %d: the key waits in the queue once.",
		"  default/web 被 Add 了 %d 次；Len = %d：这个键在队列里只排一次。", queue.addsOf("default/web")-before, c.workqueue.Len())
	if c.workqueue.Len() != 1 {
		t.Fatalf("Len = %d with three Adds of one key waiting, want 1", c.workqueue.Len())
	}
	syncsBefore := websSyncs.Load()
	close(hold)
	f.waitConverged(t, inReaderLanguage("web scaled to 5", "`web` 扩容到 5"))
	walkthrough.Say(t, "  The worker is free: one reconcile of web created the 3 pods (syncs of web: %d).",
		"  工作协程空出来后，web 的一次调谐就创建了那 3 个 Pod（web 的同步次数：%d）。",
		syncsAtLastCreate.Load()-syncsBefore)
	if syncsAtLastCreate.Load()-syncsBefore != 1 {
		t.Fatalf("the last pod was created in web's sync number %d after the burst, want 1", syncsAtLastCreate.Load()-syncsBefore)
	}

	// A retry no sync needed any more may still wait on the clock: let it run.
	walkthrough.WaitStepping(t, clock, "no timer left on the fake clock", func() bool { return !clock.HasWaiters() })
	f.waitConverged(t, inReaderLanguage("web after the burst", "突发之后的 `web`"))
	walkthrough.Say(t, "A failure: a pod of web turns Ready (the kubelet's write), and the server fails the next two",
		"一次失败：web 的一个 Pod 变为 Ready（kubelet 写的），同时服务器让接下来的两个请求失败")
	walkthrough.Say(t, "requests (500): the status write, and the read before its one retry (updateReplicaSetStatus).",
		"（500）：status 的写入，以及它唯一一次重试之前的读取（updateReplicaSetStatus）。")
	failedBefore := len(f.events.find("SyncFailed", "injected failure"))
	f.srv.FailNext(2, 500)
	pod, err := f.srv.Get(fakeapi.Pods, "default", f.activePods(t, "web")[0])
	walkthrough.Must(t, err)
	pod["status"] = map[string]any{"phase": "Running", "conditions": []any{map[string]any{"type": "Ready", "status": "True",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}}
	_, err = f.srv.Update(fakeapi.Pods, "default", pod) // the Go API: not an HTTP request
	walkthrough.Must(t, err)
	walkthrough.WaitFor(t, inReaderLanguage("the failed status write", "失败的 `status` 写入"), func() bool {
		return len(f.events.find("SyncFailed", "injected failure")) > failedBefore
	})
	walkthrough.WaitFor(t, inReaderLanguage("the queue's timer for the retry", "队列为重试设的定时器"), clock.HasWaiters)
	walkthrough.Say(t, "  The sync fails; the worker calls AddRateLimited: NumRequeues = %d, the key waits %v.",
		"  同步失败；工作协程调用 AddRateLimited：NumRequeues = %d，键要等 %v。",
		c.workqueue.NumRequeues("default/web"), clock.Waiters()[0])
	walkthrough.Say(t, "  No event will bring it back sooner: the server's objects did not change.",
		"  不会有事件让它提前回来：服务器上的对象没有变化。")
	if w := clock.Waiters(); len(w) != 1 || w[0] != 5*time.Millisecond {
		t.Fatalf("timers waiting on the fake clock: %v, want [5ms]", w)
	}
	clock.Step(5 * time.Millisecond)
	f.waitConverged(t, inReaderLanguage("the status written after the retry", "重试之后写入的 `status`"))
	walkthrough.Say(t, "  The fake clock moves 5 ms: the retry writes readyReplicas = %d; Forget: NumRequeues = %d.",
		"  假时钟走了 5 毫秒：重试写入 readyReplicas = %d；调用 Forget：NumRequeues = %d。",
		f.serverReplicaSet(t, "web").Status.ReadyReplicas, c.workqueue.NumRequeues("default/web"))

	walkthrough.Say(t, "Stopping: the context ends, the queue shuts down, the worker finishes its key and ends;",
		"停止：context 结束，队列关闭，工作协程做完手上的键后结束；")
	stopAndCheck(t, f.r)
	walkthrough.Say(t, "the informers end too: no goroutine of the controller is left.",
		"Informer 也都结束了：控制器的协程一个不剩。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 10) }

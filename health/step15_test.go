// step15_test.go is Step 15 of the walkthrough, the health figures: an
// informer over HTTP against fakeapi, its ListerWatcher, queue and one
// stuck handler wrapped by a Recorder; then time passes, an event comes, a
// resync runs, the server goes down and its history is compacted, and each
// figure moves for the reason it names. `go test -v -run Step ./...` runs
// every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 000 ch. 5 (observability, backpressure).

package health_test

import (
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/health"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestStep15HealthFigures(t *testing.T) {
	walkthrough.Say(t, "Step 15 — health figures: freshness, lists, relists, watch restarts, errors,",
		"第 15 步 — 健康指标：新鲜度、list、重新 list、watch 重启、错误、")
	walkthrough.Say(t, "resync, a stuck handler.", "重新同步、卡住的事件处理器。")
	walkthrough.Say(t, "Tutorial 000 ch. 5 (observability, backpressure); package health.", "教程 000 第五章（可观测性、背压）；包 health。")
	srv := walkthrough.StartServer(t, fakeapi.Options{BookmarkInterval: time.Hour}) // no bookmarks: staleness moves only with the clock
	// The server is stopped on purpose below: no Reflector log lines in the story.
	walkthrough.QuietLogs(t)
	c := walkthrough.Client(t, srv)
	walkthrough.CreatePods(t, c, "a", "b")
	clock := testingclock.NewFakeClock(time.Now())

	walkthrough.Say(t, "The Recorder wraps three things, each explicit at its call site: the ListerWatcher",
		"Recorder 包住三样东西，每一样都在调用处写明：ListerWatcher")
	walkthrough.Say(t, "(lists, watches, events, failures), the queue through WrapQueue (resyncs),",
		"（list、watch、事件、失败），通过 WrapQueue 包住的队列（resync），")
	walkthrough.Say(t, "and the handler (its progress).", "以及事件处理器（它的进度）。")
	rec := health.NewRecorder(clock)
	lw := rec.ListerWatcher(informer.NewListWatchFromClient(c, walkthrough.PodsGVR, informer.NamespaceAll, ""))
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: time.Minute, Clock: clock, WrapQueue: rec.WrapQueue, PipelineGates: walkthrough.Gates()})

	walkthrough.Say(t, "The handler is stuck: each notification waits until the test lets it go.", "这个处理器卡住了：每个通知都要等测试放行。")
	gate := make(chan struct{})
	wait := func(any) { <-gate }
	_, err := inf.AddEventHandler(rec.Handler("stuck", informer.ResourceEventHandlerFuncs{
		AddFunc: wait, UpdateFunc: func(_, n any) { wait(n) }}))
	walkthrough.Must(t, err)
	walkthrough.Run(t, inf)
	t.Cleanup(func() { close(gate) }) // runs before the informer is stopped
	walkthrough.WaitFor(t, "the handler to be busy with its first add", func() bool { return rec.Health(inf).Handlers[0].InProgress })
	h := rec.Health(inf)
	walkthrough.Say(t, "  synced=%v lists=%d lastSyncResourceVersion=%s handled=%d",
		"  synced=%v lists=%d lastSyncResourceVersion=%s handled=%d（已同步、list 次数、最后版本、已处理）",
		h.Synced, h.Lists, h.LastSyncResourceVersion, h.Handlers[0].Handled)
	if !h.Synced || h.Lists != 1 || h.LastSyncResourceVersion != srv.ResourceVersion() || h.Handlers[0].Handled != 0 {
		t.Fatalf("after the first list: %+v (the server is at %s)", h, srv.ResourceVersion())
	}

	walkthrough.Say(t, "Half a minute passes without news from the server: staleness grows,",
		"半分钟过去，服务器没有任何消息：staleness（陈旧度）增长，")
	walkthrough.Say(t, "and so does the handler's busy time.", "事件处理器的忙碌时间也在增长。")
	clock.Step(30 * time.Second)
	if h := rec.Health(inf); h.Staleness != 30*time.Second || h.Handlers[0].Busy != 30*time.Second {
		t.Fatalf("staleness = %v, busy = %v; want 30s each", h.Staleness, h.Handlers[0].Busy)
	}
	walkthrough.CreatePods(t, c, "c")
	walkthrough.WaitFor(t, "the event to reset staleness", func() bool { return rec.Health(inf).Staleness == 0 })
	walkthrough.Say(t, "  an event arrives: staleness %v; the handler is still busy after %v",
		"  来了一个事件：staleness %v；事件处理器已经忙了 %v",
		rec.Health(inf).Staleness, rec.Health(inf).Handlers[0].Busy)
	walkthrough.Say(t, "  (its notifications wait, kept)", "  （它的通知在排队，不会丢）")
	for range 3 {
		walkthrough.Deliver(t, "the stuck handler to take its next add", gate, struct{}{})
	}
	walkthrough.WaitFor(t, "the three adds handled", func() bool { h := rec.Health(inf).Handlers[0]; return h.Handled == 3 && !h.InProgress })

	walkthrough.Say(t, "A minute on, the resync runs (locally: it asks the server nothing).", "又过一分钟，重新同步运行（在本地：不问服务器任何东西）。")
	clock.Step(30 * time.Second)
	walkthrough.WaitFor(t, "the resync", func() bool { return rec.Health(inf).Resyncs == 1 })
	if h := rec.Health(inf); !h.LastResyncTime.Equal(clock.Now()) || h.Lists != 1 {
		t.Fatalf("resync figures: %+v", h)
	}
	for range 3 { // the resync's updates reach the stuck handler too
		walkthrough.Deliver(t, "the stuck handler to take its next resync update", gate, struct{}{})
	}

	walkthrough.Say(t, "Now the server goes down; a pod is deleted and the history is compacted meanwhile; it comes back.",
		"现在服务器宕机；其间删了一个 Pod，历史也被压缩；然后服务器恢复。")
	walkthrough.Must(t, srv.Stop())
	walkthrough.WaitFor(t, "the reflector to back off (a timer besides the resync's)", func() bool { return len(clock.Waiters()) >= 2 })
	walkthrough.Must(t, srv.Delete(fakeapi.Pods, "default", "a"))
	srv.Compact(0)
	walkthrough.Must(t, srv.Restart())
	done := make(chan struct{})
	defer close(done)
	go func() { // let the tombstone's notification through
		select {
		case gate <- struct{}{}:
		case <-done:
		}
	}()
	walkthrough.WaitStepping(t, clock, "the relist after 410", func() bool { return rec.Health(inf).RelistsAfterExpired == 1 })
	h = rec.Health(inf)
	walkthrough.Say(t, "  lists=%d relistsAfterExpired=%d watchRestarts=%d",
		"  lists=%d relistsAfterExpired=%d watchRestarts=%d（list、410 后重新 list、watch 重启的次数）",
		h.Lists, h.RelistsAfterExpired, h.WatchRestarts)
	walkthrough.Say(t, "  watchErrors=%v", "  watchErrors=%v（按原因统计的 watch 错误）", h.WatchErrors)
	if h.Lists != 2 || h.WatchRestarts < 1 || h.WatchErrors["Expired"] != 1 || h.WatchErrors["ConnectionRefused"] < 1 {
		t.Fatalf("after the outage: %+v", h)
	}
	walkthrough.Say(t, "Every figure moved for the reason it names. examples/health publishes them with expvar.",
		"每个指标都因它名字所说的原因而变化。examples/health 用 expvar 发布它们。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

// steps_advanced_test.go is the walkthrough's second half: Steps 12–18, the
// advanced chapters, one per extra file (retry.go, diff.go, chain.go,
// health.go, consistency.go, mutation.go, typed.go). Steps 01–11, the core,
// are in informer_test.go; `go test -v -run Step` runs both, in order.
// client-go counterpart: none (it is how this package teaches).
// Tutorial: 000 §2.3, §3.2, §3.3, ch. 5; 004 §3.1, §4.3.

package informer

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestStep12OptimisticConcurrency(t *testing.T) {
	say(t, "Step 12 — optimistic concurrency: 409 Conflict and RetryOnConflict. Tutorial 000 §3.3 (and 004 §2.5); file retry.go.", "第 12 步 — 乐观并发：409 Conflict 与 RetryOnConflict。教程 000 §3.3（以及 004 §2.5）；文件 retry.go。")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	const counter = "example.com/counter"
	advCreatePods(t, c, "counter")

	const writers, increments = 4, 5
	say(t, "%d writers each add 1 to the pod's %q annotation %d times: GET, change, PUT with the resourceVersion read.", "%d 个写者，每个给 Pod 的注解 %q 加 1，各加 %d 次：GET，修改，带着读到的 resourceVersion PUT。", writers, counter, increments)
	say(t, "They all read before any of them writes, so all but one of the first writes are stale.", "它们都在任何人写之前读，所以第一轮写入只有一个不是过期的。")
	var conflicts atomic.Int64
	var firstRead sync.WaitGroup // the writers' first reads, all done before any write
	firstRead.Add(writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range increments {
				tries := 0
				err := RetryOnConflict(Backoff{Steps: 100, Duration: time.Millisecond, Factor: 1, Jitter: 1}, func() error {
					tries++
					obj, err := c.Get(ctx, podsGVR, "default", "counter")
					if err != nil {
						return err
					}
					pod := obj.(*Pod)
					if i == 0 && tries == 1 {
						firstRead.Done()
						firstRead.Wait()
					}
					if pod.Annotations == nil {
						pod.Annotations = map[string]string{}
					}
					pod.Annotations[counter] = strconv.Itoa(annotationInt(pod, counter) + 1)
					_, err = c.Update(ctx, podsGVR, pod)
					if IsConflict(err) {
						conflicts.Add(1)
						say(t, "  writer %d: 409 Conflict writing over resourceVersion %s: %v", "  写者 %d：在 resourceVersion %s 上写入得到 409 Conflict：%v", w, pod.ResourceVersion, err)
					}
					return err
				})
				if err != nil {
					t.Errorf("writer %d, increment %d: %v", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()

	obj, err := c.Get(ctx, podsGVR, "default", "counter")
	must(t, err)
	got := annotationInt(obj.(*Pod), counter)
	say(t, "The counter reads %d after %d increments, with %d conflicts retried along the way.", "计数器读数 %d，共加了 %d 次，途中重试了 %d 次冲突。", got, writers*increments, conflicts.Load())
	if got != writers*increments {
		t.Fatalf("counter = %d, want %d: an increment was lost", got, writers*increments)
	}
	if conflicts.Load() < writers-1 {
		t.Fatalf("saw %d conflicts, want at least %d: the first round of writes should have collided", conflicts.Load(), writers-1)
	}
	say(t, "No increment was lost: the server refused every stale write, and each writer re-read and tried again.", "没有丢失任何一次加 1：服务器拒绝了每个过期的写入，每个写者都重新读、再试一次。")
}

func TestStep13SnapshotDiff(t *testing.T) {
	say(t, "Step 13 — snapshot diff: added, updated, deleted by key and resource version. Tutorial 000 §3.2.", "第 13 步 — 快照比对：按键和资源版本区分新增、更新、删除。教程 000 §3.2。")
	say(t, "File: diff.go (and fifo_relist.go, Replace).", "文件：diff.go（以及 fifo_relist.go 的 Replace）。")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	advCreatePods(t, c, "keep", "change", "remove")
	inf, lw := advInformer(t, srv, nil)
	advRun(t, inf)

	before, err := SnapshotOf(inf.GetStore(), DeletionHandlingMetaNamespaceKeyFunc)
	must(t, err)
	say(t, "Snapshot 1 of the cache holds %d pods.", "缓存的快照 1 里有 %d 个 Pod。", len(before))

	say(t, "On the server: create default/new, relabel default/change, delete default/remove.", "在服务器上：创建 default/new，改 default/change 的标签，删除 default/remove。")
	advCreatePods(t, c, "new")
	obj, err := c.Get(ctx, podsGVR, "default", "change")
	must(t, err)
	changedPod := obj.(*Pod)
	changedPod.Labels["tier"] = "front"
	_, err = c.Update(ctx, podsGVR, changedPod)
	must(t, err)
	must(t, srv.Delete(fakeapi.Pods, "default", "remove"))
	advWaitFor(t, "the cache to see the three changes", func() bool {
		_, hasNew, _ := inf.GetStore().GetByKey("default/new")
		_, hasRemoved, _ := inf.GetStore().GetByKey("default/remove")
		return hasNew && !hasRemoved && len(inf.GetStore().ListKeys()) == 3
	})
	after, err := SnapshotOf(inf.GetStore(), DeletionHandlingMetaNamespaceKeyFunc)
	must(t, err)

	d := DiffSnapshots(before, after)
	say(t, "DiffSnapshots(snapshot 1, snapshot 2) = added %v, updated %v, deleted %v", "DiffSnapshots(快照 1, 快照 2) = 新增 %v，更新 %v，删除 %v", d.Added, d.Updated, d.Deleted)
	want := SnapshotDiff{Added: []string{"default/new"}, Updated: []string{"default/change"}, Deleted: []string{"default/remove"}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("diff = %+v, want %+v", d, want)
	}
	say(t, "default/keep is in neither list: its resource version did not change, so nothing happened to it.", "default/keep 不在任何一个列表里：它的资源版本没变，所以它什么都没发生。")

	say(t, "A relist computes the same thing. Feed a DeltaFIFO that knows snapshot 1 the server's list:", "重新 List 算出的是同一个东西。把服务器的列表交给一个知道快照 1 的 DeltaFIFO：")
	known := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	for _, o := range before {
		must(t, known.Add(o))
	}
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	list, err := lw.List(ctx, ListOptions{})
	must(t, err)
	items := make([]any, len(list.Items))
	for i, o := range list.Items {
		items[i] = o
	}
	must(t, fifo.Replace(items, list.ResourceVersion))
	var relist SnapshotDiff
	for _, key := range fifo.ListKeys() {
		item, _, _ := fifo.GetByKey(key)
		newest := item.(Deltas).Newest()
		old, knew, _ := known.GetByKey(key)
		switch {
		case newest.Type == Deleted:
			say(t, "  %s: Deleted, the object wrapped in %T", "  %s：Deleted，对象包在 %T 里", key, newest.Object)
			relist.Deleted = append(relist.Deleted, key)
		case !knew:
			say(t, "  %s: Replaced, unknown to the cache: the handlers get an add", "  %s：Replaced，缓存里没有：处理器收到 add", key)
			relist.Added = append(relist.Added, key)
		case changed(old, newest.Object):
			say(t, "  %s: Replaced, with a new resource version: the handlers get a real update", "  %s：Replaced，资源版本变了：处理器收到真正的 update", key)
			relist.Updated = append(relist.Updated, key)
		default:
			say(t, "  %s: Replaced, same resource version: only a re-delivery", "  %s：Replaced，资源版本相同：只是重新投递", key)
		}
	}
	slices.Sort(relist.Added)
	slices.Sort(relist.Updated)
	slices.Sort(relist.Deleted)
	if !reflect.DeepEqual(relist, want) {
		t.Fatalf("relist diff = %+v, want %+v", relist, want)
	}
	say(t, "Same answer: the relist is a snapshot diff between the cache and the server's list.", "答案相同：重新 List 就是缓存与服务器列表之间的一次快照比对。")
}

func TestStep14HandlerChains(t *testing.T) {
	say(t, "Step 14 — handler chains, filters, and handlers added and removed at run time.", "第 14 步 — 处理器链、过滤，以及运行中增删处理器。")
	say(t, "Tutorial 004 §4.3 and 000 ch. 5 (hot upgrade); file chain.go (with handlers.go, informer_handlers.go).", "教程 004 §4.3 和 000 第五章（热升级）；文件 chain.go（以及 handlers.go、informer_handlers.go）。")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	inf, _ := advInformer(t, srv, nil)
	var log eventLog

	say(t, "One registration holds a chain: audit, then a filtered handler for app=web only,", "一次注册里放一条链：先审计，然后一个只处理 app=web 的过滤处理器，")

	say(t, "then one that panics, then metrics.", "然后一个会 panic 的，最后是指标。")
	isWeb := func(obj any) bool { p, ok := obj.(*Pod); return ok && p.Labels["app"] == "web" }
	var panics atomic.Int64
	chain := NewHandlerChain(
		log.handler("audit"),
		FilteringResourceEventHandler{FilterFunc: isWeb, Handler: log.handler("web")},
		ResourceEventHandlerFuncs{AddFunc: func(any) { panic("a buggy handler") }},
		log.handler("metrics"),
	)
	chain.PanicHandler = func(i int, r any) {
		panics.Add(1)
		log.add("handler " + strconv.Itoa(i) + " panicked (" + r.(string) + "); the chain goes on")
	}
	v1, err := inf.AddEventHandler(chain)
	must(t, err)
	advRun(t, inf)

	say(t, "Create default/web (app=web) and default/batch (app=batch).", "创建 default/web（app=web）和 default/batch（app=batch）。")
	advCreatePods(t, c, "web")
	batch := advPod("batch")
	batch.Labels["app"] = "batch"
	_, err = c.Create(ctx, podsGVR, batch)
	must(t, err)
	advWaitFor(t, "metrics to see both pods", func() bool {
		return log.has("metrics add default/web") && log.has("metrics add default/batch")
	})
	const panicked = "handler 2 panicked (a buggy handler); the chain goes on"
	want := []string{
		"audit add default/web", "web add default/web", panicked, "metrics add default/web",
		"audit add default/batch", panicked, "metrics add default/batch",
	}
	for _, line := range log.all() {
		say(t, "  %s", "  %s", line)
	}
	if got := log.all(); !slices.Equal(got, want) {
		t.Fatalf("chain calls = %q, want %q (in order, batch filtered out of web, past the panic)", got, want)
	}
	if panics.Load() != 2 {
		t.Fatalf("panics reported = %d, want 2", panics.Load())
	}

	say(t, "Relabel default/web to app=api: it leaves the filter, so the filtered handler sees a delete.", "把 default/web 的标签改成 app=api：它离开了过滤条件，所以过滤处理器看到一个 delete。")
	obj, err := c.Get(ctx, podsGVR, "default", "web")
	must(t, err)
	relabelled := obj.(*Pod)
	relabelled.Labels["app"] = "api"
	_, err = c.Update(ctx, podsGVR, relabelled)
	must(t, err)
	advWaitFor(t, "metrics to see the update", func() bool { return log.has("metrics update default/web") })
	if !log.has("web delete default/web") || !log.has("audit update default/web") {
		t.Fatalf("after the relabel: %q; want audit update and web delete", log.all())
	}

	say(t, "Hot upgrade: while the informer runs, add a v2 handler, then remove the v1 chain.", "热升级：informer 运行中，加上 v2 处理器，再移除 v1 链。")
	v2, err := inf.AddEventHandler(log.handler("v2"))
	must(t, err)
	advWaitFor(t, "v2's registration to sync", v2.HasSynced)
	if !log.has("v2 add default/web") || !log.has("v2 add default/batch") {
		t.Fatalf("v2 did not get the cache's contents as adds: %q", log.all())
	}
	say(t, "  v2 got the two cached pods as adds as soon as it was added.", "  v2 一加上，就以 add 收到了缓存里的两个 Pod。")
	must(t, inf.RemoveEventHandler(v1))
	advCreatePods(t, c, "after")
	advWaitFor(t, "v2 to see default/after", func() bool { return log.has("v2 add default/after") })
	for _, line := range log.all() {
		if strings.HasSuffix(line, "default/after") && !strings.HasPrefix(line, "v2 ") {
			t.Fatalf("the removed chain still got %q", line)
		}
	}
	say(t, "  default/after reached v2 only: the removed v1 chain is gone, and the informer never stopped.", "  default/after 只到达了 v2：移除的 v1 链已经不在了，informer 也从未停止。")
}

func TestStep15HealthFigures(t *testing.T) {
	say(t, "Step 15 — health figures: freshness, lists, relists, watch restarts, errors, resync, backlogs.", "第 15 步 — 健康指标：新鲜度、List、重新 List、watch 重启、错误、resync、积压。")
	say(t, "Tutorial 000 ch. 5 (observability, backpressure); file health.go.", "教程 000 第五章（可观测性、背压）；文件 health.go。")
	srv := startServer(t, fakeapi.Options{BookmarkInterval: time.Hour}) // no bookmarks: staleness moves only with the clock
	// The server is stopped on purpose below: no Reflector log lines in the story.
	quietLogs(t)
	c := advClient(t, srv)
	advCreatePods(t, c, "a", "b")
	clock := NewFakeClock(time.Now())
	lw := NewListWatchFromClient(c, podsGVR, NamespaceAll, "")
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{ResyncPeriod: time.Minute, Clock: clock})
	health := func() Health {
		h, ok := HealthOf(inf)
		if !ok {
			t.Fatal("the informer reports no health figures")
		}
		return h
	}

	say(t, "One handler is stuck: each notification waits until the test lets it go.", "一个处理器卡住了：每个通知都要等测试放行。")
	gate := make(chan struct{})
	wait := func(any) { <-gate }
	_, err := inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: wait, UpdateFunc: func(_, n any) { wait(n) }})
	must(t, err)
	advRun(t, inf)
	t.Cleanup(func() { close(gate) }) // runs before the informer is stopped
	advWaitFor(t, "two pending adds", func() bool { h := health(); return len(h.Handlers) == 1 && h.Handlers[0].Pending == 2 })
	h := health()
	say(t, "  synced=%v lists=%d lastSyncResourceVersion=%s pending=%d", "  synced=%v lists=%d lastSyncResourceVersion=%s pending=%d（已同步、List 次数、最后版本、积压）", h.Synced, h.Lists, h.LastSyncResourceVersion, h.Handlers[0].Pending)
	if !h.Synced || h.Lists != 1 || h.LastSyncResourceVersion != srv.ResourceVersion() {
		t.Fatalf("after the first list: %+v (the server is at %s)", h, srv.ResourceVersion())
	}

	say(t, "Half a minute passes without news from the server: staleness grows.", "半分钟过去，服务器没有任何消息：staleness（陈旧度）增长。")
	clock.Step(30 * time.Second)
	if h := health(); h.Staleness != 30*time.Second {
		t.Fatalf("staleness = %v, want 30s", h.Staleness)
	}
	advCreatePods(t, c, "c")
	// The Reflector resets staleness as the event arrives; the notification
	// reaches the handler's buffer a moment later, so wait for both.
	advWaitFor(t, "the event to reset staleness and join the backlog (3 pending: a backlog is kept, never dropped)", func() bool {
		h := health()
		return h.Staleness == 0 && h.Handlers[0].Pending == 3
	})
	say(t, "  an event arrives: staleness %v; the stuck handler is %d behind", "  来了一个事件：staleness %v；卡住的处理器落后 %d 个", health().Staleness, health().Handlers[0].Pending)
	for range 3 {
		gate <- struct{}{}
	}
	advWaitFor(t, "the backlog to drain", func() bool { return health().Handlers[0].Pending == 0 })

	say(t, "A minute on, the resync runs (locally: it asks the server nothing).", "又过一分钟，resync 运行（在本地：不问服务器任何东西）。")
	clock.Step(30 * time.Second)
	advWaitFor(t, "the resync", func() bool { return health().Resyncs == 1 })
	if h := health(); !h.LastResyncTime.Equal(clock.Now()) || h.Lists != 1 {
		t.Fatalf("resync figures: %+v", h)
	}
	for range 3 { // the resync's updates reach the stuck handler too
		gate <- struct{}{}
	}

	say(t, "Now the server goes down; a pod is deleted and the history is compacted meanwhile; it comes back.", "现在服务器宕机；其间删了一个 Pod，历史也被压缩；然后服务器恢复。")
	must(t, srv.Stop())
	advWaitFor(t, "the reflector to back off (a timer besides the resync's)", func() bool { return len(clock.Waiters()) >= 2 })
	must(t, srv.Delete(fakeapi.Pods, "default", "a"))
	srv.Compact(0)
	must(t, srv.Restart())
	done := make(chan struct{})
	defer close(done)
	go func() { // let the tombstone's notification through
		select {
		case gate <- struct{}{}:
		case <-done:
		}
	}()
	advWaitStepping(t, clock, "the relist after 410", func() bool { return health().RelistsAfterExpired == 1 })
	h = health()
	say(t, "  lists=%d relistsAfterExpired=%d watchRestarts=%d watchErrors=%v", "  lists=%d relistsAfterExpired=%d watchRestarts=%d watchErrors=%v（List、410 后重新 List、watch 重启、watch 错误）", h.Lists, h.RelistsAfterExpired, h.WatchRestarts, h.WatchErrors)
	if h.Lists != 2 || h.WatchRestarts < 1 || h.WatchErrors["Expired"] != 1 || h.WatchErrors["ConnectionRefused"] < 1 {
		t.Fatalf("after the outage: %+v", h)
	}
	say(t, "Every figure moved for the reason it names. examples/health publishes them with expvar.", "每个指标都因它名字所说的原因而变化。examples/health 用 expvar 发布它们。")
}

func TestStep16ConsistencyDetector(t *testing.T) {
	say(t, "Step 16 — the consistency detector: list from the server, diff against the cache.", "第 16 步 — 一致性检测器：从服务器 List，与缓存比对。")
	say(t, "Tutorial 000 ch. 5 (cache consistency); file consistency.go (with diff.go).", "教程 000 第五章（缓存一致性）；文件 consistency.go（以及 diff.go）。")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	advCreatePods(t, c, "a", "b", "c")
	inf, lw := advInformer(t, srv, nil)
	advRun(t, inf)

	detector := NewConsistencyDetector(lw, inf)
	detector.Settle = 50 * time.Millisecond
	report, err := detector.Check(ctx)
	must(t, err)
	say(t, "A healthy cache: compared at resourceVersion %s, consistent = %v.", "健康的缓存：在 resourceVersion %s 比对，consistent = %v。", report.ResourceVersion, report.Consistent())
	if !report.Consistent() {
		t.Fatalf("healthy cache reported: %v", report.Problems)
	}

	say(t, "Now corrupt the cache on purpose, behind the informer's back: drop a, invent ghost, age b.", "现在背着 informer 故意弄坏缓存：删掉 a，凭空造出 ghost，把 b 改旧。")
	idx := inf.GetIndexer()
	a, _, _ := idx.GetByKey("default/a")
	must(t, idx.Delete(a))
	ghost := advPod("ghost")
	ghost.ResourceVersion = "1"
	must(t, idx.Add(ghost))
	b, _, _ := idx.GetByKey("default/b")
	oldB := b.(*Pod).DeepCopy()
	oldB.ResourceVersion = "1"
	must(t, idx.Update(oldB))

	report, err = detector.Check(ctx)
	must(t, err)
	for _, p := range report.Problems {
		say(t, "  %s", "  %s", p)
	}
	want := SnapshotDiff{Added: []string{"default/a"}, Updated: []string{"default/b"}, Deleted: []string{"default/ghost"}}
	if !reflect.DeepEqual(report.Diff, want) || len(report.Problems) != 3 {
		t.Fatalf("report = %+v, want %+v with one problem each", report.Diff, want)
	}
	say(t, "Every difference is reported. The informer cannot heal this by itself (no event will come):", "每一处差异都报告了。informer 自己修不好它（不会有事件来）：")
	say(t, "the fix is to find the code that wrote into the cache, and a restart (a fresh list) in the meantime.", "办法是找出往缓存里写的那段代码，在那之前先重启（重新 List 一次）。")
}

func TestStep17MutationDetector(t *testing.T) {
	say(t, "Step 17 — the cache mutation detector: handlers must not change cached objects. Tutorial 000 §2.3; file mutation.go.", "第 17 步 — 缓存修改检测器：处理器不得修改缓存里的对象。教程 000 §2.3；文件 mutation.go。")
	srv := advServer(t)
	c := advClient(t, srv)
	advCreatePods(t, c, "web", "db")
	inf, _ := advInformer(t, srv, nil)

	say(t, "The detector records a deep copy of every object as it enters the cache (through SetTransform).", "检测器在每个对象进入缓存时（通过 SetTransform）记下它的一份深拷贝。")
	detector := NewCacheMutationDetector("pods")
	must(t, inf.SetTransform(detector.Transform(nil)))

	say(t, "Two handlers want a label on default/web. The careless one writes on the cached pod;", "两个处理器都想给 default/web 加一个标签。粗心的那个直接写缓存里的 Pod；")
	say(t, "the careful one calls DeepCopy first and changes only its copy.", "细心的那个先 DeepCopy，只改自己的拷贝。")
	say(t, "(They share one HandlerChain, so they run one after the other: on two goroutines the careless", "（它们在同一个 HandlerChain 里，所以一个接一个运行：如果在两个 goroutine 上，")
	say(t, "write would also be a data race, which `go test -race` reports.)", "粗心的写入还会是一次数据竞争，`go test -race` 会报出来。）")
	done := make(chan string, 4)
	careless := ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if p := obj.(*Pod); p.Name == "web" {
			p.Labels["touched-by"] = "careless" // the bug
		}
		done <- "careless"
	}}
	careful := ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if p := obj.(*Pod); p.Name == "web" {
			mine := p.DeepCopy()
			mine.Labels["touched-by"] = "careful" // fine: a private copy
		}
		done <- "careful"
	}}
	_, err := inf.AddEventHandler(NewHandlerChain(careless, careful))
	must(t, err)
	advRun(t, inf)
	for range 4 { // two pods, two handlers
		receive(t, done)
	}

	found := detector.CompareObjects()
	for _, m := range found {
		say(t, "  caught: %s", "  抓到：%s", m)
	}
	if len(found) != 1 || found[0].Key != "default/web" ||
		!slices.Equal(found[0].Changes, []string{`metadata.labels.touched-by: null → "careless"`}) {
		t.Fatalf("detector found %v, want exactly the careless label on default/web", found)
	}
	cached, _, _ := inf.GetStore().GetByKey("default/web")
	say(t, "The damage is real: the cache itself now says touched-by=%q, which the server never saw.", "损害是真实的：缓存本身现在写着 touched-by=%q，而服务器从未见过它。",
		cached.(*Pod).Labels["touched-by"])
	say(t, "Each mutation is reported once; default/db and the careful copy are not reported.", "每处修改只报告一次；default/db 和细心处理器的拷贝都没有被报告。")
	if again := detector.CompareObjects(); len(again) != 0 {
		t.Fatalf("second comparison found %v, want nothing new", again)
	}
}

func TestStep18TypedHelpers(t *testing.T) {
	say(t, "Step 18 — generics around the untyped core: client-go's typed handlers, and listers for *Pod. Tutorial 004 §3.1;",
		"第 18 步 — 无类型核心外面的泛型：client-go 的有类型处理器，以及 *Pod 的 lister。教程 004 §3.1；")
	say(t, "files typed.go, typed_informer.go, typed_lister.go.", "文件 typed.go、typed_informer.go、typed_lister.go。")
	srv := advServer(t)
	// The server is stopped on purpose below: no Reflector log lines in the story.
	quietLogs(t)
	c := advClient(t, srv)
	advCreatePods(t, c, "web", "doomed")
	clock := NewFakeClock(time.Now())
	inf, _ := advInformer(t, srv, clock)

	var mu sync.Mutex
	var seen []string
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s)
	}
	saw := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(seen, s)
	}
	say(t, "NewTypedSharedIndexInformer[*Pod] wraps the informer; the handler's functions take *Pod:",
		"NewTypedSharedIndexInformer[*Pod] 包住 informer；处理器的函数直接接收 *Pod：")
	say(t, "no obj.(*Pod) anywhere in user code. DeleteFunc gets a DeletedObject[*Pod].",
		"用户代码里不再有 obj.(*Pod)。DeleteFunc 收到的是 DeletedObject[*Pod]。")
	typed := NewTypedSharedIndexInformer[*Pod](inf)
	_, err := typed.AddTypedEventHandler(TypedResourceEventHandlerFuncs[*Pod]{
		AddFunc: func(p *Pod) { note("add " + p.Name + " image " + p.Spec.Containers[0].Image) },
		DeleteFunc: func(d DeletedObject[*Pod]) {
			if d.FinalStateUnknown != nil {
				note("tombstone " + d.GetKey() + " last image " + d.OptionalObj.Spec.Containers[0].Image)
				return
			}
			note("delete " + d.GetName())
		},
	})
	must(t, err)
	advRun(t, inf)
	advWaitFor(t, "the adds", func() bool { return saw("add web image nginx:1.27") && saw("add doomed image nginx:1.27") })
	say(t, "  AddFunc read p.Spec.Containers[0].Image straight from a *Pod.", "  AddFunc 直接从 *Pod 读到了 p.Spec.Containers[0].Image。")

	say(t, "A typed lister: Get returns a *Pod, List a []*Pod.", "有类型的 lister：Get 返回 *Pod，List 返回 []*Pod。")
	pods := NewNamespaced(NewResourceIndexer[*Pod](inf.GetIndexer(), "pod"), "default")
	web, err := pods.Get("web")
	must(t, err)
	list, err := pods.List(SelectorFromSet(Set{"app": "web"}))
	must(t, err)
	say(t, "  Get(\"web\") → %s/%s; List(app=web) → %d pods", "  Get(\"web\") → %s/%s；List(app=web) → %d 个 Pod", web.Namespace, web.Name, len(list))
	if web.Name != "web" || len(list) != 2 {
		t.Fatalf("lister: got %q and %d pods, want web and 2", web.Name, len(list))
	}
	if _, err := pods.Get("nope"); !IsNotFound(err) {
		t.Fatalf("Get of a missing pod: %v, want NotFound", err)
	}

	say(t, "Now a deletion the informer misses: stop the server, delete default/doomed, forget the history, restart.", "现在来一个 informer 错过的删除：停掉服务器，删除 default/doomed，丢掉历史，重启。")
	must(t, srv.Stop())
	must(t, srv.Delete(fakeapi.Pods, "default", "doomed"))
	srv.Compact(0)
	must(t, srv.Restart())
	advWaitStepping(t, clock, "the relist's tombstone", func() bool { return saw("tombstone default/doomed last image nginx:1.27") })
	say(t, "  the relist found default/doomed gone; OnDelete got a DeletedFinalStateUnknown, and the typed", "  重新 List 发现 default/doomed 不见了；OnDelete 收到一个 DeletedFinalStateUnknown，有类型的")
	say(t, "  handler got a DeletedObject: FinalStateUnknown set, OptionalObj the last known *Pod (maybe stale).",
		"  处理器收到 DeletedObject：FinalStateUnknown 非空，OptionalObj 是最后已知的 *Pod（可能已过时）。")
	if saw("delete doomed") {
		t.Fatal("DeleteFunc was called too: a tombstone must be delivered once")
	}
}

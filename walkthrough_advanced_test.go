// walkthrough_advanced_test.go continues the walkthrough with the tutorial's
// advanced chapters, Steps 09–15: conflict retry, snapshot diff, handler
// chains, health figures, the consistency and mutation detectors, and typed
// helpers. Each step runs alone (`go test -v -run Step12`) against a real
// HTTP fakeapi server and narrates with t.Log.
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

func TestStep09OptimisticConcurrency(t *testing.T) {
	t.Log("Step 9 — optimistic concurrency: 409 Conflict and RetryOnConflict. Tutorial 000 §3.3 (and 004 §2.5); file retry.go.")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	const counter = "example.com/counter"
	advCreatePods(t, c, "counter")

	const writers, increments = 4, 5
	t.Logf("%d writers each add 1 to the pod's %q annotation %d times: GET, change, PUT with the resourceVersion read.", writers, counter, increments)
	t.Log("They all read before any of them writes, so all but one of the first writes are stale.")
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
						t.Logf("  writer %d: 409 Conflict writing over resourceVersion %s: %v", w, pod.ResourceVersion, err)
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
	t.Logf("The counter reads %d after %d increments, with %d conflicts retried along the way.", got, writers*increments, conflicts.Load())
	if got != writers*increments {
		t.Fatalf("counter = %d, want %d: an increment was lost", got, writers*increments)
	}
	if conflicts.Load() < writers-1 {
		t.Fatalf("saw %d conflicts, want at least %d: the first round of writes should have collided", conflicts.Load(), writers-1)
	}
	t.Log("No increment was lost: the server refused every stale write, and each writer re-read and tried again.")
}

func TestStep10SnapshotDiff(t *testing.T) {
	t.Log("Step 10 — snapshot diff: added, updated, deleted by key and resource version. Tutorial 000 §3.2; file diff.go (and fifo_relist.go, Replace).")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	advCreatePods(t, c, "keep", "change", "remove")
	inf, lw := advInformer(t, srv, nil)
	advRun(t, inf)

	before, err := SnapshotOf(inf.GetStore(), DeletionHandlingMetaNamespaceKeyFunc)
	must(t, err)
	t.Logf("Snapshot 1 of the cache holds %d pods.", len(before))

	t.Log("On the server: create default/new, relabel default/change, delete default/remove.")
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
	t.Logf("DiffSnapshots(snapshot 1, snapshot 2) = added %v, updated %v, deleted %v", d.Added, d.Updated, d.Deleted)
	want := SnapshotDiff{Added: []string{"default/new"}, Updated: []string{"default/change"}, Deleted: []string{"default/remove"}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("diff = %+v, want %+v", d, want)
	}
	t.Log("default/keep is in neither list: its resource version did not change, so nothing happened to it.")

	t.Log("A relist computes the same thing. Feed a DeltaFIFO that knows snapshot 1 the server's list:")
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
			t.Logf("  %s: Deleted, the object wrapped in %T", key, newest.Object)
			relist.Deleted = append(relist.Deleted, key)
		case !knew:
			t.Logf("  %s: Replaced, unknown to the cache: the handlers get an add", key)
			relist.Added = append(relist.Added, key)
		case changed(old, newest.Object):
			t.Logf("  %s: Replaced, with a new resource version: the handlers get a real update", key)
			relist.Updated = append(relist.Updated, key)
		default:
			t.Logf("  %s: Replaced, same resource version: only a re-delivery", key)
		}
	}
	slices.Sort(relist.Added)
	slices.Sort(relist.Updated)
	slices.Sort(relist.Deleted)
	if !reflect.DeepEqual(relist, want) {
		t.Fatalf("relist diff = %+v, want %+v", relist, want)
	}
	t.Log("Same answer: the relist is a snapshot diff between the cache and the server's list.")
}

func TestStep11HandlerChains(t *testing.T) {
	t.Log("Step 11 — handler chains, filters, and handlers added and removed at run time. Tutorial 004 §4.3 and 000 ch. 5 (热升级); file chain.go (with handlers.go, informer_handlers.go).")
	srv := advServer(t)
	c := advClient(t, srv)
	ctx := context.Background()
	inf, _ := advInformer(t, srv, nil)
	var log eventLog

	t.Log("One registration holds a chain: audit, then a filtered handler for app=web only, then one that panics, then metrics.")
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
		t.Logf("  handler %d panicked (%v); the chain goes on", i, r)
	}
	v1, err := inf.AddEventHandler(chain)
	must(t, err)
	advRun(t, inf)

	t.Log("Create default/web (app=web) and default/batch (app=batch).")
	advCreatePods(t, c, "web")
	batch := advPod("batch")
	batch.Labels["app"] = "batch"
	_, err = c.Create(ctx, podsGVR, batch)
	must(t, err)
	advWaitFor(t, "metrics to see both pods", func() bool {
		return log.has("metrics add default/web") && log.has("metrics add default/batch")
	})
	want := []string{
		"audit add default/web", "web add default/web", "metrics add default/web",
		"audit add default/batch", "metrics add default/batch",
	}
	for _, line := range log.all() {
		t.Logf("  %s", line)
	}
	if got := log.all(); !slices.Equal(got, want) {
		t.Fatalf("chain calls = %q, want %q (in order, batch filtered out of web, past the panic)", got, want)
	}
	if panics.Load() != 2 {
		t.Fatalf("panics reported = %d, want 2", panics.Load())
	}

	t.Log("Relabel default/web to app=api: it leaves the filter, so the filtered handler sees a delete.")
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

	t.Log("Hot upgrade: while the informer runs, add a v2 handler, then remove the v1 chain.")
	v2, err := inf.AddEventHandler(log.handler("v2"))
	must(t, err)
	advWaitFor(t, "v2's registration to sync", v2.HasSynced)
	if !log.has("v2 add default/web") || !log.has("v2 add default/batch") {
		t.Fatalf("v2 did not get the cache's contents as adds: %q", log.all())
	}
	t.Log("  v2 got the two cached pods as adds as soon as it was added.")
	must(t, inf.RemoveEventHandler(v1))
	advCreatePods(t, c, "after")
	advWaitFor(t, "v2 to see default/after", func() bool { return log.has("v2 add default/after") })
	for _, line := range log.all() {
		if strings.HasSuffix(line, "default/after") && !strings.HasPrefix(line, "v2 ") {
			t.Fatalf("the removed chain still got %q", line)
		}
	}
	t.Log("  default/after reached v2 only: the removed v1 chain is gone, and the informer never stopped.")
}

func TestStep15TypedHelpers(t *testing.T) {
	t.Log("Step 15 — generics around the untyped core: typed handlers and listers for *Pod. Tutorial 004 §3.1; file typed.go.")
	srv := advServer(t)
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
	t.Log("The handler's functions take *Pod: no obj.(*Pod) anywhere in user code.")
	_, err := inf.AddEventHandler(TypedResourceEventHandlerFuncs[*Pod]{
		AddFunc: func(p *Pod) { note("add " + p.Name + " image " + p.Spec.Containers[0].Image) },
		DeleteFunc: func(p *Pod) {
			note("delete " + p.Name)
		},
		TombstoneFunc: func(key string, last *Pod) {
			note("tombstone " + key + " last image " + last.Spec.Containers[0].Image)
		},
	})
	must(t, err)
	advRun(t, inf)
	advWaitFor(t, "the adds", func() bool { return saw("add web image nginx:1.27") && saw("add doomed image nginx:1.27") })
	t.Log("  AddFunc read p.Spec.Containers[0].Image straight from a *Pod.")

	t.Log("A typed lister: Get returns a *Pod, List a []*Pod.")
	pods := NewNamespaced(NewResourceIndexer[*Pod](inf.GetIndexer(), "pod"), "default")
	web, err := pods.Get("web")
	must(t, err)
	list, err := pods.List(SelectorFromSet(Set{"app": "web"}))
	must(t, err)
	t.Logf("  Get(\"web\") → %s/%s; List(app=web) → %d pods", web.Namespace, web.Name, len(list))
	if web.Name != "web" || len(list) != 2 {
		t.Fatalf("lister: got %q and %d pods, want web and 2", web.Name, len(list))
	}
	if _, err := pods.Get("nope"); !IsNotFound(err) {
		t.Fatalf("Get of a missing pod: %v, want NotFound", err)
	}

	t.Log("Now a deletion the informer misses: stop the server, delete default/doomed, forget the history, restart.")
	must(t, srv.Stop())
	must(t, srv.Delete(fakeapi.Pods, "default", "doomed"))
	srv.Compact(0)
	must(t, srv.Restart())
	advWaitStepping(t, clock, "the relist's tombstone", func() bool { return saw("tombstone default/doomed last image nginx:1.27") })
	t.Log("  the relist found default/doomed gone; OnDelete got a DeletedFinalStateUnknown, and the typed")
	t.Log("  handler unwrapped it: TombstoneFunc got the last known *Pod (DeleteFunc would, without TombstoneFunc).")
	if saw("delete doomed") {
		t.Fatal("DeleteFunc was called too: a tombstone must be delivered once")
	}
}

func TestStep14MutationDetector(t *testing.T) {
	t.Log("Step 14 — the cache mutation detector: handlers must not change cached objects. Tutorial 000 §2.3; file mutation.go.")
	srv := advServer(t)
	c := advClient(t, srv)
	advCreatePods(t, c, "web", "db")
	inf, _ := advInformer(t, srv, nil)

	t.Log("The detector records a deep copy of every object as it enters the cache (through SetTransform).")
	detector := NewCacheMutationDetector("pods")
	must(t, inf.SetTransform(detector.Transform(nil)))

	t.Log("Two handlers want a label on default/web. The careless one writes on the cached pod;")
	t.Log("the careful one calls DeepCopy first and changes only its copy.")
	t.Log("(They share one HandlerChain, so they run one after the other: on two goroutines the careless")
	t.Log("write would also be a data race, which `go test -race` reports.)")
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
		t.Logf("  caught: %s", m)
	}
	if len(found) != 1 || found[0].Key != "default/web" ||
		!slices.Equal(found[0].Changes, []string{`metadata.labels.touched-by: null → "careless"`}) {
		t.Fatalf("detector found %v, want exactly the careless label on default/web", found)
	}
	cached, _, _ := inf.GetStore().GetByKey("default/web")
	t.Logf("The damage is real: the cache itself now says touched-by=%q, which the server never saw.",
		cached.(*Pod).Labels["touched-by"])
	t.Log("Each mutation is reported once; default/db and the careful copy are not reported.")
	if again := detector.CompareObjects(); len(again) != 0 {
		t.Fatalf("second comparison found %v, want nothing new", again)
	}
}

func TestStep13ConsistencyDetector(t *testing.T) {
	t.Log("Step 13 — the consistency detector: list from the server, diff against the cache. Tutorial 000 ch. 5 (缓存一致性); file consistency.go (with diff.go).")
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
	t.Logf("A healthy cache: compared at resourceVersion %s, consistent = %v.", report.ResourceVersion, report.Consistent())
	if !report.Consistent() {
		t.Fatalf("healthy cache reported: %v", report.Problems)
	}

	t.Log("Now corrupt the cache on purpose, behind the informer's back: drop a, invent ghost, age b.")
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
		t.Logf("  %s", p)
	}
	want := SnapshotDiff{Added: []string{"default/a"}, Updated: []string{"default/b"}, Deleted: []string{"default/ghost"}}
	if !reflect.DeepEqual(report.Diff, want) || len(report.Problems) != 3 {
		t.Fatalf("report = %+v, want %+v with one problem each", report.Diff, want)
	}
	t.Log("Every difference is reported. The informer cannot heal this by itself (no event will come):")
	t.Log("the fix is to find the code that wrote into the cache, and a restart (a fresh list) in the meantime.")
}

func TestStep12HealthFigures(t *testing.T) {
	t.Log("Step 12 — health figures: freshness, lists, relists, watch restarts, errors, resync, backlogs. Tutorial 000 ch. 5 (可观测性, 背压); file health.go.")
	srv, err := fakeapi.Start(fakeapi.Options{BookmarkInterval: time.Hour}) // no bookmarks: staleness moves only with the clock
	must(t, err)
	t.Cleanup(srv.Close)
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

	t.Log("One handler is stuck: each notification waits until the test lets it go.")
	gate := make(chan struct{})
	wait := func(any) { <-gate }
	_, err = inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: wait, UpdateFunc: func(_, n any) { wait(n) }})
	must(t, err)
	advRun(t, inf)
	t.Cleanup(func() { close(gate) }) // runs before the informer is stopped
	advWaitFor(t, "two pending adds", func() bool { h := health(); return len(h.Handlers) == 1 && h.Handlers[0].Pending == 2 })
	h := health()
	t.Logf("  synced=%v lists=%d lastSyncResourceVersion=%s pending=%d", h.Synced, h.Lists, h.LastSyncResourceVersion, h.Handlers[0].Pending)
	if !h.Synced || h.Lists != 1 || h.LastSyncResourceVersion != srv.ResourceVersion() {
		t.Fatalf("after the first list: %+v (the server is at %s)", h, srv.ResourceVersion())
	}

	t.Log("Half a minute passes without news from the server: staleness grows.")
	clock.Step(30 * time.Second)
	if h := health(); h.Staleness != 30*time.Second {
		t.Fatalf("staleness = %v, want 30s", h.Staleness)
	}
	advCreatePods(t, c, "c")
	advWaitFor(t, "the event to reset staleness", func() bool { return health().Staleness == 0 })
	t.Logf("  an event arrives: staleness %v; the stuck handler is %d behind", health().Staleness, health().Handlers[0].Pending)
	if p := health().Handlers[0].Pending; p != 3 {
		t.Fatalf("pending = %d, want 3: the backlog is kept, never dropped", p)
	}
	for range 3 {
		gate <- struct{}{}
	}
	advWaitFor(t, "the backlog to drain", func() bool { return health().Handlers[0].Pending == 0 })

	t.Log("A minute on, the resync runs (locally: it asks the server nothing).")
	clock.Step(30 * time.Second)
	advWaitFor(t, "the resync", func() bool { return health().Resyncs == 1 })
	if h := health(); !h.LastResyncTime.Equal(clock.Now()) || h.Lists != 1 {
		t.Fatalf("resync figures: %+v", h)
	}
	for range 3 { // the resync's updates reach the stuck handler too
		gate <- struct{}{}
	}

	t.Log("Now the server goes down; a pod is deleted and the history is compacted meanwhile; it comes back.")
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
	t.Logf("  lists=%d relistsAfterExpired=%d watchRestarts=%d watchErrors=%v", h.Lists, h.RelistsAfterExpired, h.WatchRestarts, h.WatchErrors)
	if h.Lists != 2 || h.WatchRestarts < 1 || h.WatchErrors["Expired"] != 1 || h.WatchErrors["ConnectionRefused"] < 1 {
		t.Fatalf("after the outage: %+v", h)
	}
	t.Log("Every figure moved for the reason it names. examples/health publishes them with expvar.")
}

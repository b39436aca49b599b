// informer_test.go is the walkthrough: the tutorial's story told as tests,
// in its order, from objects and keys (Step 01) to the advanced chapters
// (Steps 09–15). Run `go test -v -run Step` to read it as a chapter, or one
// step alone with `go test -v -run Step04`. Each step names its tutorial
// section and the file it exercises, then narrates with t.Log what happens
// and why. From Step 04 on, everything runs over real HTTP against fakeapi.
// Edge cases and stress live in the other _test.go files.

package informer

import (
	"context"
	"maps"
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

// nginx returns the tutorial's example Pod, default/nginx-pod.
func nginx(resourceVersion string) *Pod {
	return &Pod{
		TypeMeta:   TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: ObjectMeta{Namespace: "default", Name: "nginx-pod", ResourceVersion: resourceVersion},
		Spec:       PodSpec{Containers: []Container{{Name: "nginx", Image: "nginx:1.27"}}},
	}
}

func TestStep01ObjectsAndKeys(t *testing.T) {
	t.Log("Step 1 — objects and keys. Tutorial 004 §3.2 and 000 §2.1–2.2; file meta.go.")

	t.Log("Every object carries ObjectMeta. A cache names it by a key: \"namespace/name\".")
	p := nginx("1")
	key, err := MetaNamespaceKeyFunc(p)
	must(t, err)
	t.Logf("  the key of the nginx Pod is %q", key)
	if key != "default/nginx-pod" {
		t.Fatalf("key = %q", key)
	}

	t.Log("A cluster-scoped object (a Node, a Namespace) has no namespace: its key is just its name.")
	node := &Unstructured{Object: map[string]any{"kind": "Node", "metadata": map[string]any{"name": "node-1"}}}
	if key, _ := MetaNamespaceKeyFunc(node); key != "node-1" {
		t.Fatalf("cluster-scoped key = %q", key)
	}

	t.Log("SplitMetaNamespaceKey takes a key apart again; a key with two '/' is an error, not a guess.")
	ns, name, err := SplitMetaNamespaceKey(key)
	if ns != "default" || name != "nginx-pod" || err != nil {
		t.Fatalf("split = %q, %q, %v", ns, name, err)
	}
	if _, _, err := SplitMetaNamespaceKey("a/b/c"); err == nil {
		t.Fatal("a/b/c split without error")
	}

	t.Log("A list from the server becomes a map by key (000 §2.1): what a cache is, at heart.")
	byKey := SliceToMapByKey([]*Pod{nginx("1"), {ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}}},
		func(p *Pod) string { k, _ := MetaNamespaceKeyFunc(p); return k })
	t.Logf("  keys: %v", slices.Sorted(maps.Keys(byKey)))
	if len(byKey) != 2 || byKey["default/redis"] == nil {
		t.Fatalf("map = %v", byKey)
	}

	t.Log("Objects in a cache are shared with every reader: to change one, DeepCopy it first (000 §2.3).")
	changed := p.DeepCopy()
	changed.Spec.Containers[0].Image = "nginx:1.28"
	if p.Spec.Containers[0].Image != "nginx:1.27" {
		t.Fatal("changing the copy changed the cached object")
	}
}

func TestStep02DeltaFIFO(t *testing.T) {
	t.Log("Step 2 — deltas and the DeltaFIFO. Tutorial 004 §2.2 and 000 §3.1, §4.2; files delta.go, fifo.go.")

	t.Log("The Reflector writes changes into a DeltaFIFO. Each key is queued once;")
	t.Log("what happens to it while it waits piles up as Deltas, oldest first.")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	must(t, f.Add(nginx("1")))
	must(t, f.Update(nginx("2")))
	must(t, f.Add(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "3"}}))
	t.Logf("  queued keys: %v", f.ListKeys())
	if !slices.Equal(f.ListKeys(), []string{"default/nginx-pod", "default/redis"}) {
		t.Fatalf("keys = %v", f.ListKeys())
	}

	t.Log("Pop hands the first key to a process function, with all its deltas at once.")
	var got Deltas
	_, err := f.Pop(func(obj any, _ bool) error { got = obj.(Deltas); return nil })
	must(t, err)
	for _, d := range got {
		t.Logf("  %s %s", d.Type, describeObj(d.Object))
	}
	if len(got) != 2 || got[0].Type != Added || got[1].Type != Updated {
		t.Fatalf("deltas = %v", got)
	}

	t.Log("Nothing is merged except one thing: the same deletion reported twice in a row.")
	t.Log("(000 §3.1 says the queue drops older resource versions; client-go never does.)")
	must(t, f.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "4"}}))
	must(t, f.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis", ResourceVersion: "5"}}))
	item, _, _ := f.GetByKey("default/redis")
	t.Logf("  default/redis holds %d deltas: Added, then one Deleted", len(item.(Deltas)))
	if d := item.(Deltas); len(d) != 2 || d.Newest().Type != Deleted {
		t.Fatalf("deltas = %v", d)
	}

	t.Log("A relist (Replace) that no longer contains a queued key proves it was deleted while")
	t.Log("we were not watching: the queue adds a DeletedFinalStateUnknown tombstone (000 §4.2).")
	must(t, f.Add(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "web", ResourceVersion: "6"}}))
	must(t, f.Replace([]any{nginx("7")}, "7"))
	item, _, _ = f.GetByKey("default/web")
	tomb, ok := item.(Deltas).Newest().Object.(DeletedFinalStateUnknown)
	t.Logf("  default/web now ends with: Deleted %s", describeObj(tomb))
	if !ok || tomb.Key != "default/web" {
		t.Fatalf("deltas = %v", item)
	}
}

func TestStep03StoreAndIndexes(t *testing.T) {
	t.Log("Step 3 — the store and its indexes. Tutorial 004 §3.3 and 000 §1, §2.4; files store.go, thread_safe_store.go.")

	t.Log("The informer keeps the current state in an Indexer: a thread-safe map by key")
	t.Log("plus indexes. Here, the usual one: by namespace.")
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, p := range []*Pod{
		nginx("1"),
		{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}},
		{ObjectMeta: ObjectMeta{Namespace: "kube-system", Name: "coredns"}},
	} {
		must(t, idx.Add(p))
	}
	keys, err := idx.IndexKeys(NamespaceIndex, "default")
	must(t, err)
	t.Logf("  pods in default: %v", keys)
	if !slices.Equal(keys, []string{"default/nginx-pod", "default/redis"}) {
		t.Fatalf("keys = %v", keys)
	}

	t.Log("Indexes follow every write. Deleting redis empties nothing but its own entry;")
	t.Log("deleting coredns removes the now-empty kube-system value altogether.")
	must(t, idx.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "redis"}}))
	must(t, idx.Delete(&Pod{ObjectMeta: ObjectMeta{Namespace: "kube-system", Name: "coredns"}}))
	values := idx.ListIndexFuncValues(NamespaceIndex)
	t.Logf("  namespaces indexed: %v", values)
	if !slices.Equal(values, []string{"default"}) {
		t.Fatalf("values = %v", values)
	}

	t.Log("Asking for an index that does not exist is an error, not a crash.")
	if _, err := idx.ByIndex("by-node", "node-1"); err == nil {
		t.Fatal("unknown index: no error")
	} else {
		t.Logf("  %v", err)
	}

	t.Log("Replace swaps the whole contents in one step (000 §2.5): a reader sees the old set or the")
	t.Log("new one, never half of each. The map sits behind a sync.RWMutex; BenchmarkStore compares")
	t.Log("it with sync.Map (000 §2.4).")
	must(t, idx.Replace([]any{&Pod{ObjectMeta: ObjectMeta{Namespace: "prod", Name: "api"}}}, "10"))
	if keys := idx.ListKeys(); !slices.Equal(keys, []string{"prod/api"}) {
		t.Fatalf("after Replace: %v", keys)
	}
	t.Logf("  after Replace: %v, namespaces %v", idx.ListKeys(), idx.ListIndexFuncValues(NamespaceIndex))
}

func TestStep04Reflector(t *testing.T) {
	t.Log("Step 4 — the Reflector: list, then watch. Tutorial 004 §2.4, §4.1; 000 §4.1. Files: reflector.go, reflector_watch.go, reflector_list.go, restclient.go, watch.go")
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "web-1", nil)
	createPod(t, s, "default", "web-2", nil)
	createPod(t, s, "kube-system", "dns", nil) // another namespace: not ours

	lw := &recordingLW{inner: podsLW(t, s, "default")}
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflector(lw, &Pod{}, store)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()

	t.Log("The Reflector lists the pods of namespace default once and Replaces the store with them.")
	waitFor(t, "the first list", func() bool { return len(store.ListKeys()) == 2 })
	keys := store.ListKeys()
	slices.Sort(keys)
	t.Logf("store keys after the list: %v", keys)
	if !slices.Equal(keys, []string{"default/web-1", "default/web-2"}) {
		t.Fatalf("got %v", keys)
	}
	waitFor(t, "the watch", func() bool { return lw.watchCount() == 1 })
	lists, watches := lw.calls()
	t.Logf("first list asked for resourceVersion=%q (\"0\": anything the server has cached will do)", lists[0].ResourceVersion)
	if lists[0].ResourceVersion != "0" {
		t.Fatalf("first list resourceVersion %q, want \"0\"", lists[0].ResourceVersion)
	}
	w := watches[0]
	t.Logf("then it watches from the list's version %q, allowWatchBookmarks=%v, timeoutSeconds=%d",
		w.ResourceVersion, w.AllowWatchBookmarks, *w.TimeoutSeconds)
	if w.ResourceVersion == "" || w.ResourceVersion == "0" || !w.AllowWatchBookmarks ||
		*w.TimeoutSeconds < 300 || *w.TimeoutSeconds >= 600 {
		t.Fatalf("watch options %+v", w)
	}

	t.Log("Each watch event becomes a store operation: ADDED → Add, MODIFIED → Update, DELETED → Delete.")
	rv := createPod(t, s, "default", "web-3", nil)
	waitFor(t, "ADDED web-3", func() bool { _, ok, _ := store.GetByKey("default/web-3"); return ok })
	t.Logf("ADDED default/web-3 at version %s", rv)
	rv = relabelPod(t, s, "default", "web-3", map[string]string{"tier": "frontend"})
	waitFor(t, "MODIFIED web-3", func() bool {
		obj, _, _ := store.GetByKey("default/web-3")
		return obj != nil && obj.(*Pod).Labels["tier"] == "frontend"
	})
	t.Logf("MODIFIED default/web-3 at version %s: the store holds the new labels", rv)
	deletePod(t, s, "default", "web-1")
	waitFor(t, "DELETED web-1", func() bool { _, ok, _ := store.GetByKey("default/web-1"); return !ok })
	t.Log("DELETED default/web-1: gone from the store")

	waitFor(t, "the last version", func() bool { return r.LastSyncResourceVersion() == s.ResourceVersion() })
	t.Logf("LastSyncResourceVersion = %s, the server's current version", r.LastSyncResourceVersion())
	if n := lw.listCount(); n != 1 {
		t.Fatalf("%d lists; a healthy watch never relists", n)
	}

	t.Log("Cancelling the context stops the Reflector and every goroutine it started.")
	cancel()
	<-done
}

func TestStep05RunLoop(t *testing.T) {
	t.Log("Step 5 — the run loop: the Reflector fills the DeltaFIFO, the loop pops and processes. Tutorial 004 §4.2. File: controller.go")
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)

	known := NewStore(MetaNamespaceKeyFunc) // what our process function has seen
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	popped := make(chan string, 100)
	c := New(&Config{
		Queue:         fifo,
		ListerWatcher: podsLW(t, s, NamespaceAll),
		ObjectType:    &Pod{},
		Process: func(obj any, isInInitialList bool) error {
			for _, d := range obj.(Deltas) {
				key := keyOf(d.Object)
				if d.Type == Deleted {
					_ = known.Delete(d.Object)
				} else {
					_ = known.Update(d.Object)
				}
				popped <- string(d.Type) + " " + key
			}
			return nil
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()

	t.Log("The initial list reaches the process function as Replaced deltas, one key at a time.")
	got := []string{<-popped, <-popped}
	slices.Sort(got)
	t.Logf("popped: %v", got)
	if !slices.Equal(got, []string{"Replaced default/a", "Replaced default/b"}) {
		t.Fatalf("got %v", got)
	}
	waitFor(t, "HasSynced", c.HasSynced)
	t.Log("HasSynced is true once every key of the initial list has been popped.")

	createPod(t, s, "default", "c", nil)
	if d := <-popped; d != "Added default/c" {
		t.Fatalf("got %q", d)
	}
	deletePod(t, s, "default", "a")
	if d := <-popped; d != "Deleted default/a" {
		t.Fatalf("got %q", d)
	}
	t.Log("Then each watch event is one delta: Added default/c, Deleted default/a.")

	t.Log("Cancelling the context closes the FIFO; Pop returns ErrFIFOClosed, the loop ends, Run returns.")
	cancel()
	<-done
	if !fifo.IsClosed() {
		t.Fatal("the FIFO should be closed")
	}
}

func TestStep06SharedInformer(t *testing.T) {
	t.Log("Step 6 — the shared informer and its handlers. Tutorial 004 §2.1, §2.3, §4.3. Files: informer.go, informer_handlers.go, processor.go, handlers.go, lister.go")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "db", map[string]string{"app": "db"})

	inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	logger, auditor := &recorder{}, &recorder{}
	if _, err := inf.AddEventHandler(logger); err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddEventHandler(auditor); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	t.Log("Both handlers get the initial list as adds with isInInitialList=true.")
	logger.waitLine(t, "add default/db initial=true")
	auditor.waitLine(t, "add default/db initial=true")

	t.Log("kubectl apply of default/nginx-pod → ADD event for default/nginx-pod, in every handler.")
	createPod(t, s, "default", "nginx-pod", map[string]string{"app": "web"})
	logger.waitLine(t, "add default/nginx-pod initial=false")
	auditor.waitLine(t, "add default/nginx-pod initial=false")
	relabelPod(t, s, "default", "nginx-pod", map[string]string{"app": "web", "version": "2"})
	logger.waitLine(t, "update default/nginx-pod")
	t.Log("An update arrives as OnUpdate(old, new) with two different resource versions.")

	t.Log("The cache is updated before handlers are told: a lister reads it without asking the server.")
	lister := NewPodLister(inf.GetIndexer())
	pod, err := lister.Pods("default").Get("nginx-pod")
	if err != nil || pod.Labels["version"] != "2" {
		t.Fatalf("lister Get: %v %v", pod, err)
	}
	web, _ := ParseSelector("app in (web)")
	pods, _ := lister.List(web)
	t.Logf("lister.List(%q) → %d pod(s); Pods(\"default\").Get(\"nginx-pod\") → version %s", web, len(pods), pod.ResourceVersion)
	if len(pods) != 1 {
		t.Fatalf("got %d pods", len(pods))
	}

	deletePod(t, s, "default", "nginx-pod")
	logger.waitLine(t, "delete default/nginx-pod")
	auditor.waitLine(t, "delete default/nginx-pod")
	t.Log("A delete reaches OnDelete with the pod's last state.")

	t.Log("A handler added while the informer runs first gets the cache's contents as adds, then live events.")
	late := &recorder{}
	reg, err := inf.AddEventHandler(late)
	if err != nil {
		t.Fatal(err)
	}
	late.waitLine(t, "add default/db initial=true")
	waitFor(t, "the late handler's HasSynced", reg.HasSynced)
	t.Logf("late handler: %v; its registration HasSynced = %v", late.get(), reg.HasSynced())
}

func TestStep07Resync(t *testing.T) {
	t.Log("Step 7 — resync: every period, handlers that asked for it get every cached object again as an update with old == new. Tutorial 004 §4.4. Files: controller.go, processor.go, fifo_relist.go")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := NewFakeClock(time.Unix(0, 0))
	inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{},
		SharedIndexInformerOptions{ResyncPeriod: 30 * time.Second, Clock: clock})
	every30s, every60s, never := &recorder{}, &recorder{}, &recorder{}
	_, _ = inf.AddEventHandler(every30s)
	_, _ = inf.AddEventHandlerWithResyncPeriod(every60s, time.Minute)
	_, _ = inf.AddEventHandlerWithResyncPeriod(never, 0)
	runInformer(t, inf)
	for _, r := range []*recorder{every30s, every60s, never} {
		r.waitLine(t, "add default/a initial=true")
	}

	t.Log("The fake clock moves 30 s: the resync timer fires; only the 30-second handler is due.")
	waitFor(t, "the resync timer", clock.HasWaiters)
	clock.Step(30 * time.Second)
	every30s.waitLine(t, "update default/a same")
	createPod(t, s, "default", "marker-1", nil) // a live event after the resync
	every60s.waitLine(t, "add default/marker-1 initial=false")
	never.waitLine(t, "add default/marker-1 initial=false")
	if every60s.has("update default/a same") || never.has("update default/a same") {
		t.Fatalf("resync reached a handler that was not due: 60s=%v never=%v", every60s.get(), never.get())
	}
	t.Log("At 60 s both periodic handlers are due; the handler with period 0 never resyncs.")
	clock.Step(30 * time.Second)
	every60s.waitLine(t, "update default/a same")
	createPod(t, s, "default", "marker-2", nil)
	never.waitLine(t, "add default/marker-2 initial=false")
	if never.has("update default/a same") {
		t.Fatal("the handler with resync period 0 was resynced")
	}
	t.Logf("30s handler: %v", every30s.get())
}

func TestStep08WhenThingsGoWrong(t *testing.T) {
	t.Log("Step 8 — when things go wrong: a dropped watch, a server that is down, 429, and 410 after a compaction. Tutorial 000 §4.3, §2.5. Files: reflector_watch.go, reflector_list.go, backoff.go")
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "keep", nil)
	createPod(t, s, "default", "doomed", nil)
	clock := NewFakeClock(time.Unix(0, 0)) // backoffs wait on it: the test moves it
	lw := &recordingLW{inner: podsLW(t, s, NamespaceAll)}
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{Clock: clock})
	h := &recorder{}
	_, _ = inf.AddEventHandler(h)
	runInformer(t, inf)
	h.waitLine(t, "add default/keep initial=true")

	t.Log("1. The server ends the watch (a dropped connection, or timeoutSeconds): the Reflector re-watches from the last version it saw. No relist.")
	createPod(t, s, "default", "p1", nil)
	h.waitLine(t, "add default/p1 initial=false")
	watches := lw.watchCount()
	s.CloseWatches()
	waitFor(t, "the re-watch", func() bool { return lw.watchCount() > watches })
	createPod(t, s, "default", "p2", nil)
	h.waitLine(t, "add default/p2 initial=false")
	t.Logf("re-watched from resourceVersion %s; lists so far: %d", lw.lastWatch().ResourceVersion, lw.listCount())
	if lw.listCount() != 1 {
		t.Fatalf("a dropped watch caused a relist (%d lists)", lw.listCount())
	}

	t.Log("2. The server goes down: connection refused. The Reflector backs off (800 ms, doubling, with jitter) and re-watches; still no relist.")
	stopServer(t, s, lw)
	first := stepBackoff(t, clock)
	second := stepBackoff(t, clock)
	t.Logf("backoffs while the server is down: %v, then %v", first, second)
	if first < 800*time.Millisecond || first >= 1600*time.Millisecond || second < 1600*time.Millisecond || second >= 3200*time.Millisecond {
		t.Fatalf("backoffs %v, %v; want [0.8s,1.6s) then [1.6s,3.2s)", first, second)
	}
	waitFor(t, "the third backoff", clock.HasWaiters)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	stepBackoff(t, clock)
	createPod(t, s, "default", "p3", nil)
	h.waitLine(t, "add default/p3 initial=false")
	t.Logf("the server is back; the watch resumed; lists so far: %d", lw.listCount())
	if lw.listCount() != 1 {
		t.Fatalf("connection refused caused a relist (%d lists)", lw.listCount())
	}

	t.Log("3. The server answers 429 Too Many Requests: back off, re-watch, no relist.")
	failedBefore := s.Stats().Failed
	s.FailNext(1, 429)
	s.CloseWatches()
	wait := stepBackoff(t, clock)
	createPod(t, s, "default", "p4", nil)
	h.waitLine(t, "add default/p4 initial=false")
	t.Logf("one 429 (failed requests %d → %d), a backoff of %v (still growing: two healthy minutes have not passed), and the watch resumed", failedBefore, s.Stats().Failed, wait)
	if s.Stats().Failed != failedBefore+1 || lw.listCount() != 1 {
		t.Fatalf("failed %d, lists %d", s.Stats().Failed, lw.listCount())
	}

	t.Log("4. While the server is down, doomed is deleted and born is created, and the history is compacted. The re-watch gets 410 Expired: the Reflector relists.")
	lastSeen := inf.LastSyncResourceVersion()
	stopServer(t, s, lw)
	waitFor(t, "the Reflector backing off", clock.HasWaiters)
	deletePod(t, s, "default", "doomed")
	createPod(t, s, "default", "born", nil)
	s.Compact(0)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	stepBackoff(t, clock) // the re-watch: 410, the cycle ends
	stepBackoff(t, clock) // the backoff between cycles; then the relist
	h.waitLine(t, "delete default/doomed tombstone")
	h.waitLine(t, "add default/born initial=false")
	h.waitLine(t, "update default/keep same")
	lists := lw.fullLists() // plain lists, or streaming lists (the default since client-go 1.35)
	t.Logf("relisted from resourceVersion %q (the last seen was %s); handlers got: delete doomed as a DeletedFinalStateUnknown, add born, update keep with old == new",
		lists[len(lists)-1].ResourceVersion, lastSeen)
	if len(lists) != 2 {
		t.Fatalf("%d lists, want 2", len(lists))
	}
}

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
		log.add("handler " + strconv.Itoa(i) + " panicked (" + r.(string) + "); the chain goes on")
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
	const panicked = "handler 2 panicked (a buggy handler); the chain goes on"
	want := []string{
		"audit add default/web", "web add default/web", panicked, "metrics add default/web",
		"audit add default/batch", panicked, "metrics add default/batch",
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

func TestStep12HealthFigures(t *testing.T) {
	t.Log("Step 12 — health figures: freshness, lists, relists, watch restarts, errors, resync, backlogs. Tutorial 000 ch. 5 (可观测性, 背压); file health.go.")
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

	t.Log("One handler is stuck: each notification waits until the test lets it go.")
	gate := make(chan struct{})
	wait := func(any) { <-gate }
	_, err := inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: wait, UpdateFunc: func(_, n any) { wait(n) }})
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
	// The Reflector resets staleness as the event arrives; the notification
	// reaches the handler's buffer a moment later, so wait for both.
	advWaitFor(t, "the event to reset staleness and join the backlog (3 pending: a backlog is kept, never dropped)", func() bool {
		h := health()
		return h.Staleness == 0 && h.Handlers[0].Pending == 3
	})
	t.Logf("  an event arrives: staleness %v; the stuck handler is %d behind", health().Staleness, health().Handlers[0].Pending)
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

func TestStep15TypedHelpers(t *testing.T) {
	t.Log("Step 15 — generics around the untyped core: typed handlers and listers for *Pod. Tutorial 004 §3.1; file typed.go.")
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

// walkthrough_informer_test.go continues the tutorial's story from Step 4:
// the Reflector, the run loop, the shared informer, resync, and what happens
// when things go wrong. Each step runs alone (go test -v -run Step04) over
// real HTTP against fakeapi, and narrates itself with t.Log.
package informer

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestStep04Reflector(t *testing.T) {
	t.Log("Step 4 — the Reflector: list, then watch. Tutorial 004 §2.4, §4.1; 000 §4.1. Files: reflector.go, reflector_watch.go, reflector_list.go, restclient.go, watch.go")
	baseline := len(ourGoroutines())
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
	checkNoLeaks(t, baseline)
}

func TestStep05RunLoop(t *testing.T) {
	t.Log("Step 5 — the run loop: the Reflector fills the DeltaFIFO, the loop pops and processes. Tutorial 004 §4.2. File: controller.go")
	baseline := len(ourGoroutines())
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
	checkNoLeaks(t, baseline)
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
	lists, _ := lw.calls()
	t.Logf("relisted from resourceVersion %q (the last seen was %s); handlers got: delete doomed as a DeletedFinalStateUnknown, add born, update keep with old == new",
		lists[len(lists)-1].ResourceVersion, lastSeen)
	if len(lists) != 2 {
		t.Fatalf("%d lists, want 2", len(lists))
	}
}

// informer_edge_test.go holds the shared informer's edge cases over HTTP
// against fakeapi: a late handler's initial list and HasSynced, a blocked
// handler, filters, removing a handler, stopping with no goroutine left,
// running twice, and the settings that are refused after start.

package informer

import (
	"context"
	"slices"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

func newPodInformer(t *testing.T, s *fakeapi.Server) SharedIndexInformer {
	t.Helper()
	return NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
}

func TestInformerLateHandlerHasSyncedAfterItsInitialList(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)
	inf := newPodInformer(t, s)
	runInformer(t, inf)

	late := &recorder{block: make(chan struct{})}
	reg, err := inf.AddEventHandler(late)
	if err != nil {
		t.Fatal(err)
	}
	if reg.HasSynced() {
		t.Fatal("the registration claims to be synced before its handler saw the initial list")
	}
	close(late.block)
	late.waitLine(t, "add default/a initial=true")
	late.waitLine(t, "add default/b initial=true")
	waitFor(t, "the registration to sync", reg.HasSynced)
	createPod(t, s, "default", "c", nil)
	late.waitLine(t, "add default/c initial=false")
}

func TestInformerBlockedHandlerDoesNotDelayAnother(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	inf := newPodInformer(t, s)
	stuck, fast := &recorder{block: make(chan struct{})}, &recorder{}
	defer close(stuck.block)
	_, _ = inf.AddEventHandler(stuck)
	_, _ = inf.AddEventHandler(fast)
	runInformer(t, inf)
	createPod(t, s, "default", "first", nil)  // the stuck handler blocks on this one
	createPod(t, s, "default", "second", nil) // and everything after it waits in its own buffer
	fast.waitLine(t, "add default/second initial=false")
	if _, ok, _ := inf.GetStore().GetByKey("default/second"); !ok {
		t.Fatal("the cache lags behind a stuck handler")
	}
	if len(stuck.get()) != 0 {
		t.Fatalf("the stuck handler recorded %v", stuck.get())
	}
	say(t, "One handler blocks on default/first; the other already has default/second, and so has the cache.",
		"一个处理器卡在 default/first 上；另一个已经收到 default/second，缓存里也已经有了。")
}

func TestInformerFilteringHandler(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	inf := newPodInformer(t, s)
	web := SelectorFromSet(Set{"app": "web"})
	got := &recorder{}
	_, _ = inf.AddEventHandler(FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool { o, ok := obj.(Object); return ok && web.Matches(o.GetLabels()) },
		Handler:    got,
	})
	runInformer(t, inf)
	createPod(t, s, "default", "db", map[string]string{"app": "db"})
	createPod(t, s, "default", "marker", map[string]string{"app": "web"})
	got.waitLine(t, "add default/marker initial=false")
	if got.has("add default/db initial=false") {
		t.Fatal("a filtered-out pod reached the handler")
	}
	relabelPod(t, s, "default", "db", map[string]string{"app": "web"})
	got.waitLine(t, "add default/db initial=false") // crossed into the filter: an add
	relabelPod(t, s, "default", "db", map[string]string{"app": "web", "v": "2"})
	got.waitLine(t, "update default/db")
	relabelPod(t, s, "default", "db", map[string]string{"app": "db"})
	got.waitLine(t, "delete default/db") // crossed out of it: a delete
	say(t, "filter app=web; create db (app=db), marker (app=web); relabel db web, web+v2, db: the handler saw %q",
		"过滤 app=web；创建 db（app=db）、marker（app=web）；db 依次改标签为 web、web+v2、db：处理器收到 %q", got.get())
	say(t, "client-go's FilteringResourceEventHandler.OnUpdate (controller.go) turns entering into OnAdd, leaving into OnDelete.",
		"client-go 的 FilteringResourceEventHandler.OnUpdate（controller.go）把进入过滤变成 OnAdd，离开变成 OnDelete。")
}

func TestInformerRemoveEventHandler(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	inf := newPodInformer(t, s)
	kept, removed := &recorder{}, &recorder{}
	_, _ = inf.AddEventHandler(kept)
	reg, _ := inf.AddEventHandler(removed)
	runInformer(t, inf)
	createPod(t, s, "default", "before", nil)
	removed.waitLine(t, "add default/before initial=false")
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatal(err)
	}
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	createPod(t, s, "default", "after", nil)
	kept.waitLine(t, "add default/after initial=false")
	if removed.has("add default/after initial=false") {
		t.Fatal("a removed handler was notified")
	}
}

func TestInformerStopLeavesNoGoroutine(t *testing.T) {
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	inf := newPodInformer(t, s)
	h1, h2 := &recorder{}, &recorder{}
	_, _ = inf.AddEventHandler(h1)
	_, _ = inf.AddEventHandler(h2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { inf.Run(ctx); close(done) }()
	h2.waitLine(t, "add default/a initial=true")

	second := make(chan struct{})
	go func() { inf.Run(ctx); close(second) }()
	// A second Run returns at once (with a logged warning), and does not disturb the first.
	receive(t, "the second Run to return at once", second)
	createPod(t, s, "default", "b", nil)
	h1.waitLine(t, "add default/b initial=false")
	// A handler added late and one removed: their goroutines end too.
	late := &recorder{}
	if _, err := inf.AddEventHandler(late); err != nil {
		t.Fatal(err)
	}
	late.waitLine(t, "add default/b initial=true")
	removed, err := inf.AddEventHandler(&recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if err := inf.RemoveEventHandler(removed); err != nil {
		t.Fatal(err)
	}

	cancel()
	receive(t, "Run to return after the cancel", done)
	if !inf.IsStopped() {
		t.Fatal("IsStopped should be true after Run returned")
	}
	if _, err := inf.AddEventHandler(&recorder{}); err == nil {
		t.Fatal("adding a handler to a stopped informer should fail")
	}
}

func TestInformerSettingsAfterStart(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", map[string]string{"app": "web"})
	inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{})
	// Before start: a transform that drops annotations-like bulk (here: labels) is accepted.
	if err := inf.SetTransform(func(obj any) (any, error) {
		p := obj.(*Pod).DeepCopy()
		p.Labels = map[string]string{"seen": "transformed"}
		return p, nil
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf)
	obj, _, _ := inf.GetStore().GetByKey("default/a")
	if obj.(*Pod).Labels["seen"] != "transformed" {
		t.Fatalf("the transform was not applied: %v", obj.(*Pod).Labels)
	}
	if inf.SetTransform(nil) == nil || inf.SetWatchErrorHandler(nil) == nil {
		t.Fatal("SetTransform and SetWatchErrorHandler must fail after start")
	}
	// Indexes may be added while running; existing objects are indexed at once.
	if err := inf.AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc}); err != nil {
		t.Fatal(err)
	}
	if got, _ := inf.GetIndexer().ByIndex(NamespaceIndex, "default"); len(got) != 1 {
		t.Fatalf("by namespace: %v", got)
	}
	if inf.LastSyncResourceVersion() == "" {
		t.Fatal("LastSyncResourceVersion is empty after sync")
	}
}

// resyncOf reads the resync period a registration ended up with; it takes
// AddEventHandler's two results as they come.
type resyncOf struct{ t *testing.T }

func (r resyncOf) of(reg ResourceEventHandlerRegistration, err error) time.Duration {
	r.t.Helper()
	if err != nil {
		r.t.Fatal(err)
	}
	l := reg.(*processorListener)
	l.resyncMu.Lock()
	defer l.resyncMu.Unlock()
	return l.resyncPeriod
}

// TestInformerResyncPeriodRules checks client-go's rules for per-handler
// resync periods: at least one second; before Run, a period shorter than
// the informer's check period shortens the check period; after Run, it is
// raised to the check period; and an informer whose check period is 0
// never resyncs any handler.
func TestInformerResyncPeriodRules(t *testing.T) {
	notRun := func(defaultResync time.Duration) *sharedIndexInformer {
		return NewSharedIndexInformer(&ListWatch{}, &Pod{}, defaultResync, Indexers{}).(*sharedIndexInformer)
	}
	t.Run("an informer with no resync resyncs no handler", func(t *testing.T) {
		inf := notRun(0)
		got := (resyncOf{t}).of(inf.AddEventHandlerWithResyncPeriod(&recorder{}, 10*time.Second))
		if got != 0 {
			t.Fatalf("resync period %v, want 0", got)
		}
		say(t, "informer resync 0, handler asks 10s: it gets %v (client-go's determineResyncPeriod, shared_informer.go)",
			"informer 的重新同步周期为 0，处理器要 10s：得到 %v，不做全量同步（client-go 的 determineResyncPeriod）", got)
	})
	t.Run("below one second is raised to one second", func(t *testing.T) {
		inf := notRun(time.Minute)
		got := (resyncOf{t}).of(inf.AddEventHandlerWithResyncPeriod(&recorder{}, 10*time.Millisecond))
		if got != time.Second {
			t.Fatalf("resync period %v, want 1s", got)
		}
		say(t, "handler asks 10ms: it gets %v (client-go's minimumResyncPeriod, shared_informer.go)",
			"处理器要 10ms：得到 %v（client-go 的 minimumResyncPeriod，shared_informer.go）", got)
	})
	t.Run("before Run a shorter period shortens the check period", func(t *testing.T) {
		inf := notRun(time.Minute)
		byDefault := (resyncOf{t}).of(inf.AddEventHandler(&recorder{}))
		short := (resyncOf{t}).of(inf.AddEventHandlerWithResyncPeriod(&recorder{}, 10*time.Second))
		if byDefault != time.Minute || short != 10*time.Second || inf.resyncCheckPeriod != 10*time.Second {
			t.Fatalf("default handler %v, 10s handler %v, check period %v; want 1m, 10s, 10s",
				byDefault, short, inf.resyncCheckPeriod)
		}
		say(t, "before Run: default handler %v, 10s handler %v, the informer now checks every %v",
			"Run 之前：默认处理器 %v，10s 处理器 %v，informer 改为每 %v 检查一次", byDefault, short, inf.resyncCheckPeriod)
	})
	t.Run("after Run a shorter period is raised to the check period", func(t *testing.T) {
		s := startServer(t, fakeapi.Options{})
		for _, tt := range []struct{ check, asked, want time.Duration }{
			{time.Minute, 10 * time.Second, time.Minute},
			{0, 10 * time.Second, 0},
		} {
			inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, tt.check, Indexers{})
			cancel := runInformer(t, inf)
			got := (resyncOf{t}).of(inf.AddEventHandlerWithResyncPeriod(&recorder{}, tt.asked))
			cancel()
			if got != tt.want {
				t.Fatalf("informer resync %v, handler asked %v: got %v, want %v", tt.check, tt.asked, got, tt.want)
			}
			say(t, "after Run, informer resync %v, handler asks %v: it gets %v",
				"Run 之后，informer 的重新同步周期为 %v，处理器要 %v：得到 %v", tt.check, tt.asked, got)
		}
	})
	say(t, "client-go's sharedIndexInformer.AddEventHandlerWithOptions (shared_informer.go) applies these rules.",
		"client-go 的 sharedIndexInformer.AddEventHandlerWithOptions（shared_informer.go）就是这些规则。")
}

// TestInformerResyncsOnlyWhileWatching fails the re-watch and the relist
// after it: while the Reflector backs off, the only timer on the clock is
// the backoff's (no resync timer: it runs beside the watch, as client-go's
// watchWithResync runs it; parity case D5); once a list works and the
// watch is open again, the resync timer is back.
func TestInformerResyncsOnlyWhileWatching(t *testing.T) {
	quietLogs(t)
	const period = 10 * time.Second
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{},
		SharedIndexInformerOptions{Clock: clock, ResyncPeriod: period})
	runInformer(t, inf)
	waitFor(t, "the resync timer while the Reflector watches", func() bool {
		return slices.Contains(clock.Waiters(), period)
	})
	clock.Step(2 * time.Second) // past its first second: the watch's end is no "very short watch"
	s.FailNext(2, 500)          // the re-watch, then the relist (or, by default, the streaming list)
	s.CloseWatches()
	backoffs := 0
	waitFor(t, "the resync timer once the Reflector watches again", func() bool {
		w := clock.Waiters()
		if len(w) == 1 && w[0] <= 4*time.Second { // a backoff, alone: no resync timer beside it
			backoffs++
			clock.Step(w[0])
			return false
		}
		return backoffs > 0 && slices.Contains(w, period)
	})
}

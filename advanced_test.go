// advanced_test.go holds the edge cases of the advanced chapters: retry.go,
// diff.go, chain.go, health.go, consistency.go, mutation.go and typed.go.
// The walkthrough steps for them are in informer_test.go (Steps 12–18).

package informer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// instantClock is a Clock whose timers fire at once; it records the waits
// asked for, so retry tests check their lengths without sleeping.
type instantClock struct {
	*FakeClock
	waits []time.Duration
}

func (c *instantClock) NewTimer(d time.Duration) Timer {
	c.waits = append(c.waits, d)
	return c.FakeClock.NewTimer(0)
}

var errConflict = &StatusError{Status{Code: http.StatusConflict, Reason: StatusReasonConflict, Message: "conflict"}}

func TestOnErrorRetriesUntilSuccess(t *testing.T) {
	clock := &instantClock{FakeClock: NewFakeClock(time.Unix(0, 0))}
	calls := 0
	err := onError(clock, Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 2}, IsConflict, func() error {
		calls++
		if calls < 3 {
			return errConflict
		}
		return nil
	})
	must(t, err)
	if calls != 3 || !slices.Equal(clock.waits, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}) {
		t.Fatalf("calls = %d, waits = %v; want 3 calls, waits [10ms 20ms]", calls, clock.waits)
	}
}

func TestOnErrorGivesUpWhenTriesRunOut(t *testing.T) {
	clock := &instantClock{FakeClock: NewFakeClock(time.Unix(0, 0))}
	calls := 0
	err := onError(clock, DefaultRetry, IsConflict, func() error { calls++; return errConflict })
	if !IsConflict(err) || calls != DefaultRetry.Steps || len(clock.waits) != DefaultRetry.Steps-1 {
		t.Fatalf("err = %v, calls = %d, waits = %d; want the conflict after %d calls", err, calls, len(clock.waits), DefaultRetry.Steps)
	}
	for _, w := range clock.waits { // 10 ms plus up to 10 % jitter
		if w < 10*time.Millisecond || w > 11*time.Millisecond {
			t.Fatalf("wait %v outside DefaultRetry's [10ms, 11ms]", w)
		}
	}
}

func TestOnErrorStopsAtOtherErrors(t *testing.T) {
	clock := &instantClock{FakeClock: NewFakeClock(time.Unix(0, 0))}
	boom := errors.New("boom")
	calls := 0
	err := onError(clock, DefaultRetry, IsConflict, func() error { calls++; return boom })
	if err != boom || calls != 1 || len(clock.waits) != 0 {
		t.Fatalf("err = %v, calls = %d; want boom after one call and no wait", err, calls)
	}
}

func TestOnErrorZeroBackoffTriesOnce(t *testing.T) {
	calls := 0
	err := RetryOnConflict(Backoff{}, func() error { calls++; return errConflict })
	if !IsConflict(err) || calls != 1 {
		t.Fatalf("err = %v, calls = %d; want one try", err, calls)
	}
}

func TestBackoffCapLimitsEachDelay(t *testing.T) {
	b := Backoff{Duration: 10 * time.Millisecond, Factor: 2, Steps: 10, Cap: 35 * time.Millisecond}
	got := []time.Duration{b.Step(), b.Step(), b.Step()}
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 35 * time.Millisecond}
	if !slices.Equal(got, want) || b.Steps != 0 {
		t.Fatalf("steps = %v (steps left %d), want %v and 0 left: reaching the cap ends the retries", got, b.Steps, want)
	}
}

func TestDiffSnapshotsVersionsAreOpaque(t *testing.T) {
	pod := func(rv string) *Pod { return &Pod{ObjectMeta: ObjectMeta{Name: "p", ResourceVersion: rv}} }
	// "9" → "10" and "10" → "9" are both just "different": never ordered.
	for _, pair := range [][2]string{{"9", "10"}, {"10", "9"}, {"abc", "abd"}} {
		d := DiffSnapshots(Snapshot{"p": pod(pair[0])}, Snapshot{"p": pod(pair[1])})
		if !slices.Equal(d.Updated, []string{"p"}) {
			t.Errorf("%q → %q: diff %+v, want p updated", pair[0], pair[1], d)
		}
	}
	// Equal versions are the same state, even if the Go values differ.
	a, b := pod("7"), pod("7")
	b.Labels = map[string]string{"x": "y"}
	if d := DiffSnapshots(Snapshot{"p": a}, Snapshot{"p": b}); !d.Empty() {
		t.Errorf("same resource version reported as %+v", d)
	}
	say(t, "Versions 9 → 10, 10 → 9 and abc → abd are all just \"updated\"; 7 and 7 are the same state.",
		"版本 9 → 10、10 → 9、abc → abd 都只是\"更新\"；7 和 7 是同一个状态。")
	say(t, "Resource versions are opaque: compare them for equality only, as client-go's DeltaFIFO.Replace does.",
		"资源版本是不透明的：只比较是否相等，client-go 的 DeltaFIFO.Replace 也是这样做的。")
}

func TestDiffSnapshotsEdgeCases(t *testing.T) {
	if d := DiffSnapshots(nil, nil); !d.Empty() {
		t.Errorf("nil snapshots: %+v", d)
	}
	d := DiffSnapshots(nil, Snapshot{"b": 1, "a": 2})
	if !slices.Equal(d.Added, []string{"a", "b"}) {
		t.Errorf("added from nil = %v, want sorted [a b]", d.Added)
	}
	// Values without metadata are compared by value.
	d = DiffSnapshots(Snapshot{"x": "one", "y": "same"}, Snapshot{"x": "two", "y": "same"})
	if !slices.Equal(d.Updated, []string{"x"}) {
		t.Errorf("plain values: updated = %v, want [x]", d.Updated)
	}
	// A nil *Pod has no resource version to read.
	var nilPod *Pod
	d = DiffSnapshots(Snapshot{"n": nilPod}, Snapshot{"n": &Pod{}})
	if !slices.Equal(d.Updated, []string{"n"}) {
		t.Errorf("nil pod → pod: updated = %v, want [n]", d.Updated)
	}
}

func TestSnapshotFromListKeyError(t *testing.T) {
	_, err := SnapshotFromList([]any{42}, MetaNamespaceKeyFunc)
	var ke KeyError
	if !errors.As(err, &ke) {
		t.Fatalf("err = %v, want a KeyError for an object without metadata", err)
	}
}

func TestHandlerChainSkipsNilAndSurvivesPanics(t *testing.T) {
	var log eventLog
	chain := NewHandlerChain(
		nil,
		ResourceEventHandlerFuncs{DeleteFunc: func(any) { panic(errors.New("boom")) }},
		log.handler("last"),
	)
	// The default PanicHandler logs; the call must return normally.
	p := advPod("p")
	chain.OnAdd(p, true)
	chain.OnUpdate(p, p)
	chain.OnDelete(p)
	want := []string{"last add default/p", "last update default/p", "last delete default/p"}
	if got := log.all(); !slices.Equal(got, want) {
		t.Fatalf("calls = %q, want %q", got, want)
	}
	NewHandlerChain().OnAdd(p, false) // an empty chain does nothing
}

func TestTypedHandlerTombstonesAndStrangers(t *testing.T) {
	var deleted []string
	h := typedResourceEventHandler[*Pod]{TypedResourceEventHandlerFuncs[*Pod]{
		DeleteFunc: func(d DeletedObject[*Pod]) {
			s := d.GetKey() + " ns=" + d.GetNamespace() + " name=" + d.GetName()
			if d.FinalStateUnknown != nil {
				s += " (final state unknown)"
			}
			if d.OptionalObj == nil {
				s += " (no object)"
			}
			deleted = append(deleted, s)
		},
	}}
	h.OnDelete(advPod("plain"))
	h.OnDelete(DeletedFinalStateUnknown{Key: "default/tomb", Obj: advPod("tomb")})
	h.OnDelete(DeletedFinalStateUnknown{Key: "default/gone"})
	want := []string{
		"default/plain ns=default name=plain",
		"default/tomb ns=default name=tomb (final state unknown)",
		"default/gone ns=default name=gone (final state unknown) (no object)",
	}
	if !slices.Equal(deleted, want) {
		t.Fatalf("DeleteFunc got\n %q\nwant\n %q", deleted, want)
	}
	say(t, "OnDelete of a pod, a tombstone with its object, a tombstone without: DeleteFunc saw %q",
		"OnDelete 一个 Pod、一个带对象的墓碑、一个不带对象的墓碑：DeleteFunc 收到 %q", deleted)
	say(t, "client-go's DeletedObject[T].GetKey and GetObjectName (controller.go) read a tombstone's key, not its object.",
		"client-go 的 DeletedObject[T].GetKey 和 GetObjectName（controller.go）读取墓碑的键，而不是它的对象。")
	// Strangers are logged and dropped, never a panic nor a zero *Pod.
	quietLogs(t)
	h.OnAdd(&Unstructured{Object: map[string]any{}}, false)
	h.OnUpdate(advPod("a"), "not a pod")
	h.OnDelete(DeletedFinalStateUnknown{Key: "k", Obj: 42})
	h.OnDelete(42)
	if len(deleted) != 3 {
		t.Fatalf("a stranger reached the handler: %q", deleted)
	}
	say(t, "an Unstructured, a string, a tombstone of 42 and 42 itself were dropped: DeleteFunc still saw %d",
		"Unstructured、字符串、装着 42 的墓碑和 42 本身都被丢弃：DeleteFunc 仍然只收到 %d 个", len(deleted))
	var quiet TypedResourceEventHandlerFuncs[*Pod] // no functions: nothing happens
	quiet.OnAdd(advPod("x"), true)
	quiet.OnUpdate(advPod("x"), advPod("x"))
	quiet.OnDelete(DeletedObject[*Pod]{OptionalObj: advPod("x")})
	if (DeletedObject[*Pod]{}).GetKey() != "" {
		t.Fatal("an empty DeletedObject has a key")
	}
}

func TestTypedFilteringAndIndexer(t *testing.T) {
	var got []string
	inner := TypedResourceEventHandlerDetailedFuncs[*Pod]{
		AddFunc:    func(p *Pod, initial bool) { got = append(got, fmt.Sprintf("add %s %v", p.Name, initial)) },
		UpdateFunc: func(o, n *Pod) { got = append(got, "update "+n.Name) },
		DeleteFunc: func(d DeletedObject[*Pod]) { got = append(got, "delete "+d.GetName()) },
	}
	web := func(p *Pod) bool { return p.Labels["app"] == "web" }
	f := TypedFilteringResourceEventHandler[*Pod]{FilterFunc: web, Handler: inner}
	other := advPod("x")
	other.Labels = map[string]string{"app": "db"}
	f.OnAdd(other, true)
	f.OnAdd(advPod("x"), true)
	f.OnUpdate(other, advPod("x")) // now passes: an add
	f.OnUpdate(advPod("x"), other) // now fails: a delete of the old state
	f.OnUpdate(advPod("x"), advPod("x"))
	want := []string{"add x true", "add x false", "delete x", "update x"}
	if !slices.Equal(got, want) {
		t.Fatalf("filtered: %q, want %q", got, want)
	}
	say(t, "filter app=web; add db-x, add web-x, db→web, web→db, web→web: the typed handler saw %q",
		"过滤 app=web；add db-x、add web-x、db→web、web→db、web→web：类型化处理器收到 %q", got)

	idx := typedIndexer[*Pod]{NewIndexer(MetaNamespaceKeyFunc, nil)}
	must(t, idx.AddTypedIndexers(TypedIndexers[*Pod]{"app": func(p *Pod) ([]string, error) { return []string{p.Labels["app"]}, nil }}))
	must(t, idx.Add(advPod("a")))
	pods, err := idx.ByTypedIndex("app", "web")
	if err != nil || len(pods) != 1 || pods[0].Name != "a" {
		t.Fatalf("ByTypedIndex = %v, %v", pods, err)
	}
	if pods, err = idx.TypedIndex("app", advPod("z")); err != nil || len(pods) != 1 {
		t.Fatalf("TypedIndex = %v, %v", pods, err)
	}
	err = idx.Add(&Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "u"}}})
	if err == nil {
		t.Fatal("a typed index function accepted an object of another type")
	}
	say(t, "typed indexer: ByTypedIndex(app, web) = [%s]; adding an Unstructured fails: %v",
		"类型化索引器：ByTypedIndex(app, web) = [%s]；加入 Unstructured 失败：%v", pods[0].Name, err)
	say(t, "client-go's TypedFilteringResourceEventHandler.OnUpdate (controller.go) maps crossings to add and delete.",
		"client-go 的 TypedFilteringResourceEventHandler.OnUpdate（controller.go）把跨越过滤映射为 add 和 delete。")
}

func TestResourceIndexerScopesAndTypes(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	must(t, idx.Add(advPod("p")))
	node := &Unstructured{Object: map[string]any{"kind": "Node", "metadata": map[string]any{"name": "n1"}}}
	must(t, idx.Add(node))

	all := NewResourceIndexer[*Pod](idx, "pod")
	pods, err := all.List(nil)
	must(t, err)
	if len(pods) != 1 || pods[0].Name != "p" {
		t.Fatalf("List = %v, want only the pod (the node is skipped)", pods)
	}
	if _, err := all.Get("n1"); err == nil || IsNotFound(err) {
		t.Fatalf("Get of a non-pod = %v, want a type error", err)
	}
	nodes := NewResourceIndexer[*Unstructured](idx, "node")
	if n, err := nodes.Get("n1"); err != nil || n.GetName() != "n1" {
		t.Fatalf("cluster-scoped Get = %v, %v", n, err)
	}
	if _, err := NewNamespaced(all, "other").Get("p"); !IsNotFound(err) {
		t.Fatalf("Get in another namespace = %v, want NotFound", err)
	}
}

func TestMutationDetectorRunReportsPeriodically(t *testing.T) {
	clock := NewFakeClock(time.Unix(0, 0))
	reports := make(chan MutatedObject, 1)
	d := NewCacheMutationDetector("pods")
	d.Clock, d.Period = clock, time.Minute
	d.FailureFunc = func(m MutatedObject) { reports <- m }
	p := advPod("p")
	transformed, err := d.Transform(func(obj any) (any, error) { return obj, nil })(p)
	must(t, err)
	if transformed != any(p) {
		t.Fatal("Transform must hand on the very object it recorded")
	}
	d.AddObject(DeletedFinalStateUnknown{Key: "x", Obj: advPod("x")}) // ignored
	d.AddObject(42)                                                   // ignored

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { d.Run(ctx); close(stopped) }()
	advWaitFor(t, "Run to wait on the clock", clock.HasWaiters)
	p.Spec.Containers[0].Image = "evil:latest"
	clock.Step(time.Minute)
	m := receive(t, reports)
	if m.Key != "default/p" || !slices.Equal(m.Changes, []string{`spec.containers: [{"image":"nginx:1.27","name":"c"}] → [{"image":"evil:latest","name":"c"}]`}) {
		t.Fatalf("report = %+v", m)
	}
	cancel()
	receive(t, stopped)
}

func TestMutationDetectorTransformError(t *testing.T) {
	d := NewCacheMutationDetector("pods")
	boom := errors.New("boom")
	if _, err := d.Transform(func(any) (any, error) { return nil, boom })(advPod("p")); err != boom {
		t.Fatalf("err = %v, want the inner transform's error", err)
	}
	if len(d.CompareObjects()) != 0 || len(d.watched) != 0 {
		t.Fatal("a failed transform must record nothing")
	}
}

func TestCacheMutationDetectionEnabled(t *testing.T) {
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "true")
	if !CacheMutationDetectionEnabled() {
		t.Fatal("true not honoured")
	}
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "")
	if CacheMutationDetectionEnabled() {
		t.Fatal("empty means off")
	}
}

func TestConsistencyDetectorRunAndErrors(t *testing.T) {
	srv := advServer(t)
	advCreatePods(t, advClient(t, srv), "a")
	inf, lw := advInformer(t, srv, nil)
	clock := NewFakeClock(time.Unix(0, 0))
	d := NewConsistencyDetector(lw, inf)
	d.Clock, d.Settle = clock, time.Second
	if _, err := d.Check(context.Background()); err == nil {
		t.Fatal("Check before the informer synced must fail")
	}
	advRun(t, inf)

	reports := make(chan ConsistencyReport, 1)
	d.OnInconsistency = func(r ConsistencyReport) { reports <- r }
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { d.Run(ctx, time.Minute); close(stopped) }()
	must(t, inf.GetIndexer().Add(advPod("ghost")))
	var r ConsistencyReport
	advWaitStepping(t, clock, "a periodic report", func() bool {
		select {
		case r = <-reports:
			return true
		default:
			return false
		}
	})
	if !slices.Equal(r.Diff.Deleted, []string{"default/ghost"}) {
		t.Fatalf("report = %+v, want ghost as not on the server", r)
	}
	cancel()
	receive(t, stopped)
}

func TestCacheMutationDetectorFromEnvironment(t *testing.T) {
	t.Setenv("KUBE_CACHE_MUTATION_DETECTOR", "true")
	found := make(chan MutatedObject, 1)
	envDetectorFailureFunc = func(m MutatedObject) { found <- m }
	t.Cleanup(func() { envDetectorFailureFunc = nil })
	srv := advServer(t)
	advCreatePods(t, advClient(t, srv), "web")
	clock := NewFakeClock(time.Now())
	inf, _ := advInformer(t, srv, clock)
	mutated := make(chan struct{})
	_, err := inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		obj.(*Pod).Labels["oops"] = "yes"
		close(mutated)
	}})
	must(t, err)
	advRun(t, inf)
	receive(t, mutated)
	advWaitFor(t, "the detector's timer", clock.HasWaiters) // the only timer of this informer
	clock.Step(defaultMutationCheckPeriod)
	if m := receive(t, found); m.Key != "default/web" {
		t.Fatalf("found %v, want default/web", m)
	}
}

func TestHealthJSONIsReadable(t *testing.T) {
	h := Health{Staleness: 1500 * time.Millisecond, LastEventTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		WatchErrors: map[string]int64{"Expired": 1}, Handlers: []HandlerHealth{{Handler: "h", Pending: 2}}}
	data, err := json.Marshal(h)
	must(t, err)
	for _, want := range []string{`"staleness":"1.5s"`, `"lastEventTime":"2026-01-02T03:04:05Z"`, `"lastResyncTime":""`,
		`"watchErrors":{"Expired":1}`, `"handlers":[{"handler":"h","pending":2}]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON %s lacks %s", data, want)
		}
	}
}

// realfifo_test.go tests the RealFIFO alone (no informer, no server): one
// delta per notification in arrival order, client-go v0.37.2's option rules,
// atomic and non-atomic Replace and Resync, bookmarks, HasSynced, PopBatch's
// batch rules, and unlocking while processing.
//
// client-go counterpart: k8s.io/client-go/tools/cache the_real_fifo_test.go.
//
// Tutorial: the walkthrough's Step03RealFIFO.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// describeReal renders a RealFIFO delta: describe's form, plus the
// whole-queue deltas ("ReplacedAll@7[ns/a@1 ns/b@1]", "SyncAll",
// "Bookmark@9").
func describeReal(d Delta) string {
	switch info := d.Object.(type) {
	case ReplacedAllInfo:
		var objs []string
		for _, o := range info.Objects {
			objs = append(objs, describeObj(o))
		}
		return "ReplacedAll@" + info.ResourceVersion + "[" + strings.Join(objs, " ") + "]"
	case SyncAllInfo:
		return "SyncAll"
	case BookmarkInfo:
		return "Bookmark@" + info.ResourceVersion
	}
	return describe(d)
}

// popAll pops everything queued, one Pop at a time, and describes it,
// with "(initial)" after the deltas popped as part of the initial list.
func popAll(t *testing.T, f *RealFIFO) []string {
	t.Helper()
	var out []string
	for {
		f.lock.Lock()
		empty := len(f.items) == 0
		f.lock.Unlock()
		if empty {
			return out
		}
		_, err := pop(t, "Pop to hand over the next delta", f, func(obj any, initial bool) error {
			d := obj.(Deltas)
			if len(d) != 1 {
				return fmt.Errorf("Pop handed out %d deltas; a RealFIFO pops one", len(d))
			}
			s := describeReal(d[0])
			if initial {
				s += " (initial)"
			}
			out = append(out, s)
			return nil
		})
		must(t, err)
	}
}

func atomicFIFO() *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true})
}

func TestRealFIFOKeepsEveryNotificationInOrder(t *testing.T) {
	f := atomicFIFO()
	must(t, f.Add(pod("a", "1")))
	must(t, f.Add(pod("b", "2")))
	must(t, f.Update(pod("a", "3")))
	must(t, f.Delete(pod("b", "2")))
	must(t, f.Delete(pod("never-known", "4"))) // passed on: the RealFIFO does not ask
	want := []string{"Added ns/a@1", "Added ns/b@2", "Updated ns/a@3", "Deleted ns/b@2", "Deleted ns/never-known@4"}
	if got := popAll(t, f); !slices.Equal(got, want) {
		t.Fatalf("popped %q\nwant   %q", got, want)
	}
	if !f.HasSynced() {
		t.Fatal("an Add before any Replace should make the queue synced")
	}
}

func TestRealFIFOOptionRules(t *testing.T) {
	known := NewStore(nil)
	tests := []struct {
		name string
		opts RealFIFOOptions
		ok   bool
	}{
		{"atomic", RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true}, true},
		{"non-atomic with KnownObjects", RealFIFOOptions{KnownObjects: known}, true},
		{"atomic with KnownObjects", RealFIFOOptions{AtomicEvents: true, KnownObjects: known}, false},
		{"non-atomic without KnownObjects", RealFIFOOptions{}, false},
		{"unlock without atomic", RealFIFOOptions{KnownObjects: known, UnlockWhileProcessing: true}, false},
		{"bookmarks without atomic", RealFIFOOptions{KnownObjects: known, EmitDeltaTypeBookmark: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewRealFIFOWithOptions(tt.opts)
			errAdd := f.Add(pod("a", "1"))
			if (errAdd == nil) != tt.ok {
				t.Fatalf("Add: err = %v, want ok=%v", errAdd, tt.ok)
			}
			if !tt.ok {
				_, err := pop(t, "Pop on a misconfigured queue to return", f, nil)
				if err == nil || errors.Is(err, ErrFIFOClosed) {
					t.Fatalf("Pop on a misconfigured queue: err = %v, want the options' error", err)
				}
			}
		})
	}
}

func TestRealFIFOAtomicReplaceIsOneDelta(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: markTransformed(t, new([]string))})
	must(t, f.Replace([]any{pod("a", "1"), pod("b", "1")}, "7"))
	if f.HasSynced() {
		t.Fatal("synced before the initial list was processed")
	}
	want := []string{"ReplacedAll@7[ns/a@1+T ns/b@1+T] (initial)"}
	if got := popAll(t, f); !slices.Equal(got, want) {
		t.Fatalf("popped %q, want %q", got, want)
	}
	if !f.HasSynced() {
		t.Fatal("not synced after the initial list was processed")
	}
}

func TestRealFIFONonAtomicReplace(t *testing.T) {
	known := NewStore(nil)
	must(t, known.Add(pod("gone-known", "1")))
	must(t, known.Add(pod("a", "1")))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known})
	must(t, f.Update(pod("gone-queued", "2")))
	must(t, f.Update(pod("a", "2")))
	must(t, f.Replace([]any{pod("a", "3"), pod("new", "3")}, "3"))
	// Tombstones first (queued keys, then known ones), then the list in order.
	want := []string{
		"Updated ns/gone-queued@2", "Updated ns/a@2",
		"Deleted tombstone(ns/gone-queued, ns/gone-queued@2)",
		"Deleted tombstone(ns/gone-known, ns/gone-known@1)",
		"Replaced ns/a@3", "Replaced ns/new@3",
	}
	if got := popAll(t, f); !slices.Equal(got, want) {
		t.Fatalf("popped %q\nwant   %q", got, want)
	}
}

func TestRealFIFOReplaceFailingPartWay(t *testing.T) {
	known := NewStore(nil)
	must(t, known.Add(pod("z", "1")))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known, Transformer: func(obj any) (any, error) {
		if obj.(*Pod).Name == "bad" {
			return nil, errors.New("boom")
		}
		return obj, nil
	}})
	if err := f.Replace([]any{pod("good", "1"), pod("bad", "1"), pod("after", "1")}, "1"); err == nil {
		t.Fatal("Replace with a failing transformer succeeded")
	}
	want := []string{"Deleted tombstone(ns/z, ns/z@1) (initial)", "Replaced ns/good@1 (initial)"}
	if got := popAll(t, f); !slices.Equal(got, want) {
		t.Fatalf("popped %q, want %q (what came before the failure)", got, want)
	}
	if f.HasSynced() {
		t.Fatal("a failed Replace marked the queue populated")
	}

	a := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: f.transformer})
	if err := a.Replace([]any{pod("good", "1"), pod("bad", "1")}, "1"); err == nil {
		t.Fatal("atomic Replace with a failing transformer succeeded")
	}
	if got := popAll(t, a); len(got) != 0 {
		t.Fatalf("a failed atomic Replace queued %q", got)
	}
}

func TestRealFIFOResync(t *testing.T) {
	a := atomicFIFO()
	must(t, a.Resync())
	if got := popAll(t, a); !slices.Equal(got, []string{"SyncAll (initial)"}) { // a Resync does not populate
		t.Fatalf("atomic Resync queued %q, want one SyncAll", got)
	}

	known := NewStore(nil)
	must(t, known.Add(pod("a", "1")))
	must(t, known.Add(pod("b", "1")))
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known, Transformer: markTransformed(t, new([]string))})
	must(t, f.Update(pod("a", "2")))
	must(t, f.Resync())
	// a has a newer delta queued; b is re-delivered from the cache, untransformed.
	want := []string{"Updated ns/a@2+T", "Sync ns/b@1"}
	if got := popAll(t, f); !slices.Equal(got, want) {
		t.Fatalf("popped %q, want %q", got, want)
	}
}

func TestRealFIFOBookmark(t *testing.T) {
	f := atomicFIFO()
	must(t, f.Bookmark("9"))
	if f.HasSynced() {
		t.Fatal("a Bookmark marked the queue populated")
	}
	if got := popAll(t, f); !slices.Equal(got, []string{"Bookmark@9 (initial)"}) {
		t.Fatalf("popped %q", got)
	}
	quiet := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true})
	must(t, quiet.Bookmark("9"))
	if got := popAll(t, quiet); len(got) != 0 {
		t.Fatalf("without EmitDeltaTypeBookmark, Bookmark queued %q", got)
	}
}

// popBatches pops until the queue is empty and describes each pop: the
// batch's deltas joined by ", ", prefixed "batch:" or "single:".
func popBatches(t *testing.T, f *RealFIFO) []string {
	t.Helper()
	var out []string
	describeAll := func(kind string, ds []Delta, initial bool) {
		var parts []string
		for _, d := range ds {
			parts = append(parts, describeReal(d))
		}
		s := kind + " " + strings.Join(parts, ", ")
		if initial {
			s += " (initial)"
		}
		out = append(out, s)
	}
	for {
		f.lock.Lock()
		empty := len(f.items) == 0
		f.lock.Unlock()
		if empty {
			return out
		}
		var err error
		returnsWithin(t, "PopBatch to hand over the next deltas", func() {
			err = f.PopBatch(
				func(ds []Delta, initial bool) error { describeAll("batch:", ds, initial); return nil },
				func(obj any, initial bool) error { describeAll("single:", obj.(Deltas), initial); return nil })
		})
		must(t, err)
	}
}

func TestRealFIFOPopBatchRules(t *testing.T) {
	known := NewStore(nil)
	f := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: known})
	must(t, f.Replace([]any{pod("a", "1"), pod("b", "1")}, "1")) // the initial list: 2 deltas
	must(t, f.Add(pod("c", "2")))
	must(t, f.Update(pod("d", "2")))
	must(t, f.Update(pod("c", "3"))) // a second delta for c ends the batch
	must(t, f.Delete(pod("e", "3")))
	got := popBatches(t, f)
	want := []string{
		"batch: Replaced ns/a@1, Replaced ns/b@1 (initial)", // stops at the end of the initial list
		"batch: Added ns/c@2, Updated ns/d@2",
		"batch: Updated ns/c@3, Deleted ns/e@3",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("batches:\n got %q\nwant %q", got, want)
	}

	a := atomicFIFO()
	must(t, a.Add(pod("a", "1")))
	must(t, a.Add(pod("b", "1")))
	must(t, a.Bookmark("2")) // whole-queue deltas end a batch and go alone
	must(t, a.Resync())
	must(t, a.Add(pod("c", "3")))
	got = popBatches(t, a)
	want = []string{"batch: Added ns/a@1, Added ns/b@1", "single: Bookmark@2", "single: SyncAll", "single: Added ns/c@3"}
	if !slices.Equal(got, want) {
		t.Fatalf("batches:\n got %q\nwant %q", got, want)
	}

	small := atomicFIFO()
	small.batchSize = 2
	for _, name := range []string{"a", "b", "c"} {
		must(t, small.Add(pod(name, "1")))
	}
	got = popBatches(t, small)
	want = []string{"batch: Added ns/a@1, Added ns/b@1", "single: Added ns/c@1"}
	if !slices.Equal(got, want) {
		t.Fatalf("batches of at most 2:\n got %q\nwant %q", got, want)
	}
}

func TestRealFIFOUnlockWhileProcessing(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
	must(t, f.Add(pod("a", "1")))
	_, err := pop(t, "Pop to hand over ns/a", f, func(any, bool) error {
		// The queue is unlocked while we process: a writer is not held up.
		done := make(chan error, 1)
		go func() { done <- f.Add(pod("b", "2")) }()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second): // within pop's bound, to say what hung
			return errors.New("an Add made while Pop was processing did not return within 5s")
		}
	})
	must(t, err)
	if got := popAll(t, f); !slices.Equal(got, []string{"Added ns/b@2"}) {
		t.Fatalf("popped %q", got)
	}
}

func TestRealFIFOCloseDrainsThenFails(t *testing.T) {
	f := atomicFIFO()
	must(t, f.Add(pod("a", "1")))
	f.Close()
	if _, err := pop(t, "Pop to hand over ns/a after Close", f, nil); err != nil {
		t.Fatalf("Pop after Close with a delta queued: %v", err)
	}
	if _, err := pop(t, "Pop on a closed, empty queue", f, nil); !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("Pop on a closed, empty queue: %v", err)
	}
	var err error
	returnsWithin(t, "PopBatch on a closed, empty queue", func() { err = f.PopBatch(nil, nil) })
	if !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("PopBatch on a closed, empty queue: %v", err)
	}
	if !f.IsClosed() {
		t.Fatal("IsClosed is false after Close")
	}
}

func TestStep03RealFIFO(t *testing.T) {
	say(t, "Here the second reading begins: today's client-go, the code marked \"Reading 2\".",
		"第二遍阅读从这里开始：今天的 client-go，也就是标着 \"Reading 2\" 的代码。")
	say(t, "Step 3 — the RealFIFO, the queue client-go v0.37.2 runs.", "第 3 步 — RealFIFO：client-go v0.37.2 实际运行的队列。")
	say(t, "Step 3 was left out of the first reading on purpose: the tutorial's informer (Steps 1–11)",
		"第一遍阅读特意跳过了第 3 步：教程里的 informer（第 1–11 步）用第 2 步的 DeltaFIFO 排队；")
	say(t, "queues in Step 2's DeltaFIFO; client-go has run this queue by default since 1.33.",
		"client-go 从 1.33 起默认运行的是这里的队列。")
	say(t, "Files: realfifo.go, realfifo_relist.go, realfifo_batch.go, features.go.",
		"文件：realfifo.go、realfifo_relist.go、realfifo_batch.go、features.go。")
	say(t, "The cache holds a, b, c, e. Then: a changes, b changes, a changes again, c is deleted;",
		"缓存里有 a、b、c、e。接着：a 变了，b 变了，a 又变了，c 被删除；")
	say(t, "the watch drops, e is deleted meanwhile, d is created, and the Reflector relists.",
		"watch 断开，期间 e 被删除、d 被创建，Reflector 重新 list。")
	say(t, "The same history goes into both queues, drained as an informer drains each (informer.go):",
		"同一段历史分别送进两个队列，再像 informer 那样（informer.go）处理弹出的内容：")
	say(t, "the DeltaFIFO with Pop; the RealFIFO with PopBatch (gate InOrderInformersBatchProcess, on).",
		"DeltaFIFO 用 Pop；RealFIFO 用 PopBatch（特性门控 InOrderInformersBatchProcess，默认开启）。")
	delta := runStep03History(t, NewDeltaFIFOWithOptions(DeltaFIFOOptions{
		KnownObjects: step03Cache(), EmitDeltaTypeReplaced: true}), false)
	newRealFIFO := func() *RealFIFO {
		return NewRealFIFOWithOptions(RealFIFOOptions{
			AtomicEvents: true, EmitDeltaTypeBookmark: true, UnlockWhileProcessing: true})
	}
	real := runStep03History(t, newRealFIFO(), true)
	single := runStep03History(t, newRealFIFO(), false)

	say(t, "  DeltaFIFO (client-go ≤1.32): each Pop        | RealFIFO (v0.37.2): each PopBatch",
		"  DeltaFIFO（client-go ≤1.32）：每次 Pop       | RealFIFO（v0.37.2）：每次 PopBatch")
	for i := range max(len(delta.pops), len(real.pops)) {
		say(t, "  %s", "  %s", step03Row(step03At(delta.pops, i), step03At(real.pops, i)))
	}
	wantDelta := []string{
		"a: Updated a@2, Updated a@4, Replaced a@4", "b: Updated b@3, Replaced b@3", "c: Deleted c@5",
		"d: Replaced d@6", "e: Deleted tombstone(e)",
	}
	// client-go v0.37.2's RealFIFO.PopBatch (tools/cache the_real_fifo.go)
	// ends a batch before a second delta of a key already in it, and before
	// a delta that is not batchable (ReplacedAll), which then pops alone.
	wantReal := []string{"[Updated a@2, Updated b@3]", "[Updated a@4, Deleted c@5]", "[ReplacedAll@7 (a@4 b@3 d@6)]"}
	wantSingle := []string{"Updated a@2", "Updated b@3", "Updated a@4", "Deleted c@5", "ReplacedAll@7 (a@4 b@3 d@6)"}
	if !slices.Equal(delta.pops, wantDelta) || !slices.Equal(real.pops, wantReal) || !slices.Equal(single.pops, wantSingle) {
		t.Fatalf("pops:\nDeltaFIFO %q\n RealFIFO PopBatch %q\n RealFIFO Pop %q", delta.pops, real.pops, single.pops)
	}
	say(t, "1. Order: the DeltaFIFO hands out a's whole story before b's; the RealFIFO keeps a, b, a",
		"1. 顺序：DeltaFIFO 先交出 a 的全部经过，再交出 b 的；RealFIFO 按发生的顺序")
	say(t, "   in the order they happened.", "   a、b、a 交出。")
	say(t, "2. A batch is a run of deltas of distinct keys: it ends before the second a, and before the",
		"2. 一批是一串键各不相同的 Delta：遇到第二个 a 之前就结束，遇到 ReplacedAll 之前也结束，")
	say(t, "   ReplacedAll, which pops alone. With that gate off, Pop hands out one delta per call:",
		"   ReplacedAll 单独弹出。关掉这个特性门控，Pop 每次只交出一个 Delta：")
	say(t, "   %s", "   %s", strings.Join(single.pops, ", "))
	say(t, "3. The relist: the DeltaFIFO spreads it over every key; the RealFIFO queues one ReplacedAll.",
		"3. 重新 list：DeltaFIFO 把它分散到每个键上；RealFIFO 把它作为一个 ReplacedAll 排队。")

	say(t, "The handlers hear (DeltaFIFO | RealFIFO):", "事件处理器收到的（DeltaFIFO | RealFIFO）：")
	for i := range max(len(delta.heard), len(real.heard)) {
		say(t, "  %s", "  %s", step03Row(step03At(delta.heard, i), step03At(real.heard, i)))
	}
	wantDeltaHeard := []string{"update a@1→a@2", "update a@2→a@4", "update a@4→a@4", "update b@1→b@3",
		"update b@3→b@3", "delete c@5", "add d@6", "delete tombstone(e)"}
	wantRealHeard := []string{"update a@1→a@2", "update b@1→b@3", "update a@2→a@4", "delete c@5",
		"delete tombstone(e)", "update a@4→a@4", "update b@3→b@3", "add d@6"}
	if !slices.Equal(delta.heard, wantDeltaHeard) || !slices.Equal(real.heard, wantRealHeard) {
		t.Fatalf("handlers heard:\nDeltaFIFO %q\n RealFIFO %q", delta.heard, real.heard)
	}
	say(t, "A batch is written to the cache in one Transaction, then the handlers hear it in order.",
		"一批 Delta 在一个 Transaction 里写进缓存，然后事件处理器按顺序收到每一个。")
	say(t, "A ReplacedAll replaces the cache first; the handlers hear the deletions, then the list.",
		"ReplacedAll 先整体替换缓存；事件处理器先收到删除，再按列表顺序收到其余的。")

	say(t, "4. What a reader of the cache could see after each pop (DeltaFIFO | RealFIFO):",
		"4. 每次弹出之后，读缓存的人可能看到的内容（DeltaFIFO | RealFIFO）：")
	for i := range max(len(delta.caches), len(real.caches)) {
		say(t, "  %s", "  %s", step03Row(step03At(delta.caches, i), step03At(real.caches, i)))
	}
	if !slices.Contains(delta.caches, "a b d e") || slices.Contains(real.caches, "a b d e") {
		t.Fatalf("caches:\nDeltaFIFO %q\n RealFIFO %q", delta.caches, real.caches)
	}
	say(t, "The DeltaFIFO's cache once held d and e together, a state the server never had:",
		"DeltaFIFO 的缓存一度同时有 d 和 e，服务器上从来没有过这种状态：")
	say(t, "a half-applied relist. The RealFIFO's cache goes from the watch's state to the list's at once.",
		"重新 list 只应用了一半。RealFIFO 的缓存从 watch 的状态一步跳到列表的状态。")
	say(t, "That is why client-go moved: events in the order they happened, across keys; an atomic relist;",
		"这就是 client-go 换队列的原因：跨键保持事件发生的顺序；重新 list 是原子的；")
	say(t, "and a queue that no longer reads the cache, so the Reflector need not wait for the handlers.",
		"队列也不再读缓存，所以 Reflector 不必等事件处理器。")
	say(t, "PipelineGates132() gives an informer the DeltaFIFO again; the default: DefaultPipelineGates().",
		"PipelineGates132() 让 informer 重新用 DeltaFIFO；默认是 DefaultPipelineGates()。")
}

// TestStep07BookmarksThroughTheRealFIFO is Step 7 under client-go v0.37.2's
// pipeline: a bookmark travels through the queue to the cache.
func TestStep07BookmarksThroughTheRealFIFO(t *testing.T) {
	s := startServer(t, fakeapi.Options{BookmarkInterval: 20 * time.Millisecond})
	createPod(t, s, "default", "web", nil)
	lw := podsLW(t, s, "default")
	say(t, "Step 7 in client-go v0.37.2: a RealFIFO (Step 3) with AtomicFIFO on. There a bookmark does",
		"第 7 步在 client-go v0.37.2 里：开启 AtomicFIFO 的 RealFIFO（第 3 步）。在那里书签会")
	say(t, "travel, as a Bookmark delta that carries only the version, to the cache (informer.go).",
		"变成一个只带版本的 Bookmark Delta，一路送到缓存（informer.go）。")
	realFIFO := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, EmitDeltaTypeBookmark: true})
	giveUp := time.AfterFunc(10*time.Second, realFIFO.Close) // Pop waits for ever for a bookmark that never comes
	r2 := NewReflector(lw, &Pod{}, realFIFO)
	runReflector(t, r2)
	first, err := realFIFO.Pop(func(any, bool) error { return nil })
	if errors.Is(err, ErrFIFOClosed) {
		t.Fatal("the initial list did not reach the queue within 10s")
	}
	must(t, err)
	say(t, "  the list pops as one %s", "  列表作为一个 %s 被 Pop 出来", first.(Deltas)[0].Type)
	createPod(t, s, "elsewhere", "p3", nil)
	var bookmark BookmarkInfo
	for bookmark.ResourceVersion != s.ResourceVersion() {
		popped, err := realFIFO.Pop(func(any, bool) error { return nil })
		if errors.Is(err, ErrFIFOClosed) {
			sayFailure(t, "no bookmark at the server's version %s in 10 s: does the watch ask for them (allowWatchBookmarks)?",
				"10 秒内没有收到服务器版本 %s 的书签：watch 请求书签了吗（allowWatchBookmarks）？", s.ResourceVersion())
			t.FailNow()
		}
		must(t, err)
		d := popped.(Deltas)[0]
		if d.Type != Bookmark {
			t.Fatalf("popped %s, want only bookmarks", d.Type)
		}
		bookmark = d.Object.(BookmarkInfo)
	}
	giveUp.Stop()
	say(t, "  then a %s delta: %+v", "  然后是一个 %s Delta：%+v", Bookmark, bookmark)

	gates := DefaultPipelineGates()
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{PipelineGates: &gates})
	events := &recorder{}
	_, _ = inf.AddEventHandler(events)
	runInformer(t, inf)
	events.waitLine(t, "add default/web initial=true")
	createPod(t, s, "elsewhere", "p4", nil)
	waitFor(t, "the cache at the server's version", func() bool {
		return inf.GetIndexer().LastStoreSyncResourceVersion() == s.ResourceVersion()
	})
	say(t, "  an informer with the v0.37.2 defaults: its cache says LastStoreSyncResourceVersion %s,",
		"  使用 v0.37.2 默认设置的 informer：缓存的 LastStoreSyncResourceVersion 是 %s，",
		inf.GetIndexer().LastStoreSyncResourceVersion())
	say(t, "  and the handler heard nothing but the initial add: %v", "  而事件处理器除了初始的 add 什么都没收到：%v", events.get())
	if got := events.get(); len(got) != 1 {
		t.Fatalf("a bookmark reached the handler: %v", got)
	}
}

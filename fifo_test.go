// fifo_test.go checks every observable behaviour of the DeltaFIFO against
// client-go's: per-key accumulation, the one dedup rule, Delete of unknown
// keys, Replace and its tombstones, Resync, HasSynced, Pop and Close, the
// transformer rules, and concurrent use under -race.

package informer

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// pod returns a Pod in namespace "ns" with the given name and resource version.
func pod(name, rv string) *Pod {
	return &Pod{ObjectMeta: ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// describe renders one delta compactly: "Added ns/a@1", or
// "Deleted tombstone(ns/a, @1)" for a DeletedFinalStateUnknown.
func describe(d Delta) string {
	return string(d.Type) + " " + describeObj(d.Object)
}

func describeObj(obj any) string {
	switch o := obj.(type) {
	case *Pod:
		s := o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
		if o.Annotations["transformed"] == "yes" {
			s += "+T"
		}
		return s
	case DeletedFinalStateUnknown:
		inner := "nil"
		if o.Obj != nil {
			inner = describeObj(o.Obj)
		}
		return "tombstone(" + o.Key + ", " + inner + ")"
	case nil:
		return "nil"
	}
	return fmt.Sprintf("%T", obj)
}

// queued renders everything queued, key by key in Pop order, without popping.
func queued(t *testing.T, f *DeltaFIFO) []string {
	t.Helper()
	checkFIFOInvariant(t, f)
	var out []string
	for _, key := range fifoKeys(f) {
		item, _ := fifoDeltas(f, key)
		var parts []string
		for _, d := range item {
			parts = append(parts, describe(d))
		}
		out = append(out, key+": "+strings.Join(parts, ", "))
	}
	return out
}

// fifoKeys returns the queued keys in Pop order. client-go v0.37.2's DeltaFIFO
// has no ListKeys or GetByKey any more, so the tests read its fields under its lock.
func fifoKeys(f *DeltaFIFO) []string {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return slices.Clone(f.queue)
}

// fifoDeltas returns a copy of the Deltas queued for key, and whether key is queued.
func fifoDeltas(f *DeltaFIFO, key string) (Deltas, bool) {
	f.lock.RLock()
	defer f.lock.RUnlock()
	d, ok := f.items[key]
	return slices.Clone(d), ok
}

// checkFIFOInvariant fails if the queue and the items map disagree, or if a
// key holds no deltas: then Pop could hand out nothing.
func checkFIFOInvariant(t *testing.T, f *DeltaFIFO) {
	t.Helper()
	f.lock.RLock()
	defer f.lock.RUnlock()
	if len(f.queue) != len(f.items) {
		t.Fatalf("queue has %d keys, items has %d", len(f.queue), len(f.items))
	}
	for _, key := range f.queue {
		if len(f.items[key]) == 0 {
			t.Fatalf("key %q is queued with no deltas", key)
		}
	}
}

// popOne pops an item that must already be queued (so Pop cannot block).
func popOne(t *testing.T, f *DeltaFIFO) (d Deltas, isInInitialList bool) {
	t.Helper()
	if len(fifoKeys(f)) == 0 {
		t.Fatal("popOne: nothing queued")
	}
	item, err := pop(t, "Pop to hand over the first key", f, func(obj any, initial bool) error {
		d, isInInitialList = obj.(Deltas), initial
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	if !slices.Equal(item.(Deltas), d) {
		t.Fatalf("Pop returned %v, process got %v", item, d)
	}
	return d, isInInitialList
}

func TestDeltaFIFOQueuesEachKeyOnceWithDeltasInOrder(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	must(t, f.Add(pod("a", "1")))
	must(t, f.Add(pod("b", "1")))
	must(t, f.Update(pod("a", "2")))
	must(t, f.Update(pod("a", "3")))
	want := []string{
		"ns/a: Added ns/a@1, Updated ns/a@2, Updated ns/a@3",
		"ns/b: Added ns/b@1",
	}
	if got := queued(t, f); !slices.Equal(got, want) {
		t.Fatalf("queued:\n got %q\nwant %q", got, want)
	}
	d, _ := popOne(t, f)
	if d.Oldest().Type != Added || d.Newest().Type != Updated {
		t.Errorf("first pop = %v, want ns/a's deltas", d)
	}
	if got := fifoKeys(f); !slices.Equal(got, []string{"ns/b"}) {
		t.Errorf("after one pop the queued keys are %v, want [ns/b]", got)
	}
	say(t, "Add a, Add b, Update a twice → a queued once with %d deltas, oldest first; the first pop hands all of them over.",
		"Add a、Add b、两次 Update a → a 只排一次队，带 %d 个 Delta，最早的在前；第一次 Pop 把它们全部交出。", len(d))
	say(t, "Nothing is merged or sorted: client-go's queueActionLocked appends each delta (delta_fifo.go).",
		"什么都不合并、不排序：client-go 的 queueActionLocked 把每个 Delta 追加在后面（delta_fifo.go）。")
}

func TestDeltaFIFODedupsOnlyBackToBackDeletions(t *testing.T) {
	tomb := func(rv string) DeletedFinalStateUnknown {
		return DeletedFinalStateUnknown{Key: "ns/a", Obj: pod("a", rv)}
	}
	tests := []struct {
		name, zh string
		write    func(f *DeltaFIFO)
		want     string
	}{
		{"two deletions keep the older", "两次删除，保留较早的那次", func(f *DeltaFIFO) {
			must(t, f.Delete(pod("a", "2")))
			must(t, f.Delete(pod("a", "3")))
		}, "ns/a: Added ns/a@1, Deleted ns/a@2"},
		{"an older tombstone gives way to the newer deletion", "较早的墓碑让位给较新的删除", func(f *DeltaFIFO) {
			must(t, f.Delete(tomb("2")))
			must(t, f.Delete(pod("a", "3")))
		}, "ns/a: Added ns/a@1, Deleted ns/a@3"},
		{"a newer tombstone gives way to the older deletion", "较新的墓碑让位给较早的删除", func(f *DeltaFIFO) {
			must(t, f.Delete(pod("a", "2")))
			must(t, f.Delete(tomb("3")))
		}, "ns/a: Added ns/a@1, Deleted ns/a@2"},
		{"two tombstones keep the newer", "两个墓碑，保留较新的那个", func(f *DeltaFIFO) {
			must(t, f.Delete(tomb("2")))
			must(t, f.Delete(tomb("3")))
		}, "ns/a: Added ns/a@1, Deleted tombstone(ns/a, ns/a@3)"},
		{"identical updates are not merged", "相同的更新不合并", func(f *DeltaFIFO) {
			must(t, f.Update(pod("a", "1")))
			must(t, f.Update(pod("a", "1")))
		}, "ns/a: Added ns/a@1, Updated ns/a@1, Updated ns/a@1"},
		{"deletions apart are not merged", "不相邻的删除不合并", func(f *DeltaFIFO) {
			must(t, f.Delete(pod("a", "2")))
			must(t, f.Add(pod("a", "3")))
			must(t, f.Delete(pod("a", "4")))
		}, "ns/a: Added ns/a@1, Deleted ns/a@2, Added ns/a@3, Deleted ns/a@4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
			must(t, f.Add(pod("a", "1")))
			tt.write(f)
			if got := queued(t, f); len(got) != 1 || got[0] != tt.want {
				t.Fatalf("queued %q, want [%q]", got, tt.want)
			}
			say(t, "Added ns/a@1, then %s: the queue holds %s", "情形「%s」：先 Added ns/a@1，之后队列里是 %s", inReaderLanguage(tt.name, tt.zh), tt.want)
		})
	}
	say(t, "client-go's dedupDeltas (delta_fifo.go) merges only two deletions in a row; every update is kept.",
		"client-go 的 dedupDeltas（delta_fifo.go）只合并连续的两个删除；每个更新都保留。")
}

// failingKnown is a KeyListerGetter whose GetByKey always fails.
type failingKnown struct{ keys []string }

func (k failingKnown) ListKeys() []string { return k.keys }
func (k failingKnown) GetByKey(string) (any, bool, error) {
	return nil, false, errors.New("lookup failed")
}

func TestDeltaFIFODeleteOfKeyNeitherQueuedNorKnownDoesNothing(t *testing.T) {
	withA := NewStore(nil)
	must(t, withA.Add(pod("a", "1")))
	tests := []struct {
		name   string
		known  KeyListerGetter
		queueA bool
		want   []string
	}{
		{"no known objects, not queued", nil, false, nil},
		{"known objects without it, not queued", NewStore(nil), false, nil},
		{"no known objects, queued", nil, true, []string{"ns/a: Added ns/a@1, Deleted ns/a@2"}},
		{"known, not queued", withA, false, []string{"ns/a: Deleted ns/a@2"}},
		{"known lookup fails: queue it to be safe", failingKnown{}, false, []string{"ns/a: Deleted ns/a@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: tt.known})
			if tt.queueA {
				must(t, f.Add(pod("a", "1")))
			}
			must(t, f.Delete(pod("a", "2")))
			if got := queued(t, f); !slices.Equal(got, tt.want) {
				t.Fatalf("queued %q, want %q", got, tt.want)
			}
			if !f.HasSynced() {
				t.Error("a Delete before any Replace must make HasSynced true, even when ignored")
			}
		})
	}
}

func TestDeltaFIFOReplace(t *testing.T) {
	tests := []struct {
		name     string
		replaced bool             // EmitDeltaTypeReplaced
		known    []*Pod           // what the consumer holds (nil: no KnownObjects)
		before   func(*DeltaFIFO) // writes before Replace
		list     []any
		want     []string
	}{
		{"Sync by default", false, nil, nil, []any{pod("a", "1")},
			[]string{"ns/a: Sync ns/a@1"}},
		{"Replaced when asked", true, nil, nil, []any{pod("a", "1")},
			[]string{"ns/a: Replaced ns/a@1"}},
		{"queued-only key missing from the list gets a tombstone of its newest object", true, nil,
			func(f *DeltaFIFO) {
				must(t, f.Add(pod("a", "1")))
				must(t, f.Add(pod("b", "1")))
				must(t, f.Update(pod("b", "2")))
			},
			[]any{pod("a", "5")},
			[]string{
				"ns/a: Added ns/a@1, Replaced ns/a@5",
				"ns/b: Added ns/b@1, Updated ns/b@2, Deleted tombstone(ns/b, ns/b@2)",
			}},
		{"known-only key missing from the list gets a tombstone of the known object", true,
			[]*Pod{pod("a", "1"), pod("c", "7")}, nil,
			[]any{pod("a", "2")},
			[]string{"ns/a: Replaced ns/a@2", "ns/c: Deleted tombstone(ns/c, ns/c@7)"}},
		{"a known key with queued deltas gets one tombstone, of the queued object", true,
			[]*Pod{pod("c", "7")},
			func(f *DeltaFIFO) { must(t, f.Update(pod("c", "8"))) },
			nil,
			[]string{"ns/c: Updated ns/c@8, Deleted tombstone(ns/c, ns/c@8)"}},
		{"a second relist unwraps the earlier tombstone and keeps one deletion", true, nil,
			func(f *DeltaFIFO) {
				must(t, f.Add(pod("a", "1")))
				must(t, f.Replace(nil, "10"))
			},
			nil,
			[]string{"ns/a: Added ns/a@1, Deleted tombstone(ns/a, ns/a@1)"}},
		{"a real deletion already queued is kept over the tombstone", true, nil,
			func(f *DeltaFIFO) {
				must(t, f.Add(pod("a", "1")))
				must(t, f.Delete(pod("a", "2")))
			},
			nil,
			[]string{"ns/a: Added ns/a@1, Deleted ns/a@2"}},
		{"a listed key that was queued keeps its history", false, nil,
			func(f *DeltaFIFO) { must(t, f.Add(pod("a", "1"))) },
			[]any{pod("a", "2")},
			[]string{"ns/a: Added ns/a@1, Sync ns/a@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := DeltaFIFOOptions{EmitDeltaTypeReplaced: tt.replaced}
			if tt.known != nil {
				store := NewStore(nil)
				for _, p := range tt.known {
					must(t, store.Add(p))
				}
				opts.KnownObjects = store
			}
			f := NewDeltaFIFOWithOptions(opts)
			if tt.before != nil {
				tt.before(f)
			}
			must(t, f.Replace(tt.list, "99"))
			got := queued(t, f)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("queued:\n got %q\nwant %q", got, tt.want)
			}
			say(t, "Replace with %d listed objects (EmitDeltaTypeReplaced=%v) leaves the queue as %q",
				"Replace 传入 %d 个列出的对象（EmitDeltaTypeReplaced=%v）后，队列里是 %q", len(tt.list), tt.replaced, got)
		})
	}
	say(t, "client-go's DeltaFIFO.Replace (delta_fifo.go) queues Sync or Replaced per listed object and a tombstone",
		"client-go 的 DeltaFIFO.Replace（delta_fifo.go）给每个列出的对象排一个 Sync 或 Replaced，")
	say(t, "(DeletedFinalStateUnknown) for each key missing from the list, queued or known, unless a deletion is queued.",
		"给列表里缺少的每个键（排队中或已知的）排一个墓碑（DeletedFinalStateUnknown），除非已有删除在排队。")
}

func TestDeltaFIFOReplaceTombstoneWhenKnownLookupFails(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: failingKnown{keys: []string{"ns/z"}}})
	must(t, f.Replace(nil, "1"))
	want := []string{"ns/z: Deleted tombstone(ns/z, nil)"}
	if got := queued(t, f); !slices.Equal(got, want) {
		t.Fatalf("queued %q, want %q", got, want)
	}
}

// A Replace that fails part-way behaves as client-go v0.37.2's
// DeltaFIFO.Replace: the objects before the failure stay queued, no
// tombstone is queued, and the queue is not marked populated.
func TestDeltaFIFOReplaceFailingPartWay(t *testing.T) {
	known := NewStore(nil)
	must(t, known.Add(pod("z", "1")))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	err := f.Replace([]any{pod("b", "1"), 42, pod("c", "1")}, "2")
	var keyErr KeyError
	if !errors.As(err, &keyErr) {
		t.Fatalf("Replace with an object that has no key: err = %v, want a KeyError", err)
	}
	if got := queued(t, f); !slices.Equal(got, []string{"ns/b: Sync ns/b@1"}) {
		t.Fatalf("after a failed Replace the queue holds %q; want only what came before the failure", got)
	}
	if f.HasSynced() {
		t.Fatal("a failed Replace marked the queue populated")
	}
	say(t, "Replace(b, 42, c): error %v; queue keeps %q; HasSynced=%v",
		"Replace(b, 42, c)：错误 %v；队列保留 %q；HasSynced=%v", err, queued(t, f), f.HasSynced())
	say(t, "client-go's DeltaFIFO.Replace (delta_fifo.go) returns KeyError at the first keyless object, as here.",
		"client-go 的 DeltaFIFO.Replace（delta_fifo.go）同样在第一个取不到键的对象处返回 KeyError。")
}

func TestDeltaFIFOResyncQueuesSyncOnlyForKnownKeysWithNothingQueued(t *testing.T) {
	known := NewStore(nil)
	for _, p := range []*Pod{pod("a", "1"), pod("b", "1"), pod("c", "1")} {
		must(t, known.Add(p))
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	must(t, f.Update(pod("b", "2")))
	must(t, f.Resync())
	got := queued(t, f)
	slices.Sort(got[1:]) // a and c come in the store's (random) order
	want := []string{"ns/b: Updated ns/b@2", "ns/a: Sync ns/a@1", "ns/c: Sync ns/c@1"}
	if !slices.Equal(got, want) {
		t.Fatalf("queued:\n got %q\nwant %q", got, want)
	}

	// A second Resync adds nothing: every known key now has a delta queued.
	must(t, f.Resync())
	if again := queued(t, f); len(again) != 3 || strings.Count(strings.Join(again, " "), "Sync") != 2 {
		t.Fatalf("second Resync changed the queue: %q", again)
	}

	// Without KnownObjects there is nothing to resync.
	plain := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	must(t, plain.Resync())
	if keys := fifoKeys(plain); len(keys) != 0 {
		t.Fatalf("Resync without KnownObjects queued %v", keys)
	}
	say(t, "known a, b, c; b has Updated queued; Resync queues %q; a second Resync changes nothing",
		"已知 a、b、c，b 已有 Updated 在排队；Resync 排入 %q；第二次 Resync 什么也不改", got)
	say(t, "client-go's syncKeyLocked (delta_fifo.go) skips a key that already has deltas queued.",
		"client-go 的 syncKeyLocked（delta_fifo.go）跳过已有增量在排队的键。")
}

func TestDeltaFIFOHasSyncedAcrossTheInitialList(t *testing.T) {
	known := NewStore(nil)
	must(t, known.Add(pod("gone", "1")))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	if f.HasSynced() {
		t.Fatal("HasSynced before anything happened")
	}
	// The initial list: two objects, plus the deletion of a known one.
	must(t, f.Replace([]any{pod("a", "1"), pod("b", "1")}, "5"))
	must(t, f.Add(pod("late", "6"))) // after the list: not part of it
	for i := range 3 {
		if f.HasSynced() {
			t.Fatalf("HasSynced after %d of 3 initial items", i)
		}
		if _, initial := popOne(t, f); !initial {
			t.Fatalf("pop %d: isInInitialList = false, want true", i+1)
		}
	}
	if !f.HasSynced() {
		t.Fatal("HasSynced = false after the whole initial list was popped")
	}
	if d, initial := popOne(t, f); initial || d.Newest().Type != Added {
		t.Fatalf("the Add after the list popped as %v with isInInitialList=%v", d, initial)
	}
	// A later Replace does not make the queue unsynced again.
	must(t, f.Replace([]any{pod("a", "2")}, "7"))
	if !f.HasSynced() {
		t.Fatal("a second Replace reset HasSynced")
	}
}

func TestDeltaFIFOHasSyncedShortcuts(t *testing.T) {
	tests := []struct {
		name  string
		write func(*DeltaFIFO) error
	}{
		{"empty initial list", func(f *DeltaFIFO) error { return f.Replace(nil, "1") }},
		{"Add before any Replace", func(f *DeltaFIFO) error { return f.Add(pod("a", "1")) }},
		{"Update before any Replace", func(f *DeltaFIFO) error { return f.Update(pod("a", "1")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
			must(t, tt.write(f))
			if !f.HasSynced() {
				t.Fatal("HasSynced = false")
			}
		})
	}
}

func TestDeltaFIFOPopAfterClose(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	must(t, f.Add(pod("a", "1")))
	f.Close()
	if !f.IsClosed() {
		t.Fatal("closed = false after Close")
	}
	// What was queued before Close is still delivered, as in client-go.
	if d, _ := popOne(t, f); describe(d[0]) != "Added ns/a@1" {
		t.Fatalf("pop after Close = %v", d)
	}
	called := false
	item, err := pop(t, "Pop on a closed, empty queue to return", f, func(any, bool) error {
		called = true
		return nil
	})
	if !errors.Is(err, ErrFIFOClosed) || item != nil || called {
		t.Fatalf("Pop on a closed, empty queue = (%v, %v), process called: %v; want ErrFIFOClosed", item, err, called)
	}
}

func TestDeltaFIFOPopReturnsProcessErrorAndDoesNotRequeue(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	must(t, f.Add(pod("a", "1")))
	boom := errors.New("boom")
	_, err := pop(t, "Pop to hand over ns/a", f, func(any, bool) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("Pop err = %v, want the process error", err)
	}
	if keys := fifoKeys(f); len(keys) != 0 {
		t.Fatalf("a failed item was requeued: %v", keys)
	}
}

// waitForBlockedPop polls, with a deadline, until some goroutine is parked
// inside DeltaFIFO.Pop waiting on its condition variable.
func waitForBlockedPop(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
		stacks := string(buf[:runtime.Stack(buf, true)])
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "(*Cond).Wait") && strings.Contains(g, "(*DeltaFIFO).Pop") {
				return
			}
		}
	}
	t.Fatal("no goroutine blocked in Pop")
}

func TestDeltaFIFOPopBlocksUntilAnAddOrClose(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	type result struct {
		item any
		err  error
	}
	popAsync := func() chan result {
		done := make(chan result, 1)
		go func() {
			item, err := f.Pop(func(any, bool) error { return nil })
			done <- result{item, err}
		}()
		waitForBlockedPop(t)
		return done
	}

	done := popAsync()
	must(t, f.Add(pod("a", "1")))
	r := receive(t, "the blocked Pop to wake with the added pod", done)
	if r.err != nil || describe(r.item.(Deltas)[0]) != "Added ns/a@1" {
		t.Fatalf("blocked Pop woke with (%v, %v), want the added pod", r.item, r.err)
	}

	done = popAsync()
	f.Close()
	if r := receive(t, "the blocked Pop to wake on Close", done); !errors.Is(r.err, ErrFIFOClosed) {
		t.Fatalf("blocked Pop woke by Close with (%v, %v), want ErrFIFOClosed", r.item, r.err)
	}
}

func TestDeltaFIFOConcurrentAddAndPop(t *testing.T) {
	const producers, perProducer = 4, 200
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range perProducer {
				if err := f.Add(pod(fmt.Sprintf("p%d-%d", p, i), "1")); err != nil {
					t.Error(err)
				}
				fifoKeys(f) // a concurrent reader too
			}
		})
	}
	seen := map[string]int{}
	for len(seen) < producers*perProducer {
		what := fmt.Sprintf("Pop to hand over key %d of %d", len(seen)+1, producers*perProducer)
		_, err := pop(t, what, f, func(obj any, _ bool) error {
			d := obj.(Deltas)
			key, _ := MetaNamespaceKeyFunc(d.Newest().Object)
			seen[key] += len(d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	returnsWithin(t, "the producers to return", wg.Wait)
	for key, n := range seen {
		if n != 1 {
			t.Errorf("%s popped with %d deltas, want 1", key, n)
		}
	}
	f.Close()
	if _, err := pop(t, "Pop on the closed queue", f, nil); !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("Pop after draining and Close: %v", err)
	}
}

// markTransformed is a transformer that records what it saw; it refuses
// tombstones, which it must never be given.
func markTransformed(t *testing.T, seen *[]string) TransformFunc {
	return func(obj any) (any, error) {
		p, ok := obj.(*Pod)
		if !ok {
			t.Errorf("transformer called with a %T", obj)
			return obj, nil
		}
		*seen = append(*seen, describeObj(p))
		p = p.DeepCopy()
		p.Annotations = map[string]string{"transformed": "yes"}
		return p, nil
	}
}

func TestDeltaFIFOTransformerRules(t *testing.T) {
	tests := []struct {
		name, zh string
		replaced bool
		write    func(f *DeltaFIFO, known Store)
		want     []string
	}{
		{"Add, Update, Delete are transformed", "Add、Update、Delete 都经过转换函数", false, func(f *DeltaFIFO, _ Store) {
			must(t, f.Add(pod("a", "1")))
			must(t, f.Update(pod("a", "2")))
			must(t, f.Delete(pod("a", "3")))
		}, []string{"ns/a: Added ns/a@1+T, Updated ns/a@2+T, Deleted ns/a@3+T"}},
		{"Replace is transformed, also when it emits Sync", "Replace 经过转换函数，送出 Sync 时也一样", false, func(f *DeltaFIFO, _ Store) {
			must(t, f.Replace([]any{pod("a", "1")}, "1"))
		}, []string{"ns/a: Sync ns/a@1+T"}},
		{"Replace emitting Replaced is transformed", "送出 Replaced 的 Replace 经过转换函数", true, func(f *DeltaFIFO, _ Store) {
			must(t, f.Replace([]any{pod("a", "1")}, "1"))
		}, []string{"ns/a: Replaced ns/a@1+T"}},
		{"tombstones are not transformed", "墓碑不经过转换函数", true, func(f *DeltaFIFO, known Store) {
			must(t, known.Add(pod("k", "1")))
			must(t, f.Add(pod("q", "1")))
			must(t, f.Replace(nil, "2"))
			must(t, f.Delete(DeletedFinalStateUnknown{Key: "ns/q", Obj: pod("q", "1")}))
		}, []string{"ns/q: Added ns/q@1+T, Deleted tombstone(ns/q, ns/q@1)",
			"ns/k: Deleted tombstone(ns/k, ns/k@1)"}},
		{"Resync's Sync deltas are not transformed", "Resync 送出的 Sync Delta 不经过转换函数", false, func(f *DeltaFIFO, known Store) {
			must(t, known.Add(pod("k", "1")))
			must(t, f.Resync())
		}, []string{"ns/k: Sync ns/k@1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen []string
			known := NewStore(nil)
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{
				KnownObjects: known, EmitDeltaTypeReplaced: tt.replaced,
				Transformer: markTransformed(t, &seen),
			})
			tt.write(f, known)
			got := queued(t, f)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("queued:\n got %q\nwant %q", got, tt.want)
			}
			say(t, "%s: queue %q (+T marks a transformed object)", "情形「%s」：队列 %q（+T 表示对象经过了转换函数）", inReaderLanguage(tt.name, tt.zh), got)
		})
	}
	say(t, "client-go's queueActionInternalLocked (delta_fifo.go) transforms all but tombstones and Resync's Sync.",
		"client-go 的 queueActionInternalLocked（delta_fifo.go）转换除墓碑和 Resync 的 Sync 以外的一切。")
}

func TestDeltaFIFOTransformerError(t *testing.T) {
	boom := errors.New("boom")
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: func(obj any) (any, error) {
		if obj.(*Pod).Name == "bad" {
			return nil, boom
		}
		return obj, nil
	}})
	if err := f.Add(pod("bad", "1")); !errors.Is(err, boom) {
		t.Fatalf("Add: err = %v, want the transformer's error", err)
	}
	if keys := fifoKeys(f); len(keys) != 0 {
		t.Fatalf("a failed transform queued %v", keys)
	}
	// Replace stops at the failure, keeping what came before (as client-go).
	if err := f.Replace([]any{pod("good", "1"), pod("bad", "1"), pod("after", "1")}, "1"); !errors.Is(err, boom) {
		t.Fatalf("Replace: err = %v, want the transformer's error", err)
	}
	if keys := fifoKeys(f); !slices.Equal(keys, []string{"ns/good"}) {
		t.Fatalf("after a failed Replace the queue holds %v, want [ns/good]", keys)
	}
}

func TestDeltaFIFOKeyOf(t *testing.T) {
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	tests := []struct {
		name    string
		obj     any
		want    string
		wantErr error
	}{
		{"object", pod("a", "1"), "ns/a", nil},
		{"Deltas: the newest object's key", Deltas{{Added, pod("old", "1")}, {Updated, pod("a", "2")}}, "ns/a", nil},
		{"tombstone: its Key", DeletedFinalStateUnknown{Key: "x/y"}, "x/y", nil},
		{"Deltas ending in a tombstone", Deltas{{Deleted, DeletedFinalStateUnknown{Key: "x/y"}}}, "x/y", nil},
		{"empty Deltas", Deltas{}, "", ErrZeroLengthDeltasObject},
		{"no metadata", 42, "", errNoMeta},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.KeyOf(tt.obj)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("KeyOf = (%q, %v), want (%q, %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// realfifo_test.go tests the RealFIFO alone (no informer, no server): one
// delta per notification in arrival order, client-go v0.37.2's option rules,
// atomic and non-atomic Replace and Resync, bookmarks, HasSynced, PopBatch's
// batch rules, and unlocking while processing.
//
// client-go counterpart: k8s.io/client-go/tools/cache the_real_fifo_test.go.
//
// Tutorial: the walkthrough's Step03RealFIFO.

package informer

import (
	"errors"
	"slices"
	"strings"
	"testing"
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
		_, err := f.Pop(func(obj any, initial bool) error {
			d := obj.(Deltas)
			if len(d) != 1 {
				t.Fatalf("Pop handed out %d deltas; a RealFIFO pops one", len(d))
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
				if _, err := f.Pop(nil); err == nil || errors.Is(err, ErrFIFOClosed) {
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
		must(t, f.PopBatch(
			func(ds []Delta, initial bool) error { describeAll("batch:", ds, initial); return nil },
			func(obj any, initial bool) error { describeAll("single:", obj.(Deltas), initial); return nil }))
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
	_, err := f.Pop(func(any, bool) error {
		// The queue is unlocked while we process: a writer is not held up.
		done := make(chan error)
		go func() { done <- f.Add(pod("b", "2")) }()
		return <-done
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
	if _, err := f.Pop(nil); err != nil {
		t.Fatalf("Pop after Close with a delta queued: %v", err)
	}
	if _, err := f.Pop(nil); !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("Pop on a closed, empty queue: %v", err)
	}
	if err := f.PopBatch(nil, nil); !errors.Is(err, ErrFIFOClosed) {
		t.Fatalf("PopBatch on a closed, empty queue: %v", err)
	}
	if !f.IsClosed() {
		t.Fatal("IsClosed is false after Close")
	}
}

// process_test.go tests the informer's processing of popped deltas on a
// cache alone (no queue, no server): a batch applied in one Transaction and
// which handlers run when part of it fails, a ReplacedAll (cache first, then
// deletions, then the list in order), SyncAll, Bookmark and the store's
// resource version, and the streaming list's transforming scratch store.
//
// client-go counterpart: processDeltasInBatch, processReplacedAllInfo and
// processDeltas in k8s.io/client-go/tools/cache controller.go (v0.37.2).
//
// Tutorial: the walkthrough's Step03RealFIFO.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// heardBy returns a handler that records what it is told, and what the
// cache holds at that moment.
func heardBy(cache Store, heard *[]string) ResourceEventHandler {
	note := func(s string) {
		keys := cache.ListKeys()
		slices.Sort(keys)
		*heard = append(*heard, s+" cache="+strings.Join(keys, ","))
	}
	return ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { note("add " + describeObj(obj)) },
		UpdateFunc: func(o, n any) { note("update " + describeObj(o) + "→" + describeObj(n)) },
		DeleteFunc: func(obj any) { note("delete " + describeObj(obj)) },
	}
}

func TestProcessDeltasInBatchOnlyAppliedWritesAreHeard(t *testing.T) {
	failing := func(obj any) ([]string, error) {
		if obj.(*Pod).Name == "bad" {
			return nil, errors.New("cannot index")
		}
		return []string{"x"}, nil
	}
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{"x": failing})
	must(t, cache.Add(pod("a", "1")))
	must(t, cache.Add(pod("gone", "1")))
	var heard []string
	batch := []Delta{
		{Type: Updated, Object: pod("a", "2")},
		{Type: Added, Object: pod("bad", "2")}, // the index function refuses it
		{Type: Deleted, Object: pod("gone", "3")},
		{Type: Added, Object: 42}, // no key
		{Type: Added, Object: pod("new", "4")},
	}
	err := processDeltasInBatch(heardBy(cache, &heard), cache, batch, false)
	if err == nil || !strings.Contains(err.Error(), "(2/5)") {
		t.Fatalf("err = %v, want 2 of 5 writes failed", err)
	}
	// The batch is in the cache before any handler hears of it.
	want := []string{
		"update ns/a@1→ns/a@2 cache=ns/a,ns/new",
		"delete ns/gone@3 cache=ns/a,ns/new",
		"add ns/new@4 cache=ns/a,ns/new",
	}
	if !slices.Equal(heard, want) {
		t.Fatalf("heard:\n %q\nwant\n %q", heard, want)
	}
	if rv := cache.LastStoreSyncResourceVersion(); rv != "4" {
		t.Fatalf("store version %q after the batch, want that of its last applied write, 4", rv)
	}
}

func TestProcessReplacedAllReplacesTheCacheFirst(t *testing.T) {
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, nil)
	for _, p := range []*Pod{pod("a", "1"), pod("b", "1"), pod("gone", "1")} {
		must(t, cache.Add(p))
	}
	var heard []string
	info := ReplacedAllInfo{ResourceVersion: "9", Objects: []any{pod("c", "8"), pod("b", "7"), pod("a", "1")}}
	must(t, processDeltas(heardBy(cache, &heard), cache, Deltas{{Type: ReplacedAll, Object: info}}, false))
	want := []string{
		"delete tombstone(ns/gone, ns/gone@1) cache=ns/a,ns/b,ns/c",
		"add ns/c@8 cache=ns/a,ns/b,ns/c",
		"update ns/b@1→ns/b@7 cache=ns/a,ns/b,ns/c",
		"update ns/a@1→ns/a@1 cache=ns/a,ns/b,ns/c",
	}
	if !slices.Equal(heard, want) {
		t.Fatalf("heard:\n %q\nwant\n %q", heard, want)
	}
	if rv := cache.LastStoreSyncResourceVersion(); rv != "9" {
		t.Fatalf("store version %q, want the list's, 9", rv)
	}
}

func TestProcessSyncAllAndBookmark(t *testing.T) {
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, nil)
	must(t, cache.Add(pod("a", "1")))
	var heard []string
	h := heardBy(cache, &heard)
	must(t, processDeltas(h, cache, Deltas{{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: "5"}}}, false))
	if len(heard) != 0 || cache.LastStoreSyncResourceVersion() != "5" {
		t.Fatalf("a Bookmark: heard %q, store version %q; want nothing heard, version 5", heard, cache.LastStoreSyncResourceVersion())
	}
	must(t, processDeltas(h, cache, Deltas{{Type: SyncAll, Object: SyncAllInfo{}}}, false))
	if !slices.Equal(heard, []string{"update ns/a@1→ns/a@1 cache=ns/a"}) {
		t.Fatalf("a SyncAll: heard %q", heard)
	}
	bad := processDeltas(h, cache, Deltas{{Type: ReplacedAll, Object: "not an info"}}, false)
	if bad == nil {
		t.Fatal("a ReplacedAll without a ReplacedAllInfo was accepted")
	}
}

func TestStreamingListScratchStoreTransforms(t *testing.T) {
	calls := 0
	q := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: func(obj any) (any, error) {
		calls++
		return obj, nil
	}})
	scratch := newTransformingStore(q)
	must(t, scratch.Add(pod("a", "1")))
	must(t, q.Replace(scratch.List(), "1"))
	if calls != 2 {
		t.Fatalf("the transformer ran %d times for a streamed object; client-go runs it twice (scratch store, then Replace)", calls)
	}
	if _, ok := newTransformingStore(NewStore(nil)).(transformingStore); ok {
		t.Fatal("a store without a transformer got a transforming scratch store")
	}
}

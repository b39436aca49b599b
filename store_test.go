// store_test.go checks the thread-safe Store and Indexer: keys, indexes kept
// exact through update, delete and Replace, AddIndexers, the error cases that
// must leave the store unchanged, and readers running during Replace.

package informer

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
)

// labelled returns a Pod in namespace ns labelled app=app.
func labelled(ns, name, app string) *Pod {
	p := &Pod{ObjectMeta: ObjectMeta{Namespace: ns, Name: name}}
	if app != "" {
		p.Labels = map[string]string{"app": app}
	}
	return p
}

// byApp indexes a Pod by its "app" label; an object that is not a Pod is
// an error, and a Pod without the label is in no set.
func byApp(obj any) ([]string, error) {
	p, ok := obj.(*Pod)
	if !ok {
		return nil, errors.New("byApp: not a *Pod")
	}
	if app, ok := p.Labels["app"]; ok {
		return []string{app}, nil
	}
	return nil, nil
}

func newTestIndexer() Indexer {
	return NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "app": byApp})
}

// indexSnapshot is the whole index state, read through the public API, as
// index name → value → sorted keys. Comparing snapshots finds stale entries
// and empty sets (an empty set would show up as a value with no keys). It
// sorts the keys itself: these tests check where a key is filed (the
// bookkeeping, lab 1 §4), and a failure for IndexKeys' order would send a
// learner to the wrong section; TestIndexerQueries checks the order (§5).
func indexSnapshot(t *testing.T, idx Indexer) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{}
	for name := range idx.GetIndexers() {
		out[name] = map[string][]string{}
		for _, v := range idx.ListIndexFuncValues(name) {
			keys, err := idx.IndexKeys(name, v)
			if err != nil {
				t.Fatal(err)
			}
			out[name][v] = slices.Sorted(slices.Values(keys))
		}
	}
	return out
}

func equalSnapshots(a, b map[string]map[string][]string) bool {
	return maps.EqualFunc(a, b, func(x, y map[string][]string) bool {
		return maps.EqualFunc(x, y, slices.Equal[[]string])
	})
}

func TestStoreAddGetDelete(t *testing.T) {
	s := NewStore(nil) // nil means MetaNamespaceKeyFunc
	must(t, s.Add(labelled("ns", "a", "")))
	must(t, s.Update(labelled("ns", "a", "web")))
	must(t, s.Add(labelled("", "node1", ""))) // cluster-scoped
	if keys := slices.Sorted(slices.Values(s.ListKeys())); !slices.Equal(keys, []string{"node1", "ns/a"}) {
		t.Fatalf("ListKeys = %v", keys)
	}
	got, exists, err := s.Get(labelled("ns", "a", ""))
	if err != nil || !exists || got.(*Pod).Labels["app"] != "web" {
		t.Fatalf("Get = (%v, %v, %v), want the updated pod", got, exists, err)
	}
	must(t, s.Delete(labelled("ns", "a", "")))
	must(t, s.Delete(labelled("ns", "never-there", ""))) // not an error
	if _, exists, _ := s.GetByKey("ns/a"); exists {
		t.Fatal("deleted key still present")
	}
	if n := len(s.List()); n != 1 {
		t.Fatalf("List has %d objects, want 1", n)
	}
	var keyErr KeyError
	if err := s.Add(42); !errors.As(err, &keyErr) || !errors.Is(err, errNoMeta) {
		t.Fatalf("Add(42) err = %v, want a KeyError wrapping errNoMeta", err)
	}
	must(t, s.Resync())
}

func TestIndexerKeepsIndexesExact(t *testing.T) {
	tests := []struct {
		name, zh string
		write    func(t *testing.T, idx Indexer)
		want     map[string]map[string][]string
	}{
		{"add", "新增", func(t *testing.T, idx Indexer) {
			must(t, idx.Add(labelled("ns1", "a", "web")))
			must(t, idx.Add(labelled("ns1", "b", "db")))
			must(t, idx.Add(labelled("ns2", "c", "web")))
		}, map[string]map[string][]string{
			NamespaceIndex: {"ns1": {"ns1/a", "ns1/b"}, "ns2": {"ns2/c"}},
			"app":          {"db": {"ns1/b"}, "web": {"ns1/a", "ns2/c"}},
		}},
		{"update moves the key and drops the emptied set", "更新把键移到新值下，并删掉变空的集合", func(t *testing.T, idx Indexer) {
			must(t, idx.Add(labelled("ns1", "a", "web")))
			must(t, idx.Update(labelled("ns1", "a", "db")))
		}, map[string]map[string][]string{
			NamespaceIndex: {"ns1": {"ns1/a"}},
			"app":          {"db": {"ns1/a"}},
		}},
		{"update that removes the indexed value", "更新去掉了被索引的值", func(t *testing.T, idx Indexer) {
			must(t, idx.Add(labelled("ns1", "a", "web")))
			must(t, idx.Update(labelled("ns1", "a", "")))
		}, map[string]map[string][]string{
			NamespaceIndex: {"ns1": {"ns1/a"}},
			"app":          {},
		}},
		{"delete", "删除", func(t *testing.T, idx Indexer) {
			must(t, idx.Add(labelled("ns1", "a", "web")))
			must(t, idx.Add(labelled("ns1", "b", "web")))
			must(t, idx.Delete(labelled("ns1", "a", "")))
			must(t, idx.Delete(labelled("ns1", "b", "")))
		}, map[string]map[string][]string{NamespaceIndex: {}, "app": {}}},
		{"replace rebuilds from scratch", "Replace 从头重建索引", func(t *testing.T, idx Indexer) {
			must(t, idx.Add(labelled("ns1", "a", "web")))
			must(t, idx.Replace([]any{labelled("ns2", "z", "cache")}, "9"))
		}, map[string]map[string][]string{
			NamespaceIndex: {"ns2": {"ns2/z"}},
			"app":          {"cache": {"ns2/z"}},
		}},
		// The mistake 000 §2.3 warns about. As in client-go, the store files a
		// key under the values its stored object gives now: changed in place,
		// the object no longer says where it was filed, and Delete leaves
		// that entry behind ("modifying objects stored by the indexers (if
		// any) will *not* automatically lead to a re-index", ThreadSafeStore).
		{"a cached object changed in place leaves its old entry behind", "缓存中的对象被原地修改，旧的索引项留了下来", func(t *testing.T, idx Indexer) {
			p := labelled("ns1", "a", "web")
			must(t, idx.Add(p))
			p.Labels["app"] = "oops"
			must(t, idx.Delete(p))
		}, map[string]map[string][]string{NamespaceIndex: {}, "app": {"web": {"ns1/a"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx := newTestIndexer()
			tt.write(t, idx)
			got := indexSnapshot(t, idx)
			if !equalSnapshots(got, tt.want) {
				t.Fatalf("indexes:\n got %v\nwant %v", got, tt.want)
			}
			say(t, "%s: indexes %v", "情形「%s」：索引 %v", inReaderLanguage(tt.name, tt.zh), got)
		})
	}
	say(t, "No stale key and no empty set survives: client-go's storeIndex.updateIndices (thread_safe_store.go)",
		"不留过期的键，也不留空集合：client-go 的 storeIndex.updateIndices（thread_safe_store.go）")
	say(t, "removes the old object's values and deletes a set once it is empty (updateSingleIndex).",
		"先移除旧对象的索引值，集合空了就删掉（updateSingleIndex）。")
}

func TestIndexerQueries(t *testing.T) {
	idx := newTestIndexer()
	must(t, idx.Add(labelled("ns1", "a", "web")))
	must(t, idx.Add(labelled("ns1", "b", "db")))
	must(t, idx.Add(labelled("ns2", "c", "web")))

	objs, err := idx.ByIndex("app", "web")
	if err != nil || len(objs) != 2 {
		t.Fatalf("ByIndex(app, web) = %v, %v; want 2 pods", objs, err)
	}
	objs, err = idx.Index(NamespaceIndex, labelled("ns1", "anything", ""))
	if err != nil || len(objs) != 2 {
		t.Fatalf("Index(namespace, a pod in ns1) = %v, %v; want 2 pods", objs, err)
	}
	if objs, err := idx.ByIndex("app", "none"); err != nil || len(objs) != 0 {
		t.Fatalf("ByIndex of an absent value = %v, %v; want nothing, no error", objs, err)
	}
	if _, err := idx.Index("app", 42); err == nil {
		t.Fatal("Index with an object the index function rejects: no error")
	}
	// IndexKeys returns its keys sorted, as client-go v0.37.2's does (its
	// threadSafeMap.IndexKeys returns them through a sorting list
	// function): callers print and compare them. Twelve keys, added out of
	// order, so that a map's order comes out sorted only by a rare chance.
	for _, name := range []string{"k", "c", "h", "a", "l", "e", "j", "b", "g", "d", "i", "f"} {
		must(t, idx.Add(labelled("ns3", name, "many")))
	}
	if keys, err := idx.IndexKeys("app", "many"); err != nil || len(keys) != 12 || !slices.IsSorted(keys) {
		t.Errorf("IndexKeys(app, many) = %v, %v; want the 12 keys, sorted", keys, err)
	}
}

func TestIndexerUnknownIndexIsAnError(t *testing.T) {
	idx := newTestIndexer()
	must(t, idx.Add(labelled("ns1", "a", "web")))
	if _, err := idx.ByIndex("nope", "x"); err == nil {
		t.Error("ByIndex: no error for an unknown index")
	}
	if _, err := idx.IndexKeys("nope", "x"); err == nil {
		t.Error("IndexKeys: no error for an unknown index")
	}
	if _, err := idx.Index("nope", labelled("ns1", "a", "")); err == nil {
		t.Error("Index: no error for an unknown index")
	}
	if vals := idx.ListIndexFuncValues("nope"); len(vals) != 0 {
		t.Errorf("ListIndexFuncValues of an unknown index = %v, want none", vals)
	}
}

func TestIndexerAddIndexers(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	must(t, idx.Add(labelled("ns1", "a", "web")))
	must(t, idx.Add(labelled("ns2", "b", "web")))

	must(t, idx.AddIndexers(Indexers{"app": byApp}))
	// Sorted here: this test checks the back-filling (§4); TestIndexerQueries
	// checks IndexKeys' order (§5).
	if keys, err := idx.IndexKeys("app", "web"); err != nil || !slices.Equal(slices.Sorted(slices.Values(keys)), []string{"ns1/a", "ns2/b"}) {
		t.Fatalf("after AddIndexers, IndexKeys(app, web) = %v, %v; want the existing pods back-filled", keys, err)
	}
	must(t, idx.Add(labelled("ns1", "c", "web"))) // and new writes use it
	if keys, _ := idx.IndexKeys("app", "web"); len(keys) != 3 {
		t.Fatalf("IndexKeys(app, web) = %v after a new Add", keys)
	}

	if err := idx.AddIndexers(Indexers{"app": byApp, "other": byApp}); err == nil {
		t.Fatal("AddIndexers with an existing name: no error")
	}
	if _, ok := idx.GetIndexers()["other"]; ok {
		t.Fatal("a refused AddIndexers still added an index")
	}

	// A back-fill that fails on one object adds nothing, not even entries
	// for the objects indexed before it: the same name can then be added.
	for i := range 8 {
		must(t, idx.Add(labelled("ns3", string(rune('p'+i)), "batch")))
	}
	failOnP := func(obj any) ([]string, error) {
		if obj.(*Pod).Name == "p" {
			return nil, errors.New("cannot index p")
		}
		return []string{"wrong"}, nil
	}
	if err := idx.AddIndexers(Indexers{"late": failOnP}); err == nil {
		t.Fatal("AddIndexers whose function fails: no error")
	}
	must(t, idx.AddIndexers(Indexers{"late": byApp}))
	if vals := idx.ListIndexFuncValues("late"); !slices.Equal(vals, []string{"batch", "web"}) {
		t.Fatalf("late index values = %v, want [batch web]: a failed AddIndexers left entries", vals)
	}

	got := idx.GetIndexers()
	delete(got, "app") // a copy: the store keeps its own
	if _, ok := idx.GetIndexers()["app"]; !ok {
		t.Fatal("changing GetIndexers' result changed the store")
	}
}

func TestIndexerFailingIndexFuncLeavesStoreUnchanged(t *testing.T) {
	// strict refuses pods labelled app=bad; lateIndex refuses every pod.
	strict := func(obj any) ([]string, error) {
		if obj.(*Pod).Labels["app"] == "bad" {
			return nil, errors.New("cannot index app=bad")
		}
		return []string{"ok"}, nil
	}
	lateIndex := func(any) ([]string, error) { return nil, errors.New("cannot index anything") }
	tests := []struct {
		name  string
		write func(idx Indexer) error
	}{
		{"Add", func(idx Indexer) error { return idx.Add(labelled("ns", "new", "bad")) }},
		{"Update of a stored key", func(idx Indexer) error { return idx.Update(labelled("ns", "a", "bad")) }},
		{"Replace", func(idx Indexer) error {
			return idx.Replace([]any{labelled("ns", "new", "x"), labelled("ns", "b", "bad")}, "2")
		}},
		{"Replace with an object without a key", func(idx Indexer) error {
			return idx.Replace([]any{labelled("ns", "new", "x"), 42}, "2")
		}},
		{"AddIndexers back-filling", func(idx Indexer) error {
			return idx.AddIndexers(Indexers{"late": lateIndex})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx := NewIndexer(nil, Indexers{"strict": strict, "app": byApp})
			must(t, idx.Add(labelled("ns", "a", "web")))
			must(t, idx.Add(labelled("ns", "b", "db")))
			before, keysBefore := indexSnapshot(t, idx), slices.Sorted(slices.Values(idx.ListKeys()))
			objBefore, _, _ := idx.GetByKey("ns/a")
			if err := tt.write(idx); err == nil {
				t.Fatal("no error")
			}
			after, keysAfter := indexSnapshot(t, idx), slices.Sorted(slices.Values(idx.ListKeys()))
			objAfter, _, _ := idx.GetByKey("ns/a")
			if !equalSnapshots(before, after) || !slices.Equal(keysBefore, keysAfter) || objBefore != objAfter {
				t.Fatalf("a failed write changed the store:\nkeys %v → %v\nindexes %v\n     → %v",
					keysBefore, keysAfter, before, after)
			}
		})
	}
}

// TestIndexerReplaceIsAtomicForReaders runs readers while Replace swaps
// between two generations of contents; every reader must see one whole
// generation (all keys and index entries agree), never a mix. Run with -race.
func TestIndexerReplaceIsAtomicForReaders(t *testing.T) {
	generation := func(g string) []any {
		var list []any
		for _, name := range []string{"a", "b", "c", "d"} {
			list = append(list, labelled("ns", name+"-"+g, g))
		}
		return list
	}
	idx := newTestIndexer()
	must(t, idx.Replace(generation("one"), "1"))

	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 3 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				objs := idx.List()
				apps := map[string]bool{}
				for _, o := range objs {
					apps[o.(*Pod).Labels["app"]] = true
				}
				if len(objs) != 4 || len(apps) != 1 {
					t.Errorf("a reader saw a mix: %d objects from generations %v", len(objs), apps)
					return
				}
				if vals := idx.ListIndexFuncValues("app"); len(vals) != 1 {
					t.Errorf("a reader saw index values %v, want one generation", vals)
					return
				}
			}
		})
	}
	for i := range 200 {
		g := []string{"one", "two"}[i%2]
		must(t, idx.Replace(generation(g), "1"))
	}
	close(stop)
	returnsWithin(t, "the readers to return after the stop", readers.Wait)
	say(t, "200 Replaces swapping 4 pods between generations \"one\" and \"two\"; 3 readers never saw a mix; now %v",
		"200 次 Replace 在 \"one\" 与 \"two\" 两代 4 个 Pod 间切换；3 个读者从未看到混合；最后是 %v",
		idx.ListIndexFuncValues("app"))
	say(t, "client-go's threadSafeMap.Replace (thread_safe_store.go) swaps items and indexes under one lock.",
		"client-go 的 threadSafeMap.Replace（thread_safe_store.go）在同一把锁下替换对象和索引器的索引。")
}

// informer_test.go is the walkthrough: the tutorial's story told as tests,
// in order. Run `go test -v -run Step` to read it as a chapter, or one step
// alone with `go test -v -run Step02`. Steps 04–08 (reflector, run loop,
// shared informer, resync, failures) are in walkthrough_informer_test.go.
// Edge cases live in the other _test.go files.
package informer

import (
	"maps"
	"slices"
	"testing"
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

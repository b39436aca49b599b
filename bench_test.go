// bench_test.go holds the benchmarks of issue 7 ("what an informer costs")
// that need no server: the store and the DeltaFIFO at scale. The benchmarks
// of a whole informer over HTTP (and the decode floor that initial sync is
// compared with) are in bench_informer_test.go; the server's own costs (fan-out to
// watchers, big lists) in fakeapi/bench_test.go; the seed comparisons (key
// concat vs Sprintf, RWMutex+map vs sync.Map) in core_bench_test.go.
//
// They measure; they assert nothing about speed. Plain `go test` does not
// run them. Run them all (a few minutes on 2 cores) with
//
//	go test -run '^$' -bench . -benchmem ./...
//
// docs/measured-numbers.md, "What it costs", has the figures and how to read them.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// benchSizes are the store sizes every scaling benchmark walks through.
var benchSizes = []struct {
	name string
	n    int
}{{"1k", 1_000}, {"10k", 10_000}, {"100k", 100_000}}

// benchNamespaces is how many namespaces the objects are spread over.
const benchNamespaces = 100

// benchPodTemplate reads testdata/bench-pod.json: a realistic running pod of
// about 1 KB of JSON (labels, a container with ports and resources, a status
// with a condition and a container status).
func benchPodTemplate(b *testing.B) map[string]any {
	b.Helper()
	raw, err := os.ReadFile("testdata/bench-pod.json")
	if err != nil {
		b.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		b.Fatal(err)
	}
	return m
}

// benchName and benchNamespace name the i-th benchmark pod: pod-000042 in
// ns-42, the namespaces taken in turn so each holds n/100 pods.
func benchName(i int) string { return "pod-" + strconv.Itoa(1_000_000 + i)[1:] }

func benchNamespace(i int) string { return "ns-" + strconv.Itoa(i%benchNamespaces) }

// benchPods returns n typed pods decoded from the template, each with its
// own name, namespace, uid and node, as an informer would cache them.
func benchPods(b *testing.B, n int) []*Pod {
	b.Helper()
	raw, err := json.Marshal(benchPodTemplate(b))
	if err != nil {
		b.Fatal(err)
	}
	var tmpl Pod
	if err := json.Unmarshal(raw, &tmpl); err != nil {
		b.Fatal(err)
	}
	pods := make([]*Pod, n)
	for i := range pods {
		p := tmpl.DeepCopy()
		p.Name, p.Namespace = benchName(i), benchNamespace(i)
		p.UID = "uid-" + p.Name
		p.ResourceVersion = strconv.Itoa(i + 2)
		p.Spec.NodeName = "node-" + strconv.Itoa(i%1000)
		pods[i] = p
	}
	return pods
}

// benchNodeIndex files pods by spec.nodeName, the index a node agent uses.
// BenchmarkIndexer's Update moves pods between its values.
func benchNodeIndex(obj any) ([]string, error) {
	return []string{obj.(*Pod).Spec.NodeName}, nil
}

// benchSinkAny and benchSinkList keep results alive so that the compiler
// cannot drop the work being measured.
var (
	benchSinkAny  any
	benchSinkList []any
)

// BenchmarkIndexer measures the cache readers use, at 1k, 10k and 100k pods
// spread over 100 namespaces, with a namespace index and a node index:
//
//   - GetByKey: one map lookup under the read lock; should stay flat as the
//     store grows (only CPU caches notice the size).
//   - ByIndex10: ByIndex on a namespace that always holds 10 pods, however
//     big the store: flat, because it costs what it returns.
//   - ByIndex1pct: ByIndex on one of the 100 namespaces (1% of the store):
//     grows with the result; ns/obj (per object returned) stays flat.
//   - List: every object; linear in the size by nature.
//   - UpdateMove: an Update that moves a pod to another node, so the node
//     index files it under a new value and unfiles the old one.
func BenchmarkIndexer(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			pods := benchPods(b, size.n)
			idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "node": benchNodeIndex})
			for _, p := range pods {
				if err := idx.Add(p); err != nil {
					b.Fatal(err)
				}
			}
			for i, p := range benchPods(b, 10) { // the small namespace
				p.Namespace, p.Name = "small", "small-"+strconv.Itoa(i)
				if err := idx.Add(p); err != nil {
					b.Fatal(err)
				}
			}
			keys := make([]string, len(pods))
			for i, p := range pods {
				keys[i], _ = MetaNamespaceKeyFunc(p)
			}
			benchIndexerReads(b, idx, keys)
			benchIndexerUpdateMove(b, idx, pods)
		})
	}
}

// benchIndexerReads runs the read sub-benchmarks of BenchmarkIndexer.
func benchIndexerReads(b *testing.B, idx Indexer, keys []string) {
	b.Run("GetByKey", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			// A stride that is prime to the size walks every key in an
			// order that defeats the CPU's prefetching, as real lookups do.
			i = (i + 7919) % len(keys)
			obj, ok, _ := idx.GetByKey(keys[i])
			if !ok {
				b.Fatal("missing key")
			}
			benchSinkAny = obj
		}
	})
	byIndex := func(ns string, want int) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				objs, err := idx.ByIndex(NamespaceIndex, ns)
				if err != nil || len(objs) != want {
					b.Fatalf("ByIndex(%q) = %d objects, %v; want %d", ns, len(objs), err, want)
				}
				benchSinkList = objs
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(want), "ns/obj")
		}
	}
	b.Run("ByIndex10", byIndex("small", 10))
	b.Run("ByIndex1pct", byIndex(benchNamespace(0), len(keys)/benchNamespaces))
	b.Run("List", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSinkList = idx.List()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(keys)), "ns/obj")
	})
}

// benchIndexerUpdateMove runs BenchmarkIndexer's UpdateMove: each Update
// swaps a pod for a copy bound to another node.
func benchIndexerUpdateMove(b *testing.B, idx Indexer, pods []*Pod) {
	moved := make([]*Pod, len(pods))
	for i, p := range pods {
		moved[i] = p.DeepCopy()
		moved[i].Spec.NodeName = "node-" + strconv.Itoa((i+1)%1000)
	}
	b.Run("UpdateMove", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i = (i + 7919) % len(pods)
			p := moved[i]
			moved[i], pods[i] = pods[i], p // next time, move it back
			if err := idx.Update(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDeltaFIFOReplace measures a relist as the DeltaFIFO sees it:
// Replace of 10k pods over 10k the consumer already knows (every key listed
// again, none deleted), then popping them all as the informer would. The two
// phases are reported apart: ns/op is Replace alone, pop-ns/op the drain.
func BenchmarkDeltaFIFOReplace(b *testing.B) {
	const n = 10_000
	pods := benchPods(b, n)
	known := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	list := make([]any, n)
	for i, p := range pods {
		if err := known.Add(p); err != nil {
			b.Fatal(err)
		}
		list[i] = p
	}
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	process := func(any, bool) error { return nil }
	b.ReportAllocs()
	var popNanos int64
	for b.Loop() {
		if err := f.Replace(list, "1"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		guard := startWatchdog(f.Close)
		start := time.Now()
		for range n {
			if _, err := f.Pop(process); err != nil {
				guard.fail(b, "a Pop of the relisted pods", err)
			}
		}
		popNanos += time.Since(start).Nanoseconds()
		guard.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(popNanos)/float64(b.N), "pop-ns/op")
}

// benchHeapHeld returns how many bytes of heap release frees: the live heap
// after a full GC, before and after calling it. The caller keeps what it
// measures reachable until release drops it.
func benchHeapHeld(release func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	release()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return float64(before.HeapAlloc) - float64(after.HeapAlloc)
}

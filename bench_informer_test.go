// bench_informer_test.go holds the benchmarks of a whole informer (issue 7):
// initial sync over real HTTP from fakeapi against the decode floor, event
// latency as the cache grows, event throughput with many handlers, and the
// allocations of the event path itself. See bench_test.go for how to run
// them; none asserts a speed.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// benchPodsResource is what every benchmark informer lists and watches.
var benchPodsResource = GroupVersionResource{Version: "v1", Resource: "pods"}

// benchFakeServer starts a fakeapi with n realistic pods (testdata's
// bench-pod.json, named by benchName and benchNamespace) and returns it with
// the body of one unpaged list of them. That first list also makes the
// server encode every pod once (it keeps the encoding), so what the
// benchmarks then measure is the client's work, not a cold server's.
func benchFakeServer(b *testing.B, n int) (*fakeapi.Server, []byte) {
	b.Helper()
	s, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	pod := benchPodTemplate(b)
	meta := pod["metadata"].(map[string]any)
	for i := range n {
		meta["name"], meta["namespace"] = benchName(i), benchNamespace(i)
		if _, err := s.Create(fakeapi.Pods, "", pod); err != nil { // Create encodes pod at once
			b.Fatal(err)
		}
	}
	resp, err := http.Get(s.URL() + "/api/v1/pods")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return s, body
}

// benchInformer builds an informer of every pod of s, with a namespace index,
// and the handler h. It is not started.
func benchInformer(b *testing.B, s *fakeapi.Server, handlers ...ResourceEventHandler) SharedIndexInformer {
	b.Helper()
	client, err := NewRESTClient(RESTConfig{Host: s.URL()})
	if err != nil {
		b.Fatal(err)
	}
	lw := NewListWatchFromClient(client, benchPodsResource, NamespaceAll, "")
	inf := NewSharedIndexInformer(lw, &Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, h := range handlers {
		if _, err := inf.AddEventHandler(h); err != nil {
			b.Fatal(err)
		}
	}
	return inf
}

// benchRun runs inf until the returned stop is called; stop waits until Run
// has returned, so no goroutine outlives the benchmark (and fails b if Run
// does not return).
func benchRun(b *testing.B, inf SharedIndexInformer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	return func() {
		cancel()
		receiveOrError(b, "the informer's Run to return after the cancel", done)
	}
}

// benchCounter counts what a handler has seen and wakes a waiter once the
// count reaches the waiter's target.
type benchCounter struct {
	n, target atomic.Int64
	wake      chan struct{} // holds at most one wake-up; waiters re-check n
	timeout   *time.Timer   // reused, so that waiting allocates nothing
}

// benchWaitLimit is how long a benchmark waits for an event before it
// fails: a lost event must fail the run, not hang it.
const benchWaitLimit = time.Minute

func newBenchCounter() *benchCounter {
	c := &benchCounter{wake: make(chan struct{}, 1), timeout: time.NewTimer(benchWaitLimit)}
	c.timeout.Stop()
	c.target.Store(1 << 62)
	return c
}

// add counts one event.
func (c *benchCounter) add() {
	if c.n.Add(1) >= c.target.Load() {
		select {
		case c.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// waitFor returns once want events have been counted.
func (c *benchCounter) waitFor(b *testing.B, want int64) {
	c.target.Store(want)
	if c.n.Load() >= want {
		return
	}
	c.timeout.Reset(benchWaitLimit)
	defer c.timeout.Stop()
	for c.n.Load() < want {
		select {
		case <-c.wake:
		case <-c.timeout.C:
			b.Fatalf("waited %v for event %d; the handler saw %d", benchWaitLimit, want, c.n.Load())
		}
	}
}

// handler returns a handler that counts adds and updates.
func (c *benchCounter) handler() ResourceEventHandler {
	return ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.add() },
		UpdateFunc: func(_, _ any) { c.add() },
	}
}

// BenchmarkInformer measures a whole informer over real HTTP against a
// fakeapi holding 1k, 10k and 100k pods of about 1 KB of JSON each:
//
//   - DecodeFloor: the least work any client does, decoding the body of one
//     unpaged list of those pods with encoding/json into []Pod, from memory.
//     B/obj is the heap the decoded pods hold.
//   - InitialSync: from Run until a handler has seen every pod as an add
//     (HasSynced is true by then): list in pages of 500, decode, DeltaFIFO,
//     Indexer, handler. B/obj is the heap the running informer holds per
//     cached pod, measured after a GC; floor-x is the time as a multiple of
//     DecodeFloor's.
//   - EventLatency: one pod updated in fakeapi, until the handler sees it;
//     it should not grow with the cache.
func BenchmarkInformer(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			s, body := benchFakeServer(b, size.n)
			var floor float64 // ns/op of DecodeFloor, for InitialSync's floor-x
			b.Run("DecodeFloor", func(b *testing.B) {
				floor = benchDecodeFloor(b, body, size.n)
			})
			b.Run("InitialSync", func(b *testing.B) {
				benchInitialSync(b, s, size.n, floor)
			})
			b.Run("EventLatency", func(b *testing.B) {
				benchEventLatency(b, s, size.n)
			})
		})
	}
}

// benchDecodeFloor runs BenchmarkInformer's DecodeFloor and returns ns/op.
func benchDecodeFloor(b *testing.B, body []byte, n int) float64 {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var held float64
	for b.Loop() {
		var list struct {
			Items []Pod `json:"items"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			b.Fatal(err)
		}
		if len(list.Items) != n {
			b.Fatalf("decoded %d pods, want %d", len(list.Items), n)
		}
		b.StopTimer()
		held = benchHeapHeld(func() { list.Items = nil }) / float64(n)
		b.StartTimer()
	}
	b.ReportMetric(held, "B/obj")
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

// benchInitialSync runs BenchmarkInformer's InitialSync.
func benchInitialSync(b *testing.B, s *fakeapi.Server, n int, floor float64) {
	b.ReportAllocs()
	var held float64
	for b.Loop() {
		seen := newBenchCounter()
		inf := benchInformer(b, s, seen.handler())
		stop := benchRun(b, inf)
		seen.waitFor(b, int64(n))
		b.StopTimer()
		if !inf.HasSynced() {
			b.Fatal("every pod was handed to the handler, but HasSynced is false")
		}
		if got := len(inf.GetIndexer().ListKeys()); got != n {
			b.Fatalf("cache holds %d pods, want %d", got, n)
		}
		held = benchHeapHeld(func() { stop(); inf = nil }) / float64(n)
		b.StartTimer()
	}
	b.ReportMetric(held, "B/obj")
	if floor > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/floor, "floor-x")
	}
}

// benchUpdates numbers every update the benchmarks write, so that no two
// write the same label value: fakeapi drops an update that changes nothing,
// and a later run of a benchmark reuses the pods of the earlier one.
var benchUpdates atomic.Int64

// benchUpdater writes updates of the benchmark pods to s: each call changes
// one label of the next pod (of the first n), so each is a real change and
// sends one MODIFIED event.
type benchUpdater struct {
	s      *fakeapi.Server
	n      int
	pod    map[string]any
	meta   map[string]any
	labels map[string]any
	count  int
}

func newBenchUpdater(b *testing.B, s *fakeapi.Server, n int) *benchUpdater {
	pod := benchPodTemplate(b)
	meta := pod["metadata"].(map[string]any)
	return &benchUpdater{s: s, n: n, pod: pod, meta: meta, labels: meta["labels"].(map[string]any)}
}

func (u *benchUpdater) update(b *testing.B) {
	i := u.count % u.n
	u.meta["name"], u.meta["namespace"] = benchName(i), benchNamespace(i)
	u.labels["generation"] = strconv.FormatInt(benchUpdates.Add(1), 10)
	if _, err := u.s.Update(fakeapi.Pods, "", u.pod); err != nil {
		b.Fatal(err)
	}
	u.count++
}

// benchEventLatency runs BenchmarkInformer's EventLatency: a synced
// informer; each op writes one update and waits for the handler to see it.
func benchEventLatency(b *testing.B, s *fakeapi.Server, n int) {
	seen := newBenchCounter()
	inf := benchInformer(b, s, seen.handler())
	stop := benchRun(b, inf)
	defer stop()
	seen.waitFor(b, int64(n)) // the initial adds
	u := newBenchUpdater(b, s, n)
	b.ReportAllocs()
	for b.Loop() {
		u.update(b)
		seen.waitFor(b, int64(n+u.count))
	}
}

// BenchmarkInformerEvents measures event throughput after sync, over HTTP
// from a fakeapi of 1k pods: ns/op is the time per update, from writing it
// to fakeapi until every handler has seen it, with updates written back to
// back (the writer waits for the handlers every 256 updates, so the server
// never cuts the watch off for falling behind).
//
// With 10 handlers of which one is slow (1 ms per event), ns/op counts the
// 9 fast ones: the slow one must not hold them back. slow-behind is how many
// events the slow handler still had buffered when the fast ones were done.
func BenchmarkInformerEvents(b *testing.B) {
	const n = 1000
	s, _ := benchFakeServer(b, n)
	for _, c := range []struct {
		name       string
		fast, slow int
	}{{"handlers=1", 1, 0}, {"handlers=10,slow=1", 9, 1}} {
		b.Run(c.name, func(b *testing.B) {
			var fast []*benchCounter
			var handlers []ResourceEventHandler
			for range c.fast {
				counter := newBenchCounter()
				fast = append(fast, counter)
				handlers = append(handlers, counter.handler())
			}
			var slowSeen atomic.Int64
			for range c.slow {
				handlers = append(handlers, ResourceEventHandlerFuncs{
					AddFunc:    func(any) { slowSeen.Add(1) },
					UpdateFunc: func(_, _ any) { time.Sleep(time.Millisecond); slowSeen.Add(1) },
				})
			}
			inf := benchInformer(b, s, handlers...)
			stop := benchRun(b, inf)
			defer stop()
			waitAll := func(want int) {
				for _, counter := range fast {
					counter.waitFor(b, int64(want))
				}
			}
			waitAll(n) // the initial adds
			u := newBenchUpdater(b, s, n)
			b.ReportAllocs()
			for b.Loop() {
				if u.count%256 == 0 {
					waitAll(n + u.count)
				}
				u.update(b)
			}
			waitAll(n + u.count)
			if c.slow > 0 {
				b.ReportMetric(float64(int64(n+u.count)-slowSeen.Load()), "slow-behind")
			}
		})
	}
}

// BenchmarkEventPath measures the informer's own cost per watch event, with
// no HTTP and no decoding: a watcher fed in process with already decoded
// pods, through the Reflector, the queue, Indexer and processor to one
// handler, in both pipelines (client-go v0.37.2's RealFIFO, 1.32's
// DeltaFIFO). allocs/op is what the event path allocates beyond decoding.
// The in-process watcher cannot stream a list, so WatchListClient is off.
func BenchmarkEventPath(b *testing.B) {
	for _, p := range pipelines {
		b.Run("pipeline="+p.name, func(b *testing.B) {
			gates := p.gates
			gates.WatchListClient = false
			benchEventPath(b, gates)
		})
	}
}

func benchEventPath(b *testing.B, gates PipelineGates) {
	const n = 1000
	pods := benchPods(b, n)
	w := newFakeWatcher()
	lw := &ListWatch{
		ListFunc: func(context.Context, ListOptions) (*ObjectList, error) {
			list := &ObjectList{ListMeta: ListMeta{ResourceVersion: "1"}}
			for _, p := range pods {
				list.Items = append(list.Items, p)
			}
			return list, nil
		},
		WatchFunc: func(context.Context, ListOptions) (Watcher, error) { return w, nil },
	}
	seen := newBenchCounter()
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{
		Indexers: Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, PipelineGates: &gates})
	if _, err := inf.AddEventHandler(seen.handler()); err != nil {
		b.Fatal(err)
	}
	stop := benchRun(b, inf)
	defer stop()
	seen.waitFor(b, n)
	// Each event carries a new version of a pod, as a decoder would make
	// it: the pods take turns between two versions, made beforehand so that
	// the loop itself allocates nothing.
	versions := [2][]*Pod{pods, make([]*Pod, n)}
	for i, p := range pods {
		versions[1][i] = p.DeepCopy()
		versions[1][i].ResourceVersion += "-b"
	}
	sent := 0
	guard := startWatchdog(w.Stop) // a send nobody takes fails the run
	defer guard.stop()
	b.ReportAllocs()
	for b.Loop() {
		if sent%1024 == 0 {
			guard.feed()
		}
		p := versions[(sent/n+1)%2][sent%n]
		if !w.send(WatchEvent{Type: WatchModified, Object: p}) {
			guard.fail(b, "the Reflector's receive of a watch event", errors.New("the watch was stopped"))
		}
		sent++
		seen.waitFor(b, int64(n+sent))
	}
}

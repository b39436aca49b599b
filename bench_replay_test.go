// bench_replay_test.go measures a whole informer, typed and generic, against
// a replay server: a tiny HTTP server that answers the list and the watch of
// pods with bytes encoded once beforehand, so that what is measured is the
// client alone (fakeapi would spend the same CPU encoding them). It is the
// set-up of the side-by-side comparison with client-go in the docs, where
// the same server feeds client-go's informer in another process.
//
//	go test -run '^$' -bench InformerReplay -benchtime 3x .
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// replayUpdates is how many MODIFIED events follow the initial sync.
const replayUpdates = 20_000

// replayData is what a replay server sends: a list of n pods, the same pods
// as the initial events of a streaming list, and MODIFIED events of them.
type replayData struct {
	n       int
	list    []byte // the body of GET /api/v1/pods
	initial []byte // ADDED events of every pod, then the bookmark that ends them
	events  []byte // replayUpdates MODIFIED events, each a real change
}

// newReplayData encodes n bench pods (testdata/bench-pod.json with its own
// name, namespace, uid, resourceVersion and creationTimestamp) as a server
// encodes them.
func newReplayData(b *testing.B, n int) *replayData {
	pod := benchPodTemplate(b)
	meta := pod["metadata"].(map[string]any)
	labels := meta["labels"].(map[string]any)
	meta["creationTimestamp"] = "2026-12-01T09:00:00Z"
	encode := func(i, rv int) []byte {
		meta["name"], meta["namespace"] = benchName(i), benchNamespace(i)
		meta["uid"] = "6b1f3c2e-0000-4000-8000-" + strconv.Itoa(1_000_000_000_000 + i)[1:]
		meta["resourceVersion"] = strconv.Itoa(rv)
		raw, err := json.Marshal(pod)
		if err != nil {
			b.Fatal(err)
		}
		return raw
	}
	d := &replayData{n: n}
	var list, initial, events bytes.Buffer
	listRV := n + 1
	list.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"` + strconv.Itoa(listRV) + `"},"items":[`)
	kind, apiVersion := pod["kind"], pod["apiVersion"]
	for i := range n {
		// A real server's list items carry no kind and apiVersion; the
		// objects of watch events do.
		delete(pod, "kind")
		delete(pod, "apiVersion")
		item := encode(i, i+1)
		pod["kind"], pod["apiVersion"] = kind, apiVersion
		raw := encode(i, i+1)
		if i > 0 {
			list.WriteByte(',')
		}
		list.Write(item)
		initial.WriteString(`{"type":"ADDED","object":`)
		initial.Write(raw)
		initial.WriteString("}\n")
	}
	list.WriteString("]}\n")
	initial.WriteString(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"` +
		strconv.Itoa(listRV) + `","annotations":{"` + InitialEventsAnnotationKey + `":"true"}}}}` + "\n")
	for u := range replayUpdates {
		labels["generation"] = strconv.Itoa(u)
		events.WriteString(`{"type":"MODIFIED","object":`)
		events.Write(encode(u%n, listRV+1+u))
		events.WriteString("}\n")
	}
	delete(labels, "generation")
	d.list, d.initial, d.events = list.Bytes(), initial.Bytes(), events.Bytes()
	return d
}

// newReplayServer serves d as a kube-apiserver serves pods: a list, or a
// watch that (with sendInitialEvents=true) first streams the initial
// events; the MODIFIED events follow once release is closed. A second watch
// gets no events, so a reconnect cannot count twice.
func newReplayServer(d *replayData, release <-chan struct{}) *httptest.Server {
	watches := make(chan struct{}, 1)
	watches <- struct{}{} // the one watch that gets the events
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		q := r.URL.Query()
		if q.Get("watch") != "true" {
			_, _ = w.Write(d.list)
			return
		}
		flusher := w.(http.Flusher)
		if q.Get("sendInitialEvents") == "true" {
			_, _ = w.Write(d.initial)
		}
		flusher.Flush()
		select {
		case <-watches:
			select {
			case <-release:
				_, _ = w.Write(d.events)
				flusher.Flush()
			case <-r.Context().Done():
			}
		default:
		}
		<-r.Context().Done()
	}))
}

// replayListWatch lists and watches every pod of url, decoded into *Pod or,
// if generic, into *Unstructured.
func replayListWatch(b *testing.B, url string, generic bool) (ListerWatcher, Object) {
	client, err := NewRESTClient(RESTConfig{Host: url})
	if err != nil {
		b.Fatal(err)
	}
	if !generic {
		return NewListWatchFromClient(client, benchPodsResource, NamespaceAll, ""), &Pod{}
	}
	newObject := func() Object { return &Unstructured{} }
	path := resourcePath(benchPodsResource, NamespaceAll)
	return &ListWatch{
		ListFunc: func(ctx context.Context, o ListOptions) (*ObjectList, error) {
			return client.list(ctx, path, o, benchPodsResource, newObject)
		},
		WatchFunc: func(ctx context.Context, o ListOptions) (Watcher, error) {
			return client.watch(ctx, path, o, benchPodsResource, newObject)
		},
	}, &Unstructured{}
}

// BenchmarkInformerReplay runs an informer (one counting handler, a
// namespace index, no resync) against a replay server of 1k, 10k and 50k
// pods, typed and generic, in both pipelines (client-go v0.37.2's RealFIFO
// and the DeltaFIFO of 1.32), with a paged list or a streaming list, and
// reports the figures of the comparison with client-go:
//
//   - sync-ms: from Run until the handler has seen every pod;
//   - B/obj: the heap the running informer holds per cached pod after the
//     sync (live heap after a GC, against the same before Run);
//   - events/s: replayUpdates MODIFIED events, from their release until the
//     handler has seen the last;
//   - sync-cpu-ms and cpu-us/event: the same intervals in the process's CPU
//     time (the replay server's share of it is small: it only writes bytes).
//
// Each op is one whole run; the figures are means over the ops.
func BenchmarkInformerReplay(b *testing.B) {
	for _, kind := range []string{"Pod", "Unstructured"} {
		for _, size := range []struct {
			name string
			n    int
		}{{"1k", 1_000}, {"10k", 10_000}, {"50k", 50_000}} {
			var data *replayData // encoded on first use: a filtered run skips the cost
			for _, pipeline := range []string{"RealFIFO", "DeltaFIFO"} {
				for _, mode := range []string{"list", "watchlist"} {
					gates := DefaultPipelineGates()
					if pipeline == "DeltaFIFO" {
						gates = PipelineGates132()
					}
					gates.WatchListClient = mode == "watchlist"
					b.Run(kind+"/"+size.name+"/"+pipeline+"/"+mode, func(b *testing.B) {
						if data == nil {
							data = newReplayData(b, size.n)
						}
						benchReplay(b, data, kind == "Unstructured", gates)
					})
				}
			}
		}
	}
}

// benchReplay runs BenchmarkInformerReplay's ops for one case.
func benchReplay(b *testing.B, d *replayData, generic bool, gates PipelineGates) {
	var syncTime, eventTime, syncCPU, eventCPU time.Duration
	var held float64
	for b.Loop() {
		release := make(chan struct{})
		srv := newReplayServer(d, release)
		lw, example := replayListWatch(b, srv.URL, generic)
		seen := newBenchCounter()
		inf := NewSharedIndexInformerWithOptions(lw, example, SharedIndexInformerOptions{
			Indexers: Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, PipelineGates: &gates,
		})
		if _, err := inf.AddEventHandler(seen.handler()); err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start, cpu0 := time.Now(), benchCPUTimeOrZero()
		stop := benchRun(b, inf)
		seen.waitFor(b, int64(d.n))
		syncTime, syncCPU = syncTime+time.Since(start), syncCPU+benchCPUTimeOrZero()-cpu0
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		held += (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(d.n)
		b.StartTimer()
		start, cpu0 = time.Now(), benchCPUTimeOrZero()
		close(release)
		seen.waitFor(b, int64(d.n+replayUpdates))
		eventTime, eventCPU = eventTime+time.Since(start), eventCPU+benchCPUTimeOrZero()-cpu0
		stop()
		srv.Close()
	}
	ops := float64(b.N)
	b.ReportMetric(float64(syncTime.Milliseconds())/ops, "sync-ms")
	b.ReportMetric(held/ops, "B/obj")
	b.ReportMetric(replayUpdates*ops/eventTime.Seconds(), "events/s")
	if _, ok := benchCPUTime(); ok {
		b.ReportMetric(float64(syncCPU.Milliseconds())/ops, "sync-cpu-ms")
		b.ReportMetric(float64(eventCPU.Microseconds())/ops/replayUpdates, "cpu-us/event")
	}
}

// benchCPUTimeOrZero is benchCPUTime, 0 where there is none.
func benchCPUTimeOrZero() time.Duration {
	d, _ := benchCPUTime()
	return d
}

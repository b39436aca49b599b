// health_test.go holds the edge cases of the health figures, over HTTP
// against fakeapi: watch restarts counted alike in both list modes, the
// queue wrapper leaving both pipelines as they were (a RealFIFO still pops
// batches), the wrapped watch ending its goroutine, and readable JSON.

package health_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/health"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// The figures count watch restarts the same way in both list modes: the
// streaming list's own watch is the first watch after the list, so the
// first re-watch after it is a restart.
func TestWatchRestartsInEveryListMode(t *testing.T) {
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprint("UseWatchList=", watchList), func(t *testing.T) {
			walkthrough.QuietLogs(t)
			srv := walkthrough.StartServer(t)
			walkthrough.CreatePods(t, walkthrough.Client(t, srv), "a")
			clock := testingclock.NewFakeClock(time.Now())
			gates := informer.DefaultPipelineGates()
			gates.WatchListClient = watchList
			rec := health.NewRecorder(clock)
			lw := rec.ListerWatcher(informer.NewListWatchFromClient(walkthrough.Client(t, srv), walkthrough.PodsGVR, informer.NamespaceAll, ""))
			inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
				Clock: clock, PipelineGates: &gates, WrapQueue: rec.WrapQueue})
			walkthrough.Run(t, inf)
			for i := 1; i <= 2; i++ {
				walkthrough.WaitFor(t, "an open watch", func() bool { return srv.Stats().OpenWatches == 1 })
				clock.Step(2 * time.Second) // not a "very short watch"
				srv.CloseWatches()
				walkthrough.WaitFor(t, "the count", func() bool { return rec.Health(inf).WatchRestarts >= int64(i) })
				if h := rec.Health(inf); h.WatchRestarts != int64(i) || h.Lists != 1 {
					t.Fatalf("after %d re-watches: %d restarts, %d lists", i, h.WatchRestarts, h.Lists)
				}
			}
		})
	}
}

// batchSpy notes whether the run loop popped through PopBatch.
type batchSpy struct {
	informer.QueueWithBatch
	popped chan struct{}
}

func (q batchSpy) PopBatch(batch informer.ProcessBatchFunc, single informer.PopProcessFunc) error {
	select {
	case q.popped <- struct{}{}:
	default:
	}
	return q.QueueWithBatch.PopBatch(batch, single)
}

// WrapQueue hands on what the run loop looks for: with client-go v0.37.2's
// gates the RealFIFO still pops batches through the wrapper, and with
// v0.32's the DeltaFIFO still works; resyncs are counted in both.
func TestWrapQueueKeepsThePipeline(t *testing.T) {
	for _, gates := range []informer.PipelineGates{informer.DefaultPipelineGates(), informer.PipelineGates132()} {
		t.Run(fmt.Sprint("RealFIFO=", gates.InOrderInformers), func(t *testing.T) {
			srv := walkthrough.StartServer(t)
			walkthrough.CreatePods(t, walkthrough.Client(t, srv), "a", "b")
			clock := testingclock.NewFakeClock(time.Now())
			rec := health.NewRecorder(clock)
			popped := make(chan struct{}, 1)
			inf := informer.NewSharedIndexInformerWithOptions(
				informer.NewListWatchFromClient(walkthrough.Client(t, srv), walkthrough.PodsGVR, informer.NamespaceAll, ""),
				&informer.Pod{}, informer.SharedIndexInformerOptions{Clock: clock, PipelineGates: &gates, ResyncPeriod: time.Minute,
					WrapQueue: func(q informer.Queue) informer.Queue {
						if b, ok := q.(informer.QueueWithBatch); ok {
							q = batchSpy{QueueWithBatch: b, popped: popped}
						}
						return rec.WrapQueue(q)
					}})
			_, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{}) // a handler due for resyncs
			walkthrough.Must(t, err)
			walkthrough.Run(t, inf)
			if gates.InOrderInformersBatchProcess {
				walkthrough.Receive(t, "a PopBatch through the wrapped queue", popped)
			}
			walkthrough.WaitStepping(t, clock, "a resync", func() bool { return rec.Health(inf).Resyncs >= 1 })
		})
	}
}

// A watch the informer stops ends the wrapper's goroutine too: its channel
// closes.
func TestWrappedWatchEnds(t *testing.T) {
	srv := walkthrough.StartServer(t)
	rec := health.NewRecorder(nil)
	lw := rec.ListerWatcher(informer.NewListWatchFromClient(walkthrough.Client(t, srv), walkthrough.PodsGVR, informer.NamespaceAll, ""))
	for _, stopFirst := range []bool{true, false} {
		w, err := lw.Watch(context.Background(), informer.ListOptions{ResourceVersion: srv.ResourceVersion()})
		walkthrough.Must(t, err)
		if stopFirst {
			w.Stop()
		} else {
			srv.CloseWatches() // the server ends it
		}
		closed := make(chan bool, 1)
		go func() {
			for range w.ResultChan() {
			}
			closed <- true
		}()
		walkthrough.Receive(t, "the wrapped watch's channel to close", closed)
		w.Stop()
	}
	if h := rec.Health(nil); h.WatchRestarts != 1 {
		t.Fatalf("figures %+v, want the second watch counted as a restart", h)
	}
}

func TestHealthJSONIsReadable(t *testing.T) {
	h := health.Health{Staleness: 1500 * time.Millisecond, LastEventTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		WatchErrors: map[string]int64{"Expired": 1}, Handlers: []health.HandlerHealth{{Handler: "h", Handled: 2}}}
	data, err := json.Marshal(h)
	walkthrough.Must(t, err)
	for _, want := range []string{`"staleness":"1.5s"`, `"lastEventTime":"2026-01-02T03:04:05Z"`, `"lastResyncTime":""`,
		`"watchErrors":{"Expired":1}`, `"handlers":[{"handler":"h","handled":2,"inProgress":false,"busy":"0s"}]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON %s lacks %s", data, want)
		}
	}
}

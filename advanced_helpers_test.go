// advanced_helpers_test.go holds the helpers of the advanced chapters' tests
// (Steps 12–18 in informer_test.go, advanced_test.go): a fakeapi server, a
// client for it, a running informer, and polling with a deadline.

package informer

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// podsGVR names core/v1 pods for the REST client.
var podsGVR = GroupVersionResource{Version: "v1", Resource: "pods"}

// advServer starts a fakeapi server with frequent bookmarks that the test
// closes when it ends (with startServer's leak check).
func advServer(t *testing.T) *fakeapi.Server {
	t.Helper()
	return startServer(t, fakeapi.Options{BookmarkInterval: 50 * time.Millisecond})
}

// advClient returns a REST client for srv.
func advClient(t *testing.T, srv *fakeapi.Server) *RESTClient {
	t.Helper()
	c, err := NewRESTClient(RESTConfig{Host: srv.URL()})
	must(t, err)
	return c
}

// advPod returns a minimal pod default/name.
func advPod(name string) *Pod {
	return &Pod{
		ObjectMeta: ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}},
		Spec:       PodSpec{Containers: []Container{{Name: "c", Image: "nginx:1.27"}}},
	}
}

// advCreatePods creates the named pods in default over HTTP.
func advCreatePods(t *testing.T, c *RESTClient, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := c.Create(context.Background(), podsGVR, advPod(n)); err != nil {
			t.Fatalf("creating pod %s: %v", n, err)
		}
	}
}

// advInformer builds a pod informer on srv, its time from clock (nil: the
// real one). Start it with advRun.
func advInformer(t *testing.T, srv *fakeapi.Server, clock Clock) (SharedIndexInformer, *ListWatch) {
	t.Helper()
	lw := NewListWatchFromClient(advClient(t, srv), podsGVR, NamespaceAll, "")
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{
		Indexers: Indexers{NamespaceIndex: MetaNamespaceIndexFunc},
		Clock:    clock,
	})
	return inf, lw
}

// advWaitStepping is advWaitFor for code that waits on clock: whenever
// something waits on it (a backoff), the clock jumps a minute ahead.
func advWaitStepping(t *testing.T, clock *FakeClock, what string, cond func() bool) {
	t.Helper()
	advWaitFor(t, what, func() bool {
		if clock.HasWaiters() {
			clock.Step(time.Minute)
		}
		return cond()
	})
}

// advRun runs inf until the test ends (and checks that Run returns then),
// and waits for its cache to sync.
func advRun(t *testing.T, inf SharedInformer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { inf.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		if !inf.IsStopped() {
			t.Error("the informer does not report itself stopped after Run returned")
		}
	})
	advWaitFor(t, "the informer to sync", inf.HasSynced)
}

// advWaitFor polls cond until it holds, failing the test after a generous
// deadline: a hang must fail, not stall the suite.
func advWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// annotationInt reads an integer annotation of a pod (0 when absent).
func annotationInt(p *Pod, key string) int {
	n, _ := strconv.Atoi(p.Annotations[key])
	return n
}

// eventLog records notifications as lines such as "audit add default/web",
// from any number of handlers, in the order they happen.
type eventLog struct {
	mu    sync.Mutex
	lines []string
}

// handler returns a handler that records its notifications under name.
func (l *eventLog) handler(name string) ResourceEventHandler {
	rec := func(op string, obj any) {
		key, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
		l.add(name + " " + op + " " + key)
	}
	return ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { rec("add", obj) },
		UpdateFunc: func(_, obj any) { rec("update", obj) },
		DeleteFunc: func(obj any) { rec("delete", obj) },
	}
}

// add records a line of its own, in order with the handlers' lines.
func (l *eventLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

// all returns a copy of the lines so far.
func (l *eventLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// has reports whether line was recorded.
func (l *eventLog) has(line string) bool { return slices.Contains(l.all(), line) }

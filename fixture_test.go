// fixture_test.go holds the fakeapi fixtures of the Reflector and informer
// tests: a server per test, a pods ListerWatcher over real HTTP to it, a
// wrapper that records every request's options, and pod helpers.

package informer

import (
	"context"
	"sync"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// podsResource is the resource the tests list and watch.
var podsResource = GroupVersionResource{Version: "v1", Resource: "pods"}

// startServer starts a fakeapi server that the test closes at its end. It
// also checks, once the test and its cleanups are done, that no goroutine of
// the server, of an informer or Reflector the test ran against it, or of
// their connections is left (checkLeaksAtEnd): every test that starts a
// server gets the leak check without asking for it.
func startServer(t *testing.T, opts fakeapi.Options) *fakeapi.Server {
	t.Helper()
	checkLeaksAtEnd(t)
	s, err := fakeapi.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// podsLW is a ListerWatcher for the pods of namespace on s, over HTTP.
func podsLW(t *testing.T, s *fakeapi.Server, namespace string) *ListWatch {
	t.Helper()
	c, err := NewRESTClient(RESTConfig{Host: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return NewListWatchFromClient(c, podsResource, namespace, "")
}

// podJSON is a pod as fakeapi takes it.
func podJSON(namespace, name string, labels map[string]string) map[string]any {
	meta := map[string]any{"name": name, "namespace": namespace}
	if labels != nil {
		meta["labels"] = labels
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "main", "image": "nginx"}}},
	}
}

// createPod creates a pod on s and returns its resource version.
func createPod(t *testing.T, s *fakeapi.Server, namespace, name string, labels map[string]string) string {
	t.Helper()
	obj, err := s.Create(fakeapi.Pods, namespace, podJSON(namespace, name, labels))
	if err != nil {
		t.Fatalf("create %s/%s: %v", namespace, name, err)
	}
	return obj["metadata"].(map[string]any)["resourceVersion"].(string)
}

// relabelPod replaces a pod's labels on s and returns its new version.
func relabelPod(t *testing.T, s *fakeapi.Server, namespace, name string, labels map[string]string) string {
	t.Helper()
	obj, err := s.Update(fakeapi.Pods, namespace, podJSON(namespace, name, labels))
	if err != nil {
		t.Fatalf("update %s/%s: %v", namespace, name, err)
	}
	return obj["metadata"].(map[string]any)["resourceVersion"].(string)
}

// deletePod deletes a pod on s.
func deletePod(t *testing.T, s *fakeapi.Server, namespace, name string) {
	t.Helper()
	if err := s.Delete(fakeapi.Pods, namespace, name); err != nil {
		t.Fatalf("delete %s/%s: %v", namespace, name, err)
	}
}

// recordingLW wraps a ListerWatcher and records the options of every call.
type recordingLW struct {
	inner ListerWatcher
	// beforeList, if set, may answer a list instead of the server.
	beforeList func(o ListOptions) (*ObjectList, error)
	// afterList, if set, runs after each list the server answered.
	afterList func(o ListOptions, l *ObjectList)
	// beforeWatch, if set, may refuse a watch.
	beforeWatch func(o ListOptions) error

	mu      sync.Mutex
	lists   []ListOptions
	watches []ListOptions
	full    []ListOptions // lists and streaming lists, in order
	// gate, while set, holds every new watch request until it is closed.
	gate chan struct{}
	// tap, if set, records every event of every watch in events.
	tap    bool
	events []WatchEvent
}

// holdWatches makes new watch requests wait until the returned function is
// called. Tests use it to stop a server without a re-watch slipping in
// while it shuts down.
func (r *recordingLW) holdWatches() (release func()) {
	gate := make(chan struct{})
	r.mu.Lock()
	r.gate = gate
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.gate = nil
		r.mu.Unlock()
		close(gate)
	}
}

func (r *recordingLW) List(ctx context.Context, o ListOptions) (*ObjectList, error) {
	r.mu.Lock()
	r.lists = append(r.lists, o)
	r.full = append(r.full, o)
	r.mu.Unlock()
	if r.beforeList != nil {
		if l, err := r.beforeList(o); l != nil || err != nil {
			return l, err
		}
	}
	l, err := r.inner.List(ctx, o)
	if err == nil && r.afterList != nil {
		r.afterList(o, l)
	}
	return l, err
}

func (r *recordingLW) Watch(ctx context.Context, o ListOptions) (Watcher, error) {
	r.mu.Lock()
	gate := r.gate
	r.mu.Unlock()
	if gate != nil {
		<-gate
	}
	r.mu.Lock()
	r.watches = append(r.watches, o)
	// Reading 2: a streaming list is a full list too.
	if o.SendInitialEvents != nil && *o.SendInitialEvents {
		r.full = append(r.full, o)
	}
	// End of reading 2.
	r.mu.Unlock()
	if r.beforeWatch != nil {
		if err := r.beforeWatch(o); err != nil {
			return nil, err
		}
	}
	w, err := r.inner.Watch(ctx, o)
	if err != nil || !r.tap {
		return w, err
	}
	return newTappedWatcher(w, func(ev WatchEvent) {
		r.mu.Lock()
		r.events = append(r.events, ev)
		r.mu.Unlock()
	}), nil
}

// watchEvents returns the events the watches received so far (with tap set).
func (r *recordingLW) watchEvents() []WatchEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]WatchEvent(nil), r.events...)
}

// tappedWatcher hands on the events of a watch, recording each first.
type tappedWatcher struct {
	Watcher
	out  chan WatchEvent
	stop chan struct{}
	once sync.Once
}

// newTappedWatcher starts passing w's events on; the goroutine ends when w's
// channel closes (after Stop, at the latest).
func newTappedWatcher(w Watcher, record func(WatchEvent)) *tappedWatcher {
	tw := &tappedWatcher{Watcher: w, out: make(chan WatchEvent), stop: make(chan struct{})}
	go func() {
		defer close(tw.out)
		for ev := range w.ResultChan() {
			record(ev)
			select {
			case tw.out <- ev:
			case <-tw.stop:
				return
			}
		}
	}()
	return tw
}

func (tw *tappedWatcher) ResultChan() <-chan WatchEvent { return tw.out }

// Stop stops the watch it taps.
func (tw *tappedWatcher) Stop() {
	tw.once.Do(func() { close(tw.stop) })
	tw.Watcher.Stop()
}

// calls returns copies of the recorded list and watch options.
func (r *recordingLW) calls() (lists, watches []ListOptions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ListOptions(nil), r.lists...), append([]ListOptions(nil), r.watches...)
}

// fullLists returns the full lists in the order they were asked for: plain
// lists, and the watches that stream the initial list
// (sendInitialEvents=true).
func (r *recordingLW) fullLists() []ListOptions {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ListOptions(nil), r.full...)
}

// listCount counts the full lists (see fullLists).
func (r *recordingLW) listCount() int  { return len(r.fullLists()) }
func (r *recordingLW) watchCount() int { _, w := r.calls(); return len(w) }
func (r *recordingLW) lastWatch() ListOptions {
	_, w := r.calls()
	return w[len(w)-1]
}

// stepBackoff waits until the code under test waits on the fake clock, then
// moves the clock past the longest wait and returns it.
func stepBackoff(t *testing.T, clock *testingclock.FakeClock) time.Duration {
	t.Helper()
	waitFor(t, "a backoff timer on the fake clock", clock.HasWaiters)
	waits := clock.Waiters()
	longest := waits[len(waits)-1]
	clock.Step(longest)
	return longest
}

// runInformer runs inf until the test ends and waits for its cache to sync.
func runInformer(t *testing.T, inf SharedIndexInformer) context.CancelFunc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { inf.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		receiveOrError(t, "the informer's Run to return after the cancel", done)
	})
	syncCtx, syncCancel := context.WithTimeout(ctx, 10*time.Second)
	defer syncCancel()
	if !WaitForCacheSync(syncCtx, inf.HasSynced) {
		t.Fatal("the informer did not sync within 10s")
	}
	return cancel
}

// stopServer stops s while holding lw's watch requests, so that the
// Reflector's re-watch meets a server that is down (connection refused)
// rather than one half-way through shutting down (connection reset).
func stopServer(t *testing.T, s *fakeapi.Server, lw *recordingLW) {
	t.Helper()
	release := lw.holdWatches()
	defer release()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
}

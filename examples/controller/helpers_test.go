// helpers_test.go holds what the controller's tests share: TestMain (every
// test runs in both informer pipelines), a fixture (fakeapi, a client, the
// controller and its informers, an event log), waiting for convergence with
// a deadline, and the check that no goroutine of the controller outlives
// it.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none of its own (test machinery).

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/retry"
)

func TestMain(m *testing.M) { walkthrough.Main(m) }

// eventLog is an EventRecorder that keeps every event as a line
// "REASON key message", and calls hook (if set) first.
type eventLog struct {
	mu    sync.Mutex
	lines []string
	hook  func(reason, message string) // may panic, to play a bug mid-reconcile
}

func (l *eventLog) Eventf(key, eventType, reason, messageFmt string, args ...any) {
	message := fmt.Sprintf(messageFmt, args...)
	l.mu.Lock()
	l.lines = append(l.lines, reason+" "+key+" "+message)
	hook := l.hook
	l.mu.Unlock()
	if hook != nil {
		hook(reason, message)
	}
}

// all returns the lines so far.
func (l *eventLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// find returns the lines that start with reason and contain text.
func (l *eventLog) find(reason, text string) []string {
	var out []string
	for _, line := range l.all() {
		if strings.HasPrefix(line, reason+" ") && strings.Contains(line, text) {
			out = append(out, line)
		}
	}
	return out
}

// fixture is a fakeapi server and a controller on it, not yet running.
type fixture struct {
	srv    *fakeapi.Server
	client *informer.RESTClient
	r      *running
	events *eventLog
	clock  *testingclock.FakeClock // nil: the real clock
	gate   *watchGate              // the controller's pod watches go through it (open unless a test holds it)
}

// newFixture builds a controller with workers workers on a new fakeapi, on
// clock (nil: the real one), in the pipeline of the run in progress. Change
// what the test needs (r.controller.syncHandler, events.hook), then call
// start.
func newFixture(t *testing.T, workers int, clock *testingclock.FakeClock, opts ...fakeapi.Options) *fixture {
	t.Helper()
	srv := walkthrough.StartServer(t, opts...)
	f := &fixture{srv: srv, client: walkthrough.Client(t, srv), events: &eventLog{}, clock: clock, gate: newWatchGate()}
	o := options{workers: workers, gates: *walkthrough.Gates(), recorder: f.events, podsLW: f.gate.listWatch(f.client)}
	if clock != nil {
		o.clock = clock
	}
	r, err := newRunning(f.client, o)
	walkthrough.Must(t, err)
	f.r = r
	return f
}

// start runs the controller until the test ends, then stops it and checks
// that it stopped, every goroutine included, within a deadline.
func (f *fixture) start(t *testing.T) {
	t.Helper()
	f.r.run()
	t.Cleanup(func() { stopAndCheck(t, f.r) })
	walkthrough.WaitFor(t, "the controller's caches to sync", func() bool {
		return f.r.replicaSet.HasSynced() && f.r.pods.HasSynced()
	})
}

// stopAndCheck stops r and fails t if that takes more than 10 s or leaves a
// goroutine of the controller, its informers or its queue running.
func stopAndCheck(t *testing.T, r *running) {
	t.Helper()
	stopped := make(chan struct{})
	go func() {
		r.stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the controller did not stop within 10 s of its context ending")
	}
	waitNoLeftover(t)
}

// waitNoLeftover waits (10 s at most) until no goroutine of the controller,
// its informers or its queue is left, and fails with the stack of one that
// is.
func waitNoLeftover(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond) // polling interval, not synchronisation
	defer tick.Stop()
	for {
		left := leftoverGoroutine()
		if left == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a goroutine outlived the controller by 10 s:\n%s", left)
		}
		<-tick.C
	}
}

// leftoverGoroutine returns the stack of a goroutine running code of the
// controller, the informer or the work queue, other than the caller's and
// the test framework's, or "".
func leftoverGoroutine() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	stacks := strings.Split(string(buf), "\n\n")
	for _, g := range stacks[1:] { // stacks[0] is the caller's
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "learn-k8s/informer/fakeapi") {
			continue
		}
		if strings.Contains(g, "main.(*") || strings.Contains(g, "github.com/learn-k8s/informer.") ||
			strings.Contains(g, "github.com/learn-k8s/informer/workqueue.") {
			return g
		}
	}
	return ""
}

// waitConverged waits (stepping the fake clock, if any, whenever something
// waits on it) until the controller has converged, and fails with what is
// missing if it does not within 10 s.
func (f *fixture) waitConverged(t *testing.T, what string) {
	t.Helper()
	step := func() {
		if f.clock != nil && f.clock.HasWaiters() {
			f.clock.Step(time.Minute)
		}
	}
	if missing := waitConverged(f.srv, f.r, 10*time.Second, step); missing != "" {
		t.Fatalf("%s: the controller did not converge within 10 s: %s\nevents:\n  %s",
			what, missing, strings.Join(f.events.all(), "\n  "))
	}
}

// waitCachesCurrent waits (stepping the fake clock whenever something waits
// on it) until both caches hold what the server holds, and fails if they do
// not within 10 s.
func (f *fixture) waitCachesCurrent(t *testing.T, what string) {
	t.Helper()
	walkthrough.WaitStepping(t, f.clock, what+": the caches to catch up with the server", func() bool {
		return sameVersions(f.srv, fakeapi.Pods, f.r.pods.GetStore()) &&
			sameVersions(f.srv, replicaSets, f.r.replicaSet.GetStore())
	})
}

// createReplicaSet creates default/name with replicas pods over HTTP and
// returns it as stored.
func (f *fixture) createReplicaSet(t *testing.T, name string, replicas int32) *informer.Unstructured {
	t.Helper()
	obj, err := f.client.Create(context.Background(), replicaSetsGVR, newReplicaSetObject(name, replicas))
	walkthrough.Must(t, err)
	return obj.(*informer.Unstructured)
}

// scale sets spec.replicas of default/name over HTTP.
func (f *fixture) scale(t *testing.T, name string, replicas int) {
	t.Helper()
	st := &story{client: f.client}
	walkthrough.Must(t, st.scale(name, replicas))
}

// activePods returns the names of the active pods on the server that the
// ReplicaSet default/name controls, sorted.
func (f *fixture) activePods(t *testing.T, name string) []string {
	t.Helper()
	rs, err := f.srv.Get(replicaSets, "default", name)
	walkthrough.Must(t, err)
	return activePodsOf(serverPods(f.srv, "default"), rs["metadata"].(map[string]any)["uid"].(string))
}

// serverReplicaSet returns the ReplicaSet default/name as the server has it.
func (f *fixture) serverReplicaSet(t *testing.T, name string) *ReplicaSet {
	t.Helper()
	for _, rs := range serverReplicaSets(f.srv) {
		if rs.Namespace == "default" && rs.Name == name {
			return rs
		}
	}
	t.Fatalf("the server has no ReplicaSet default/%s", name)
	return nil
}

// setPodStatus writes pod's phase (and a Ready condition, if ready) to the
// server, as a kubelet would, through /status.
func (f *fixture) setPodStatus(t *testing.T, name, phase string, ready bool) {
	t.Helper()
	ctx := context.Background()
	walkthrough.Must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := f.client.Get(ctx, podsGVR, "default", name)
		if err != nil {
			return err
		}
		pod := obj.(*informer.Pod)
		pod.Status.Phase = phase
		pod.Status.Conditions = nil
		if ready {
			pod.Status.Conditions = []informer.PodCondition{{Type: "Ready", Status: "True",
				LastTransitionTime: time.Now().UTC().Truncate(time.Second)}}
		}
		_, err = f.client.UpdateStatus(ctx, podsGVR, pod)
		return err
	}))
}

// createPod creates the pod default/name with labels and ownerReferences.
func (f *fixture) createPod(t *testing.T, name string, labels map[string]string, refs ...informer.OwnerReference) *informer.Pod {
	t.Helper()
	pod := walkthrough.Pod(name)
	pod.Labels = labels
	pod.OwnerReferences = refs
	obj, err := f.client.Create(context.Background(), podsGVR, pod)
	walkthrough.Must(t, err)
	return obj.(*informer.Pod)
}

// newTestClock returns a fake clock, set to now.
func newTestClock() *testingclock.FakeClock {
	return testingclock.NewFakeClock(time.Now())
}

// serveProvider serves provider's variables at /debug/vars of a test
// server, as main's serveDebugVars does expvar's, and returns its URL.
func serveProvider(t *testing.T, provider *expvarProvider) (string, func()) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/vars", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "{%q: %s}\n", "workqueue", provider.vars.String())
	})
	srv := httptest.NewServer(mux)
	return srv.URL + "/debug/vars", srv.Close
}

// failingProxy stands between a controller and its fakeapi: every request
// goes through to srv, but while fail returns a code for it, which it may
// for the controller's own writes (a POST of a pod, say), the proxy
// answers that code itself with a Status of reason and message, as the
// server would. It returns the proxy's URL.
func failingProxy(t *testing.T, srv *fakeapi.Server, fail func(r *http.Request) (code int, reason, message string)) string {
	t.Helper()
	target, err := url.Parse(srv.URL())
	walkthrough.Must(t, err)
	forward := httputil.NewSingleHostReverseProxy(target)
	forward.FlushInterval = -1 // watch events go through as they come
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, reason, message := fail(r); code != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`,
				message, reason, code)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy.URL
}

// newProxiedFixture is newFixture with the controller talking to srv
// through failingProxy (the test's own client talks to srv directly).
func newProxiedFixture(t *testing.T, workers int, clock *testingclock.FakeClock,
	fail func(r *http.Request) (code int, reason, message string)) *fixture {
	t.Helper()
	srv := walkthrough.StartServer(t)
	f := &fixture{srv: srv, client: walkthrough.Client(t, srv), events: &eventLog{}, clock: clock, gate: newWatchGate()}
	proxied, err := informer.NewRESTClient(informer.RESTConfig{Host: failingProxy(t, srv, fail)})
	walkthrough.Must(t, err)
	o := options{workers: workers, gates: *walkthrough.Gates(), recorder: f.events, podsLW: f.gate.listWatch(proxied)}
	if clock != nil {
		o.clock = clock
	}
	f.r, err = newRunning(proxied, o)
	walkthrough.Must(t, err)
	return f
}

// isPodCreate reports whether r creates a pod.
func isPodCreate(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/pods")
}

// watchGate slows or holds the events of the watches it wraps, to play a
// watch that lags behind the server: each event waits while the gate is
// held, then for the delay. Its zero value is not ready: use newWatchGate.
type watchGate struct {
	mu    sync.Mutex    // guards open and delay
	open  chan struct{} // closed while events may pass
	delay time.Duration
}

func newWatchGate() *watchGate {
	g := &watchGate{open: make(chan struct{})}
	close(g.open)
	return g
}

// hold stops events until release.
func (g *watchGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
		g.open = make(chan struct{})
	default: // held already
	}
}

// release lets events pass again, the held ones first, in order.
func (g *watchGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// setDelay makes each event wait d more before it passes.
func (g *watchGate) setDelay(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.delay = d
}

// pass waits until an event may pass; false if stop closed first.
func (g *watchGate) pass(stop <-chan struct{}) bool {
	g.mu.Lock()
	open, delay := g.open, g.delay
	g.mu.Unlock()
	select {
	case <-open:
	case <-stop:
		return false
	}
	if delay > 0 {
		t := time.NewTimer(delay) // the lag played, not synchronisation
		defer t.Stop()
		select {
		case <-t.C:
		case <-stop:
			return false
		}
	}
	return true
}

// listWatch returns the pod ListWatch of client whose watches go through g.
func (g *watchGate) listWatch(client *informer.RESTClient) *informer.ListWatch {
	lw := informer.NewListWatchFromClient(client, podsGVR, informer.NamespaceAll, "")
	return &informer.ListWatch{
		ListFunc: lw.ListFunc,
		WatchFunc: func(ctx context.Context, o informer.ListOptions) (informer.Watcher, error) {
			inner, err := lw.WatchFunc(ctx, o)
			if err != nil {
				return nil, err
			}
			w := &gatedWatcher{inner: inner, out: make(chan informer.WatchEvent), stop: make(chan struct{})}
			go w.run(g)
			return w, nil
		},
	}
}

// gatedWatcher passes inner's events on through a watchGate.
type gatedWatcher struct {
	inner    informer.Watcher
	out      chan informer.WatchEvent
	stop     chan struct{}
	stopOnce sync.Once
}

// run forwards the events until inner ends or the watcher is stopped.
func (w *gatedWatcher) run(g *watchGate) {
	defer close(w.out)
	for ev := range w.inner.ResultChan() {
		if !g.pass(w.stop) {
			return
		}
		select {
		case w.out <- ev:
		case <-w.stop:
			return
		}
	}
}

func (w *gatedWatcher) ResultChan() <-chan informer.WatchEvent { return w.out }

func (w *gatedWatcher) Stop() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.inner.Stop()
}

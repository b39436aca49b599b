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
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
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
}

// newFixture builds a controller with workers workers on a new fakeapi, on
// clock (nil: the real one), in the pipeline of the run in progress. Change
// what the test needs (r.controller.syncHandler, events.hook), then call
// start.
func newFixture(t *testing.T, workers int, clock *testingclock.FakeClock, opts ...fakeapi.Options) *fixture {
	t.Helper()
	srv := walkthrough.StartServer(t, opts...)
	f := &fixture{srv: srv, client: walkthrough.Client(t, srv), events: &eventLog{}, clock: clock}
	o := options{workers: workers, gates: *walkthrough.Gates(), recorder: f.events}
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

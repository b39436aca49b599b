// helpers_test.go holds what the Reflector and informer tests share: a
// goroutine-leak check, polling with a deadline, a watcher tests feed by
// hand, and a handler that records what it is told.

package informer

import (
	"fmt"
	"log/slog"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond until it holds or the deadline passes. Tests wait with
// it instead of sleeping.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		}
		time.Sleep(2 * time.Millisecond) // polling interval, not synchronisation
	}
}

// ourFrame matches a stack frame of this package, of fakeapi/, or of an
// HTTP connection (a server's or a client's): the goroutines a test of the
// informer starts, directly or not.
var ourFrame = regexp.MustCompile(`learn-k8s/informer(/fakeapi)?\.|net/http\.\(\*(conn|persistConn)\)`)

// ourGoroutines returns the stacks of the goroutines running our code,
// leaving out the test goroutines themselves and the goroutines a test
// started itself (those are the test's to end); a goroutine our code
// started counts even while it runs a test's handler.
func ourGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var ours []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		_, creator, _ := strings.Cut(g, "\ncreated by ")
		if ourFrame.MatchString(g) && !strings.Contains(g, "testing.tRunner") &&
			!strings.Contains(creator, "_test.go:") {
			ours = append(ours, g)
		}
	}
	return ours
}

// quietLogs discards what the library logs (every failed list or watch,
// every bad event) until the test ends, for tests that provoke failures on
// purpose and would otherwise print log lines in the middle of their story.
func quietLogs(t testing.TB) {
	logger := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	t.Cleanup(func() { slog.SetDefault(logger) })
}

// checkLeaksAtEnd, called first thing in a test, checks once the test and
// all its cleanups are done (servers closed, informers stopped) that every
// goroutine started meanwhile by fakeapi, the reflector, the controller,
// the processor or their HTTP connections has ended.
func checkLeaksAtEnd(t *testing.T) {
	t.Helper()
	baseline := len(ourGoroutines())
	t.Cleanup(func() { checkNoLeaks(t, baseline) }) // cleanups run last-in first-out: this one last
}

// checkNoLeaks fails t if, within the deadline, more of our goroutines run
// than the baseline count taken before the test.
func checkNoLeaks(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := ourGoroutines()
		if len(left) <= baseline {
			return
		}
		if time.Now().After(deadline) {
			// A cleanup reports with t.Errorf: the test is over, t.Fatal is not for it.
			t.Errorf("%d goroutines still running (baseline %d):\n%s", len(left), baseline, strings.Join(left, "\n\n"))
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// fakeWatcher is a Watcher a test feeds by hand.
type fakeWatcher struct {
	ch       chan WatchEvent
	stopOnce sync.Once
	stopped  chan struct{}
}

func newFakeWatcher() *fakeWatcher {
	return &fakeWatcher{ch: make(chan WatchEvent), stopped: make(chan struct{})}
}

func (f *fakeWatcher) Stop()                         { f.stopOnce.Do(func() { close(f.stopped) }) }
func (f *fakeWatcher) ResultChan() <-chan WatchEvent { return f.ch }

// send delivers ev unless the watch was stopped.
func (f *fakeWatcher) send(ev WatchEvent) bool {
	select {
	case f.ch <- ev:
		return true
	case <-f.stopped:
		return false
	}
}

// recorder is a handler that records one line per notification and lets a
// test wait for lines.
type recorder struct {
	mu    sync.Mutex
	lines []string
	// block, if set, is waited on at the start of every call.
	block chan struct{}
}

func keyOf(obj any) string {
	k, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return k
}

func versionOf(obj any) string {
	if o, ok := obj.(Object); ok {
		return o.GetResourceVersion()
	}
	return "?"
}

func (r *recorder) record(line string) {
	if r.block != nil {
		<-r.block
	}
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
}

func (r *recorder) OnAdd(obj any, initial bool) {
	r.record(fmt.Sprintf("add %s initial=%v", keyOf(obj), initial))
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	same := ""
	if versionOf(oldObj) == versionOf(newObj) {
		same = " same"
	}
	r.record("update " + keyOf(newObj) + same)
}

func (r *recorder) OnDelete(obj any) {
	kind := ""
	if _, ok := obj.(DeletedFinalStateUnknown); ok {
		kind = " tombstone"
	}
	r.record("delete " + keyOf(obj) + kind)
}

func (r *recorder) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

func (r *recorder) has(line string) bool {
	for _, l := range r.get() {
		if l == line {
			return true
		}
	}
	return false
}

// waitLine waits until the recorder has recorded line.
func (r *recorder) waitLine(t *testing.T, line string) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%q (have %q)", line, r.get()), func() bool { return r.has(line) })
}

// testPod returns a pod with the given version and labels.
func testPod(ns, name, rv string, labels map[string]string) *Pod {
	return &Pod{ObjectMeta: ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

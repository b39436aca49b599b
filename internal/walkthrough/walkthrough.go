// Package walkthrough holds what the tests of the extras' packages share
// (retry/, diff/, handlerchain/, health/, consistencydetector/,
// mutationdetector/, typed/, listers/, dynamic/): the narrator of their
// walkthrough Steps (Say, in English or Chinese), a fakeapi server and a
// client for it, a running pod informer, and waiting with a deadline. It is
// internal: only this module's tests import it.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: none of its own; the Steps that use it cite theirs.
package walkthrough

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// Language is the narration's language, "zh" or "en": INFORMER_LANG, else
// the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set (Chinese
// when it starts with "zh"), as in the root package's Steps.
func Language() string {
	for _, name := range []string{"INFORMER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// Say logs one line of a Step's story in the reader's language: en and zh
// are the same line in English and Chinese, format strings taking the same
// args. CheckNarration checks every call.
// In the second pipeline's run (Main) it is silent: the story is told once.
// In a Step (a TestStep test), a line wider than maxColumns as go test -v
// prints it, with its "    file_test.go:12: " prefix, fails the test.
func Say(t testing.TB, en, zh string, args ...any) {
	t.Helper()
	if quiet {
		return
	}
	format := en
	if Language() == "zh" {
		format = zh
	}
	line := fmt.Sprintf(format, args...)
	t.Log(line)
	if _, file, n, ok := runtime.Caller(1); ok && strings.HasPrefix(t.Name(), "TestStep") {
		if w := Columns(fmt.Sprintf("    %s:%d: %s", filepath.Base(file), n, line)); w > maxColumns {
			t.Errorf("this narration line takes %d columns as printed, over %d: wrap it: %q", w, maxColumns, line)
		}
	}
}

// Must fails the test at once on a non-nil error.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// waitLimit bounds every wait of the extras' tests: generous, so that a
// loaded machine never fails a healthy test, and finite, so that a hang
// fails saying what did not happen instead of stalling the suite.
const waitLimit = 10 * time.Second

// Receive returns the next value from ch (the zero value once ch is
// closed), failing the test at once if none comes within a generous
// deadline; what names what is awaited ("Run to return after the cancel"),
// for the failure message.
func Receive[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		panic("unreachable")
	}
}

// Deliver sends v on ch, failing the test at once if it is not taken
// within a generous deadline; what names the taker ("the stuck handler to
// take its next notification").
func Deliver[T any](t testing.TB, what string, ch chan<- T, v T) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	select {
	case ch <- v:
	case <-timer.C:
		t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
	}
}

// ReturnsWithin runs call (a WaitGroup's Wait, say) on a goroutine of its
// own and waits for it to return, failing the test at once if it has not
// within a generous deadline; what names the call. call must not use t.
func ReturnsWithin(t testing.TB, what string, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	Receive(t, what, done)
}

// WaitFor polls cond until it holds, failing the test after a generous
// deadline. Tests wait with it instead of sleeping.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	tick := time.NewTicker(2 * time.Millisecond) // polling interval, not synchronisation
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		}
		<-tick.C
	}
}

// WaitStepping is WaitFor for code that waits on clock: whenever something
// waits on it (a backoff, a period), the clock jumps a minute ahead.
func WaitStepping(t testing.TB, clock *testingclock.FakeClock, what string, cond func() bool) {
	t.Helper()
	WaitFor(t, what, func() bool {
		if clock.HasWaiters() {
			clock.Step(time.Minute)
		}
		return cond()
	})
}

// QuietLogs discards what the library logs until the test ends, for tests
// that provoke failures on purpose.
func QuietLogs(t testing.TB) {
	logger := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	t.Cleanup(func() { slog.SetDefault(logger) })
}

// PodsGVR names core/v1 pods.
var PodsGVR = informer.GroupVersionResource{Version: "v1", Resource: "pods"}

// StartServer starts a fakeapi server that the test closes when it ends;
// with no options, one with frequent bookmarks.
func StartServer(t testing.TB, opts ...fakeapi.Options) *fakeapi.Server {
	t.Helper()
	o := fakeapi.Options{BookmarkInterval: 50 * time.Millisecond}
	if len(opts) > 0 {
		o = opts[0]
	}
	srv, err := fakeapi.Start(o)
	Must(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// Client returns a REST client for srv.
func Client(t testing.TB, srv *fakeapi.Server) *informer.RESTClient {
	t.Helper()
	c, err := informer.NewRESTClient(informer.RESTConfig{Host: srv.URL()})
	Must(t, err)
	return c
}

// Pod returns a minimal pod default/name labelled app=web.
func Pod(name string) *informer.Pod {
	return &informer.Pod{
		ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}},
		Spec:       informer.PodSpec{Containers: []informer.Container{{Name: "c", Image: "nginx:1.27"}}},
	}
}

// CreatePods creates the named pods (see Pod) over HTTP.
func CreatePods(t testing.TB, c *informer.RESTClient, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := c.Create(context.Background(), PodsGVR, Pod(n)); err != nil {
			t.Fatalf("creating pod %s: %v", n, err)
		}
	}
}

// Informer builds a pod informer on srv with a namespace index, in the
// pipeline of the run in progress (Gates), its time from clock (nil: the
// real one). Start it with Run.
func Informer(t testing.TB, srv *fakeapi.Server, clock clock.Clock) (informer.SharedIndexInformer, *informer.ListWatch) {
	t.Helper()
	lw := informer.NewListWatchFromClient(Client(t, srv), PodsGVR, informer.NamespaceAll, "")
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
		Indexers:      informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
		Clock:         clock,
		PipelineGates: Gates(),
	})
	return inf, lw
}

// Run runs inf until the test ends (and checks that Run returns then), and
// waits for its cache to sync.
func Run(t testing.TB, inf informer.SharedInformer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		// A cleanup runs after the test: it reports with t.Errorf, never t.Fatal.
		timer := time.NewTimer(waitLimit)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
			t.Errorf("the informer's Run did not return within %v of the cancel", waitLimit)
			return
		}
		if !inf.IsStopped() {
			t.Error("the informer does not report itself stopped after Run returned")
		}
	})
	WaitFor(t, "the informer to sync", inf.HasSynced)
}

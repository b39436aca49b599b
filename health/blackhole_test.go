// blackhole_test.go checks the figures of an informer whose connection
// falls into a black hole, over HTTPS with HTTP/2 pings against fakeapi:
// staleness grows while nothing arrives, then the lost connection is
// recorded as a failure and the informer relists.

package health_test

import (
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/health"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestBlackHoleFigures(t *testing.T) {
	walkthrough.QuietLogs(t)
	srv := walkthrough.StartServer(t, fakeapi.Options{TLS: true})
	const readIdle, pingTimeout = 100 * time.Millisecond, 100 * time.Millisecond
	c, err := informer.NewRESTClient(informer.RESTConfig{Host: srv.URL(),
		TLSClientConfig:      informer.TLSClientConfig{CAData: srv.CACertPEM()},
		HTTP2ReadIdleTimeout: readIdle, HTTP2PingTimeout: pingTimeout})
	walkthrough.Must(t, err)
	_, err = srv.Create(fakeapi.Pods, "default", map[string]any{"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
	walkthrough.Must(t, err)
	clock := testingclock.NewFakeClock(time.Now())
	rec := health.NewRecorder(clock)
	lw := rec.ListerWatcher(informer.NewListWatchFromClient(c, walkthrough.PodsGVR, informer.NamespaceAll, ""))
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{Clock: clock, PipelineGates: walkthrough.Gates()})
	walkthrough.Run(t, inf)

	srv.BlackHole(readIdle / 2)
	before := rec.Health(inf).Staleness
	clock.Step(time.Minute) // time passes; nothing arrives
	if h := rec.Health(inf); h.Staleness < before+time.Minute || h.Lists != 1 {
		t.Fatalf("while the hole lasts: staleness %v (was %v), %d lists; want a minute more, 1 list", h.Staleness, before, h.Lists)
	}

	// Backoffs cost no time: the clock jumps whenever something waits on it.
	walkthrough.WaitStepping(t, clock, "the relist after the hole", func() bool { return rec.Health(inf).Lists >= 2 })
	// The pings end the watch with a 500 ERROR (InternalError), as in
	// client-go; when the jumping clock ends the watch first, the re-watch
	// meets the lost connection instead (Other). Either way a failure is
	// recorded before the relist.
	if h := rec.Health(inf); h.WatchErrors["InternalError"]+h.WatchErrors["Other"] == 0 {
		t.Fatalf("errors %v: the lost connection should be recorded as a failure", h.WatchErrors)
	}
}

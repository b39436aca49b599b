// network_test.go: the informer against the faults real networks and real
// API servers produce, over HTTPS and HTTP/2 as against a real cluster. A
// graceful shutdown (HTTP/2 GOAWAY, then the connection closed under the
// watch, as in a rolling restart) must end the watch normally: the
// informer re-watches from its last version and never relists. A black
// hole (the connection stays open, nothing gets through) is noticed by the
// transport's HTTP/2 pings; the informer then relists and catches up, as
// client-go does. Also: the transport's defaults are client-go's.
//
// Tutorial: 000 §4.3 (when things go wrong). docs: the reliability chapter.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// tlsClient is a RESTClient that trusts s's certificate; edit may change
// the config first.
func tlsClient(t *testing.T, s *fakeapi.Server, edit func(*RESTConfig)) *RESTClient {
	t.Helper()
	cfg := RESTConfig{Host: s.URL(), TLSClientConfig: TLSClientConfig{CAData: s.CACertPEM()}}
	if edit != nil {
		edit(&cfg)
	}
	c, err := NewRESTClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.client.CloseIdleConnections)
	return c
}

// runDrivenInformer runs an informer on a fake clock that a goroutine
// moves forward whenever something waits on it (backoffs cost no time),
// and waits for it to sync.
func runDrivenInformer(t *testing.T, lw ListerWatcher, h ResourceEventHandler) SharedIndexInformer {
	t.Helper()
	clock := testingclock.NewFakeClock(time.Now())
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{Clock: clock})
	if _, err := inf.AddEventHandler(h); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clockDone := make(chan struct{})
	go func() { defer close(clockDone); driveClock(ctx, clock) }()
	t.Cleanup(func() {
		cancel()
		receiveOrError(t, "the clock driver to return after the cancel", clockDone)
	})
	runInformer(t, inf)
	return inf
}

func TestGracefulShutdownRewatchesWithoutRelist(t *testing.T) {
	quietLogs(t)
	srv := startServer(t, fakeapi.Options{TLS: true})
	createPod(t, srv, "default", "a", nil)
	createPod(t, srv, "default", "b", nil)
	c := tlsClient(t, srv, nil)
	lw := &recordingLW{inner: NewListWatchFromClient(c, podsResource, NamespaceAll, "")}
	rec := &recorder{}
	inf := runDrivenInformer(t, lw, rec)

	// A raw watch beside the informer's, to see the error a watch meets.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := c.request(ctx, http.MethodGet, "/api/v1/pods", ListOptions{ResourceVersion: srv.ResourceVersion()}.Query(true), "application/json", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ProtoMajor != 2 {
		t.Fatalf("the watch speaks %s; GOAWAY needs HTTP/2", resp.Proto)
	}
	readErr := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, resp.Body); readErr <- err }()
	watchesBefore := lw.watchCount()
	// A watch that ends within a second of starting with no event is "very
	// short" and makes the next cycle relist, in client-go too: let it age.
	inf.(*sharedIndexInformer).clock.(*testingclock.FakeClock).Step(2 * time.Second)

	say(t, "the server shuts down gracefully: GOAWAY, then the connection closes under the watches",
		"服务器优雅关闭：先发 GOAWAY，随后在 watch 还开着时关闭连接")
	if err := srv.Shutdown(50 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	err = receive(t, "the raw watch to end after the shutdown", readErr)
	if err == nil || !strings.Contains(err.Error(), "server sent GOAWAY and closed the connection") || !endsWatchNormally(err) {
		t.Fatalf("the watch ended with %v; want the GOAWAY error, a normal end", err)
	}
	say(t, "the watch ended with: %v", "watch 以此结束：%v", err)

	// While it is down: a delete and a re-create, a change, a new pod.
	deletePod(t, srv, "default", "a")
	createPod(t, srv, "default", "a", map[string]string{"again": "yes"})
	relabelPod(t, srv, "default", "b", map[string]string{"v": "2"})
	createPod(t, srv, "default", "c", nil)
	waitFor(t, "a re-watch refused while the server is down", func() bool { return lw.watchCount() > watchesBefore })
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}

	want := serverState(srv)
	waitFor(t, "the cache to reach the server", func() bool { return maps.Equal(cacheState(inf.GetIndexer()), want) })
	if n := lw.listCount(); n != 1 {
		t.Fatalf("%d lists: a graceful shutdown must not make the informer relist", n)
	}
	rec.waitLine(t, "add default/c initial=false")
	if !rec.has("delete default/a") || !rec.has("add default/a initial=false") {
		t.Fatalf("the handler should see a's delete and re-create, not one update: %q", rec.get())
	}
	say(t, "zero relists; %d watch restarts", "零次重新 list；watch 重启 %d 次", lw.watchCount()-1)
}

func TestBlackHoleDetectedByHTTP2Pings(t *testing.T) {
	quietLogs(t)
	srv := startServer(t, fakeapi.Options{TLS: true})
	createPod(t, srv, "default", "x", nil)
	// client-go's 30 s and 15 s, shortened; the hole lasts less than the
	// detection, so the connection the informer dials next gets through.
	const readIdle, pingTimeout = 100 * time.Millisecond, 100 * time.Millisecond
	c := tlsClient(t, srv, func(cfg *RESTConfig) {
		cfg.HTTP2ReadIdleTimeout, cfg.HTTP2PingTimeout = readIdle, pingTimeout
	})
	lw := &recordingLW{inner: NewListWatchFromClient(c, podsResource, NamespaceAll, "")}
	rec := &recorder{}
	inf := runDrivenInformer(t, lw, rec)
	clock := inf.(*sharedIndexInformer).clock.(*testingclock.FakeClock)

	start := time.Now()
	srv.BlackHole(readIdle / 2)
	createPod(t, srv, "default", "y", nil)
	deletePod(t, srv, "default", "x")
	clock.Step(time.Minute) // time passes; nothing arrives
	if n := lw.listCount(); n != 1 {
		t.Fatalf("while the hole lasts: %d lists, want 1", n)
	}

	want := serverState(srv)
	deadline := time.Now().Add(10 * time.Second)
	for !maps.Equal(cacheState(inf.GetIndexer()), want) {
		if time.Now().After(deadline) {
			t.Fatalf("not recovered after 10s: cache %v, server %v", cacheState(inf.GetIndexer()), want)
		}
		time.Sleep(time.Millisecond) // polling interval
	}
	say(t, "recovered %v after the hole began (read idle %v + ping timeout %v, then a relist)",
		"黑洞开始后 %v 恢复（读空闲 %v + ping 超时 %v，然后重新 list）",
		time.Since(start).Round(time.Millisecond), readIdle, pingTimeout)
	if n := lw.listCount(); n < 2 {
		t.Fatalf("%d lists: client-go ends the watch with a 500 ERROR and relists", n)
	}
	rec.waitLine(t, "delete default/x tombstone") // the relist found it gone
	rec.waitLine(t, "add default/y initial=false")
}

func TestTransportLikeClientGo(t *testing.T) {
	transportOf := func(cfg RESTConfig) *http.Transport {
		t.Helper()
		c, err := NewRESTClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c.client.Transport.(*http.Transport)
	}
	tlsCfg := TLSClientConfig{Insecure: true}
	t.Run("no TLS settings: a copy of http.DefaultTransport, no pings", func(t *testing.T) {
		tr := transportOf(RESTConfig{Host: "https://example.com"})
		if tr.HTTP2 != nil {
			t.Fatalf("HTTP2 %+v; client-go uses http.DefaultTransport here", tr.HTTP2)
		}
	})
	t.Run("TLS settings: client-go's transport", func(t *testing.T) {
		tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg})
		if tr.HTTP2 == nil || tr.HTTP2.SendPingTimeout != 30*time.Second || tr.HTTP2.PingTimeout != 15*time.Second {
			t.Fatalf("HTTP2 %+v; want pings after 30s idle, 15s to answer", tr.HTTP2)
		}
		if tr.TLSHandshakeTimeout != 10*time.Second || tr.MaxIdleConnsPerHost != 25 || tr.IdleConnTimeout != 90*time.Second ||
			!tr.Protocols.HTTP2() || !tr.Protocols.HTTP1() {
			t.Fatalf("transport %+v", tr)
		}
	})
	t.Run("client-go's environment variables", func(t *testing.T) {
		t.Setenv("HTTP2_READ_IDLE_TIMEOUT_SECONDS", "7")
		t.Setenv("HTTP2_PING_TIMEOUT_SECONDS", "not a number") // ignored, with a warning
		quietLogs(t)
		tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg})
		if tr.HTTP2.SendPingTimeout != 7*time.Second || tr.HTTP2.PingTimeout != 15*time.Second {
			t.Fatalf("HTTP2 %+v", tr.HTTP2)
		}
		t.Setenv("HTTP2_READ_IDLE_TIMEOUT_SECONDS", "0") // off
		if tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg}); tr.HTTP2.SendPingTimeout != 0 {
			t.Fatalf("HTTP2 %+v; 0 turns the pings off", tr.HTTP2)
		}
		t.Setenv("DISABLE_HTTP2", "1")
		if tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg}); tr.Protocols.HTTP2() {
			t.Fatal("DISABLE_HTTP2 should leave HTTP/1.1 only")
		}
	})
	t.Run("options win over the environment", func(t *testing.T) {
		t.Setenv("HTTP2_READ_IDLE_TIMEOUT_SECONDS", "7")
		tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg,
			HTTP2ReadIdleTimeout: time.Second, HTTP2PingTimeout: 2 * time.Second})
		if tr.HTTP2.SendPingTimeout != time.Second || tr.HTTP2.PingTimeout != 2*time.Second {
			t.Fatalf("HTTP2 %+v", tr.HTTP2)
		}
		if tr := transportOf(RESTConfig{Host: "https://example.com", TLSClientConfig: tlsCfg, HTTP2ReadIdleTimeout: -1}); tr.HTTP2.SendPingTimeout != 0 {
			t.Fatalf("HTTP2 %+v; a negative option turns the pings off", tr.HTTP2)
		}
		if tr := transportOf(RESTConfig{Host: "https://example.com", DisableHTTP2: true}); tr.Protocols.HTTP2() {
			t.Fatal("DisableHTTP2 should leave HTTP/1.1 only")
		}
	})
}

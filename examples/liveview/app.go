// app.go holds the live view's program: fakeapi and a shared informer in one
// process, observed through public hooks only — a ListerWatcher wrapper
// (wire.go), SharedIndexInformerOptions.WrapQueue (queue.go), a Clock
// (clock.go), handlers and the tallies that count their backlogs
// (handlers.go, backlog.go) — and the web server that shows them
// (feed.go, controls.go, web/). The informer's start, stop and clean
// restart are in run.go.
//
// client-go counterpart: none; it watches client-go's pipeline at work.
// Tutorial: 004 §2 (the whole pipeline), 000 §4 (when things go wrong).

package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
)

//go:embed web
var webFiles embed.FS

// config configures the program.
type config struct {
	Addr             string        // the page's listen address; loopback only
	BookmarkInterval time.Duration // how often fakeapi sends BOOKMARKs
	ResyncPeriod     time.Duration // the informer's resync period; 0: none (the page can set one)
	Pods             int           // pods created before the informer starts
	Queue            string        // "RealFIFO" (client-go v0.37.2's pipeline, the default) or "DeltaFIFO" (≤1.32's)
	SlowDelay        time.Duration // slowHandler's work per event; 0: 500 ms
	BackoffScale     float64       // tests only: backoffs really last this fraction of their length; 0: all of it
}

// queueKinds maps each queue the page can switch to onto the feature gates
// that make an informer run it: every gate on is client-go v0.37.2's
// default, the RealFIFO; every gate off is client-go 1.32's pipeline, the
// DeltaFIFO the tutorial teaches first.
var queueKinds = map[string]func() informer.PipelineGates{
	"DeltaFIFO": informer.PipelineGates132,
	"RealFIFO":  informer.DefaultPipelineGates,
}

// app is the running program.
type app struct {
	cfg   config
	feed  *feed
	api   *fakeapi.Server
	wire  *wire
	clock *jumpClock
	ctx   context.Context // ends the handlers' work when the program stops
	stop  context.CancelFunc
	srv   *http.Server
	url   string
	boot  string // the start time, RFC 3339 with nanoseconds

	served  chan struct{}
	streams atomic.Int64 // /events streams open now

	switchMu sync.Mutex                 // one restart at a time
	current  atomic.Pointer[pacedQueue] // the running informer's queue, for the handlers

	mu        sync.Mutex // guards the fields below
	inf       informer.SharedIndexInformer
	queue     *pacedQueue
	resync    time.Duration // the running informer's resync period
	stopInf   context.CancelFunc
	infDone   chan struct{}
	handlers  [handlerSlots]*viewHandler
	paused    bool
	apiDown   bool
	podSeq    int
	closed    bool
	queueKind string
}

// start starts fakeapi, the informer and the page's server.
func start(cfg config) (*app, error) {
	host, _, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("the live view listens on loopback only, not %q", cfg.Addr)
	}
	if cfg.SlowDelay <= 0 {
		cfg.SlowDelay = 500 * time.Millisecond
	}
	if cfg.Queue == "" {
		cfg.Queue = "RealFIFO"
	}
	if queueKinds[cfg.Queue] == nil {
		return nil, fmt.Errorf("no queue %q: DeltaFIFO or RealFIFO", cfg.Queue)
	}
	api, err := fakeapi.Start(fakeapi.Options{BookmarkInterval: cfg.BookmarkInterval, History: 100})
	if err != nil {
		return nil, err
	}
	a := &app{cfg: cfg, feed: newFeed(), api: api, served: make(chan struct{}), resync: cfg.ResyncPeriod,
		boot: time.Now().Format(time.RFC3339Nano)}
	a.ctx, a.stop = context.WithCancel(context.Background())
	a.wire = &wire{feed: a.feed}
	a.clock = newJumpClock(cfg.ResyncPeriod, a.wire.backingOff)
	a.clock.backoffScale = cfg.BackoffScale
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: api.URL()})
	if err != nil {
		api.Close()
		return nil, err
	}
	a.wire.lw = informer.NewListWatchFromClient(client,
		informer.GroupVersionResource{Version: "v1", Resource: "pods"}, informer.NamespaceAll, "")
	for range cfg.Pods {
		if _, err := a.createPod(); err != nil {
			api.Close()
			return nil, err
		}
	}
	for slot := range 2 {
		a.handlers[slot] = a.newHandler(slot)
	}
	a.startInformer(cfg.Queue, cfg.ResyncPeriod)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.url = "http://" + ln.Addr().String() + "/"
	a.srv = &http.Server{Handler: a.routes(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(a.served)
		a.srv.Serve(ln)
	}()
	return a, nil
}

// URL is the page's address.
func (a *app) URL() string { return a.url }

// podIndexers are the cache's indexes: by namespace, and by the "app" label.
var podIndexers = informer.Indexers{
	informer.NamespaceIndex: informer.MetaNamespaceIndexFunc,
	"app": func(obj any) ([]string, error) {
		if o, ok := obj.(informer.Object); ok && o.GetLabels()["app"] != "" {
			return []string{o.GetLabels()["app"]}, nil
		}
		return nil, nil
	},
}

// Close stops everything and waits until every goroutine has ended.
func (a *app) Close() {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return
	}
	a.closed = true
	a.mu.Unlock()
	a.stop()
	a.stopInformer()
	a.feed.close()
	if a.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.srv.Shutdown(ctx); err != nil {
			a.srv.Close()
		}
		<-a.served
	}
	a.api.Close()
}

// routes are the page, its files, the feed and the controls.
func (a *app) routes() http.Handler {
	mux := http.NewServeMux()
	web, _ := fs.Sub(webFiles, "web")
	mux.Handle("GET /", http.FileServerFS(web))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent) // the page names its icon inline; other tools still ask here
	})
	mux.HandleFunc("GET /events", a.serveEvents)
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		sendJSON(w, a.snapshot())
	})
	for name, c := range a.controls() {
		mux.HandleFunc("POST /api/"+name, a.control(name, c))
	}
	return loopbackOnly(mux)
}

// errBadRequest marks a control's refusal of its input.
var errBadRequest = errors.New("bad request")

// Package fakeapi is an in-process Kubernetes API server that speaks the real
// List/Watch wire protocol over HTTP, faithfully enough that kubectl,
// client-go and curl work against it unmodified. Tests start one in a single
// call; `go run ./fakeapi/cmd/fakeapi` runs one to look at with curl. It
// stores objects as JSON maps and shares no Go types with the informer it
// serves, so a bug cannot hide on both sides of the wire.
//
// # Reading path
//
// The List/Watch server, in the order to read it (1,500 lines in all):
//
//  1. server.go (302 lines): Options, Start and Stop, the front door.
//  2. routes.go (194 lines): the kinds, their URLs, where a request goes.
//  3. store.go (239 lines): one resource version, the history, snapshots.
//  4. list.go (260 lines): resourceVersion rules, limit/continue, 410.
//  5. watch.go (305 lines): missed events, bookmarks, 410, slow watchers.
//  6. errors.go (122 lines): the Status of every failure; 410 and 504.
//  7. faults.go (78 lines): drop watches, fail N requests, compact, delay.
//
// Around it, for tests: api.go (objects read and written from Go),
// history.go (the history window, request counters), faults_network.go
// (GOAWAY, a black hole) and faults_debug.go (the faults over HTTP). The
// compatibility layer, read after the path or never, is every compat_*.go
// file: gets and writes as the real server does them (validation, defaults,
// namespaces, finalizers, patches), protobuf, OpenAPI, Tables, discovery,
// field selectors, TLS. docs/fakeapi.md maps it.
//
// This file, server.go, holds the Server: its options, starting and stopping,
// and the HTTP front door (authentication, injected faults and delays, the
// 3 MiB body limit, request logging). client-go counterparts: none in
// client-go; the real thing is k8s.io/apiserver (its handler chain and
// filters). Tutorial: 004 §2.5 (the API server a client talks to).
package fakeapi

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Server. Zero values are sensible defaults.
type Options struct {
	// Addr is the listen address; "" means 127.0.0.1:0 (a free port).
	Addr string
	// Token, if set, is required as "Authorization: Bearer <Token>".
	Token string
	// History is how many events are kept for resuming watches and for
	// paged and exact lists; 0 means 1000.
	History int
	// BookmarkInterval is the period of BOOKMARK events on watches that
	// allow them; 0 means 1s.
	BookmarkInterval time.Duration
	// WatchBuffer is how many events may wait for a slow watcher before it is cut off; 0: 1000.
	WatchBuffer int
	// VersionWait is how long a list at a version the server has not reached
	// yet waits for it before answering 504; 0 means 1s (the real server: 3s).
	VersionWait time.Duration
	// Logf, if set, receives one line per request.
	Logf func(format string, args ...any)
	// Debug serves the fault switches as POST endpoints under
	// /debug/fakeapi/ to loopback clients (faults_debug.go).
	Debug bool
	// TLS serves HTTPS (HTTP/2 and HTTP/1.1) with a self-signed certificate
	// made at Start (CACertPEM returns it), instead of plain HTTP/1.1.
	TLS bool
	// NamespaceDeletionDelay is how long a deleted namespace stays
	// Terminating before the namespace controller empties it; 0 means 500ms.
	NamespaceDeletionDelay time.Duration
	// DisableGarbageCollector leaves ownerReferences to another collector (compat_gc_collector.go).
	DisableGarbageCollector bool
}

// maxBodyBytes is the real server's limit on a request body.
const maxBodyBytes = 3 << 20

// Server is a running fake API server. Its methods are safe for concurrent use.
type Server struct {
	opts Options
	st   *store

	mu     sync.Mutex // guards the fields below
	addr   string     // the address, kept across Stop and Restart
	hs     *http.Server
	cancel context.CancelFunc // ends every request of the current listener
	served chan struct{}      // closed when hs.Serve has returned
	closed bool

	active   sync.WaitGroup // running handlers
	activeMu sync.Mutex     // orders active.Add against active.Wait

	failMu   sync.Mutex
	failLeft int // requests still to fail
	failCode int
	delay    atomic.Int64 // nanoseconds added before every API response

	lists, watches, gets, writes, failed, openWatches atomic.Int64

	tlsCert   tls.Certificate // with Options.TLS
	certPEM   []byte
	conns     connSet      // every open connection (faults_network.go)
	holeUntil atomic.Int64 // unix nanoseconds: connections accepted before it go dark

	closing   chan struct{} // closed by Close: ends the goroutines of debug actions
	closeOnce sync.Once
}

// Start starts a server and returns once it is listening.
func Start(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.History <= 0 {
		opts.History = 1000
	}
	if opts.BookmarkInterval <= 0 {
		opts.BookmarkInterval = time.Second
	}
	if opts.WatchBuffer <= 0 {
		opts.WatchBuffer = 1000
	}
	if opts.VersionWait <= 0 {
		opts.VersionWait = time.Second
	}
	s := &Server{opts: opts, st: newStore(opts.History), addr: opts.Addr, closing: make(chan struct{})}
	s.st.controllers.configure(opts) // the namespace controller and the garbage collector
	if opts.TLS {
		var err error
		if s.tlsCert, s.certPEM, err = selfSigned(); err != nil {
			return nil, err
		}
	}
	if err := s.listen(); err != nil {
		return nil, err
	}
	return s, nil
}

// listen starts serving on s.addr. s.mu must be held or s not yet shared.
func (s *Server) listen() error {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	s.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.hs = &http.Server{
		Handler:           s,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnContext:       withConn,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	var hl net.Listener = &holeListener{Listener: ln, s: s}
	if s.opts.TLS {
		s.hs.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.tlsCert}, NextProtos: []string{"h2", "http/1.1"}}
		s.hs.Protocols = new(http.Protocols)
		s.hs.Protocols.SetHTTP1(true)
		s.hs.Protocols.SetHTTP2(true)
		hl = tls.NewListener(hl, s.hs.TLSConfig)
	}
	served := make(chan struct{})
	s.served = served
	go func(hs *http.Server) {
		_ = hs.Serve(hl) // returns http.ErrServerClosed on Stop
		close(served)
	}(s.hs)
	return nil
}

// URL returns the server's base URL, such as "http://127.0.0.1:40123"
// ("https://..." with Options.TLS).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.TLS {
		return "https://" + s.addr
	}
	return "http://" + s.addr
}

// Stop stops listening and drops every connection (open watches end), but
// keeps the data: Restart serves it again on the same address.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hs == nil {
		return nil
	}
	// Close the listener and every connection first, all at once, so no
	// client can slip a new request in while the watches are being ended:
	// from now on a client sees "connection refused", as with a real outage.
	err := s.hs.Close()
	s.cancel()
	s.st.closeWatches()
	<-s.served
	s.activeMu.Lock()
	s.active.Wait()
	s.activeMu.Unlock()
	s.hs = nil
	return err
}

// Restart listens again on the address of the stopped server, with the same
// data. It does nothing if the server is running.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("fakeapi: Restart after Close")
	}
	if s.hs != nil {
		return nil
	}
	return s.listen()
}

// Close stops the server for good, ending every watch and every goroutine
// it started. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closing); s.st.controllers.stop() })
	s.mu.Lock()
	s.closed = true // first, so that no Restart slips in while stopping
	s.mu.Unlock()
	_ = s.Stop()
}

// ServeHTTP is the front door: logging, authentication, faults, then routing.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.activeMu.Lock()
	s.active.Add(1)
	s.activeMu.Unlock()
	defer s.active.Done()

	sw := &statusWriter{ResponseWriter: w, protobuf: asksForProtobuf(r)}
	start := time.Now()
	defer func() {
		if s.opts.Logf != nil {
			s.opts.Logf("%s %s %d %s", r.Method, r.URL.RequestURI(), sw.code, time.Since(start).Round(time.Millisecond))
		}
	}()
	if s.opts.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		writeError(sw, &APIError{Code: http.StatusUnauthorized, Reason: "Unauthorized", Message: "Unauthorized"})
		return
	}
	if s.serveNonResource(sw, r) { // compat_discovery.go: discovery, OpenAPI, debug
		return
	}
	defer func() {
		if sw.code >= 400 {
			s.failed.Add(1)
		}
	}()
	if code := s.takeFailure(); code != 0 {
		writeError(sw, errInjected(code))
		return
	}
	if d := time.Duration(s.delay.Load()); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(sw, r.Body, maxBodyBytes)
	}
	s.serveResource(sw, r)
}

// statusWriter remembers the status code for the log and the Failed count.
// It keeps Flush working for watch streams through Unwrap.
type statusWriter struct {
	http.ResponseWriter
	code     int
	protobuf bool // the client asked for protobuf first (compat_protoanswer.go)
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// faults.go: the knobs tests turn to make things go wrong, and the counters
// they read to see what happened.
//
// Each fault is one a real cluster produces: watches dropped by a restarting
// API server, a history compacted by etcd (410 Expired), throttling (429 with
// Retry-After), internal errors, slow answers, an API server that goes
// away and comes back, a graceful shutdown (GOAWAY) and a black hole
// (blackhole.go). client-go counterpart: none (client-go's tests use
// tools/cache/testing.FakeControllerSource and watch.FakeWatcher).
// Tutorial: 000 §4.3 (when things go wrong), 004 §4.1.

package fakeapi

import (
	"context"
	"time"
)

// CloseWatches ends every open watch now, as a restarting API server does.
// Each stream ends cleanly (no ERROR event); the client watches again.
func (s *Server) CloseWatches() { s.st.closeWatches() }

// Shutdown stops the server the way kube-apiserver stops in a rolling
// restart, and keeps the data (Restart serves it again). It stops accepting
// connections (a client that dials gets "connection refused"), sends every
// HTTP/2 connection a GOAWAY ("no new requests here"), lets requests in
// flight finish, and after closeAfter closes every connection still open:
// the watches, which never finish by themselves, lose their connection
// mid-stream. A client-go watch over HTTP/2 then ends with "server sent
// GOAWAY and closed the connection", over HTTP/1.1 with an unexpected EOF;
// both are a normal end, and client-go re-watches without a relist.
// Shutdown returns when the server has stopped.
func (s *Server) Shutdown(closeAfter time.Duration) error {
	s.mu.Lock()
	hs := s.hs
	s.mu.Unlock()
	if hs == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeAfter)
	defer cancel()
	_ = hs.Shutdown(ctx) // GOAWAY, no new connections; ends when ctx does (the watches stay)
	return s.Stop()
}

// Compact drops all but the newest keep events of the history, like an etcd
// compaction: watches and continue tokens from before them get 410 Expired,
// and Exact lists at such versions too.
func (s *Server) Compact(keep int) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.trimLocked(keep)
}

// SetHistory changes how many events are kept from now on (at least 0); it
// compacts at once if the history is longer.
func (s *Server) SetHistory(n int) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.maxHistory = max(n, 0)
	s.st.trimLocked(s.st.maxHistory)
}

// FailNext makes the next n API requests (lists, watches, gets and writes;
// not discovery) fail with code: 429 answers TooManyRequests with
// Retry-After: 1 and details.retryAfterSeconds 1, 500 an InternalError,
// other codes a Status with the matching reason. A failed request changes
// nothing.
func (s *Server) FailNext(n int, code int) {
	s.failMu.Lock()
	defer s.failMu.Unlock()
	s.failLeft, s.failCode = n, code
}

// takeFailure returns the code the current request must fail with, or 0.
func (s *Server) takeFailure() int {
	s.failMu.Lock()
	defer s.failMu.Unlock()
	if s.failLeft <= 0 {
		return 0
	}
	s.failLeft--
	return s.failCode
}

// SetDelay delays every API response by d (0 turns delays off).
func (s *Server) SetDelay(d time.Duration) { s.delay.Store(int64(d)) }

// Stats counts the API requests a server has served, by verb.
type Stats struct {
	Lists   int64 // list requests, each page counted
	Watches int64 // watch requests
	Gets    int64 // get requests
	Writes  int64 // create, update, patch and delete requests
	Failed  int64 // API requests answered with an error status (injected or not)

	OpenWatches int // watch streams open now
}

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	return Stats{
		Lists: s.lists.Load(), Watches: s.watches.Load(), Gets: s.gets.Load(),
		Writes: s.writes.Load(), Failed: s.failed.Load(), OpenWatches: int(s.openWatches.Load()),
	}
}

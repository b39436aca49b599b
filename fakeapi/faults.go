// faults.go: the knobs tests turn to make things go wrong.
//
// Each fault is one a real cluster produces: watches dropped by a restarting
// API server, a history compacted by etcd (410 Expired), throttling (429 with
// Retry-After), internal errors, slow answers, and an API server that goes
// away and comes back (Stop, Restart in server.go). A graceful shutdown
// (GOAWAY) and a black hole are in faults_network.go.
// client-go counterpart: none (client-go's tests use
// tools/cache/testing.FakeControllerSource and watch.FakeWatcher).
// Reading path: step 7. Tutorial: 000 §4.3 (when things go wrong), 004 §4.1.

package fakeapi

import (
	"net/http"
	"time"
)

// CloseWatches ends every open watch now, as a restarting API server does.
// Each stream ends cleanly (no ERROR event); the client watches again.
func (s *Server) CloseWatches() { s.st.closeWatches() }

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

// errInjected is the answer FailNext makes a request give.
func errInjected(code int) *APIError {
	e := &APIError{Code: code, Reason: reasonFor(code), Message: "injected failure: " + http.StatusText(code)}
	switch code {
	case http.StatusTooManyRequests:
		e.Message = "Too many requests, please try again later."
		e.RetryAfterSeconds = 1
	case http.StatusInternalServerError:
		e.Message = "Internal error occurred: injected failure"
		e.Causes = []StatusCause{{Message: "injected failure"}}
	}
	return e
}

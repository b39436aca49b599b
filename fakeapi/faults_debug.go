// faults_debug.go serves the fault switches over HTTP, so a running server (the
// standalone `go run ./fakeapi/cmd/fakeapi`) can be broken on purpose from
// a shell while kubectl or an informer watches it. With Options.Debug, the
// server answers POST requests from loopback addresses under
// /debug/fakeapi/:
//
//	compact?keep=N                    Compact(N): the next re-watch from an older version gets 410 (default N=0)
//	close-watches                     CloseWatches(): every watch ends; clients re-watch
//	fail?count=N&code=C               FailNext(N, C): 500, 429 (with Retry-After: 1), 503, ...
//	delay?duration=D                  SetDelay(D): every API answer waits D (0 turns it off)
//	shutdown?closeAfter=D&down=E      Shutdown(D) (GOAWAY, connections closed after D), then Restart after E
//	blackhole?duration=D              BlackHole(D): open connections go dark for good, new ones for D
//
// Durations are Go durations ("1.5s", "200ms"). A request from another
// address gets 403, another method 405, a bad parameter 400.
//
// client-go counterpart: none. Tutorial: 000 §4.3 (when things go wrong).
// docs: the reliability chapter.

package fakeapi

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// debugPrefix is where the debug endpoints live.
const debugPrefix = "/debug/fakeapi/"

// serveDebug answers a debug request and reports whether r was one.
func (s *Server) serveDebug(w http.ResponseWriter, r *http.Request) bool {
	if !s.opts.Debug || !strings.HasPrefix(r.URL.Path, debugPrefix) {
		return false
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
		http.Error(w, "debug endpoints answer loopback clients only", http.StatusForbidden)
		return true
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "debug endpoints take POST", http.StatusMethodNotAllowed)
		return true
	}
	q := r.URL.Query()
	msg, err := s.debugAction(strings.TrimPrefix(r.URL.Path, debugPrefix), q.Get, holeConnOf(r))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return true
	}
	if s.opts.Logf != nil {
		s.opts.Logf("debug: %s", msg)
	}
	w.Header().Set("Connection", "close") // a later request dials anew (into the hole, if one is open)
	fmt.Fprintln(w, msg)
	return true
}

// debugAction runs one fault switch; get reads a query parameter.
// own is the connection of the request, spared by a black hole.
func (s *Server) debugAction(action string, get func(string) string, own *holeConn) (string, error) {
	intParam := func(name string, def int) (int, error) {
		if v := get(name); v != "" {
			return strconv.Atoi(v)
		}
		return def, nil
	}
	durParam := func(name string, def time.Duration) (time.Duration, error) {
		if v := get(name); v != "" {
			return time.ParseDuration(v)
		}
		return def, nil
	}
	switch action {
	case "compact":
		keep, err := intParam("keep", 0)
		if err != nil || keep < 0 {
			return "", fmt.Errorf("keep must be a number >= 0")
		}
		s.Compact(keep)
		return fmt.Sprintf("compacted: %d events kept; a re-watch from an older version gets 410", keep), nil
	case "close-watches":
		n := s.Stats().OpenWatches
		s.CloseWatches()
		return fmt.Sprintf("closed %d watches", n), nil
	case "fail":
		count, err1 := intParam("count", 1)
		code, err2 := intParam("code", http.StatusInternalServerError)
		if err1 != nil || err2 != nil || count < 0 || code < 400 || code > 599 {
			return "", fmt.Errorf("count must be a number >= 0 and code an HTTP error code (400-599)")
		}
		s.FailNext(count, code)
		return fmt.Sprintf("the next %d API requests fail with %d", count, code), nil
	case "delay":
		d, err := durParam("duration", 0)
		if err != nil || d < 0 {
			return "", fmt.Errorf("duration must be a duration >= 0, such as 500ms")
		}
		s.SetDelay(d)
		return fmt.Sprintf("API answers wait %v", d), nil
	case "shutdown":
		closeAfter, err1 := durParam("closeAfter", 5*time.Second)
		down, err2 := durParam("down", 2*time.Second)
		if err1 != nil || err2 != nil || closeAfter < 0 || down < 0 {
			return "", fmt.Errorf("closeAfter and down must be durations >= 0")
		}
		go s.shutdownAndRestart(closeAfter, down)
		return fmt.Sprintf("shutting down: GOAWAY now, connections closed in %v, back %v later", closeAfter, down), nil
	case "blackhole":
		d, err := durParam("duration", 30*time.Second)
		if err != nil {
			return "", fmt.Errorf("duration must be a duration, such as 30s")
		}
		s.blackHole(d, own)
		return fmt.Sprintf("black hole: open connections dark for good, new ones for %v", d), nil
	}
	return "", fmt.Errorf("unknown debug action %q (compact, close-watches, fail, delay, shutdown, blackhole)", action)
}

// shutdownAndRestart runs a graceful shutdown, then serves again after
// down, unless the server is closed meanwhile.
func (s *Server) shutdownAndRestart(closeAfter, down time.Duration) {
	if err := s.Shutdown(closeAfter); err != nil && s.opts.Logf != nil {
		s.opts.Logf("debug: shutdown: %v", err)
	}
	t := time.NewTimer(down)
	defer t.Stop()
	select {
	case <-s.closing:
		return
	case <-t.C:
	}
	if err := s.Restart(); err != nil && s.opts.Logf != nil {
		s.opts.Logf("debug: restart: %v", err)
	}
}

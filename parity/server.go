// server.go holds the scripted server: a small model of kube-apiserver's
// pods endpoint that answers list and watch requests exactly as the script
// says, and in no other way. Its state moves only when the script changes
// it (create, update, delete, compact, a bookmark, a fault); it has no
// timers and no goroutines of its own beyond one per open watch, so both
// informers, run one after the other on the same script, meet the same
// server.
//
// What it models of kube-apiserver v1.37.2 (with the watch cache on, unless
// a scenario turns it off):
//   - a list at "0", or at a version with no limit, is served whole from
//     the current state (the watch cache ignores limit); a list at "" is
//     served in pages of the client's limit (capped by pageCap, so that a
//     handful of pods makes several pages) with a continue token; a token
//     whose snapshot was compacted away is 410 Expired; a list at a version
//     the server has not reached is 504 with cause ResourceVersionTooLarge;
//     without the watch cache, a list at a version with a limit is read at
//     exactly that version (410 once it is compacted);
//   - a watch from "" or "0" starts with a synthetic ADDED per object, in
//     key order, which is not resource-version order; a watch from a version
//     replays the changes after it, or sends an ERROR event 410 once it is
//     compacted away; a watch with sendInitialEvents=true sends the current
//     objects as ADDED and then the BOOKMARK annotated
//     k8s.io/initial-events-end; bookmarks only to watches that allow them;
//   - every failure is a Status object, as the real server writes it.
//
// client-go counterpart: none (test machinery); the real thing is
// k8s.io/apiserver's list and watch (the watch cache's rules are in
// staging/src/k8s.io/apiserver/pkg/storage/cacher).
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// pod is one object on the server.
type pod struct {
	Name   string
	RV     int64
	UID    string
	Labels map[string]string
}

// change is one entry of the server's history.
type change struct {
	Type string // ADDED, MODIFIED, DELETED
	Pod  pod    // the state after the change (for DELETED: the last state, at the deletion's version)
}

// answer is what a planned fault answers a request with.
type answer struct {
	Code       int    // an HTTP status with a Status body; 0 for none
	RetryAfter int    // the Retry-After header, in seconds (0: none)
	Fault      fault  // break the connection instead, before any answer
	MidBody    bool   // for a list: break the connection half-way through the body
	Reason     string // the Status reason (default: the code's)
	// Continue makes the plan answer only list requests for a later page
	// (with a continue token).
	Continue bool
}

// planned answers the next Count requests of one verb.
type planned struct {
	Verb   string // "LIST" or "WATCH"
	Count  int
	Answer answer
}

// server is the scripted server. Every field is guarded by mu.
type server struct {
	mu       sync.Mutex
	listener *pipeListener
	http     *http.Server

	rv        int64
	pods      map[string]pod // by name (every pod is in namespace "ns")
	history   []change       // every change, in version order
	compacted int64          // reads of versions below this are 410 Expired
	uids      int

	watches  map[*watchStream]bool
	requests []string // the requests not yet taken, as requestLine writes them, in order
	total    int      // how many requests have arrived
	waiters  []waiter // see awaitRequest
	plans    []planned
	opts     serverOptions
}

// serverOptions are a scenario's settings of the server.
type serverOptions struct {
	pageCap     int  // the most items one page holds (0: the client's limit)
	noCache     bool // lists at a version with a limit are exact (no watch cache)
	emptyListRV bool // lists answer no resourceVersion
}

// namespace is the one namespace of the script's pods.
const namespace = "ns"

// newServer starts a server on the fake network.
func newServer(opts serverOptions) *server {
	s := &server{pods: map[string]pod{}, watches: map[*watchStream]bool{}, opts: opts}
	s.listener = theNetwork.listen()
	s.http = &http.Server{
		Handler: http.HandlerFunc(s.serve),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	// Every request on a connection of its own: net/http sends a read again
	// by itself when a reused connection breaks before the answer, and
	// whether a connection is reused depends on timing, which would make a
	// fault's outcome depend on it too.
	s.http.SetKeepAlivesEnabled(false)
	go s.http.Serve(s.listener)
	return s
}

// url is the server's base URL.
func (s *server) url() string { return "http://" + s.listener.addr }

// close stops the server and every connection to it.
func (s *server) close() {
	s.http.Close()
	s.listener.Close()
}

// takeRequests returns the requests seen since the last call.
func (s *server) takeRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.requests
	s.requests = nil
	return r
}

// waiter is a channel to close once more than after requests have arrived.
type waiter struct {
	after int
	c     chan struct{}
}

// requestCount is how many requests have arrived.
func (s *server) requestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// awaitRequest returns a channel that is closed once more than after
// requests have arrived (at once, if they have).
func (s *server) awaitRequest(after int) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := make(chan struct{})
	if s.total > after {
		close(c)
	} else {
		s.waiters = append(s.waiters, waiter{after, c})
	}
	return c
}

// openWatches is how many watches are open.
func (s *server) openWatches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.watches)
}

// write applies one change: typ is ADDED, MODIFIED or DELETED; labels are
// the new labels (ADDED, MODIFIED). Open watches get it.
func (s *server) write(typ, name string, labels map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, exists := s.pods[name]
	switch {
	case typ == "ADDED" && exists, typ != "ADDED" && !exists:
		return fmt.Errorf("%s %s: the pod exists=%t", typ, name, exists)
	}
	s.rv++
	p := pod{Name: name, RV: s.rv, UID: old.UID, Labels: labels}
	switch typ {
	case "ADDED":
		s.uids++
		p.UID = fmt.Sprintf("uid-%d", s.uids)
		s.pods[name] = p
	case "MODIFIED":
		s.pods[name] = p
	case "DELETED":
		p.Labels = old.Labels
		delete(s.pods, name)
	}
	c := change{Type: typ, Pod: p}
	s.history = append(s.history, c)
	for w := range s.watches {
		w.push(eventOf(c))
	}
	return nil
}

// compact drops the history up to now: older versions are 410 from now on.
func (s *server) compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compacted = s.rv
}

// bookmark sends a BOOKMARK at the current version to the watches that
// allow bookmarks.
func (s *server) bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watches {
		if w.bookmarks {
			w.push(bookmarkEvent(s.rv, false))
		}
	}
}

// endWatches ends every open watch: normally (fault ""), with an ERROR
// event (expire: 410; garbage: a line no decoder reads), or by breaking the
// connection with a fault.
func (s *server) endWatches(how string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watches {
		w.end(how)
		delete(s.watches, w)
	}
}

// setDown stops (or restarts) the server: while down, connecting is
// refused, and going down resets every open watch.
func (s *server) setDown(down bool) {
	s.listener.down.Store(down)
	if down {
		s.endWatches(string(faultReset))
	}
}

// plan makes the next count requests of verb get a.
func (s *server) plan(verb string, count int, a answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plans = append(s.plans, planned{Verb: verb, Count: count, Answer: a})
}

// nextPlan takes the planned answer for a request of verb (for a later
// page of a list: cont), if any.
func (s *server) nextPlan(verb string, cont bool) (answer, bool) {
	for i := range s.plans {
		if s.plans[i].Verb == verb && s.plans[i].Count > 0 && (!s.plans[i].Answer.Continue || cont) {
			s.plans[i].Count--
			a := s.plans[i].Answer
			return a, true
		}
	}
	return answer{}, false
}

// serve is the HTTP front door: GET /api/v1/pods, list or watch.
func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	verb := "LIST"
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		verb = "WATCH"
	}
	s.mu.Lock()
	s.requests = append(s.requests, requestLine(verb, r.URL))
	s.total++
	s.waiters = slices.DeleteFunc(s.waiters, func(w waiter) bool {
		if s.total > w.after {
			close(w.c)
			return true
		}
		return false
	})
	a, planned := s.nextPlan(verb, q.Get("continue") != "")
	s.mu.Unlock()
	if r.Method != http.MethodGet || r.URL.Path != "/api/v1/pods" {
		writeStatus(w, http.StatusNotFound, "NotFound", "no such path", 0)
		return
	}
	if planned {
		if a.Fault != faultNone && !a.MidBody {
			breakConn(r, a.Fault)
			return
		}
		if a.Code != 0 {
			writeStatus(w, a.Code, a.Reason, "planned by the script", a.RetryAfter)
			return
		}
	}
	if verb == "WATCH" {
		s.watch(w, r, q)
		return
	}
	s.list(w, r, q, a)
}

// breakConn breaks the connection r came on with f.
func breakConn(r *http.Request, f fault) {
	if c, ok := r.Context().Value(connKey{}).(*serverConn); ok {
		c.breakWith(f)
	}
}

// requestLine writes a request as the harness compares it: the verb and
// the query parameters in a fixed order. timeoutSeconds is random on both
// sides (a watch's is between the 5-minute minimum and twice it), so it is
// checked to be in that range and written as "T".
func requestLine(verb string, u *url.URL) string {
	q := u.Query()
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	}) {
		v := q.Get(k)
		if k == "watch" {
			continue
		}
		if k == "timeoutSeconds" {
			n, err := strconv.Atoi(v)
			v = "T"
			if err != nil || n < 300 || n >= 600 {
				v = "out-of-range:" + q.Get(k)
			}
		}
		parts = append(parts, k+"="+v)
	}
	return strings.TrimSpace(verb + " " + u.Path + " " + strings.Join(parts, " "))
}

// writeStatus writes a failure as kube-apiserver does: a Status object,
// with Retry-After when asked.
func writeStatus(w http.ResponseWriter, code int, reason, message string, retryAfter int) {
	if reason == "" {
		reason = reasonFor(code)
	}
	st := statusObject(code, reason, message)
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		st["details"] = map[string]any{"retryAfterSeconds": retryAfter}
	}
	if code == http.StatusGatewayTimeout && reason == "Timeout" {
		st["details"] = map[string]any{"causes": []any{map[string]any{
			"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(st)
}

// reasonFor is the Status reason kube-apiserver gives a code.
func reasonFor(code int) string {
	switch code {
	case http.StatusGone:
		return "Expired"
	case http.StatusTooManyRequests:
		return "TooManyRequests"
	case http.StatusGatewayTimeout:
		return "Timeout"
	case http.StatusServiceUnavailable:
		return "ServiceUnavailable"
	case http.StatusNotFound:
		return "NotFound"
	}
	return "InternalError"
}

// statusObject is a failed Status.
func statusObject(code int, reason, message string) map[string]any {
	return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": message, "reason": reason, "code": code}
}

// podJSON is a pod as the server writes it; kind and apiVersion only in
// watch events, as kube-apiserver writes list items without them.
func podJSON(p pod, withKind bool) map[string]any {
	meta := map[string]any{"name": p.Name, "namespace": namespace, "uid": p.UID,
		"resourceVersion": strconv.FormatInt(p.RV, 10), "creationTimestamp": "2026-01-01T00:00:00Z"}
	if len(p.Labels) > 0 {
		meta["labels"] = p.Labels
	}
	m := map[string]any{"metadata": meta,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}
	if withKind {
		m["kind"], m["apiVersion"] = "Pod", "v1"
	}
	return m
}

// stateAt returns the pods at version rv, in key order.
func (s *server) stateAt(rv int64) []pod {
	state := map[string]pod{}
	for _, c := range s.history {
		if c.Pod.RV > rv {
			break
		}
		if c.Type == "DELETED" {
			delete(state, c.Pod.Name)
		} else {
			state[c.Pod.Name] = c.Pod
		}
	}
	out := make([]pod, 0, len(state))
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range state {
			if !yield(k) {
				return
			}
		}
	}) {
		out = append(out, state[name])
	}
	return out
}

// list answers a list request (see the file comment for the rules).
func (s *server) list(w http.ResponseWriter, r *http.Request, q url.Values, a answer) {
	s.mu.Lock()
	at, offset, limit := s.rv, 0, 0
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		limit = n
	}
	rv := q.Get("resourceVersion")
	paged := limit > 0
	if token := q.Get("continue"); token != "" {
		var err error
		at, offset, err = parseContinue(token)
		if err != nil || at < s.compacted {
			s.mu.Unlock()
			writeStatus(w, http.StatusGone, "Expired", "The provided continue parameter is too old "+
				"to display a consistent list result. You can start a new list without the continue parameter.", 0)
			return
		}
	} else if rv != "" {
		n, err := strconv.ParseInt(rv, 10, 64)
		switch {
		case err != nil:
			s.mu.Unlock()
			writeStatus(w, http.StatusBadRequest, "BadRequest", "bad resourceVersion", 0)
			return
		case n > s.rv:
			s.mu.Unlock()
			writeStatus(w, http.StatusGatewayTimeout, "Timeout", "Too large resource version", 0)
			return
		case s.opts.noCache && paged && n != 0:
			if n < s.compacted {
				s.mu.Unlock()
				writeStatus(w, http.StatusGone, "Expired", "The resourceVersion for the provided list is too old.", 0)
				return
			}
			at = n
		case !s.opts.noCache:
			paged = false // the watch cache serves it whole
		}
	}
	items := s.stateAt(at)
	if s.opts.pageCap > 0 && paged {
		limit = min(limit, s.opts.pageCap)
	}
	next := ""
	if paged {
		items = items[min(offset, len(items)):]
		if len(items) > limit {
			items = items[:limit]
			next = fmt.Sprintf("%d:%d", at, offset+limit)
		}
	}
	s.mu.Unlock()
	out := make([]any, len(items))
	for i, p := range items {
		out[i] = podJSON(p, false)
	}
	meta := map[string]any{"resourceVersion": strconv.FormatInt(at, 10)}
	if s.opts.emptyListRV {
		meta = map[string]any{}
	}
	if next != "" {
		meta["continue"] = next
	}
	body, _ := json.Marshal(map[string]any{"kind": "PodList", "apiVersion": "v1", "metadata": meta, "items": out})
	w.Header().Set("Content-Type", "application/json")
	if a.MidBody {
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
		http.NewResponseController(w).Flush()
		breakConn(r, a.Fault)
		return
	}
	w.Write(body)
}

// parseContinue reads a continue token, "version:offset".
func parseContinue(token string) (int64, int, error) {
	v, o, ok := strings.Cut(token, ":")
	if !ok {
		return 0, 0, fmt.Errorf("bad token %q", token)
	}
	at, err1 := strconv.ParseInt(v, 10, 64)
	offset, err2 := strconv.Atoi(o)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("bad token %q", token)
	}
	return at, offset, nil
}

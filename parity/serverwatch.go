// serverwatch.go holds the scripted server's watch: what a new watch is sent
// first (by its resourceVersion and sendInitialEvents), then the changes
// the script makes, until the script ends the watch or the client goes.
//
// client-go counterpart: none (test machinery); kube-apiserver's watch
// (staging/src/k8s.io/apiserver/pkg/storage/cacher, the watch cache).
//
// Tutorial: none (test machinery).

package parity

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// watchStream is one open watch: the events the script sends it wait in
// queue until the watch's handler writes them.
type watchStream struct {
	bookmarks bool // the client asked for BOOKMARK events

	mu    sync.Mutex
	queue []watchMsg
	wake  chan struct{} // has an element when queue may have grown
}

// watchMsg is one event to write, or the end of the watch.
type watchMsg struct {
	event map[string]any
	end   string // "" for an event; else how the watch ends (see endWatches)
}

// push queues an event.
func (w *watchStream) push(ev map[string]any) { w.send(watchMsg{event: ev}) }

// end queues the end of the watch.
func (w *watchStream) end(how string) {
	if how == "" {
		how = "normal"
	}
	w.send(watchMsg{end: how})
}

// send queues m and wakes the handler.
func (w *watchStream) send(m watchMsg) {
	w.mu.Lock()
	w.queue = append(w.queue, m)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// take returns what is queued.
func (w *watchStream) take() []watchMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.queue
	w.queue = nil
	return q
}

// eventOf is the watch event of a change.
func eventOf(c change) map[string]any {
	return map[string]any{"type": c.Type, "object": podJSON(c.Pod, true)}
}

// bookmarkEvent is a BOOKMARK at rv; the one that ends a streaming list's
// initial events carries the annotation k8s.io/initial-events-end.
func bookmarkEvent(rv int64, initialEventsEnd bool) map[string]any {
	meta := map[string]any{"resourceVersion": strconv.FormatInt(rv, 10)}
	if initialEventsEnd {
		meta["annotations"] = map[string]any{"k8s.io/initial-events-end": "true"}
	}
	return map[string]any{"type": "BOOKMARK",
		"object": map[string]any{"kind": "Pod", "apiVersion": "v1", "metadata": meta, "spec": map[string]any{}}}
}

// errorEvent is an ERROR event carrying a failed Status.
func errorEvent(code int, reason, message string) map[string]any {
	return map[string]any{"type": "ERROR", "object": statusObject(code, reason, message)}
}

// watch answers a watch request (see server.go's file comment for the rules).
func (s *server) watch(w http.ResponseWriter, r *http.Request, q url.Values) {
	ws := &watchStream{bookmarks: q.Get("allowWatchBookmarks") == "true", wake: make(chan struct{}, 1)}
	rv := q.Get("resourceVersion")
	var first []map[string]any
	s.mu.Lock()
	n, err := strconv.ParseInt(rv, 10, 64)
	switch {
	case rv != "" && err != nil:
		s.mu.Unlock()
		writeStatus(w, http.StatusBadRequest, "BadRequest", "bad resourceVersion", 0)
		return
	case n > s.rv:
		s.mu.Unlock()
		writeStatus(w, http.StatusGatewayTimeout, "Timeout", "Too large resource version", 0)
		return
	case q.Get("sendInitialEvents") == "true":
		for _, p := range s.stateAt(s.rv) {
			first = append(first, eventOf(change{Type: "ADDED", Pod: p}))
		}
		first = append(first, bookmarkEvent(s.rv, true))
	case rv == "" || rv == "0":
		for _, p := range s.stateAt(s.rv) {
			first = append(first, eventOf(change{Type: "ADDED", Pod: p}))
		}
	case n < s.compacted:
		first = append(first, errorEvent(http.StatusGone, "Expired",
			"too old resource version: "+rv+" ("+strconv.FormatInt(s.compacted, 10)+")"))
		ws.end("normal")
	default:
		for _, c := range s.history {
			if c.Pod.RV > n {
				first = append(first, eventOf(c))
			}
		}
	}
	if len(ws.queue) == 0 {
		s.watches[ws] = true
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.watches, ws)
		s.mu.Unlock()
	}()

	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	flush := func() { http.NewResponseController(w).Flush() }
	enc := json.NewEncoder(w)
	for _, ev := range first {
		if enc.Encode(ev) != nil {
			return
		}
	}
	flush()
	for {
		for _, m := range ws.take() {
			switch m.end {
			case "":
				if enc.Encode(m.event) != nil {
					return
				}
			case "normal":
				flush()
				return
			case "expire":
				enc.Encode(errorEvent(http.StatusGone, "Expired", "too old resource version"))
				flush()
				return
			case "error500":
				enc.Encode(errorEvent(http.StatusInternalServerError, "InternalError", "an internal error"))
				flush()
				return
			case "garbage":
				w.Write([]byte("this is not JSON\n"))
				flush()
				return
			default:
				flush()
				breakConn(r, fault(m.end))
				return
			}
		}
		flush()
		select {
		case <-ws.wake:
		case <-r.Context().Done():
			return
		}
	}
}

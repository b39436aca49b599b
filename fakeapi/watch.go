// watch.go: watch streams: one JSON event per line, flushed per event.
//
// A watch is served in three parts: what the client missed (the current
// objects as ADDED, or the history after its resourceVersion; 410 Expired if
// the history no longer reaches back to it), then, for a streaming list, the
// BOOKMARK that marks the end of the initial events, then live changes and a
// BOOKMARK now and then. Every watch has a bounded buffer; a watcher too slow
// to drain it is cut off, so it never holds up writers or other watchers (the
// client simply watches again from its last version, as after any watch end).
// client-go counterparts: the apiserver's cacher and cacheWatcher
// (k8s.io/apiserver/pkg/storage/cacher) and its watch encoder
// (k8s.io/apiserver/pkg/endpoints/handlers/watch.go). Reading path: step 5.
// Tutorial: 004 §2.5 and §4.1 (watch from a version), 000 §4.1, §4.3 (410, bookmarks).

package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// watcher is one open watch, as the store sees it.
type watcher struct {
	ri     *resourceInfo
	ns     string      // "" = every namespace
	ch     chan *event // live events; closed when the watch is cut off
	closed bool        // guarded by store.mu: ch is closed or w is unregistered
}

// broadcastLocked hands ev to every watcher of its resource. A watcher with
// a full buffer is cut off: its channel is closed after what it already has.
func (s *store) broadcastLocked(ev *event) {
	for w := range s.watchers {
		if w.ri != ev.res || (w.ns != "" && w.ns != ev.obj.ns) {
			continue
		}
		select {
		case w.ch <- ev:
		default:
			s.dropLocked(w)
		}
	}
}

// dropLocked ends w: no more events will be queued for it.
func (s *store) dropLocked(w *watcher) {
	if !w.closed {
		w.closed = true
		close(w.ch)
		delete(s.watchers, w)
	}
}

// closeWatches ends every open watch (each stream ends cleanly after the
// events already queued for it).
func (s *store) closeWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watchers {
		s.dropLocked(w)
	}
}

// watchStart is where a new watch begins: initial objects to send as ADDED,
// or the missed events, and the version it is consistent with.
type watchStart struct {
	initial []*object
	backlog []*event
	rv      uint64
	tooOld  *APIError // the history does not reach back to the asked version
}

// register adds a watcher for ri in ns and, atomically with it, works out
// where it starts: from the current objects (withInitial) or after version from.
func (s *store) register(w *watcher, withInitial bool, from uint64) watchStart {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := watchStart{rv: s.rv}
	switch {
	case withInitial:
		start.initial, _ = s.snapshotLocked(w.ri, w.ns, s.rv)
	case from < s.oldest:
		start.tooOld = errGone(fmt.Sprintf("too old resource version: %d (%d)", from, s.oldest))
		return start
	default:
		for _, ev := range s.history {
			if ev.rv > from && ev.res == w.ri && (w.ns == "" || w.ns == ev.obj.ns) {
				start.backlog = append(start.backlog, ev)
			}
		}
	}
	s.watchers[w] = struct{}{}
	return start
}

// unregister forgets w once its stream has ended.
func (s *store) unregister(w *watcher) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !w.closed {
		w.closed = true
		delete(s.watchers, w)
	}
}

// bookmarkVersion returns the version a BOOKMARK may announce to w: the
// current one, if w has been sent every event up to it; else false.
func (s *store) bookmarkVersion(w *watcher) (uint64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rv, !w.closed && len(w.ch) == 0
}

// serveWatch streams the events of ri in ns that o selects.
func (s *Server) serveWatch(rw http.ResponseWriter, r *http.Request, ri *resourceInfo, ns string, o listOptions) {
	withInitial := o.sendInitial != nil && *o.sendInitial || o.sendInitial == nil && o.rv == 0
	if o.sendInitial != nil && o.rv > 0 { // NotOlderThan: the state must be at least that new
		if !s.waitForVersion(r, o.rv) {
			writeError(rw, errTooLargeRV(o.rv, s.st.current()))
			return
		}
	}
	if o.sendInitial != nil && !*o.sendInitial && o.rv == 0 {
		o.rv = s.st.current() // no initial events: start from now
	}
	w := &watcher{ri: ri, ns: ns, ch: make(chan *event, s.opts.WatchBuffer)}
	start := s.st.register(w, withInitial, o.rv)
	defer s.st.unregister(w)
	s.openWatches.Add(1)
	defer s.openWatches.Add(-1)

	rw.Header().Set("Content-Type", watchMediaType(rw, o.as)) // compat_protoanswer.go
	rw.Header().Set("Cache-Control", "no-cache, private")
	rw.WriteHeader(http.StatusOK)
	out := &eventWriter{rw: rw, rc: http.NewResponseController(rw), ri: ri, as: o.as}
	out.flush()
	if start.tooOld != nil {
		out.send("ERROR", start.tooOld.status())
		return
	}
	for _, obj := range start.initial {
		if o.filter.matches(obj) {
			out.sendObject("ADDED", obj)
		}
	}
	if o.sendInitial != nil && *o.sendInitial && o.allowBookmarks {
		out.send("BOOKMARK", bookmark(ri, start.rv, true))
	}
	for _, ev := range start.backlog {
		out.sendEvent(o.filter, ev)
	}
	out.flush()

	var tick <-chan time.Time
	if o.allowBookmarks {
		t := time.NewTicker(s.opts.BookmarkInterval)
		defer t.Stop()
		tick = t.C
	}
	var timeout <-chan time.Time
	if o.timeout > 0 {
		t := time.NewTimer(o.timeout)
		defer t.Stop()
		timeout = t.C
	}
	for out.err == nil {
		select {
		case ev, ok := <-w.ch:
			if !ok {
				return // cut off, or CloseWatches: a clean end of the stream
			}
			if withInitial || ev.rv > o.rv { // a watch from a future version waits for it
				out.sendEvent(o.filter, ev)
			}
			// Flush once nothing more is queued, as the real server does: a
			// client waits for no event, and a burst of events costs one
			// flush (one write to the connection), not one each.
			if len(w.ch) == 0 {
				out.flush()
			}
		case <-tick:
			if rv, ok := s.st.bookmarkVersion(w); ok && (withInitial || rv >= o.rv) {
				out.send("BOOKMARK", bookmark(ri, rv, false))
				out.flush()
			}
		case <-timeout:
			if rv, ok := s.st.bookmarkVersion(w); ok && o.allowBookmarks {
				out.send("BOOKMARK", bookmark(ri, rv, false)) // as the real server does before it ends
			}
			return
		case <-r.Context().Done():
			return
		}
	}
}

// bookmark is the object of a BOOKMARK event: the kind with only its
// resourceVersion (and, at the end of a streaming list's initial events,
// the k8s.io/initial-events-end annotation).
func bookmark(ri *resourceInfo, rv uint64, initialEnd bool) map[string]any {
	meta := map[string]any{"resourceVersion": strconv.FormatUint(rv, 10)}
	if initialEnd {
		meta["annotations"] = map[string]any{"k8s.io/initial-events-end": "true"}
	}
	return map[string]any{"kind": ri.kind, "apiVersion": ri.apiVersion(), "metadata": meta}
}

// eventWriter writes watch events to one client and remembers the first
// write error (the client went away), after which it writes nothing. Events
// are buffered until flush; what is still buffered when the handler returns
// is sent then. If as is set, objects are sent in that form (compat_negotiate.go).
type eventWriter struct {
	rw      http.ResponseWriter
	rc      *http.ResponseController
	err     error
	ri      *resourceInfo
	as      *rendering
	columns bool // a Table with the column definitions has been sent
}

// sendEvent writes ev as this watch's selector sees it: an object that
// starts matching is ADDED, one that stops matching is DELETED (its previous
// state at the event's version), one that never matched is not sent.
func (e *eventWriter) sendEvent(f filter, ev *event) {
	now := ev.typ != "DELETED" && f.matches(ev.obj)
	before := ev.prev != nil && f.matches(ev.prev)
	switch {
	case ev.typ == "DELETED" && before:
		e.sendObject("DELETED", ev.obj)
	case now && before:
		e.sendObject("MODIFIED", ev.obj)
	case now:
		e.sendObject("ADDED", ev.obj)
	case before:
		e.send("DELETED", withVersion(ev.prev.body, ev.rv))
	}
}

// send writes one event line. An ERROR event's Status keeps its own form;
// a BOOKMARK's object takes the asked form, as on the real server.
func (e *eventWriter) send(typ string, obj any) {
	if e.err != nil {
		return
	}
	if body, ok := obj.(map[string]any); ok && e.as != nil {
		obj, e.columns = e.as.object(e.ri, body, !e.columns), true
	} else if inProtobuf(e.rw) { // compat_protoanswer.go
		e.err = e.sendProtobuf(typ, obj)
		return
	}
	var line bytes.Buffer
	enc := json.NewEncoder(&line) // Encode ends the line with '\n'
	enc.SetEscapeHTML(false)      // "<none>", as the real server writes it
	if e.err = enc.Encode(struct {
		Type   string `json:"type"`
		Object any    `json:"object"`
	}{typ, obj}); e.err == nil {
		_, e.err = e.rw.Write(line.Bytes())
	}
}

// sendObject writes one event line about a stored object. The line is the
// one send would write, put together from the object's kept encoding, so
// that every watcher shares one encoding of it.
func (e *eventWriter) sendObject(typ string, o *object) {
	if e.err != nil || e.as != nil || inProtobuf(e.rw) {
		e.send(typ, e.eventObject(o)) // made for each watcher: a Table's AGE is now
		return
	}
	raw, err := o.json()
	if err != nil {
		e.err = err
		return
	}
	for _, part := range [][]byte{[]byte(`{"type":"` + typ + `","object":`), raw, []byte("}\n")} {
		if _, e.err = e.rw.Write(part); e.err != nil {
			return
		}
	}
}

func (e *eventWriter) flush() {
	if err := e.rc.Flush(); err != nil && e.err == nil {
		e.err = err
	}
}

// withVersion returns a shallow copy of body whose resourceVersion is rv.
func withVersion(body map[string]any, rv uint64) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		out[k] = v
	}
	meta := map[string]any{}
	for k, v := range metadata(body) {
		meta[k] = v
	}
	meta["resourceVersion"] = strconv.FormatUint(rv, 10)
	out["metadata"] = meta
	return out
}

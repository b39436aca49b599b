// feed.go holds the live view's feed: a numbered log of everything the
// observers saw (requests, watch events, queue writes, Pops, cache writes,
// handler calls, controls), and the server-sent-events endpoint that streams
// it, with a fresh snapshot of every panel, to each open page.

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// maxEntries is how many feed entries are kept for pages that join late.
const maxEntries = 300

// entry is one line of the feed. Kind names what happened in the words of
// the code (LIST, BOOKMARK, Pop, OnAdd...), so it is not translated; Text
// holds details such as a query or an error message, in English. When Msg
// is set, the page shows the message Msg with Args in its own language
// instead of Text; Note is a word the page translates (a handler's note).
type entry struct {
	Seq   int64             `json:"seq"`
	At    string            `json:"at"`    // wall-clock time, 15:04:05.000
	Ms    int64             `json:"ms"`    // the same, in Unix milliseconds
	Panel string            `json:"panel"` // control, server, wire, queue, cache, handlers
	Kind  string            `json:"kind"`
	Key   string            `json:"key,omitempty"`
	Keys  []string          `json:"keys,omitempty"` // every key a Pop or PopBatch handed out
	RV    string            `json:"rv,omitempty"`
	Text  string            `json:"text,omitempty"`
	Msg   string            `json:"msg,omitempty"`
	Args  map[string]string `json:"args,omitempty"`
	Note  string            `json:"note,omitempty"`
}

// feed is the log. Every add wakes the streams, which send what is new.
type feed struct {
	mu      sync.Mutex
	seq     int64
	entries []entry
	changed chan struct{} // closed and replaced by every add
	closed  bool
}

func newFeed() *feed { return &feed{changed: make(chan struct{})} }

// add appends an entry and wakes every stream.
func (f *feed) add(panel, kind, key, rv, text string) {
	f.addEntry(entry{Panel: panel, Kind: kind, Key: key, RV: rv, Text: text})
}

// addMsg appends an entry whose details the page translates: msg with args
// (text is the same in English, for logs and tests).
func (f *feed) addMsg(panel, kind, key, rv string, m message) {
	f.addEntry(entry{Panel: panel, Kind: kind, Key: key, RV: rv, Text: m.Text, Msg: m.Msg, Args: m.Args})
}

// addEntry numbers e, stamps it with the time, appends it and wakes every
// stream.
func (f *feed) addEntry(e entry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	now := time.Now()
	e.Seq, e.At, e.Ms = f.seq, now.Format("15:04:05.000"), now.UnixMilli()
	f.entries = append(f.entries, e)
	if len(f.entries) > maxEntries {
		f.entries = append([]entry(nil), f.entries[len(f.entries)-maxEntries:]...)
	}
	f.wakeLocked()
}

// poke wakes the streams without adding an entry (a panel changed).
func (f *feed) poke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.wakeLocked()
}

func (f *feed) wakeLocked() {
	if !f.closed {
		close(f.changed)
		f.changed = make(chan struct{})
	}
}

// lastSeq is the newest entry's number.
func (f *feed) lastSeq() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seq
}

// since returns the entries after seq, and a channel closed at the next
// change (nil once the feed is closed).
func (f *feed) since(seq int64) ([]entry, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []entry
	for _, e := range f.entries {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	if f.closed {
		return out, nil
	}
	return out, f.changed
}

// close ends every stream.
func (f *feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.changed)
	}
}

// minFrame is the shortest time between two frames of one stream: a burst
// of a hundred changes costs a few frames, not a hundred snapshots.
const minFrame = 100 * time.Millisecond

// serveEvents streams the feed as server-sent events: "state" events carry
// a snapshot of every panel, "log" events new entries (a JSON array). The
// first event is a state: its boot tells a page that reconnects to a new
// program to start its feed over before the new entries come. The stream
// ends when the page goes away or the program stops. A page asks again a
// second after a stream ends (retry), as soon as a restarted program may
// answer.
func (a *app) serveEvents(w http.ResponseWriter, r *http.Request) {
	a.streams.Add(1)
	defer a.streams.Add(-1)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil {
		return
	}
	if err := sendEvent(w, "state", a.snapshot()); err != nil {
		return
	}
	var last int64
	for {
		entries, changed := a.feed.since(last)
		if len(entries) > 0 {
			last = entries[len(entries)-1].Seq
			if err := sendEvent(w, "log", entries); err != nil {
				return
			}
		}
		if err := sendEvent(w, "state", a.snapshot()); err != nil {
			return
		}
		if err := rc.Flush(); err != nil || changed == nil {
			return
		}
		if !waitFrame(r.Context(), changed) {
			return
		}
	}
}

// waitFrame waits for a change, then for the rest of the frame time; it
// reports false when the page went away or the feed closed.
func waitFrame(ctx context.Context, changed <-chan struct{}) bool {
	tick := time.NewTimer(time.Second) // a snapshot a second keeps durations live
	defer tick.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-changed:
	case <-tick.C:
	}
	t := time.NewTimer(minFrame)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func sendEvent(w http.ResponseWriter, name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	return err
}

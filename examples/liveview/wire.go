// wire.go observes the Reflector from the outside: a ListerWatcher wrapper
// sees every list and watch request (with the query parameters they become
// on the wire), their answers, and every event of every watch stream,
// BOOKMARKs and ERRORs included; with the backoff timers the clock sees
// (clock.go), that tells the Reflector's state: listing, watching, backing off.
//
// client-go counterpart: a cache.ListerWatcher wrapping another (client-go
// wraps its own the same way, e.g. for the watch-list fallback).
// Tutorial: 004 §4.1 (list, then watch), 000 §4.1 (bookmarks), §4.3 (410).

package main

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/learn-k8s/informer"
)

const (
	maxRequests   = 12 // requests the wire panel shows
	maxWireEvents = 20 // watch events the wire panel shows
)

// request is one list or watch the Reflector made.
type request struct {
	At     string `json:"at"`
	Verb   string `json:"verb"` // LIST or WATCH
	Query  string `json:"query"`
	Result string `json:"result"` // "" while in flight

	id int64
}

// wireEvent is one event seen on a watch stream.
type wireEvent struct {
	At   string `json:"at"`
	Type string `json:"type"`
	Key  string `json:"key,omitempty"`
	RV   string `json:"rv,omitempty"`
	Text string `json:"text,omitempty"`
}

// wireState is the wire panel.
type wireState struct {
	State    string      `json:"state"` // listing, watching, backing off, watch ended, failed
	For      string      `json:"for"`   // how long it has been in that state
	Backoff  string      `json:"backoff,omitempty"`
	Requests []request   `json:"requests"`
	Events   []wireEvent `json:"events"`
}

// wire is the observing ListerWatcher.
type wire struct {
	lw   informer.ListerWatcher
	feed *feed

	mu       sync.Mutex
	state    string
	since    time.Time
	backoff  time.Duration
	requests []request
	lastID   int64
	events   []wireEvent
}

func (w *wire) setState(state string, backoff time.Duration) {
	w.mu.Lock()
	w.state, w.since, w.backoff = state, time.Now(), backoff
	w.mu.Unlock()
	w.feed.poke()
}

// backingOff is told by the clock about a backoff timer.
func (w *wire) backingOff(d time.Duration) {
	w.setState("backing off", d)
	w.feed.add("wire", "backoff", "", "", d.Round(time.Millisecond).String())
}

// begin records a request in flight and returns its id for end.
func (w *wire) begin(verb string, q url.Values) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastID++
	w.requests = append(w.requests, request{At: time.Now().Format("15:04:05.000"), Verb: verb, Query: q.Encode(), id: w.lastID})
	if len(w.requests) > maxRequests {
		w.requests = append([]request(nil), w.requests[len(w.requests)-maxRequests:]...)
	}
	return w.lastID
}

// end records the answer to request id, if it is still shown.
func (w *wire) end(id int64, result string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.requests {
		if w.requests[i].id == id {
			w.requests[i].Result = result
		}
	}
}

// List lists through the wrapped ListerWatcher, recording it.
func (w *wire) List(ctx context.Context, o informer.ListOptions) (*informer.ObjectList, error) {
	w.setState("listing", 0)
	q := o.Query(false)
	req := w.begin("LIST", q)
	w.feed.add("wire", "LIST", "", "", q.Encode())
	list, err := w.lw.List(ctx, o)
	if err != nil {
		w.end(req, err.Error())
		w.setState("failed", 0)
		w.feed.add("wire", "LIST failed", "", "", err.Error())
		return nil, err
	}
	result := fmt.Sprintf("%d items, resourceVersion %s", len(list.Items), list.ResourceVersion)
	w.end(req, result)
	w.feed.add("wire", "LIST answered", "", list.ResourceVersion, result)
	return list, nil
}

// Watch starts a watch through the wrapped ListerWatcher and taps its events.
func (w *wire) Watch(ctx context.Context, o informer.ListOptions) (informer.Watcher, error) {
	q := o.Query(true)
	req := w.begin("WATCH", q)
	w.feed.add("wire", "WATCH", "", o.ResourceVersion, q.Encode())
	inner, err := w.lw.Watch(ctx, o)
	if err != nil {
		w.end(req, err.Error())
		w.setState("failed", 0)
		w.feed.add("wire", "WATCH failed", "", "", err.Error())
		return nil, err
	}
	w.end(req, "200, streaming")
	w.setState("watching", 0)
	t := &tap{inner: inner, wire: w, out: make(chan informer.WatchEvent), stop: make(chan struct{})}
	go t.run()
	return t, nil
}

// event records one watch event.
func (w *wire) event(ev informer.WatchEvent) {
	we := wireEvent{At: time.Now().Format("15:04:05.000"), Type: string(ev.Type)}
	if ev.Type == informer.WatchError {
		we.Text = informer.FromObject(ev.Object).Error()
	} else {
		we.Key, _ = informer.DeletionHandlingMetaNamespaceKeyFunc(ev.Object)
		if o, ok := ev.Object.(informer.Object); ok {
			we.RV = o.GetResourceVersion()
		}
		if ev.Type == informer.WatchBookmark {
			we.Key = ""
		}
	}
	w.mu.Lock()
	w.events = append(w.events, we)
	if len(w.events) > maxWireEvents {
		w.events = append([]wireEvent(nil), w.events[len(w.events)-maxWireEvents:]...)
	}
	w.mu.Unlock()
	w.feed.add("wire", we.Type, we.Key, we.RV, we.Text)
}

func (w *wire) snapshot() wireState {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := wireState{
		State:    w.state,
		For:      time.Since(w.since).Round(100 * time.Millisecond).String(),
		Requests: append([]request(nil), w.requests...),
		Events:   append([]wireEvent(nil), w.events...),
	}
	if w.backoff > 0 {
		s.Backoff = w.backoff.Round(time.Millisecond).String()
	}
	return s
}

// tap hands the events of a watch on, recording each. Its goroutine ends
// when the stream ends or Stop is called.
type tap struct {
	inner informer.Watcher
	wire  *wire
	out   chan informer.WatchEvent
	stop  chan struct{}
	once  sync.Once
}

func (t *tap) run() {
	defer close(t.out)
	for {
		select {
		case <-t.stop:
			return
		case ev, ok := <-t.inner.ResultChan():
			if !ok {
				t.wire.setState("watch ended", 0)
				t.wire.feed.add("wire", "watch ended", "", "", "")
				return
			}
			t.wire.event(ev)
			select {
			case t.out <- ev:
			case <-t.stop:
				return
			}
		}
	}
}

// Stop ends the watch.
func (t *tap) Stop() {
	t.once.Do(func() { close(t.stop) })
	t.inner.Stop()
}

// ResultChan delivers the events.
func (t *tap) ResultChan() <-chan informer.WatchEvent { return t.out }

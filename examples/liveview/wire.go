// wire.go observes the Reflector from the outside: a ListerWatcher wrapper
// sees every list and watch request (with the query parameters they become
// on the wire), their answers, and every event of every watch stream,
// BOOKMARKs and ERRORs included; with the backoff timers the clock sees
// (clock.go), that tells the Reflector's state: listing, watching, backing off.
// A request that fails like the one before it is counted, not repeated, so
// the LIST that matters stays in view while the server is down.
//
// client-go counterpart: a cache.ListerWatcher wrapping another (client-go
// wraps its own the same way, e.g. for the watch-list fallback).
// Tutorial: 004 §4.1 (list, then watch), 000 §4.1 (bookmarks), §4.3 (410).

package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/learn-k8s/informer"
)

const (
	maxRequests   = 10 // requests the wire panel shows
	maxWireEvents = 12 // watch events the wire panel shows
)

// request is one list or watch the Reflector made.
type request struct {
	At     string `json:"at"`
	Verb   string `json:"verb"` // LIST or WATCH
	Query  string `json:"query"`
	Result string `json:"result"` // English; "" while in flight
	message
	Times int `json:"times"` // how many times it was made and failed alike (1 and up)

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
	State string `json:"state"` // listing, watching, backing off, watch ended, failed, stopped
	ForMs int64  `json:"forMs"` // how long it has been in that state, in milliseconds
	// BackoffMs is the wait the Reflector asked for when it last backed
	// off, and LeftMs, while it backs off, what is left of it: the time
	// until its next try.
	BackoffMs int64       `json:"backoffMs,omitempty"`
	LeftMs    int64       `json:"leftMs,omitempty"`
	Requests  []request   `json:"requests"`
	Events    []wireEvent `json:"events"`
}

// wire is the observing ListerWatcher.
type wire struct {
	lw   informer.ListerWatcher
	feed *feed

	mu       sync.Mutex
	state    string
	since    time.Time
	backoff  time.Duration // the wait asked for
	nextTry  time.Time     // when the backoff ends
	requests []request
	lastID   int64
	events   []wireEvent
	quiet    bool // the informer is being stopped on purpose: its errors are no faults
}

func (w *wire) setState(state string) {
	w.mu.Lock()
	w.state, w.since = state, time.Now()
	w.mu.Unlock()
	w.feed.poke()
}

// setQuiet marks the informer's stop as on purpose (true) or over (false).
func (w *wire) setQuiet(quiet bool) {
	w.mu.Lock()
	w.quiet = quiet
	w.mu.Unlock()
	if quiet {
		w.setState("stopped")
	}
}

func (w *wire) isQuiet() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.quiet
}

// backingOff is told by the clock about a backoff timer: the wait the
// Reflector asked for, and how long the timer really runs.
func (w *wire) backingOff(asked, real time.Duration) {
	if w.isQuiet() {
		return
	}
	w.mu.Lock()
	w.state, w.since, w.backoff, w.nextTry = "backing off", time.Now(), asked, time.Now().Add(real)
	w.mu.Unlock()
	d := asked.Round(time.Millisecond).String()
	w.feed.addMsg("wire", "backoff", "", "", msg("backoff", "the Reflector waits "+d+" before its next try",
		"d", d, "ms", fmt.Sprint(asked.Milliseconds())))
}

// begin records a request in flight and returns its id for end.
func (w *wire) begin(verb string, q url.Values) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastID++
	w.requests = append(w.requests, request{At: time.Now().Format("15:04:05.000"), Verb: verb, Query: q.Encode(), Times: 1, id: w.lastID})
	w.trimLocked()
	return w.lastID
}

// trimLocked drops the oldest requests beyond maxRequests, but never the
// newest LIST: it tells where the informer's state comes from.
func (w *wire) trimLocked() {
	lastList := -1
	for i, r := range w.requests {
		if r.Verb == "LIST" {
			lastList = i
		}
	}
	for len(w.requests) > maxRequests {
		drop := 0
		if lastList == 0 {
			drop = 1
		}
		w.requests = append(w.requests[:drop], w.requests[drop+1:]...)
		if lastList > drop {
			lastList--
		}
	}
}

// end records the answer to request id. A failure like the previous
// request's (same verb, query and answer) only counts one more time.
func (w *wire) end(id int64, result message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.requests {
		if w.requests[i].id != id {
			continue
		}
		r := &w.requests[i]
		r.Result, r.message = result.Text, result
		if i > 0 && strings.HasPrefix(result.Msg, "failed") {
			if p := &w.requests[i-1]; p.Verb == r.Verb && sameQuery(p.Query, r.Query) && p.Result == r.Result {
				p.Times++
				p.At, p.Query = r.At, r.Query
				w.requests = append(w.requests[:i], w.requests[i+1:]...)
			}
		}
		return
	}
}

// sameQuery reports whether two queries ask for the same thing: a watch's
// timeoutSeconds is drawn at random for each try.
func sameQuery(a, b string) bool {
	qa, errA := url.ParseQuery(a)
	qb, errB := url.ParseQuery(b)
	if errA != nil || errB != nil {
		return a == b
	}
	qa.Del("timeoutSeconds")
	qb.Del("timeoutSeconds")
	return qa.Encode() == qb.Encode()
}

// failure describes a failed request in a few words: the Go error of a
// refused connection is a line long and says the same thing each time.
func failure(ctx context.Context, err error) message {
	switch s := err.Error(); {
	case ctx.Err() != nil:
		return msg("failedStopped", "stopped: the informer is stopping")
	case informer.IsGone(err) || informer.ReasonForError(err) == informer.StatusReasonExpired:
		return msg("failedExpired", "410 Expired: "+s, "text", s)
	case strings.Contains(s, "connection refused"):
		return msg("failedRefused", "connection refused: the server is down")
	case errors.Is(err, context.DeadlineExceeded):
		return msg("failedTimeout", "timed out")
	default:
		return msg("failedOther", "failed: "+s, "text", s)
	}
}

// failed records a failed request: a fault, or the informer's own stop.
func (w *wire) failed(ctx context.Context, req int64, verb string, err error) {
	m := failure(ctx, err)
	w.end(req, m)
	if ctx.Err() != nil || w.isQuiet() {
		return // the informer is being stopped: no fault, nothing to say
	}
	w.setState("failed")
	w.feed.addMsg("wire", verb+" failed", "", "", m)
}

// List lists through the wrapped ListerWatcher, recording it.
func (w *wire) List(ctx context.Context, o informer.ListOptions) (*informer.ObjectList, error) {
	w.setState("listing")
	q := o.Query(false)
	req := w.begin("LIST", q)
	w.feed.add("wire", "LIST", "", "", q.Encode())
	list, err := w.lw.List(ctx, o)
	if err != nil {
		w.failed(ctx, req, "LIST", err)
		return nil, err
	}
	n, rv := fmt.Sprint(len(list.Items)), list.ResourceVersion
	result := msg("listAnswered", n+" items, resourceVersion "+rv, "n", n, "rv", rv)
	w.end(req, result)
	w.feed.addMsg("wire", "LIST answered", "", rv, result)
	return list, nil
}

// Watch starts a watch through the wrapped ListerWatcher and taps its events.
func (w *wire) Watch(ctx context.Context, o informer.ListOptions) (informer.Watcher, error) {
	q := o.Query(true)
	req := w.begin("WATCH", q)
	w.feed.add("wire", "WATCH", "", o.ResourceVersion, q.Encode())
	inner, err := w.lw.Watch(ctx, o)
	if err != nil {
		w.failed(ctx, req, "WATCH", err)
		return nil, err
	}
	w.end(req, msg("streaming", "200, streaming"))
	w.setState("watching")
	t := &tap{inner: inner, wire: w, ctx: ctx, req: req, out: make(chan informer.WatchEvent), stop: make(chan struct{})}
	go t.run()
	return t, nil
}

// event records one watch event. An ERROR says its code and reason, as a
// 410 Expired does.
func (w *wire) event(ev informer.WatchEvent) {
	we := wireEvent{At: time.Now().Format("15:04:05.000"), Type: string(ev.Type)}
	if ev.Type == informer.WatchError {
		we.Text = describeStatus(informer.FromObject(ev.Object))
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

// describeStatus renders an ERROR event's status: "410 Expired: too old resource version: 5 (9)".
func describeStatus(err error) string {
	var se *informer.StatusError
	if !errors.As(err, &se) {
		return err.Error()
	}
	s := se.Status()
	return fmt.Sprintf("%d %s: %s", s.Code, s.Reason, s.Message)
}

func (w *wire) snapshot() wireState {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := wireState{
		State:     w.state,
		ForMs:     time.Since(w.since).Milliseconds(),
		BackoffMs: w.backoff.Milliseconds(),
		Requests:  append([]request{}, w.requests...),
		Events:    append([]wireEvent{}, w.events...),
	}
	if w.state == "backing off" {
		s.LeftMs = max(0, time.Until(w.nextTry).Milliseconds())
	}
	return s
}

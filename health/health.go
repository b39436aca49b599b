// Package health holds an informer's health figures: how fresh its cache is
// (the last resource version, the time since the last event or bookmark),
// how often it had to list, relist after a 410 or restart its watch, which
// errors it met, when the last resync ran and how long it took, and how far
// each handler has got. A Recorder collects them from three places the
// caller wraps explicitly, through the root package's ordinary API:
//
//	rec := health.NewRecorder(clock)                  // the informer's clock (nil: the real one)
//	lw = rec.ListerWatcher(lw)                        // lists, watches, events, failures
//	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{},
//		informer.SharedIndexInformerOptions{Clock: clock, WrapQueue: rec.WrapQueue}) // resyncs
//	inf.AddEventHandler(rec.Handler("audit", audit))  // a handler's progress
//	h := rec.Health(inf)                              // a plain struct, for logs, tests or expvar
//
// client-go counterpart: none as one struct. client-go reports similar
// figures as Prometheus metrics through providers it calls from inside the
// Reflector and the work queue (SetReflectorMetricsProvider, reflector
// list/watch counts and durations, the last resource version, work queue
// depths) and through the informer's LastSyncResourceVersion. Ours observes
// from outside, by wrapping, so the informer needs no hook.
//
// Tutorial: 000 ch. 5 (面向可观测性的缓存健康度建模: health figures; and
// 增量事件流控与背压: a slow handler is watched, never dropped). Walkthrough:
// Step 15 (go test -v -run Step15 ./health).
package health

import (
	"encoding/json"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
)

// Health is a snapshot of an informer's health figures.
type Health struct {
	// Synced reports whether the initial list has been processed.
	Synced bool `json:"synced"`
	// LastSyncResourceVersion is the version of the last list, event or
	// bookmark the Reflector saw.
	LastSyncResourceVersion string `json:"lastSyncResourceVersion"`
	// LastEventTime is when the last watch event or bookmark arrived (zero
	// before the first).
	LastEventTime time.Time `json:"lastEventTime"`
	// Staleness is the time since the last event, bookmark or list: how long
	// the cache has gone without news from the server. With bookmarks on, a
	// healthy informer's staleness stays near the server's bookmark period
	// (about a minute on kube-apiserver) even when nothing changes.
	Staleness time.Duration `json:"staleness"`
	// Lists counts completed lists (a paged list counts once, a streaming
	// list once its initial events have ended).
	Lists int64 `json:"lists"`
	// RelistsAfterExpired counts the lists made because the server answered
	// 410 (Expired or Gone): the watch could not resume.
	RelistsAfterExpired int64 `json:"relistsAfterExpired"`
	// WatchRestarts counts watches opened again without a relist, after the
	// previous one ended or failed.
	WatchRestarts int64 `json:"watchRestarts"`
	// WatchErrors counts the failures of lists and watches by kind: the
	// Status reason when the server gave one ("Expired",
	// "TooManyRequests", ...), "ConnectionRefused", or "Other".
	WatchErrors map[string]int64 `json:"watchErrors"`
	// Resyncs counts the full resyncs run.
	Resyncs int64 `json:"resyncs"`
	// LastResyncTime is when the last resync started (zero if none).
	LastResyncTime time.Time `json:"lastResyncTime"`
	// LastResyncDuration is how long the last resync took to queue the
	// cache's objects (their handling by handlers comes after).
	LastResyncDuration time.Duration `json:"lastResyncDuration"`
	// Handlers lists the progress of each handler wrapped with
	// Recorder.Handler, in the order they were wrapped.
	Handlers []HandlerHealth `json:"handlers"`
}

// Recorder collects the figures of one informer. Make it with NewRecorder,
// then wrap the informer's ListerWatcher, queue and handlers with it. It is
// safe for concurrent use: its methods run on the informer's goroutines.
type Recorder struct {
	clock clock.Clock

	lists, relistsAfterExpired, watchRestarts, resyncs atomic.Int64
	// watchesSinceList counts the watches opened since the last list; all
	// but the first are restarts.
	watchesSinceList atomic.Int64
	// expiredSeen is set by a 410 and cleared by the next list.
	expiredSeen atomic.Bool

	mu                 sync.Mutex // guards the fields below
	lastEvent          time.Time
	lastList           time.Time
	lastResync         time.Time
	lastResyncDuration time.Duration
	errors             map[string]int64
	handlers           []*handlerFigures
}

// NewRecorder returns a Recorder that tells time with clock: give it the
// informer's Clock (SharedIndexInformerOptions.Clock), or nil for the real
// one.
func NewRecorder(c clock.Clock) *Recorder {
	if c == nil {
		c = clock.RealClock{}
	}
	return &Recorder{clock: c, errors: map[string]int64{}}
}

// Health returns the recorded figures. Synced and LastSyncResourceVersion
// come from inf, the informer the Recorder observes (nil leaves them
// empty).
func (r *Recorder) Health(inf informer.SharedInformer) Health {
	r.mu.Lock()
	last := r.lastEvent
	if r.lastList.After(last) {
		last = r.lastList
	}
	h := Health{
		LastEventTime:       r.lastEvent,
		Lists:               r.lists.Load(),
		RelistsAfterExpired: r.relistsAfterExpired.Load(),
		WatchRestarts:       r.watchRestarts.Load(),
		WatchErrors:         maps.Clone(r.errors),
		Resyncs:             r.resyncs.Load(),
		LastResyncTime:      r.lastResync,
		LastResyncDuration:  r.lastResyncDuration,
	}
	handlers := append([]*handlerFigures(nil), r.handlers...)
	r.mu.Unlock()
	if !last.IsZero() {
		h.Staleness = r.clock.Since(last)
	}
	for _, f := range handlers {
		h.Handlers = append(h.Handlers, f.snapshot(r.clock))
	}
	if inf != nil {
		h.Synced = inf.HasSynced()
		h.LastSyncResourceVersion = inf.LastSyncResourceVersion()
	}
	return h
}

// MarshalJSON writes durations as strings such as "1.5s" and times in
// RFC 3339, so that `curl .../debug/vars` reads well.
func (h Health) MarshalJSON() ([]byte, error) {
	type plain Health // the same fields, without this method
	return json.Marshal(struct {
		plain
		LastEventTime      string `json:"lastEventTime"`
		Staleness          string `json:"staleness"`
		LastResyncTime     string `json:"lastResyncTime"`
		LastResyncDuration string `json:"lastResyncDuration"`
	}{
		plain:              plain(h),
		LastEventTime:      formatTime(h.LastEventTime),
		Staleness:          h.Staleness.String(),
		LastResyncTime:     formatTime(h.LastResyncTime),
		LastResyncDuration: h.LastResyncDuration.String(),
	})
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

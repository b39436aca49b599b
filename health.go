// health.go holds an informer's health figures: how fresh its cache is
// (the last resource version, the time since the last event or bookmark),
// how often it had to list, relist after a 410 or restart its watch, which
// errors it met, when the last resync ran and how long it took, and how many
// notifications each handler still has to process. A healthRecorder
// collects them as the Reflector, the controller and the processor work;
// SharedIndexInformer's Health method (reached through HealthOf) returns
// them as a plain struct, ready for logs, tests or expvar.
//
// client-go counterpart: none as one struct. client-go reports similar
// figures as Prometheus metrics through pluggable providers (reflector
// list/watch counts and durations, the last resource version, work queue
// depths) and through the informer's LastSyncResourceVersion.
//
// Tutorial: 000 ch. 5 (面向可观测性的缓存健康度建模: health figures; and 增量事件流控与背压:
// a handler's backlog is watched, never dropped).

package informer

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
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
	// Lists counts completed lists (a paged list counts once).
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
	// Handlers lists each registered handler's backlog.
	Handlers []HandlerHealth `json:"handlers"`
}

// HandlerHealth is one handler's backlog.
type HandlerHealth struct {
	// Handler is the handler's Go type, e.g. "informer.ResourceEventHandlerFuncs".
	Handler string `json:"handler"`
	// Pending counts notifications given to the handler's buffer and not
	// yet processed (the one in progress included). A number that keeps
	// growing means the handler cannot keep up.
	Pending int64 `json:"pending"`
}

// HealthReporter is what reports Health; the shared informers of this
// package are one.
type HealthReporter interface {
	// Health returns the current figures.
	Health() Health
}

// HealthOf returns informer's health figures, and false when it does not
// report any (it is not one of this package's informers).
func HealthOf(informer SharedInformer) (Health, bool) {
	r, ok := informer.(HealthReporter)
	if !ok {
		return Health{}, false
	}
	return r.Health(), true
}

// The health figures plug into every shared informer through the core's
// observer hook (hooks.go): deleting this file leaves the core unchanged.
func init() {
	newInformerObserver = func(clock Clock) pipelineObserver { return newHealthRecorder(clock) }
}

// Health returns the informer's health figures (zero figures when no
// healthRecorder observes the informer).
func (s *sharedIndexInformer) Health() Health {
	var h Health
	if r, ok := s.observer.(*healthRecorder); ok {
		h = r.snapshot()
	}
	h.Synced = s.HasSynced()
	h.LastSyncResourceVersion = s.LastSyncResourceVersion()
	h.Handlers = s.processor.handlerHealth()
	return h
}

// handlerHealth returns each listener's backlog, ordered by handler type
// (the listeners themselves are kept in a map, which has no order).
func (p *sharedProcessor) handlerHealth() []HandlerHealth {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]HandlerHealth, 0, len(p.listeners))
	for l := range p.listeners {
		out = append(out, HandlerHealth{Handler: fmt.Sprintf("%T", l.handler), Pending: l.pendingCount.Load()})
	}
	slices.SortFunc(out, func(a, b HandlerHealth) int {
		return cmp.Or(cmp.Compare(a.Handler, b.Handler), cmp.Compare(a.Pending, b.Pending))
	})
	return out
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

// healthRecorder collects the figures: it is the pipelineObserver (hooks.go)
// of every shared informer. Its methods may be called on a nil recorder,
// which records nothing.
type healthRecorder struct {
	clock Clock

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
}

func newHealthRecorder(clock Clock) *healthRecorder {
	return &healthRecorder{clock: clock, errors: map[string]int64{}}
}

// listed records a completed list.
func (h *healthRecorder) listed() {
	if h == nil {
		return
	}
	h.lists.Add(1)
	if h.expiredSeen.Swap(false) {
		h.relistsAfterExpired.Add(1)
	}
	h.watchesSinceList.Store(0)
	now := h.clock.Now()
	h.mu.Lock()
	h.lastList = now
	h.mu.Unlock()
}

// watchStarted records a watch the server accepted.
func (h *healthRecorder) watchStarted() {
	if h != nil && h.watchesSinceList.Add(1) > 1 {
		h.watchRestarts.Add(1)
	}
}

// event records a watch event or bookmark.
func (h *healthRecorder) event() {
	if h == nil {
		return
	}
	now := h.clock.Now()
	h.mu.Lock()
	h.lastEvent = now
	h.mu.Unlock()
}

// failed records a failed list or watch.
func (h *healthRecorder) failed(err error) {
	if h == nil || err == nil || errors.Is(err, errStopRequested) {
		return
	}
	if isExpiredError(err) {
		h.expiredSeen.Store(true)
	}
	kind := "Other"
	switch {
	case ReasonForError(err) != StatusReasonUnknown:
		kind = string(ReasonForError(err))
	case isConnectionRefused(err):
		kind = "ConnectionRefused"
	}
	h.mu.Lock()
	h.errors[kind]++
	h.mu.Unlock()
}

// resynced records a resync that started at start and took took.
func (h *healthRecorder) resynced(start time.Time, took time.Duration) {
	if h == nil {
		return
	}
	h.resyncs.Add(1)
	h.mu.Lock()
	h.lastResync, h.lastResyncDuration = start, took
	h.mu.Unlock()
}

// snapshot returns the recorded figures; the caller fills in the version,
// the sync state and the handlers.
func (h *healthRecorder) snapshot() Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	last := h.lastEvent
	if h.lastList.After(last) {
		last = h.lastList
	}
	var staleness time.Duration
	if !last.IsZero() {
		staleness = h.clock.Since(last)
	}
	return Health{
		LastEventTime:       h.lastEvent,
		Staleness:           staleness,
		Lists:               h.lists.Load(),
		RelistsAfterExpired: h.relistsAfterExpired.Load(),
		WatchRestarts:       h.watchRestarts.Load(),
		WatchErrors:         maps.Clone(h.errors),
		Resyncs:             h.resyncs.Load(),
		LastResyncTime:      h.lastResync,
		LastResyncDuration:  h.lastResyncDuration,
	}
}

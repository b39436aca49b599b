// reflector.go holds the Reflector: it keeps a Store (the DeltaFIFO, in an
// informer) in step with the API server. It lists everything once, Replaces
// the store's contents with that list, then watches from the list's resource
// version and turns every event into Add, Update or Delete. When the watch
// ends it re-watches from the last version it saw; when that version is too
// old (410) it lists again; when the server is down or busy it backs off.
// The list side (paging, relist versions) is in reflector_list.go and the
// streaming-list mode in reflector_watchlist.go.
//
// client-go counterpart: k8s.io/client-go/tools/cache reflector.go.
//
// Tutorial: 004 §2.4 and §4.1 (list, then watch over HTTP), 000 §4.1
// (event type → store operation, bookmarks), 000 §4.3 (410 → relist,
// backoff).
package informer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"sync"
	"time"
)

// defaultMinWatchTimeout is the shortest timeoutSeconds a watch asks for;
// each watch picks at random between it and twice it, so that many clients
// do not all re-watch at once.
const defaultMinWatchTimeout = 5 * time.Minute

// errStopRequested says the Reflector's context ended while watching.
var errStopRequested = errors.New("stop requested")

// WatchErrorHandler is called when a list/watch cycle fails, before the
// Reflector backs off and starts the next one.
type WatchErrorHandler func(r *Reflector, err error)

// DefaultWatchErrorHandler logs err; an expired version is only a debug
// message, because the next cycle recovers from it with a relist.
func DefaultWatchErrorHandler(r *Reflector, err error) {
	switch {
	case isExpiredError(err):
		slog.Debug("watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
	case errors.Is(err, io.EOF):
		// a watch that ended normally
	default:
		slog.Error("failed to list/watch", "reflector", r.name, "type", r.typeDescription, "err", err)
	}
}

// ReflectorOptions configures NewReflectorWithOptions. Every field is optional.
type ReflectorOptions struct {
	// Name appears in log messages; "reflector" when empty.
	Name string
	// TypeDescription describes the objects in log messages; by default
	// the Go type of the expected type.
	TypeDescription string
	// MinWatchTimeout raises the 5-minute floor of the watch timeout
	// (values below 5 minutes are ignored, as in client-go).
	MinWatchTimeout time.Duration
	// Clock is where time comes from; RealClock when nil.
	Clock Clock
	// UseWatchList starts each cycle with a streaming list (a watch with
	// sendInitialEvents) instead of a list, falling back to a list when the
	// server refuses it. client-go's WatchListClient feature.
	UseWatchList bool
	// WatchListPageSize sets the page size of lists; 0 lets the Reflector
	// choose (500, or no paging when relisting from a known version).
	WatchListPageSize int64
	// WatchErrorHandler is called when a cycle fails; DefaultWatchErrorHandler
	// when nil.
	WatchErrorHandler WatchErrorHandler
}

// Reflector lists and watches one resource into a Store. Create it with
// NewReflector or NewReflectorWithOptions, then Run it.
type Reflector struct {
	name            string
	typeDescription string
	// expectedType is the Go type objects must have; nil accepts any.
	expectedType      reflect.Type
	store             Store
	listerWatcher     ListerWatcher
	clock             Clock
	backoff           *backoffManager
	minWatchTimeout   time.Duration
	useWatchList      bool
	pageSize          int64
	watchErrorHandler WatchErrorHandler
	// health collects the informer's health figures (health.go); nil
	// for a Reflector used on its own.
	health *healthRecorder

	// mu guards the fields below, read by LastSyncResourceVersion from any goroutine.
	mu sync.RWMutex
	// lastSyncResourceVersion is the version of the last list or event seen.
	lastSyncResourceVersion string
	// isLastSyncResourceVersionUnavailable is set when the server said that
	// version is gone (410) or not reached yet: the next list uses "".
	isLastSyncResourceVersionUnavailable bool
	// paginatedResult is set when the first list came back in pages: the
	// server pages this resource, so later lists page too.
	paginatedResult bool
}

// NewReflector returns a Reflector that keeps store in step with lw.
// expectedType (e.g. &Pod{}) is the type objects must have; nil accepts any.
//
// client-go's NewReflector also takes a resync period: here the resync
// timer belongs to the controller (controller.go).
func NewReflector(lw ListerWatcher, expectedType any, store Store) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{})
}

// NewReflectorWithOptions is NewReflector with options.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store Store, options ReflectorOptions) *Reflector {
	r := &Reflector{
		name:              options.Name,
		typeDescription:   options.TypeDescription,
		store:             store,
		listerWatcher:     lw,
		clock:             options.Clock,
		minWatchTimeout:   max(options.MinWatchTimeout, defaultMinWatchTimeout),
		useWatchList:      options.UseWatchList,
		pageSize:          options.WatchListPageSize,
		watchErrorHandler: options.WatchErrorHandler,
	}
	if r.clock == nil {
		r.clock = RealClock{}
	}
	r.backoff = newBackoffManager(r.clock)
	if r.name == "" {
		r.name = "reflector"
	}
	if expectedType != nil {
		r.expectedType = reflect.TypeOf(expectedType)
	}
	if r.typeDescription == "" {
		r.typeDescription = describeType(expectedType)
	}
	if r.watchErrorHandler == nil {
		r.watchErrorHandler = DefaultWatchErrorHandler
	}
	return r
}

// describeType names the expected type for log messages.
func describeType(expectedType any) string {
	if u, ok := expectedType.(*Unstructured); ok && u.GetKind() != "" {
		return u.GetAPIVersion() + ", Kind=" + u.GetKind()
	}
	if expectedType == nil {
		return "<unspecified>"
	}
	return reflect.TypeOf(expectedType).String()
}

// Name returns the Reflector's name.
func (r *Reflector) Name() string { return r.name }

// Run runs list/watch cycles until ctx ends, waiting a backoff between
// cycles. It returns when ctx ends, with every goroutine it started ended.
func (r *Reflector) Run(ctx context.Context) {
	slog.Debug("starting reflector", "reflector", r.name, "type", r.typeDescription)
	for ctx.Err() == nil {
		if err := r.ListAndWatch(ctx); err != nil {
			r.health.failed(err)
			r.watchErrorHandler(r, err)
		}
		if !r.backoff.wait(ctx) {
			break
		}
	}
	slog.Debug("stopping reflector", "reflector", r.name, "type", r.typeDescription)
}

// ListAndWatch runs one cycle: list (or stream the initial list), then
// watch until the watch fails in a way a re-watch cannot fix. It returns an
// error only when it could not even start watching.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	var w Watcher
	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		if w == nil && err == nil {
			return nil // ctx ended
		}
		if err != nil {
			slog.Warn("the streaming list failed; falling back to list and watch",
				"reflector", r.name, "type", r.typeDescription, "err", err)
			w = nil
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watch(ctx, w)
}

// watch watches from the last version seen, re-watching as long as a
// re-watch can continue where the last one ended. It starts with w when
// the streaming list left one open.
func (r *Reflector) watch(ctx context.Context, w Watcher) error {
	for {
		if ctx.Err() != nil {
			if w != nil {
				w.Stop()
			}
			return nil
		}
		start := r.clock.Now()
		if w == nil {
			var err error
			w, err = r.listerWatcher.Watch(ctx, r.watchOptions(r.LastSyncResourceVersion()))
			if err != nil {
				if isWatchErrorRetriable(err) {
					r.health.failed(err)
					// The server is down or busy, but probably still has our
					// version: wait, then try to watch again without a relist.
					slog.Debug("watch failed, backing off", "reflector", r.name, "err", err)
					if !r.backoff.wait(ctx) {
						return nil
					}
					continue
				}
				return err
			}
			r.health.watchStarted()
		}
		_, err := r.handleWatch(ctx, start, w, r.store, r.setLastSyncResourceVersion, false)
		r.health.failed(err)
		w.Stop()
		w = nil
		switch {
		case err == nil:
			continue // the watch ended normally: re-watch from where it stopped
		case errors.Is(err, errStopRequested):
		case isExpiredError(err):
			// The version is too old to watch from. Relist (next cycle) from
			// it, which works while a list at that version is still possible.
			slog.Debug("watch expired", "reflector", r.name, "err", err)
		case IsTooManyRequests(err):
			slog.Debug("watch got 429, backing off", "reflector", r.name)
			if !r.backoff.wait(ctx) {
				return nil
			}
			continue
		default:
			slog.Warn("watch ended with an error", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
}

// watchOptions are the options of a watch from version rv.
func (r *Reflector) watchOptions(rv string) ListOptions {
	timeout := int64(r.minWatchTimeout.Seconds() * (rand.Float64() + 1.0))
	return ListOptions{
		ResourceVersion: rv,
		// A watch that hangs without events still ends, and is redone.
		TimeoutSeconds: &timeout,
		// Bookmarks let a re-watch start from a recent version even when
		// nothing we watch has changed. Servers may ignore the request.
		AllowWatchBookmarks: true,
	}
}

// handleWatch applies w's events to store until the watch ends, an ERROR
// event arrives, or ctx ends. With exitOnInitialEventsEnd it returns as soon
// as the bookmark that ends a streaming list's initial events arrives,
// leaving w open. It reports whether that bookmark was seen.
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w Watcher, store Store,
	setVersion func(string), exitOnInitialEventsEnd bool) (bool, error) {
	initialEventsEnd := false
	eventCount := 0
	for {
		var event WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
			return initialEventsEnd, errStopRequested
		case event, ok = <-w.ResultChan():
		}
		if !ok {
			return initialEventsEnd, r.watchClosed(start, eventCount)
		}
		if event.Type == WatchError {
			return initialEventsEnd, FromObject(event.Object)
		}
		if r.expectedType != nil && reflect.TypeOf(event.Object) != r.expectedType {
			slog.Error("watch event of an unexpected type", "reflector", r.name,
				"want", r.expectedType, "got", reflect.TypeOf(event.Object))
			continue
		}
		obj, isObject := event.Object.(Object)
		if !isObject || isNilPointer(event.Object) {
			slog.Error("watch event without metadata", "reflector", r.name, "event", event.Type)
			continue
		}
		var err error
		switch event.Type {
		case WatchAdded:
			err = store.Add(obj)
		case WatchModified:
			err = store.Update(obj)
		case WatchDeleted:
			err = store.Delete(obj)
		case WatchBookmark:
			// Nothing changed: the server only says how far we are.
			if obj.GetAnnotations()[InitialEventsAnnotationKey] == "true" {
				initialEventsEnd = true
			}
		default:
			slog.Error("unknown watch event", "reflector", r.name, "type", event.Type)
		}
		if err != nil {
			slog.Error("store rejected a watch event", "reflector", r.name, "event", event.Type, "err", err)
		}
		setVersion(obj.GetResourceVersion())
		r.health.event()
		eventCount++
		if exitOnInitialEventsEnd && initialEventsEnd {
			return true, nil
		}
	}
}

// watchClosed judges a watch the server ended. A watch that ends at once
// with nothing in it points to trouble the next re-watch would hit again:
// it ends the cycle instead (client-go's "very short watch").
func (r *Reflector) watchClosed(start time.Time, eventCount int) error {
	if r.clock.Since(start) < time.Second && eventCount == 0 {
		return fmt.Errorf("very short watch: %s: unexpected watch close - "+
			"watch lasted less than a second and no items received", r.name)
	}
	return nil
}

// LastSyncResourceVersion returns the version of the last list, event or
// bookmark the Reflector saw ("" before the first list).
func (r *Reflector) LastSyncResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lastSyncResourceVersion
}

func (r *Reflector) setLastSyncResourceVersion(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSyncResourceVersion = v
}

// isExpiredError reports a 410: Expired from current servers, Gone from old ones.
func isExpiredError(err error) bool { return IsResourceExpired(err) || IsGone(err) }

// isWatchErrorRetriable reports failures to start a watch that a re-watch
// after a backoff can fix without a relist: a server that is down
// (connection refused) or busy (429).
func isWatchErrorRetriable(err error) bool {
	return isConnectionRefused(err) || IsTooManyRequests(err)
}

// reflector.go holds the Reflector: it keeps a Store (the DeltaFIFO, in an
// informer) in step with the API server. It lists everything once, Replaces
// the store's contents with that list, then watches from the list's resource
// version and turns every event into Add, Update or Delete. When the watch
// ends it re-watches from the last version it saw; when that version is too
// old (410) it lists again; when the server is down or busy it backs off.
// The watch loop is in reflector_watch.go, the list side (paging, relist
// versions) in reflector_list.go and the streaming-list mode in
// reflector_watchlist.go.
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
	"io"
	"log/slog"
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
	// server refuses it. client-go's WatchListClient feature gate, which
	// NewReflectorWithOptions reads in v0.37.2 (on by default since 1.35);
	// an informer sets it from its WatchListClient option, which is on by
	// default. A Reflector made on its own leaves it off unless asked.
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
	store             ReflectorStore
	listerWatcher     ListerWatcher
	clock             Clock
	backoff           *backoffManager
	minWatchTimeout   time.Duration
	useWatchList      bool
	pageSize          int64
	watchErrorHandler WatchErrorHandler

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
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{})
}

// NewReflectorWithOptions is NewReflector with options.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore, options ReflectorOptions) *Reflector {
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
	// A generic object (Unstructured) names its kind itself.
	if u, ok := expectedType.(interface {
		GetAPIVersion() string
		GetKind() string
	}); ok && u.GetKind() != "" {
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
	if r.useWatchList && watchList != nil {
		var err error
		w, err = watchList(r, ctx)
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

// watchList streams the initial list instead of listing, for a Reflector
// made with UseWatchList: it returns the open watch, positioned after the
// initial events; (nil, nil) when ctx ended; an error when the server cannot,
// and the Reflector falls back to list and watch. The first reading has none
// (nil: always list, then watch); layers.go sets (*Reflector).watchList from
// reflector_watchlist.go, the second reading.
var watchList func(r *Reflector, ctx context.Context) (Watcher, error)

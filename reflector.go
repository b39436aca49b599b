// reflector.go holds the Reflector: it lists into a Store, then watches (reflector_watch.go).
// client-go counterpart: tools/cache reflector.go and tools/pager.
// Tutorial: 004 §2.4, §4.1 (list, then watch), 000 §2.5 (full relist), §4.3 (410).

package informer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"sync"
	"time"
)

const defaultMinWatchTimeout = 5 * time.Minute // least timeoutSeconds of a watch

var errStopRequested = errors.New("stop requested") // ctx ended while watching

// WatchErrorHandler is told when a list/watch cycle fails, before the backoff.
type WatchErrorHandler func(r *Reflector, err error)

// DefaultWatchErrorHandler logs err (at debug level an expiry, which a relist fixes).
func DefaultWatchErrorHandler(r *Reflector, err error) {
	switch {
	case isExpiredError(err):
		slog.Debug("watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
	case !errors.Is(err, io.EOF): // EOF: a watch that ended normally
		slog.Error("failed to list/watch", "reflector", r.name, "type", r.typeDescription, "err", err)
	}
}

// ReflectorOptions configures NewReflectorWithOptions. Every field is optional.
type ReflectorOptions struct {
	Name              string            // in log messages; "reflector" when empty
	TypeDescription   string            // names the objects in logs; the Go type by default
	MinWatchTimeout   time.Duration     // raises the 5-minute floor of the watch timeout
	Clock             Clock             // where time comes from; RealClock when nil
	UseWatchList      bool              // stream the list (WatchListClient gate); list if refused
	WatchListPageSize int64             // 0 lets the Reflector choose
	WatchErrorHandler WatchErrorHandler // DefaultWatchErrorHandler when nil
}

// Reflector lists and watches one resource into a Store; create it with NewReflector.
type Reflector struct {
	name, typeDescription string
	expectedType          reflect.Type // nil accepts any
	store                 ReflectorStore
	listerWatcher         ListerWatcher
	clock                 Clock
	backoff               *backoffManager
	minWatchTimeout       time.Duration
	useWatchList          bool
	pageSize              int64
	watchErrorHandler     WatchErrorHandler

	mu                                   sync.RWMutex // guards the fields below
	lastSyncResourceVersion              string       // of the last list or event seen
	isLastSyncResourceVersionUnavailable bool         // gone (410) or not reached: list at ""
	paginatedResult                      bool         // a list at "0" came in pages (reflector_watchlist.go)
}

// NewReflector returns a Reflector that keeps store in step with lw; objects
// must have expectedType's type (e.g. &Pod{}), any if nil. (No resync period.)
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{})
}

// NewReflectorWithOptions is NewReflector with options.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore, options ReflectorOptions) *Reflector {
	r := &Reflector{
		name:              cmp.Or(options.Name, "reflector"),
		typeDescription:   cmp.Or(options.TypeDescription, describeType(expectedType)),
		expectedType:      reflect.TypeOf(expectedType),
		store:             store,
		listerWatcher:     lw,
		clock:             cmp.Or[Clock](options.Clock, RealClock{}),
		minWatchTimeout:   max(options.MinWatchTimeout, defaultMinWatchTimeout),
		useWatchList:      options.UseWatchList,
		pageSize:          options.WatchListPageSize,
		watchErrorHandler: options.WatchErrorHandler,
	}
	r.backoff = newBackoffManager(r.clock)
	if r.watchErrorHandler == nil {
		r.watchErrorHandler = DefaultWatchErrorHandler
	}
	return r
}

// describeType names expectedType for log messages, by its Go type; layers_wire.go
// sets unstructured.go's, which names an Unstructured by its kind.
var describeType = func(expectedType any) string {
	if expectedType == nil {
		return "<unspecified>"
	}
	return reflect.TypeOf(expectedType).String()
}

// Name returns the Reflector's name.
func (r *Reflector) Name() string { return r.name }

// Run runs list/watch cycles, with backoffs between, until ctx ends.
func (r *Reflector) Run(ctx context.Context) {
	slog.Debug("starting reflector", "reflector", r.name, "type", r.typeDescription)
	for ctx.Err() == nil {
		if err := r.ListAndWatch(ctx); err != nil {
			r.watchErrorHandler(r, err)
		}
		r.backoff.wait(ctx)
	}
	slog.Debug("stopping reflector", "reflector", r.name, "type", r.typeDescription)
}

// ListAndWatch lists (or streams the list), then watches while a re-watch
// can continue. It fails only when it could not start watching.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	var w Watcher
	if r.useWatchList && watchList != nil {
		w = watchList(r, ctx) // nil: list instead
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watch(ctx, w)
}

// watchList (reflector_watchlist.go, set by layers.go) streams the list and
// returns the watch left open after it; nil if it failed or ctx ended.
var watchList func(r *Reflector, ctx context.Context) Watcher

// list lists every object and Replaces the store's contents with them.
func (r *Reflector) list(ctx context.Context) error {
	options := ListOptions{ResourceVersion: r.relistResourceVersion()}
	pager := newListPager(ctx, r, options.ResourceVersion) // hook: layers.go
	list, err := pager(options)
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		r.setIsLastSyncResourceVersionUnavailable(true) // list the newest ("")
		list, err = pager(ListOptions{})
	}
	if ctx.Err() != nil {
		return nil // stopping; not a failure
	} else if err != nil {
		return fmt.Errorf("failed to list %s: %w", r.typeDescription, err)
	}
	r.setIsLastSyncResourceVersionUnavailable(false)
	items := make([]any, len(list.Items))
	for i, item := range list.Items {
		items[i] = item
	}
	if err := r.store.Replace(items, list.ResourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %w", err)
	}
	r.setLastSyncResourceVersion(list.ResourceVersion)
	return nil
}

// newListPager returns how one relist from version rv lists: here in one
// request; layers.go sets reflector_watchlist.go's, which lists in pages.
var newListPager = func(ctx context.Context, r *Reflector, rv string) func(ListOptions) (*ObjectList, error) {
	return func(options ListOptions) (*ObjectList, error) { return listPage(ctx, r.listerWatcher, options) }
}

// listPage asks lw for one list; no list and no error is an error, not a panic.
func listPage(ctx context.Context, lw ListerWatcher, options ListOptions) (*ObjectList, error) {
	page, err := lw.List(ctx, options)
	if err == nil && page == nil {
		err = errors.New("the ListerWatcher's List answered no list and no error")
	}
	return page, err
}

// LastSyncResourceVersion is the version of the last list or event seen.
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

func (r *Reflector) setIsLastSyncResourceVersionUnavailable(unavailable bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.isLastSyncResourceVersionUnavailable = unavailable
}

// relistResourceVersion is "0" (any cached state) at first, then the last
// version seen, or "" (a consistent read) when that one is unavailable.
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return cmp.Or(r.lastSyncResourceVersion, "0")
}

// isExpiredError reports a 410: Expired from current servers, Gone from old ones.
func isExpiredError(err error) bool { return IsResourceExpired(err) || IsGone(err) }

// isTooLargeResourceVersionError reports the 504 for a version the server
// has not reached yet: never here; layers_wire.go sets status_errors.go's.
var isTooLargeResourceVersionError = func(err error) bool { return false }

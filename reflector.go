// reflector.go holds the Reflector, which keeps a store (the informer's
// queue) in step with the server: it lists every object, Replaces the
// store's contents with them, then watches from the list's resource version
// (reflector_watch.go) and turns each event into an Add, Update or Delete.
// Lists come in pages.
//
// client-go counterpart: tools/cache reflector.go (Reflector,
// NewReflectorWithOptions, ListAndWatchWithContext, list,
// relistResourceVersion, isExpiredError, isTooLargeResourceVersionError)
// and tools/pager (ListPager, the pages of a list).
//
// Tutorial: 004 §2.4 and §4.1 (list, then watch), §2.5 (resource versions);
// 000 §2.5 (a full relist), §4.3 (410 Gone → relist).

package informer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// ReflectorStore is what a Reflector writes into: an informer's queue, or
// any Store. Add, Update and Delete record a watch's ADDED, MODIFIED and
// DELETED events; Replace records a whole list (everything, as of
// resourceVersion); Resync asks a queue to re-deliver what its consumer
// holds. Every method must be safe to call from the Reflector's goroutine
// while others read.
type ReflectorStore interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
}

// defaultMinWatchTimeout is the least timeoutSeconds a watch asks for.
const defaultMinWatchTimeout = 5 * time.Minute

// defaultPageSize is how many items a list asks for per page (client-go's
// pager: 500).
const defaultPageSize = 500

// errStopRequested is how handleWatch reports that ctx ended.
var errStopRequested = errors.New("stop requested")

// WatchErrorHandler is told when a list/watch cycle fails, before the backoff.
type WatchErrorHandler func(r *Reflector, err error)

// DefaultWatchErrorHandler logs err: an expired version (which the next
// relist fixes) at debug level, and every other failure as an error.
func DefaultWatchErrorHandler(r *Reflector, err error) {
	switch {
	case isExpiredError(err):
		slog.Debug("watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
	case !errors.Is(err, io.EOF): // EOF: a watch that ended normally
		slog.Error("failed to list/watch",
			"reflector", r.name, "type", r.typeDescription, "err", err)
	}
}

// ReflectorOptions configures NewReflectorWithOptions. Every field is optional.
type ReflectorOptions struct {
	// Name is the Reflector's name in log messages; "reflector" when empty.
	Name string
	// ResyncPeriod is how often, while a watch runs, the store is asked to
	// Resync (when ShouldResync agrees); 0 never.
	ResyncPeriod time.Duration
	// TypeDescription names the objects in logs; by default, their Go type.
	TypeDescription string
	// MinWatchTimeout raises the 5-minute floor of a watch's timeout.
	MinWatchTimeout time.Duration
	// Clock is where time comes from (backoffs, timeouts); RealClock if nil.
	Clock clock.Clock
	// WatchListPageSize is the page size of a list; 0 lets the Reflector
	// choose (500, or no paging when relisting at a known version).
	WatchListPageSize int64
	// WatchErrorHandler is told of failed cycles; DefaultWatchErrorHandler
	// when nil.
	WatchErrorHandler WatchErrorHandler
	// Reading 2: the streaming list (client-go 1.35+).
	// UseWatchList makes the Reflector stream the list: one watch that
	// starts with the current objects (the WatchListClient gate), falling
	// back to list and watch when the server cannot.
	UseWatchList bool
	// End of reading 2.
}

// Reflector lists and watches one resource into a store. Make one with
// NewReflector or NewReflectorWithOptions, and run it with Run.
//
// One cycle of Run is ListAndWatch: list at relistResourceVersion (all
// pages), Replace the store's contents with the list, then watch from the
// list's version and re-watch from the last version seen each time a watch
// ends normally. While it watches, and only then, it asks the store to
// Resync every ResyncPeriod (reflector_watch.go). A watch that fails with 410 Expired ends the cycle: the
// version it asked for is older than the server's history, so the next
// cycle relists, and a relist that gets 410 too lists again at "" (the
// newest), after which the store holds the server's state once more (the
// queue finds what was deleted meanwhile: see DeltaFIFO.Replace). Between
// cycles the Reflector backs off (reflector_watch.go).
type Reflector struct {
	name              string
	typeDescription   string
	expectedType      reflect.Type // nil accepts any
	store             ReflectorStore
	listerWatcher     ListerWatcher
	clock             clock.Clock
	backoff           *backoffManager
	minWatchTimeout   time.Duration
	pageSize          int64
	watchErrorHandler WatchErrorHandler
	resyncPeriod      time.Duration
	// Reading 2: the streaming list.
	useWatchList bool
	// End of reading 2.

	// ShouldResync, when set, is asked each time the resync period has
	// passed; the store is asked to Resync only if it answers true. Set it
	// before Run.
	ShouldResync func() bool

	// mu guards the fields below: the Reflector's goroutine writes them,
	// LastSyncResourceVersion reads them from any goroutine.
	mu sync.RWMutex
	// lastSyncResourceVersion is the version of the last list or event seen.
	lastSyncResourceVersion string
	// isLastSyncResourceVersionUnavailable is set when the server said that
	// version is gone (410) or not reached yet: the next list asks for "".
	isLastSyncResourceVersionUnavailable bool
	// paginatedResult is set when a list at "0" came in pages: the server
	// lists from its database, so later relists page too (see newPager).
	paginatedResult bool
}

// NewReflector returns a Reflector that keeps store in step with lw.
// Objects must be of expectedType's type (for example &Pod{}); nil accepts
// any.
func NewReflector(lw ListerWatcher, expectedType any, store ReflectorStore) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{})
}

// NewReflectorWithOptions is NewReflector with options.
func NewReflectorWithOptions(lw ListerWatcher, expectedType any, store ReflectorStore,
	options ReflectorOptions) *Reflector {
	r := &Reflector{
		name:              cmp.Or(options.Name, "reflector"),
		typeDescription:   cmp.Or(options.TypeDescription, describeType(expectedType)),
		expectedType:      reflect.TypeOf(expectedType),
		store:             store,
		listerWatcher:     lw,
		clock:             options.Clock,
		minWatchTimeout:   max(options.MinWatchTimeout, defaultMinWatchTimeout),
		pageSize:          options.WatchListPageSize,
		watchErrorHandler: options.WatchErrorHandler,
		resyncPeriod:      options.ResyncPeriod,
	}
	// Reading 2: the streaming list.
	r.useWatchList = options.UseWatchList
	// End of reading 2.
	if r.clock == nil {
		r.clock = clock.RealClock{}
	}
	if r.watchErrorHandler == nil {
		r.watchErrorHandler = DefaultWatchErrorHandler
	}
	r.backoff = newBackoffManager(r.clock)
	return r
}

// describeType names expectedType in log messages: by its Go type, such as
// "*informer.Pod".
func describeType(expectedType any) string {
	// Reading 3: an Unstructured is named by its kind, as client-go does (TestReflectorDescribesAnUnstructuredByItsKind).
	if u, ok := expectedType.(*Unstructured); ok && u.GetKind() != "" {
		return u.GetAPIVersion() + ", Kind=" + u.GetKind()
	}
	// End of reading 3.
	if expectedType == nil {
		return "<unspecified>"
	}
	return reflect.TypeOf(expectedType).String()
}

// Name returns the Reflector's name, as its log messages give it.
func (r *Reflector) Name() string {
	return r.name
}

// Run runs list/watch cycles, backing off between them, until ctx ends.
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

// ListAndWatch runs one cycle: it lists, then watches while each watch can
// go on from where the last one ended (see Reflector). It returns an error
// only when it could not start watching.
func (r *Reflector) ListAndWatch(ctx context.Context) error {
	// Reading 2: client-go 1.35+ streams the list in one watch (reflector_watchlist.go).
	if r.useWatchList {
		if w := r.watchList(ctx); w != nil {
			return r.watchWithResync(ctx, w)
		}
		// nil: the server cannot stream lists, or ctx ended; list instead.
	}
	// End of reading 2.
	if err := r.list(ctx); err != nil {
		return err
	}
	return r.watchWithResync(ctx, nil)
}

// list lists every object, in pages, and Replaces the store's contents
// with them at the list's resource version.
func (r *Reflector) list(ctx context.Context) error {
	options := ListOptions{ResourceVersion: r.relistResourceVersion()}
	pager := r.newPager(ctx, options.ResourceVersion)
	list, err := pager(options)
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		// The version is gone from the server's history, or it has not
		// reached it: list the newest instead.
		r.setIsLastSyncResourceVersionUnavailable(true)
		list, err = pager(ListOptions{})
	}
	if ctx.Err() != nil {
		return nil // stopping; not a failure
	}
	if err != nil {
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

// newPager returns how one list from version rv is made: in pages of the
// configured size, else of defaultPageSize; but in one request when
// relisting at a known version from a server not seen to page, because a
// server answers such a list from its watch cache, whole, and ignores the
// limit (client-go's Reflector.list decides the same).
func (r *Reflector) newPager(ctx context.Context, rv string) func(ListOptions) (*ObjectList, error) {
	r.mu.RLock()
	pageSize := cmp.Or(r.pageSize, defaultPageSize)
	if r.pageSize == 0 && !r.paginatedResult && rv != "" && rv != "0" {
		pageSize = 0
	}
	r.mu.RUnlock()
	return func(options ListOptions) (*ObjectList, error) {
		list, paginated, err := listPages(ctx, r.listerWatcher, options, pageSize)
		if err == nil && ctx.Err() == nil && rv == "0" && paginated {
			r.mu.Lock()
			r.paginatedResult = true // a paged answer to "0": the server lists from its database
			r.mu.Unlock()
		}
		return list, err
	}
}

// listPages lists in pages of pageSize (0: one request) and joins them. If
// a continue token has expired (the snapshot the pages come from was
// compacted) it makes one full list instead. It reports whether the answer
// came in more than one page.
func listPages(ctx context.Context, lw ListerWatcher, options ListOptions, pageSize int64) (*ObjectList, bool, error) {
	options.Limit = cmp.Or(options.Limit, pageSize)
	first := options
	all := &ObjectList{}
	paginated := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		page, err := listPage(ctx, lw, options)
		if IsResourceExpired(err) && options.Continue != "" {
			first.Limit = 0
			first.Continue = ""
			page, err = listPage(ctx, lw, first)
			return page, paginated, err
		}
		if err != nil {
			return nil, paginated, err
		}
		all.TypeMeta = page.TypeMeta
		all.ResourceVersion = page.ResourceVersion
		all.Items = append(all.Items, page.Items...)
		if page.Continue == "" {
			return all, paginated, nil
		}
		// The continue token holds the version: the request must not name one.
		options.Continue = page.Continue
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
		paginated = true
	}
}

// listPage asks lw for one list; no list and no error is an error, not a panic.
func listPage(ctx context.Context, lw ListerWatcher, options ListOptions) (*ObjectList, error) {
	page, err := lw.List(ctx, options)
	if err == nil && page == nil {
		err = errors.New("the ListerWatcher's List answered no list and no error")
	}
	return page, err
}

// LastSyncResourceVersion returns the version of the last list or event
// seen: where the next watch starts. Safe from any goroutine.
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

// relistResourceVersion is the version a list asks for: "0" (anything the
// server has cached) at first; then the last version seen, so a relist is
// never older than what the store holds; or "" (the newest, read from etcd)
// when that version is unavailable.
func (r *Reflector) relistResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return cmp.Or(r.lastSyncResourceVersion, "0")
}

// isExpiredError reports a 410: Expired from current servers, Gone from old ones.
func isExpiredError(err error) bool {
	return IsResourceExpired(err) || IsGone(err)
}

// isTooLargeResourceVersionError reports the 504 a server answers for a
// version it has not reached yet (another server, further ahead, served the
// last one): the Reflector then lists at "" too. Servers 1.17–1.18.5 said so
// only in a cause's message, older ones only in the status message.
func isTooLargeResourceVersionError(err error) bool {
	const msg = "Too large resource version"
	if HasStatusCause(err, CauseTypeResourceVersionTooLarge) {
		return true
	}
	s, ok := statusOf(err)
	if !ok || !IsTimeout(err) || s.Details == nil {
		return false // as client-go: without details, not this error
	}
	for _, c := range s.Details.Causes {
		if c.Message == msg {
			return true
		}
	}
	return strings.Contains(s.Message, msg)
}

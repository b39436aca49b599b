// reflector_watchlist.go holds the Reflector's streaming-list mode: instead
// of a list, one watch with sendInitialEvents=true brings the current
// objects as ADDED events, then a bookmark annotated
// "k8s.io/initial-events-end" that says "that was everything, as of this
// version". The Reflector Replaces the store with what it gathered and goes
// on using the same watch for live changes. A server that refuses the
// parameters makes the Reflector fall back to list and watch, and that list
// comes in pages (the second half of this file).
//
// client-go counterpart: Reflector.watchList in k8s.io/client-go/tools/cache
// reflector.go (the WatchListClient feature, on by default since 1.35); the
// pages: Reflector.list with tools/pager.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming).

package informer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
)

// watchList streams the initial list for ListAndWatch (reflector.go). It
// returns the open watch, positioned after the initial events; nil when ctx
// ended, or when the server cannot do streaming lists (logged), so that
// ListAndWatch falls back to a list.
func (r *Reflector) watchList(ctx context.Context) Watcher {
	w, err := r.streamList(ctx)
	if err != nil {
		slog.Warn("the streaming list failed; falling back to list and watch", "reflector", r.name, "type", r.typeDescription, "err", err)
	}
	return w
}

// streamList is watchList: (nil, nil) when ctx ended; an error when the
// server cannot do streaming lists.
func (r *Reflector) streamList(ctx context.Context) (Watcher, error) {
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		// Gather into a scratch store: the real one (a queue, in an informer)
		// must see the initial state in one Replace, not as a trickle of adds.
		// As in client-go, the scratch store applies the queue's transformer
		// too, so a streamed object is transformed twice (here, then by
		// Replace): transformers must be idempotent.
		temporary := newTransformingStore(r.store)
		var version string
		options := r.watchOptions(r.rewatchResourceVersion())
		sendInitialEvents := true
		options.SendInitialEvents = &sendInitialEvents
		options.ResourceVersionMatch = ResourceVersionMatchNotOlderThan
		options.AllowWatchBookmarks = true // set here too, as client-go's watchList does: the list ends at a bookmark
		start := r.clock.Now()
		w, err := startWatch(ctx, r.listerWatcher, options)
		if err != nil && ctx.Err() != nil {
			return nil, nil // the stop cut the request short: a stop, not a failure
		} else if err != nil {
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
		}
		done, err := r.handleWatch(ctx, start, w, temporary, func(v string) { version = v }, true)
		if err != nil {
			w.Stop()
			if errors.Is(err, errStopRequested) {
				return nil, nil
			}
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
		}
		if !done {
			w.Stop() // the stream ended before the initial events did: start over
			continue
		}
		r.setIsLastSyncResourceVersionUnavailable(false)
		if err := r.store.Replace(temporary.List(), version); err != nil {
			w.Stop()
			return nil, fmt.Errorf("unable to sync the streamed list: %w", err)
		}
		r.setLastSyncResourceVersion(version)
		return w, nil
	}
}

// rewatchResourceVersion is the last version seen, or "" if unavailable.
func (r *Reflector) rewatchResourceVersion() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.isLastSyncResourceVersionUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

// retryWatchList decides whether a failed streaming list is worth another
// try: after a backoff when the server is down or busy, at once from the
// newest version when ours is gone. Otherwise the caller falls back.
func (r *Reflector) retryWatchList(ctx context.Context, err error) bool {
	switch {
	case isWatchErrorRetriable(err):
		slog.Debug("streaming list failed, backing off", "reflector", r.name, "err", err)
		r.backoff.wait(ctx) // if ctx ends, the loop's first check returns
		return true
	case isExpiredError(err) || isTooLargeResourceVersionError(err):
		r.setIsLastSyncResourceVersionUnavailable(true)
		return true
	}
	return false
}

// transformingStore is the scratch store of a streaming list: it transforms
// what is added or updated with the transformer of the store the Reflector
// fills, when that store has one (client-go: the TransformingStore interface
// and the WithTransformer store option used by Reflector.watchList).
type transformingStore struct {
	Store
	transform TransformFunc
}

// newTransformingStore returns a scratch store for a Reflector filling dst.
func newTransformingStore(dst ReflectorStore) Store {
	store := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
	t, ok := dst.(interface{ Transformer() TransformFunc })
	if !ok || t.Transformer() == nil {
		return store
	}
	return transformingStore{Store: store, transform: t.Transformer()}
}

// Add transforms obj, then adds it.
func (s transformingStore) Add(obj any) error {
	obj, err := s.transform(obj)
	if err != nil {
		return fmt.Errorf("transforming: %w", err)
	}
	return s.Store.Add(obj)
}

// Update transforms obj, then stores it.
func (s transformingStore) Update(obj any) error { return s.Add(obj) }

// Transformer returns the transform function the queue applies (read here, by the
// streaming list; the first reading's DeltaFIFO applies it itself).
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// The values of ResourceVersionMatch (restclient.go): how a list reads ResourceVersion.
const (
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan" // data at least as new
	ResourceVersionMatchExact        ResourceVersionMatch = "Exact"        // data exactly at it
)

const defaultPageSize = 500 // page size of a list, when paging

// newPager is reflector.go's newListPager in pages: of the configured size,
// else the default; none when relisting at a known version from a server not
// seen to page (its watch cache answers whole).
func newPager(ctx context.Context, r *Reflector, rv string) func(ListOptions) (*ObjectList, error) {
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

// listPages joins pages of pageSize (0: one request), or makes one full list
// if a continue token expires; it reports if the answer came in pages.
func listPages(ctx context.Context, lw ListerWatcher, options ListOptions, pageSize int64) (*ObjectList, bool, error) {
	options.Limit = cmp.Or(options.Limit, pageSize)
	first, all, paginated := options, &ObjectList{}, false
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		page, err := listPage(ctx, lw, options)
		if IsResourceExpired(err) && options.Continue != "" {
			first.Limit, first.Continue = 0, "" // the paged snapshot was compacted
			page, err = listPage(ctx, lw, first)
			return page, paginated, err
		} else if err != nil {
			return nil, paginated, err
		}
		all.TypeMeta, all.ResourceVersion = page.TypeMeta, page.ResourceVersion
		all.Items = append(all.Items, page.Items...)
		if page.Continue == "" {
			return all, paginated, nil
		}
		// The continue token holds the version; the request must not name one.
		options.Continue, options.ResourceVersion, options.ResourceVersionMatch = page.Continue, "", ""
		paginated = true
	}
}

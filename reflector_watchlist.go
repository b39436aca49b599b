// reflector_watchlist.go holds the Reflector's streaming list: instead of a
// list, one watch with sendInitialEvents=true brings the current objects as
// ADDED events, then a bookmark annotated "k8s.io/initial-events-end" that
// says "that was everything, as of this version". The Reflector Replaces the
// store with what it gathered and goes on using the same watch for live
// changes. A server that cannot stream lists makes the Reflector fall back to
// list and watch (reflector.go).
//
// Reading 2: today's client-go (v0.35+, the WatchListClient gate).
//
// client-go counterpart: Reflector.watchList in k8s.io/client-go/tools/cache
// reflector.go (the WatchListClient feature, on by default since 1.35), and
// the TransformingStore its scratch store is.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming).

package informer

import (
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
		slog.Warn("the streaming list failed; falling back to list and watch",
			"reflector", r.name, "type", r.typeDescription, "err", err)
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
		// Replace): transformers must be idempotent (parity case
		// TransformAndIndex).
		temporary := newTransformingStore(r.store)
		var version string
		options := r.watchOptions(r.rewatchResourceVersion())
		sendInitialEvents := true
		options.SendInitialEvents = &sendInitialEvents
		options.ResourceVersionMatch = ResourceVersionMatchNotOlderThan
		// Set here too, as client-go's watchList does: the list ends at a bookmark.
		options.AllowWatchBookmarks = true
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
		setVersion := func(v string, pastInitialEvents bool) {
			if pastInitialEvents {
				version = v
			}
		}
		err = r.handleWatch(ctx, start, w, temporary, setVersion, nil, true)
		if err == nil {
			w.Stop() // the stream ended before the initial events did: start over
			continue
		}
		if !errors.Is(err, errInitialEventsEnd) {
			w.Stop()
			if errors.Is(err, errStopRequested) {
				return nil, nil
			}
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
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
		r.setIsLastSyncResourceVersionUnavailable(true) // from the newest, at once
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

func (s transformingStore) Add(obj any) error {
	obj, err := s.transform(obj)
	if err != nil {
		return fmt.Errorf("transforming: %w", err)
	}
	return s.Store.Add(obj)
}

func (s transformingStore) Update(obj any) error { return s.Add(obj) }

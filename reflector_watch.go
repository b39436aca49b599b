// reflector_watch.go holds the watch half of the Reflector: watch from the
// last version seen, apply each event to the store (ADDED → Add, MODIFIED →
// Update, DELETED → Delete, BOOKMARK → only the version moves, ERROR → an
// error), re-watch when a watch ends normally, back off and re-watch on
// "connection refused" or 429, and end the cycle (so the next one relists)
// on 410 or any other error.
//
// client-go counterpart: Reflector.watch and handleAnyWatch in
// k8s.io/client-go/tools/cache reflector.go.
//
// Tutorial: 004 §4.1 (watch over HTTP streaming), 000 §4.1 (event type →
// store operation; bookmarks) and §4.3 (410 → relist, backoff).

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"syscall"
	"time"
)

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
			w, err = startWatch(ctx, r.listerWatcher, r.watchOptions(r.LastSyncResourceVersion()))
			if err != nil {
				if isWatchErrorRetriable(err) {
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
		}
		_, err := r.handleWatch(ctx, start, w, r.store, r.setLastSyncResourceVersion, false)
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
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w Watcher, store ReflectorStore,
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
			// A store that wants bookmarks (a RealFIFO) is told, as
			// client-go's handleAnyWatch does for a ReflectorBookmarkStore.
			if b, ok := store.(ReflectorBookmarkStore); ok {
				err = b.Bookmark(obj.GetResourceVersion())
			}
		default:
			slog.Error("unknown watch event", "reflector", r.name, "type", event.Type)
		}
		if err != nil {
			slog.Error("store rejected a watch event", "reflector", r.name, "event", event.Type, "err", err)
		}
		setVersion(obj.GetResourceVersion())
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

// isWatchErrorRetriable reports failures to start a watch that a re-watch
// after a backoff can fix without a relist: a server that is down
// (connection refused) or busy (429).
func isWatchErrorRetriable(err error) bool {
	return isConnectionRefused(err) || IsTooManyRequests(err)
}

// startWatch asks lw for a watch. A ListerWatcher that answers neither a
// watcher nor an error is broken; that becomes an error, not a panic.
func startWatch(ctx context.Context, lw ListerWatcher, options ListOptions) (Watcher, error) {
	w, err := lw.Watch(ctx, options)
	if err == nil && w == nil {
		err = errors.New("the ListerWatcher's Watch answered no watcher and no error")
	}
	return w, err
}

// isConnectionRefused reports that nothing listens at the server's address
// (utilnet.IsConnectionRefused): the Reflector backs off and re-watches.
func isConnectionRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

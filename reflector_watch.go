// reflector_watch.go holds the Reflector's watch: events become store operations; re-watch until
// 410; and its backoff, the wait after a failed list/watch, a refused connection or a 429.
// client-go counterpart: Reflector.watch, handleAnyWatch (tools/cache); the wait.Backoff
// NewReflectorWithOptions runs through DelayWithReset.
// Tutorial: 004 §4.1 (watch), 000 §4.1 (events, bookmarks), §4.3 (410, backoff).

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"sync"
	"syscall"
	"time"
)

// watch watches from the last version seen, and re-watches while that can
// continue where the last watch ended. It starts with w if not nil.
func (r *Reflector) watch(ctx context.Context, w Watcher) error {
	for ctx.Err() == nil {
		start := r.clock.Now()
		if w == nil {
			var err error
			w, err = startWatch(ctx, r.listerWatcher, r.watchOptions(r.LastSyncResourceVersion()))
			if err != nil && ctx.Err() != nil {
				return nil // the stop cut the request short: a stop, not a failure
			} else if isWatchErrorRetriable(err) {
				slog.Debug("watch failed, backing off", "reflector", r.name, "err", err)
				r.backoff.wait(ctx)
				continue
			} else if err != nil {
				return err
			}
		}
		_, err := r.handleWatch(ctx, start, w, r.store, r.setLastSyncResourceVersion, false)
		w.Stop()
		w = nil
		switch {
		case err == nil: // the watch ended normally: re-watch
			continue
		case IsTooManyRequests(err):
			slog.Debug("watch got 429, backing off", "reflector", r.name)
			r.backoff.wait(ctx)
			continue
		case isExpiredError(err): // the next cycle relists
			slog.Debug("watch expired", "reflector", r.name, "err", err)
		case !errors.Is(err, errStopRequested):
			slog.Warn("watch ended with an error", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
	if w != nil {
		w.Stop()
	}
	return nil
}

// watchOptions watch from rv, with bookmarks (a re-watch starts recent) and
// a random timeout (a silent watch still ends; clients re-watch apart).
func (r *Reflector) watchOptions(rv string) ListOptions {
	timeout := int64(r.minWatchTimeout.Seconds() * (rand.Float64() + 1.0))
	return ListOptions{ResourceVersion: rv, TimeoutSeconds: &timeout, AllowWatchBookmarks: true}
}

// handleWatch applies w's events to store (ADDED → Add, MODIFIED → Update,
// DELETED → Delete; a BOOKMARK moves only the version), telling setVersion,
// until w ends, an ERROR arrives or ctx ends; with exitOnInitialEventsEnd also
// at a streaming list's last bookmark, leaving w open, and then reports true.
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w Watcher, store ReflectorStore,
	setVersion func(string), exitOnInitialEventsEnd bool) (bool, error) {
	initialEventsEnd, eventCount := false, 0
	for {
		var event WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
		case event, ok = <-w.ResultChan():
		}
		if ctx.Err() != nil { // also when the stop ended the stream first: not its error
			return initialEventsEnd, errStopRequested
		}
		if !ok { // ended at once and empty: so would a re-watch; end the cycle
			if r.clock.Since(start) < time.Second && eventCount == 0 {
				return initialEventsEnd, fmt.Errorf("very short watch: %s: unexpected watch close - "+
					"watch lasted less than a second and no items received", r.name)
			}
			return initialEventsEnd, nil
		}
		if event.Type == WatchError {
			return initialEventsEnd, FromObject(event.Object)
		}
		obj, isObject := event.Object.(Object)
		if got := reflect.TypeOf(event.Object); r.expectedType != nil && got != r.expectedType ||
			!isObject || isNilPointer(event.Object) {
			slog.Error("watch event of an unexpected type", "reflector", r.name, "want", r.expectedType, "got", got)
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
			initialEventsEnd = initialEventsEnd || obj.GetAnnotations()[InitialEventsAnnotationKey] == "true"
			err = bookmarkStore(store, obj.GetResourceVersion()) // hook: layers.go
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

// bookmarkStore tells store a bookmark's version: nothing here, where only the
// Reflector's version moves; layers.go sets realfifo.go's, for a queue that takes them.
var bookmarkStore = func(store ReflectorStore, resourceVersion string) error { return nil }

// isWatchErrorRetriable reports a server down or busy: a backoff, not a relist, fixes it.
func isWatchErrorRetriable(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || IsTooManyRequests(err)
}

// startWatch asks lw for a watch; no watcher and no error is an error, not a panic.
func startWatch(ctx context.Context, lw ListerWatcher, options ListOptions) (Watcher, error) {
	w, err := lw.Watch(ctx, options)
	if err == nil && w == nil {
		err = errors.New("the ListerWatcher's Watch answered no watcher and no error")
	}
	return w, err
}

const (
	backoffInitial    = 800 * time.Millisecond
	backoffCap        = 30 * time.Second
	backoffResetAfter = 2 * time.Minute
)

// backoffManager hands out ever longer waits; it is safe for concurrent use.
type backoffManager struct {
	clock     Clock
	jitter    func(d time.Duration) time.Duration // adds up to d at random; replaceable in tests
	mu        sync.Mutex                          // guards next and lastReset
	next      time.Duration                       // the next wait, before jitter
	lastReset time.Time                           // creation, then every backoffResetAfter
}

func newBackoffManager(clock Clock) *backoffManager {
	jitter := func(d time.Duration) time.Duration { return d + time.Duration(rand.Float64()*float64(d)) }
	return &backoffManager{clock: clock, jitter: jitter, next: backoffInitial, lastReset: clock.Now()}
}

// Step returns the next wait: doubled up to backoffCap, reset to backoffInitial
// every backoffResetAfter even if failures never paused (as in client-go).
func (b *backoffManager) Step() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now := b.clock.Now(); now.Sub(b.lastReset) > backoffResetAfter {
		b.next, b.lastReset = backoffInitial, now
	}
	d := b.jitter(b.next)
	b.next = min(2*b.next, backoffCap)
	return d
}

// wait blocks for the next backoff; it returns false if ctx ended first.
func (b *backoffManager) wait(ctx context.Context) bool {
	t := b.clock.NewTimer(b.Step())
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

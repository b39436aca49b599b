// reflector_watch.go holds the Reflector's watch: each event becomes a call
// on the store (ADDED → Add, MODIFIED → Update, DELETED → Delete; a BOOKMARK
// only moves the version); a watch that ends normally is started again from
// the last version seen, while one that fails with 410 ends the cycle, so
// the next one relists. While it watches, a timer asks the store to resync
// now and then. Then the backoff: the wait after a failed cycle, a refused
// connection or a 429.
//
// client-go counterpart: tools/cache reflector.go (Reflector.watchWithResync,
// watch, startResync, handleAnyWatch, isWatchErrorRetriable) and the
// wait.Backoff that NewReflectorWithOptions runs through DelayWithReset.
//
// Tutorial: 004 §4.1 (watch), 000 §4.1 (events and bookmarks), §4.3 (410,
// exponential backoff).

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

	"github.com/learn-k8s/informer/clock"
)

// watchWithResync runs watch with the resync timer (startResync) beside
// it, and stops the timer when watch returns: the Reflector resyncs while it
// watches, and only then, never while it lists or backs off between cycles
// (parity case D5, TestInformerResyncsOnlyWhileWatching). A failed resync
// ends the watch.
func (r *Reflector) watchWithResync(ctx context.Context, w Watcher) error {
	resyncErr := make(chan error, 1)
	resyncCtx, stopResync := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if r.resyncPeriod > 0 {
		wg.Go(func() { r.startResync(resyncCtx, resyncErr) })
	}
	defer func() {
		stopResync()
		wg.Wait()
	}()
	return r.watch(ctx, w, resyncErr)
}

// watch watches from the last version seen, and starts a new watch each time
// one ends normally, until one fails or ctx ends; a failed resync, sent on
// resyncErr, ends it too. It begins with w when w is not nil: a watch
// already open (a streaming list's).
func (r *Reflector) watch(ctx context.Context, w Watcher, resyncErr <-chan error) error {
	for ctx.Err() == nil {
		start := r.clock.Now()
		// A watch from "" or "0" opens with a synthetic ADDED event per
		// object, in no particular version order: the version moves only
		// once another kind of event shows the watch is past them (parity case
		// D6). A watch handed in (a streaming list's) is past its initial
		// events.
		fromStart := w == nil
		if w == nil {
			rv := r.LastSyncResourceVersion()
			fromStart = rv == "" || rv == "0"
			var err error
			w, err = startWatch(ctx, r.listerWatcher, r.watchOptions(rv))
			switch {
			case err != nil && ctx.Err() != nil:
				return nil // the stop cut the request short: a stop, not a failure
			case isWatchErrorRetriable(err):
				slog.Debug("watch failed, backing off", "reflector", r.name, "err", err)
				r.backoff.wait(ctx)
				continue
			case err != nil:
				return err
			}
		}
		setVersion := func(rv string, pastInitialEvents bool) {
			if !fromStart || pastInitialEvents {
				r.setLastSyncResourceVersion(rv)
			}
		}
		err := r.handleWatch(ctx, start, w, r.store, setVersion, resyncErr,
			// Reading 2: a plain watch goes on past any bookmark.
			false,
			// End of reading 2.
		)
		w.Stop()
		w = nil
		switch {
		case err == nil: // the watch ended normally: watch again from where it ended
			continue
		case IsTooManyRequests(err):
			slog.Debug("watch got 429, backing off", "reflector", r.name)
			r.backoff.wait(ctx)
			continue
		case isExpiredError(err): // the version is gone: the next cycle relists
			slog.Debug("watch expired", "reflector", r.name, "err", err)
		case !errors.Is(err, errStopRequested):
			slog.Warn("watch ended with an error",
				"reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
	if w != nil {
		w.Stop()
	}
	return nil
}

// startResync asks the store to Resync every resync period, counted from
// the end of the last one, when ShouldResync agrees, until ctx ends. A
// Resync that fails is sent on errc, which ends the watch (handleWatch), and
// no resync follows until the next cycle's watch.
func (r *Reflector) startResync(ctx context.Context, errc chan<- error) {
	t := r.clock.NewTimer(r.resyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			if err := r.store.Resync(); err != nil {
				errc <- err // buffered: never blocks
				return
			}
		}
		t.Reset(r.resyncPeriod)
	}
}

// watchOptions are a watch's options from rv: with bookmarks, so that a
// quiet watch's version stays recent and a re-watch does not start from a
// version compacted away; and with a random timeout between the minimum
// and twice it, so that even a silent watch ends and many clients do not
// all re-watch at once.
func (r *Reflector) watchOptions(rv string) ListOptions {
	timeout := int64(r.minWatchTimeout.Seconds() * (rand.Float64() + 1.0))
	return ListOptions{ResourceVersion: rv, TimeoutSeconds: &timeout, AllowWatchBookmarks: true}
}

// handleWatch applies w's events to store, telling setVersion each event's
// resource version and whether an event other than ADDED has arrived yet,
// until w ends (nil, or an error for a watch that ended at once and empty),
// an ERROR event arrives (its Status as a *StatusError), a resync fails (the
// error from resyncErr; nil never does), or ctx ends (errStopRequested).
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w Watcher, store ReflectorStore,
	setVersion func(rv string, pastInitialEvents bool), resyncErr <-chan error,
	// Reading 2: a streaming list stops at the bookmark that ends its initial events.
	exitOnInitialEventsEnd bool,
	// End of reading 2.
) error {
	eventCount := 0
	pastInitialEvents := false
	for {
		var event WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
		case err := <-resyncErr:
			return err
		case event, ok = <-w.ResultChan():
		}
		if ctx.Err() != nil { // also when the stop ended the stream first: not its error
			return errStopRequested
		}
		if !ok {
			// A watch that ended at once with nothing would do so again at
			// once if re-watched: end the cycle instead.
			if r.clock.Since(start) < time.Second && eventCount == 0 {
				return fmt.Errorf("very short watch: %s: unexpected watch close - "+
					"watch lasted less than a second and no items received", r.name)
			}
			return nil
		}
		if event.Type == WatchError {
			return FromObject(event.Object)
		}
		obj, isObject := event.Object.(Object)
		got := reflect.TypeOf(event.Object)
		wrongType := r.expectedType != nil && got != r.expectedType
		if !isObject || isNilPointer(event.Object) || wrongType {
			slog.Error("watch event of an unexpected type",
				"reflector", r.name, "want", r.expectedType, "got", got)
			continue
		}
		var err error
		switch event.Type {
		case WatchAdded:
			err = store.Add(obj)
		case WatchModified:
			pastInitialEvents = true
			err = store.Update(obj)
		case WatchDeleted:
			pastInitialEvents = true
			err = store.Delete(obj)
		case WatchBookmark:
			// Nothing changed: only the version moves (below).
			pastInitialEvents = true
			// Reading 2: a RealFIFO queues the bookmark; a streaming list may end here.
			if b, ok := store.(ReflectorBookmarkStore); ok {
				err = b.Bookmark(obj.GetResourceVersion())
			}
			listEnds := obj.GetAnnotations()[InitialEventsAnnotationKey] == "true"
			if exitOnInitialEventsEnd && listEnds {
				setVersion(obj.GetResourceVersion(), true)
				return errInitialEventsEnd
			}
			// End of reading 2.
		default:
			slog.Error("unknown watch event", "reflector", r.name, "type", event.Type)
		}
		if err != nil {
			slog.Error("store rejected a watch event",
				"reflector", r.name, "event", event.Type, "err", err)
		}
		setVersion(obj.GetResourceVersion(), pastInitialEvents)
		eventCount++
	}
}

// isWatchErrorRetriable reports a server that is down or busy: waiting (a
// backoff) fixes it, a relist would not.
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

// The backoff between failed cycles, as client-go's Reflector sets it up:
// 800 ms, doubled after each failure up to 30 s, each wait stretched by up
// to as much again at random (jitter 1.0), and back to 800 ms every two
// minutes, so that a long outage does not leave every client waiting 30 s
// once the server is back.
const (
	backoffInitial    = 800 * time.Millisecond
	backoffCap        = 30 * time.Second
	backoffResetAfter = 2 * time.Minute
)

// backoffManager hands out ever longer waits. It is safe for concurrent use.
type backoffManager struct {
	clock clock.Clock
	// jitter adds up to d to d, at random; tests replace it.
	jitter func(d time.Duration) time.Duration

	// mu guards next (the next wait, before jitter) and lastReset.
	mu        sync.Mutex
	next      time.Duration
	lastReset time.Time
}

func newBackoffManager(c clock.Clock) *backoffManager {
	jitter := func(d time.Duration) time.Duration {
		return d + time.Duration(rand.Float64()*float64(d))
	}
	return &backoffManager{clock: c, jitter: jitter, next: backoffInitial, lastReset: c.Now()}
}

// Step returns the next wait: doubled each time up to backoffCap, and set
// back to backoffInitial every backoffResetAfter, even if failures never
// paused (as client-go's DelayWithReset does).
func (b *backoffManager) Step() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	if now.Sub(b.lastReset) > backoffResetAfter {
		b.next = backoffInitial
		b.lastReset = now
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

// Reading 2: how a streaming list's end reaches the Reflector.

// errInitialEventsEnd is what handleWatch returns, with exitOnInitialEventsEnd,
// at the bookmark that ends a streaming list's initial events: not a failure,
// the signal that the list is complete (like io.EOF for a reader).
var errInitialEventsEnd = errors.New("the initial events of a streaming list ended")

// End of reading 2.

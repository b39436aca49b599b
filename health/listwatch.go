// listwatch.go holds the ListerWatcher a Recorder wraps around an
// informer's: every list, watch and watch event passes through it on its
// way to the Reflector, unchanged, and the Recorder counts what it sees.
// A streaming list (a watch with sendInitialEvents) counts as a list and a
// watch start when its initial events end, as the Reflector sees it.
//
// client-go counterpart: none; a ListerWatcher wrapper in the way
// tools/cache's ListWatch wraps functions, and apimachinery's watch.Filter
// wraps a watch.
//
// Tutorial: 004 §2.4 (ListWatch) and 000 ch. 5 (health figures).

package health

import (
	"context"
	"sync"

	informer "github.com/learn-k8s/informer"
)

// ListerWatcher returns lw wrapped so that the Recorder hears of every
// list, watch, event and failure. Give the informer the wrapper, and only
// the informer: a list made by anything else through it (a consistency
// check) would count as the informer's.
func (r *Recorder) ListerWatcher(lw informer.ListerWatcher) informer.ListerWatcher {
	return &listerWatcher{inner: lw, rec: r}
}

type listerWatcher struct {
	inner informer.ListerWatcher
	rec   *Recorder
}

// List passes the list on. The last page of a list (no continue token)
// completes it.
func (lw *listerWatcher) List(ctx context.Context, options informer.ListOptions) (*informer.ObjectList, error) {
	list, err := lw.inner.List(ctx, options)
	switch {
	case ctx.Err() != nil: // stopping: not a failure
	case err != nil:
		lw.rec.failed(err)
	case list.Continue == "":
		lw.rec.listed()
	}
	return list, err
}

// Watch passes the watch on and returns a watcher that lets the Recorder
// see each event.
func (lw *listerWatcher) Watch(ctx context.Context, options informer.ListOptions) (informer.Watcher, error) {
	w, err := lw.inner.Watch(ctx, options)
	if err != nil {
		if ctx.Err() == nil {
			lw.rec.failed(err)
		}
		return nil, err
	}
	streaming := options.SendInitialEvents != nil && *options.SendInitialEvents
	if !streaming {
		lw.rec.watchStarted()
	}
	rw := &watcher{inner: w, rec: lw.rec, streaming: streaming,
		out: make(chan informer.WatchEvent), stop: make(chan struct{})}
	go rw.forward()
	return rw, nil
}

// watcher hands each event of inner on, after the Recorder has seen it.
// Its goroutine (forward) ends when inner's channel closes or Stop is
// called, whichever comes first.
type watcher struct {
	inner     informer.Watcher
	rec       *Recorder
	streaming bool // a streaming list: its initial events end with a bookmark

	out      chan informer.WatchEvent // closed by forward when it ends
	stop     chan struct{}            // closed by Stop
	stopOnce sync.Once
}

// Stop ends the watch; it may be called more than once.
func (w *watcher) Stop() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.inner.Stop()
}

// ResultChan delivers the events of the wrapped watch.
func (w *watcher) ResultChan() <-chan informer.WatchEvent { return w.out }

func (w *watcher) forward() {
	defer close(w.out)
	for ev := range w.inner.ResultChan() {
		w.heard(ev)
		select {
		case w.out <- ev:
		case <-w.stop:
			return
		}
	}
}

// heard tells the Recorder about one event.
func (w *watcher) heard(ev informer.WatchEvent) {
	if ev.Type == informer.WatchError {
		if s, ok := ev.Object.(*informer.Status); ok {
			w.rec.failed(&informer.StatusError{ErrStatus: *s})
		} else {
			w.rec.failed(errOtherWatchError)
		}
		return
	}
	w.rec.event()
	if w.streaming && ev.Type == informer.WatchBookmark {
		if o, ok := ev.Object.(informer.Object); ok && o.GetAnnotations()[informer.InitialEventsAnnotationKey] == "true" {
			w.rec.listed()
			w.rec.watchStarted() // the stream goes on as the first watch since this list
		}
	}
}

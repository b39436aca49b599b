// wire_tap.go holds the tap on one watch stream: it hands every event on to
// the Reflector, recording each in the wire panel, and when the stream ends
// it says so on the WATCH request's line: how many events it carried, or
// the ERROR that ended it (410 Expired after a compaction).
//
// client-go counterpart: a watch.Interface wrapping another.
// Tutorial: 004 §4.1 (the watch), 000 §4.3 (410 and the relist).

package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/learn-k8s/informer"
)

// tap hands the events of a watch on, recording each. Its goroutine ends
// when the stream ends or Stop is called.
type tap struct {
	inner informer.Watcher
	wire  *wire
	ctx   context.Context // the Watch call's: done when the informer stops
	req   int64           // the WATCH request's id
	out   chan informer.WatchEvent
	stop  chan struct{}
	once  sync.Once

	events  int
	errText string // the text of an ERROR event, which ends the stream
}

func (t *tap) run() {
	defer close(t.out)
	defer t.ended()
	for {
		select {
		case <-t.stop:
			return
		case ev, ok := <-t.inner.ResultChan():
			if !ok {
				return
			}
			stopping := t.ctx.Err() != nil || t.wire.isQuiet()
			if ev.Type == informer.WatchError && stopping {
				// The informer stops the stream on purpose; the decoder
				// reports its cancelled read as an ERROR: no fault.
			} else {
				t.events++
				if ev.Type == informer.WatchError {
					t.errText = describeStatus(informer.FromObject(ev.Object))
				}
				t.wire.event(ev)
			}
			select {
			case t.out <- ev:
			case <-t.stop:
				return
			}
		}
	}
}

// ended writes how the stream ended onto its request's line, and into the
// feed unless the informer stopped it on purpose.
func (t *tap) ended() {
	n := fmt.Sprint(t.events)
	var m message
	switch {
	case t.errText != "":
		m = msg("endedError", "200, ended by ERROR "+t.errText, "text", t.errText)
	case t.ctx.Err() != nil || t.wire.isQuiet():
		m = msg("endedStopped", "200, stopped with the informer after "+n+" events", "n", n)
	default:
		m = msg("ended", "200, ended by the server after "+n+" events", "n", n)
	}
	t.wire.end(t.req, m)
	if t.ctx.Err() != nil || t.wire.isQuiet() {
		return
	}
	t.wire.setState("watch ended")
	t.wire.feed.addMsg("wire", "watch ended", "", "", m)
}

// Stop ends the watch.
func (t *tap) Stop() {
	t.once.Do(func() { close(t.stop) })
	t.inner.Stop()
}

// ResultChan delivers the events.
func (t *tap) ResultChan() <-chan informer.WatchEvent { return t.out }

// run.go starts, stops and restarts the live view's informer. A restart
// (another queue, another resync period, or "start over" to watch a first
// list again) is clean: it first lets every handler finish the calls it
// was given, so nothing is lost; the old informer's stop is no fault on the
// wire; a paused old queue is dropped, not drained, and the new informer's
// list brings the same state. The handlers carry over and get that list as
// their initial list.
//
// client-go counterpart: none (a program would make a new informer the same way).
// Tutorial: 004 §2 (the pipeline), §4.3 (handlers and their buffers).

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/learn-k8s/informer"
)

// newHandler returns the handler of slot; before each call it writes the
// cache lines of the Pop that caused it, if still pending.
func (a *app) newHandler(slot int) *viewHandler {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.newHandlerLocked(slot)
}

// newHandlerLocked is newHandler for a caller that holds a.mu.
func (a *app) newHandlerLocked(slot int) *viewHandler {
	h := newHandler(slot, a.feed, a.ctx)
	if slot == 1 {
		h.delay = a.cfg.SlowDelay
	}
	h.before = func(key, rv string) {
		if q := a.current.Load(); q != nil { // not a.mu: addHandler holds it while the informer delivers
			q.flushCacheFor(key, rv)
		}
	}
	return h
}

// startInformer makes and runs a new informer on the queue kind with the
// resync period, with the handlers of every filled slot. The caller must
// not hold a.mu.
func (a *app) startInformer(kind string, resync time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.queueKind, a.queue, a.resync = kind, nil, resync // the new queue comes with Run
	a.clock.setResyncPeriod(resync)
	gates := queueKinds[kind]()
	var inf informer.SharedIndexInformer
	inf = informer.NewSharedIndexInformerWithOptions(a.wire, &informer.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod:  resync,
		Indexers:      podIndexers,
		Clock:         a.clock,
		PipelineGates: &gates,
		WrapQueue: func(q informer.Queue) informer.Queue {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.queue = newPacedQueue(q, a.feed, inf.GetIndexer(), a.paused, gates.AtomicFIFO)
			a.current.Store(a.queue)
			return a.queue
		},
	})
	for slot, h := range a.handlers {
		if h != nil {
			a.registerLocked(inf, slot, h) // cannot fail: the informer is new
		}
	}
	ctx, cancel := context.WithCancel(a.ctx)
	done := make(chan struct{})
	a.inf, a.stopInf, a.infDone = inf, cancel, done
	go func() {
		defer close(done)
		inf.Run(ctx)
	}()
	period := "off"
	if resync > 0 {
		period = resync.String()
	}
	a.feed.addMsg("control", "informer started", "", "",
		msg("informerStarted", kind+", resync "+period+" · "+gates.String(), "queue", kind, "resync", period, "gates", gates.String()))
}

// stopInformer stops the informer and waits until it has ended.
func (a *app) stopInformer() {
	a.mu.Lock()
	cancel, done := a.stopInf, a.infDone
	a.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// maxDrain is how long a restart waits for the handlers' backlogs.
const maxDrain = 30 * time.Second

// restart replaces the informer by a new one on the queue kind with the
// resync period, cleanly (see the file comment). It says what it did.
func (a *app) restart(kind string, resync time.Duration) message {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	waited, left := a.drainHandlers()
	a.mu.Lock()
	old := a.queue
	a.mu.Unlock()
	dropped := 0
	if old != nil {
		s := old.snapshot()
		dropped = len(s.Keys) + len(s.Deltas)
	}
	a.wire.setQuiet(true)
	a.stopInformer()
	a.wire.setQuiet(false)
	a.startInformer(kind, resync)
	d, q := waited.Round(time.Millisecond).String(), fmt.Sprint(dropped)
	if left > 0 {
		n := fmt.Sprint(left)
		return msg("restartedLeft", "new informer on a "+kind+"; the handlers still had "+n+" calls after "+d+": they are dropped",
			"queue", kind, "n", n, "wait", d)
	}
	return msg("restarted", "new informer on a "+kind+" (the handlers' backlogs were done after "+d+
		"; "+q+" queued items went with the old queue, its list brings the same state)", "queue", kind, "wait", d, "n", q)
}

// drainHandlers waits until no handler has a call waiting, up to maxDrain
// or the program's end; it returns how long it waited and the calls left.
func (a *app) drainHandlers() (time.Duration, int64) {
	start := time.Now()
	tick := time.NewTicker(20 * time.Millisecond) // polling the handlers' backlogs, with a deadline
	defer tick.Stop()
	for {
		a.mu.Lock()
		hs := a.handlers
		a.mu.Unlock()
		var left int64
		for _, h := range hs {
			if h != nil {
				left += h.backlog()
			}
		}
		if left == 0 || time.Since(start) > maxDrain {
			return time.Since(start), left
		}
		select {
		case <-tick.C:
		case <-a.ctx.Done():
			return time.Since(start), left
		}
	}
}

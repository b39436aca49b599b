// processor.go gives each handler a buffer and two goroutines: a slow one delays only itself.
// client-go counterpart: sharedProcessor, processorListener (tools/cache shared_informer.go).
// Tutorial: 004 §2.3 and §4.3 (many handlers on one informer), §4.4 (resync periods).

package informer

import (
	"sync"
	"sync/atomic"
	"time"
)

type ( // the notifications a listener delivers
	addNotification struct {
		newObj          any
		isInInitialList bool
	}
	updateNotification struct{ oldObj, newObj any }
	deleteNotification struct{ oldObj any }
)

// sharedProcessor holds the listeners and distributes notifications to them.
type sharedProcessor struct {
	clock     Clock
	mu        sync.RWMutex
	listeners map[*processorListener]bool // listener → takes part in this resync round
	started   bool                        // between start and stop: new listeners start at once
	wg        sync.WaitGroup
}

// addListener registers l, starting it if the processor runs.
func (p *sharedProcessor) addListener(l *processorListener) ResourceEventHandlerRegistration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listeners == nil {
		p.listeners = map[*processorListener]bool{}
	}
	p.listeners[l] = true
	if p.started {
		p.wg.Go(l.run)
		p.wg.Go(l.pop)
	}
	return l
}

// removeListener stops handle's listener: a call in progress ends, the buffer is dropped.
func (p *sharedProcessor) removeListener(handle ResourceEventHandlerRegistration) error {
	l, ok := handle.(*processorListener)
	if !ok {
		return errForeignRegistration
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, exists := p.listeners[l]; exists && p.started {
		close(l.addCh)
	}
	delete(p.listeners, l)
	return nil
}

// distribute hands n to every listener; if sync (a resync) only to those whose resync is due.
func (p *sharedProcessor) distribute(n any, sync bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l, syncing := range p.listeners {
		if !sync || syncing {
			l.add(n)
		}
	}
}

// start starts every listener, before any notification is distributed.
func (p *sharedProcessor) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.listeners {
		p.wg.Go(l.run)
		p.wg.Go(l.pop)
	}
	p.started = true
}

// stop stops every listener for good, waiting for the handler calls in progress.
func (p *sharedProcessor) stop() {
	p.mu.Lock()
	for l := range p.listeners {
		close(l.addCh)
	}
	p.listeners, p.started = nil, false
	p.mu.Unlock()
	p.wg.Wait()
}

// shouldResync marks the listeners whose resync is due and reports if any is.
func (p *sharedProcessor) shouldResync() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now, needed := p.clock.Now(), false
	for l := range p.listeners {
		p.listeners[l] = l.shouldResync(now)
		needed = needed || p.listeners[l]
	}
	return needed
}

// resyncCheckPeriodChanged re-derives the listeners' periods from a shorter check period.
func (p *sharedProcessor) resyncCheckPeriodChanged(check time.Duration) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l := range p.listeners {
		l.resyncMu.Lock()
		l.resyncPeriod = determineResyncPeriod(l.requestedResyncPeriod, check)
		l.resyncMu.Unlock()
	}
}

// processorListener feeds one handler: add sends to pop, which buffers for run, which calls it.
type processorListener struct {
	handler               ResourceEventHandler
	addCh                 chan any     // add → pop, unbuffered; closed to stop the listener
	nextCh                chan any     // pop → run, unbuffered; closed when pop returns
	initialPending        atomic.Int64 // initial-list adds not yet handled
	upstreamSynced        func() bool  // the informer's HasSynced
	requestedResyncPeriod time.Duration
	resyncMu              sync.Mutex    // guards the two below
	resyncPeriod          time.Duration // 0: never
	nextResync            time.Time
}

func newProcessListener(handler ResourceEventHandler, requested, period time.Duration, now time.Time, synced func() bool) *processorListener {
	return &processorListener{handler: handler, addCh: make(chan any), nextCh: make(chan any), upstreamSynced: synced,
		requestedResyncPeriod: requested, resyncPeriod: period, nextResync: now.Add(period)}
}

// HasSynced: the informer has synced (asked first, so the count is not older) and so has l.
func (l *processorListener) HasSynced() bool {
	return l.upstreamSynced() && l.initialPending.Load() == 0
}

// add queues n. It waits only for pop, which is always ready to receive.
func (l *processorListener) add(n any) {
	if a, ok := n.(addNotification); ok && a.isInInitialList {
		l.initialPending.Add(1)
	}
	l.addCh <- n
}

// pop buffers what add sends and offers the oldest to run, until addCh is closed.
func (l *processorListener) pop() {
	defer close(l.nextCh)
	var pending []any
	for {
		out, next := chan any(nil), any(nil) // a nil channel is never ready: nothing to offer
		if len(pending) > 0 {
			out, next = l.nextCh, pending[0]
		}
		select {
		case out <- next:
			pending[0], pending = nil, pending[1:] // let it be collected
		case n, ok := <-l.addCh:
			if !ok {
				return
			}
			pending = append(pending, n)
		}
	}
}

// run calls the handler in order; if it panics, the program crashes (client-go's default).
func (l *processorListener) run() {
	for n := range l.nextCh {
		switch n := n.(type) {
		case updateNotification:
			l.handler.OnUpdate(n.oldObj, n.newObj)
		case addNotification:
			l.handler.OnAdd(n.newObj, n.isInInitialList)
			if n.isInInitialList {
				l.initialPending.Add(-1)
			}
		case deleteNotification:
			l.handler.OnDelete(n.oldObj)
		}
	}
}

// shouldResync reports whether a resync is due at now and, if so, schedules the next.
func (l *processorListener) shouldResync(now time.Time) bool {
	l.resyncMu.Lock()
	defer l.resyncMu.Unlock()
	if l.resyncPeriod == 0 || now.Before(l.nextResync) {
		return false
	}
	l.nextResync = now.Add(l.resyncPeriod)
	return true
}

// processor.go holds the fan-out from one informer to many handlers. Each
// registered handler gets a processorListener: an unbounded buffer and two
// goroutines, one moving notifications into the buffer as they come, one
// calling the handler with them in order. So a slow or stuck handler only
// delays itself: the informer and the other handlers never wait for it.
//
// client-go counterpart: sharedProcessor and processorListener in
// k8s.io/client-go/tools/cache shared_informer.go, and synctrack's
// SingleFileTracker.
//
// Tutorial: 004 §2.3 and §4.3 (many handlers on one informer), §4.4
// (per-handler resync periods).

package informer

import (
	"sync"
	"sync/atomic"
	"time"
)

// The notifications a listener delivers.
type addNotification struct {
	newObj          any
	isInInitialList bool
}

type updateNotification struct{ oldObj, newObj any }

type deleteNotification struct{ oldObj any }

// sharedProcessor holds the listeners and distributes notifications to them.
type sharedProcessor struct {
	clock Clock

	mu sync.RWMutex
	// listeners maps each listener to whether it takes part in the current
	// resync round (recomputed by shouldResync; true for a new listener).
	listeners map[*processorListener]bool
	// started is true between start and stop: new listeners start at once.
	started bool
	wg      sync.WaitGroup
}

// addListener registers l, starting its goroutines if the processor runs.
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

// removeListener unregisters handle; its goroutines end after the handler
// call in progress, dropping whatever was still buffered for it.
func (p *sharedProcessor) removeListener(handle ResourceEventHandlerRegistration) error {
	l, ok := handle.(*processorListener)
	if !ok {
		return errForeignRegistration
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, exists := p.listeners[l]; !exists {
		return nil // already removed, or from another informer: nothing to do
	}
	delete(p.listeners, l)
	if p.started {
		close(l.addCh)
	}
	return nil
}

// distribute hands n to every listener; a sync notification (a resync, or a
// relist that found an object unchanged) only to the listeners whose resync
// is due.
func (p *sharedProcessor) distribute(n any, sync bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l, syncing := range p.listeners {
		if !sync || syncing {
			l.add(n)
		}
	}
}

// start starts every listener's goroutines; listeners added later start
// at once. It runs before any notification is distributed, so a
// notification never waits for a listener that has not started.
func (p *sharedProcessor) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.listeners {
		p.wg.Go(l.run)
		p.wg.Go(l.pop)
	}
	p.started = true
}

// stop stops every listener and waits for their goroutines: a handler call
// in progress is waited for, buffered notifications are dropped.
func (p *sharedProcessor) stop() {
	p.mu.Lock()
	for l := range p.listeners {
		close(l.addCh)
	}
	p.listeners = nil // listeners cannot be restarted
	p.started = false
	p.mu.Unlock()
	p.wg.Wait()
}

// shouldResync marks the listeners whose resync period has come round and
// reports whether there is any. The controller calls it before each resync.
func (p *sharedProcessor) shouldResync() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	needed := false
	for l := range p.listeners {
		due := l.shouldResync(now)
		p.listeners[l] = due
		if due {
			needed = true
			l.determineNextResync(now)
		}
	}
	return needed
}

// resyncCheckPeriodChanged re-derives every listener's period when the
// informer's check period shrinks (only possible before it starts).
func (p *sharedProcessor) resyncCheckPeriodChanged(check time.Duration) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l := range p.listeners {
		l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriod, check))
	}
}

// processorListener delivers notifications to one handler. add sends to
// addCh; pop keeps them in pending while run is busy and feeds run through
// nextCh; run calls the handler.
type processorListener struct {
	handler ResourceEventHandler
	addCh   chan any // unbuffered; closed to stop the listener
	nextCh  chan any // unbuffered; closed by pop when it stops
	// pending is the unbounded buffer, owned by the pop goroutine.
	pending []any

	// initialPending counts initial-list adds not yet handled; upstreamSynced
	// is the informer's HasSynced. Together they make HasSynced.
	initialPending atomic.Int64
	upstreamSynced func() bool

	requestedResyncPeriod time.Duration
	resyncMu              sync.Mutex
	resyncPeriod          time.Duration // 0: never resync
	nextResync            time.Time
}

func newProcessListener(handler ResourceEventHandler, requested, period time.Duration, now time.Time, upstreamSynced func() bool) *processorListener {
	l := &processorListener{
		handler:               handler,
		addCh:                 make(chan any),
		nextCh:                make(chan any),
		upstreamSynced:        upstreamSynced,
		requestedResyncPeriod: requested,
		resyncPeriod:          period,
	}
	l.determineNextResync(now)
	return l
}

// HasSynced reports whether the informer has synced and every initial-list
// add queued for this handler has been handled. The informer is asked first:
// its answer may take a lock, and a count read before it could be stale.
func (l *processorListener) HasSynced() bool {
	return l.upstreamSynced() && l.initialPending.Load() == 0
}

// add queues a notification. It never waits for the handler, only for pop,
// which is always ready to receive.
func (l *processorListener) add(n any) {
	if a, ok := n.(addNotification); ok && a.isInInitialList {
		l.initialPending.Add(1)
	}
	l.addCh <- n
}

// pop moves notifications from addCh to nextCh, buffering as many as run
// has not taken yet. It returns when addCh is closed.
func (l *processorListener) pop() {
	defer close(l.nextCh)
	var next any     // the notification offered to run, if any
	var out chan any // nextCh while there is one to offer, nil otherwise
	for {
		select {
		case out <- next:
			if len(l.pending) == 0 {
				next, out, l.pending = nil, nil, nil
				continue
			}
			next = l.pending[0]
			l.pending[0] = nil // let it be collected
			l.pending = l.pending[1:]
		case n, ok := <-l.addCh:
			if !ok {
				return
			}
			if out == nil {
				next, out = n, l.nextCh
			} else {
				l.pending = append(l.pending, n)
			}
		}
	}
}

// run calls the handler for each notification, in order. A panicking
// handler crashes the program, as with client-go's default settings.
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

// shouldResync reports whether this listener's resync is due at now.
func (l *processorListener) shouldResync(now time.Time) bool {
	l.resyncMu.Lock()
	defer l.resyncMu.Unlock()
	return l.resyncPeriod != 0 && !now.Before(l.nextResync)
}

func (l *processorListener) determineNextResync(now time.Time) {
	l.resyncMu.Lock()
	defer l.resyncMu.Unlock()
	l.nextResync = now.Add(l.resyncPeriod)
}

func (l *processorListener) setResyncPeriod(d time.Duration) {
	l.resyncMu.Lock()
	defer l.resyncMu.Unlock()
	l.resyncPeriod = d
}

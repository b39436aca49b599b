// processor.go gives each handler of an informer its own buffer and two
// goroutines, so that a slow handler delays only itself: the informer hands
// a change to every handler's buffer without waiting for any handler.
//
// client-go counterpart: tools/cache shared_informer.go (sharedProcessor,
// processorListener, newProcessListener).
//
// Tutorial: 004 §2.3 and §4.3 (many handlers on one informer), §4.4
// (resync periods); 000 §5 (backpressure: why a slow handler must not hold
// up the others).

package informer

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// The notifications a listener buffers: each is one call of its handler's
// OnAdd, OnUpdate or OnDelete, still to make.
type (
	addNotification struct {
		newObj          any
		isInInitialList bool
	}
	updateNotification struct {
		oldObj any
		newObj any
	}
	deleteNotification struct {
		oldObj any
	}
)

// sharedProcessor holds an informer's listeners, one per handler, and
// distributes each notification to them.
type sharedProcessor struct {
	clock clock.Clock
	// mu guards listeners and started. distribute holds it for reading,
	// so listeners come and go between notifications, never during one.
	mu sync.RWMutex
	// listeners maps each listener to whether it takes part in the current
	// resync round (set by shouldResync).
	listeners map[*processorListener]bool
	// started is true between start and stop: a listener added meanwhile
	// starts at once.
	started bool
	// wg counts the listeners' goroutines, for stop to wait on.
	wg sync.WaitGroup
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

// removeListener stops handle's listener (see RemoveEventHandler for what
// it still delivers).
func (p *sharedProcessor) removeListener(handle ResourceEventHandlerRegistration) error {
	l, ok := handle.(*processorListener)
	if !ok {
		return errForeignRegistration
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, exists := p.listeners[l]; exists {
		if p.started {
			close(l.addCh) // pop marks it stopped as it returns
		} else {
			l.markStopped()
		}
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

// stop stops every listener for good, and waits for the handler calls in
// progress to return (not under mu: a handler may call the informer).
func (p *sharedProcessor) stop() {
	p.mu.Lock()
	for l := range p.listeners {
		close(l.addCh)
	}
	p.listeners = nil
	p.started = false
	p.mu.Unlock()
	p.wg.Wait()
}

// shouldResync marks the listeners whose resync is due and reports if any is.
func (p *sharedProcessor) shouldResync() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	needed := false
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

// processorListener feeds one handler. add hands a notification to the pop
// goroutine, which keeps the backlog in an unbounded buffer and offers the
// oldest to the run goroutine, which calls the handler. So add never waits
// for the handler, only for pop, which is always ready to receive.
type processorListener struct {
	handler ResourceEventHandler
	// addCh carries notifications from add to pop. Unbuffered; closed to
	// stop the listener.
	addCh chan any
	// nextCh carries notifications from pop to run. Unbuffered; pop closes
	// it when it returns, which ends run.
	nextCh chan any
	// initialPending counts initial-list adds not handled yet: HasSynced
	// waits for it to reach 0.
	initialPending atomic.Int64
	// upstreamSynced is the informer's HasSynced.
	upstreamSynced func() bool
	// upstreamAtStop is upstreamSynced's answer when the listener stopped
	// (removed, or its informer stopped); stopped is set once it is
	// written.
	upstreamAtStop, stopped atomic.Bool
	// requestedResyncPeriod is the period the handler asked for; the one
	// in force, resyncPeriod (0: never), differs when the informer's check
	// period is longer (determineResyncPeriod).
	requestedResyncPeriod time.Duration

	// resyncMu guards resyncPeriod and nextResync.
	resyncMu     sync.Mutex
	resyncPeriod time.Duration
	nextResync   time.Time
}

// newProcessListener returns a listener for handler, with the resync period
// it asked for (requested) and the one in force (period), from now.
func newProcessListener(handler ResourceEventHandler, requested, period time.Duration, now time.Time,
	synced func() bool) *processorListener {
	return &processorListener{
		handler:               handler,
		addCh:                 make(chan any),
		nextCh:                make(chan any),
		upstreamSynced:        synced,
		requestedResyncPeriod: requested,
		resyncPeriod:          period,
		nextResync:            now.Add(period),
	}
}

// HasSynced implements ResourceEventHandlerRegistration: the informer has
// synced (before l stopped, once it has: a handler removed before its
// informer synced never reports synced, as in client-go, where the
// listener's watchSynced gives up when it stops: parity case D2) and l has
// handled its initial adds. The informer is asked first, so the count read after it is
// not older than its answer.
func (l *processorListener) HasSynced() bool {
	upstream := false
	if l.stopped.Load() {
		upstream = l.upstreamAtStop.Load()
	} else {
		upstream = l.upstreamSynced()
	}
	return upstream && l.initialPending.Load() == 0
}

// markStopped records that l has stopped, and whether its informer had
// synced by then.
func (l *processorListener) markStopped() {
	l.upstreamAtStop.Store(l.upstreamSynced())
	l.stopped.Store(true)
}

// add queues n. It waits only for pop, which is always ready to receive.
func (l *processorListener) add(n any) {
	if a, ok := n.(addNotification); ok && a.isInInitialList {
		l.initialPending.Add(1)
	}
	l.addCh <- n
}

// pop buffers what add sends and offers the oldest to run, until addCh is
// closed; what it holds then is dropped. While run is between two calls,
// select picks at random between handing it the next notification and
// seeing addCh closed: a few buffered notifications may still be delivered
// after the listener was removed or its informer stopped, as in client-go
// (parity cases D1, D2).
func (l *processorListener) pop() {
	defer func() {
		l.markStopped()
		close(l.nextCh) // ends run
	}()
	var pending []any
	for {
		// With nothing pending, out stays nil: a send on a nil channel is
		// never ready, so select only waits for addCh.
		var out chan any
		var next any
		if len(pending) > 0 {
			out = l.nextCh
			next = pending[0]
		}
		select {
		case out <- next:
			pending[0] = nil // let the handed-out object be collected
			pending = pending[1:]
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

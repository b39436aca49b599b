// backlog.go counts each handler's backlog: the calls the informer has
// handed to the handler's buffer that the handler has not taken yet.
//
// The informer keeps that number to itself. client-go v0.37.2 counts it
// (processorListener.pendingNotificationsLength in tools/cache
// shared_informer.go) but only writes it into a trace when a handler is
// slow; ours (processor.go) does not count it at all. So the view counts it
// from outside, with a promise every informer keeps: handlers registered
// at the same point get the same notifications in the same order. Each
// view handler is registered together with a tally, a handler that only
// counts, while no Pop is being processed (the queue wrapper's procMu).
// The tally has no work, so it takes each call as soon as it is handed
// over: its count is what the informer has handed the view handler, and
// the backlog is that count minus the calls the view handler has taken.
// The tally is not shown; it is the view's measuring tape.
//
// client-go counterpart: none (see above).
// Tutorial: 004 §4.3 (each handler has its own buffer and goroutine).

package main

import (
	"sync/atomic"

	"github.com/learn-k8s/informer"
)

// tally is a handler that only counts the calls it gets.
type tally struct{ n atomic.Int64 }

// OnAdd counts an add.
func (t *tally) OnAdd(any, bool) { t.n.Add(1) }

// OnUpdate counts an update.
func (t *tally) OnUpdate(any, any) { t.n.Add(1) }

// OnDelete counts a delete.
func (t *tally) OnDelete(any) { t.n.Add(1) }

// register adds h, in the Go type of its slot, and a fresh tally to inf,
// at the same point of inf's notifications. The caller holds a.mu: an
// informer that runs has its queue wrapper in a.queue, whose procMu keeps
// Pops from being processed between the two; one that has not made its
// queue yet waits for a.mu to do so (WrapQueue), so it processes nothing.
func (a *app) registerLocked(inf informer.SharedIndexInformer, slot int, h *viewHandler) error {
	if a.queue != nil {
		a.queue.procMu.Lock()
		defer a.queue.procMu.Unlock()
	}
	// The count starts before the registration: an informer that runs
	// hands the new handler its initial list at once.
	t := &tally{}
	h.mu.Lock()
	h.tally = t
	h.base = h.count
	h.mu.Unlock()
	reg, err := inf.AddEventHandler(wrapHandler(slot, h))
	if err != nil {
		return err
	}
	tallyReg, err := inf.AddEventHandler(t)
	if err != nil {
		inf.RemoveEventHandler(reg)
		return err
	}
	h.mu.Lock()
	h.reg = reg
	h.tallyReg = tallyReg
	h.mu.Unlock()
	return nil
}

// unregister removes h and its tally from inf.
func unregister(inf informer.SharedIndexInformer, h *viewHandler) error {
	h.mu.Lock()
	reg, tallyReg := h.reg, h.tallyReg
	h.mu.Unlock()
	if err := inf.RemoveEventHandler(reg); err != nil {
		return err
	}
	return inf.RemoveEventHandler(tallyReg)
}

// backlog is how many calls the informer has handed h and h has not
// taken: the tally's count less the calls h took since it was registered.
// A call in progress is taken. The tally may count a call a moment after
// h took it, hence the floor at 0.
func (h *viewHandler) backlog() int64 {
	h.mu.Lock()
	t := h.tally
	taken := int64(h.count - h.base)
	h.mu.Unlock()
	if t == nil {
		return 0
	}
	return max(0, t.n.Load()-taken)
}

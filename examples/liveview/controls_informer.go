// controls_informer.go holds the controls that change more than one pod or
// the informer itself: a burst of updates, the server down and up, handlers
// added, removed, slowed; resync (its period, and "now"); step mode; and the
// clean restarts: another queue, another resync period, or start over.
//
// client-go counterpart: none.
// Tutorial: 000 §4.3 (when things go wrong), 004 §4.2–§4.4.

package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// burst makes n updates (default 10) over the first three pods, so that the
// queue merges several Deltas under one key.
func (a *app) burst(r *http.Request) (message, error) {
	n := 10
	if v := r.FormValue("n"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > 1000 {
			return message{}, badRequest("n must be 1 to 1000")
		}
	}
	names := a.podNames()
	if len(names) == 0 {
		return message{}, refuse("noPod", "there is no pod")
	}
	names = names[:min(3, len(names))]
	for i := range n {
		if _, err := a.updatePod(names[i%len(names)]); err != nil {
			return message{}, err
		}
	}
	over := strings.Join(names, ", ")
	return msg("burst", fmt.Sprintf("%d updates over %s", n, over), "n", fmt.Sprint(n), "pods", over), nil
}

func (a *app) down(*http.Request) (message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.apiDown {
		return message{}, refuse("alreadyDown", "the server is already down")
	}
	if err := a.api.Stop(); err != nil {
		return message{}, err
	}
	a.apiDown = true
	return msg("down", "the server stopped listening (writes from this page still reach its store)"), nil
}

func (a *app) up(*http.Request) (message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.apiDown {
		return message{}, refuse("alreadyUp", "the server is already up")
	}
	if err := a.api.Restart(); err != nil {
		return message{}, err
	}
	a.apiDown = false
	return msg("up", "the server listens again"), nil
}

func (a *app) addHandler(*http.Request) (message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for slot, h := range a.handlers {
		if h == nil {
			h = a.newHandlerLocked(slot)
			if err := a.registerLocked(a.inf, slot, h); err != nil {
				return message{}, err
			}
			a.handlers[slot] = h
			return plain(h.name), nil
		}
	}
	return message{}, refuse("slotsFull", "every handler slot is taken")
}

// removeHandler removes the last handler added (never the first two).
func (a *app) removeHandler(*http.Request) (message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for slot := handlerSlots - 1; slot >= 2; slot-- {
		if h := a.handlers[slot]; h != nil {
			if err := unregister(a.inf, h); err != nil {
				return message{}, err
			}
			a.handlers[slot] = nil
			return plain(h.name), nil
		}
	}
	return message{}, refuse("twoStay", "only the two first handlers are left; they stay")
}

// slowerOrFaster doubles or halves the slow handler's work per event.
func (a *app) slowerOrFaster(faster bool) controlFunc {
	return func(*http.Request) (message, error) {
		return plain("slowHandler: " + a.handlers[1].slower(faster).String()), nil
	}
}

// resyncNow moves the informer's clock one resync period forward: the
// resync timer fires and every handler is due.
func (a *app) resyncNow(*http.Request) (message, error) {
	a.mu.Lock()
	period := a.resync
	a.mu.Unlock()
	if period == 0 {
		return message{}, refuse("resyncOff", "resync is off: set a period first")
	}
	a.clock.Jump(period)
	return msg("jumped", "clock moved "+period.String()+" forward", "d", period.String()), nil
}

// setResyncPeriod restarts the informer with another resync period
// (period=0 turns it off): an informer's period is fixed when it is made.
func (a *app) setResyncPeriod(r *http.Request) (message, error) {
	d, err := time.ParseDuration(r.FormValue("period"))
	if err != nil || d < 0 || d > time.Hour || d > 0 && d < time.Second {
		return message{}, badRequest("period must be 0 or 1s to 1h")
	}
	a.mu.Lock()
	kind := a.queueKind
	a.mu.Unlock()
	return a.restart(kind, d), nil
}

// startOver restarts the informer as it is: its first list and watch again.
func (a *app) startOver(*http.Request) (message, error) {
	a.mu.Lock()
	kind, d := a.queueKind, a.resync
	a.mu.Unlock()
	return a.restart(kind, d), nil
}

// switchQueue restarts the informer on the other queue (kind=DeltaFIFO or
// kind=RealFIFO); the handlers carry over, and get the new informer's
// initial list.
func (a *app) switchQueue(r *http.Request) (message, error) {
	kind := r.FormValue("kind")
	if queueKinds[kind] == nil {
		return message{}, badRequest("kind must be DeltaFIFO or RealFIFO")
	}
	a.mu.Lock()
	d := a.resync
	a.mu.Unlock()
	return a.restart(kind, d), nil
}

// pause turns step mode on (Pause the consumer) or off (Resume the
// consumer).
func (a *app) pause(on bool) controlFunc {
	return func(*http.Request) (message, error) {
		a.mu.Lock()
		a.paused = on
		q := a.queue
		a.mu.Unlock()
		if q != nil {
			q.setPaused(on)
		}
		if on {
			return msg("paused", "step mode: each step Pops one item"), nil
		}
		return msg("running", "running"), nil
	}
}

func (a *app) step(*http.Request) (message, error) {
	a.mu.Lock()
	q := a.queue
	a.mu.Unlock()
	if q == nil {
		return message{}, refuse("notPaused", "not in step mode: pause the consumer first")
	}
	if err := q.step(); err != nil {
		return message{}, err
	}
	return msg("stepped", "one Pop allowed"), nil
}

// handlers.go holds the live view's event handlers. Each has its own Go
// type, named as client-go names a handler in its logs (by its type:
// nameForHandler in client-go v0.37.2 tools/cache/event_handler_name.go).
// One of them is slow, and can be made slower, to show that a slow handler
// only grows its own backlog and never holds up the others or the queue.
// Each is registered with a tally, which gives its backlog (backlog.go).
//
// client-go counterpart: cache.ResourceEventHandler implementations.
// Tutorial: 004 §4.3 (handlers, each with its own buffer and goroutine).

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/learn-k8s/informer"
)

// maxReceived is how many received events a handler panel shows.
const maxReceived = 12

// received is one call of a handler.
type received struct {
	At   string `json:"at"`
	Call string `json:"call"` // OnAdd, OnUpdate, OnDelete
	Key  string `json:"key"`
	RV   string `json:"rv,omitempty"`
	Note string `json:"note,omitempty"` // initial list, resync, tombstone
}

// handlerState is one handler's panel.
type handlerState struct {
	Name     string     `json:"name"`
	Delay    string     `json:"delay"`
	Pending  int64      `json:"pending"` // calls handed to it and not yet taken (backlog.go)
	Count    int        `json:"count"`
	Received []received `json:"received"`
}

// viewHandler records the calls it gets, then "works" for its delay.
type viewHandler struct {
	name string
	feed *feed
	ctx  context.Context // ends the work of a stopping program

	// before is called with a call's key and version before the call is
	// written into the feed (the Pop's cache lines go first).
	before func(key, rv string)

	mu       sync.Mutex // guards the fields below
	delay    time.Duration
	count    int // calls taken, over every informer it was registered with
	received []received
	reg      informer.ResourceEventHandlerRegistration
	// tally counts what the informer hands this handler since reg, and
	// base is count at that moment (backlog.go).
	tally    *tally
	tallyReg informer.ResourceEventHandlerRegistration
	base     int
}

// The handler types. Their names are what the page shows.
type (
	fastHandler   struct{ *viewHandler }
	slowHandler   struct{ *viewHandler }
	extraHandler1 struct{ *viewHandler }
	extraHandler2 struct{ *viewHandler }
	extraHandler3 struct{ *viewHandler }
)

// handlerNames are the handler types' names, by slot.
var handlerNames = [...]string{"main.fastHandler", "main.slowHandler", "main.extraHandler1", "main.extraHandler2", "main.extraHandler3"}

// newHandler returns the handler of slot, with no work per event.
func newHandler(slot int, f *feed, ctx context.Context) *viewHandler {
	return &viewHandler{name: handlerNames[slot], feed: f, ctx: ctx}
}

// wrapHandler gives h the Go type of its slot.
func wrapHandler(slot int, h *viewHandler) informer.ResourceEventHandler {
	switch slot {
	case 0:
		return fastHandler{h}
	case 1:
		return slowHandler{h}
	case 2:
		return extraHandler1{h}
	case 3:
		return extraHandler2{h}
	}
	return extraHandler3{h}
}

// handlerSlots is how many handlers there can be.
const handlerSlots = len(handlerNames)

// OnAdd records an add.
func (h *viewHandler) OnAdd(obj any, isInInitialList bool) {
	note := ""
	if isInInitialList {
		note = "initial list"
	}
	h.got("OnAdd", obj, note)
}

// OnUpdate records an update; one that kept the version is a resync, or a
// relist that found the object unchanged.
func (h *viewHandler) OnUpdate(oldObj, newObj any) {
	note := ""
	if _, oldRV := describeObject(oldObj); oldRV != "" {
		if _, newRV := describeObject(newObj); oldRV == newRV {
			note = "same version: relist or resync"
		}
	}
	h.got("OnUpdate", newObj, note)
}

// OnDelete records a delete; a tombstone means the deletion was missed.
func (h *viewHandler) OnDelete(obj any) {
	note := ""
	if _, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		note = "DeletedFinalStateUnknown"
	}
	h.got("OnDelete", obj, note)
}

func (h *viewHandler) got(call string, obj any, note string) {
	key, rv := describeObject(obj)
	h.mu.Lock()
	h.count++
	h.received = append(h.received, received{At: time.Now().Format("15:04:05.000"), Call: call, Key: key, RV: rv, Note: note})
	if len(h.received) > maxReceived {
		h.received = append([]received(nil), h.received[len(h.received)-maxReceived:]...)
	}
	delay := h.delay
	h.mu.Unlock()
	if h.before != nil {
		h.before(key, rv)
	}
	h.feed.addEntry(entry{Panel: "handlers", Kind: call, Key: key, RV: rv, Text: h.name + " " + note, Note: note})
	if delay > 0 {
		t := time.NewTimer(delay) // the handler's "work"
		defer t.Stop()
		select {
		case <-t.C:
		case <-h.ctx.Done():
		}
	}
}

// slower doubles the delay (from 100 ms), up to 10 s; faster halves it,
// down to none.
func (h *viewHandler) slower(faster bool) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case faster && h.delay <= 100*time.Millisecond:
		h.delay = 0
	case faster:
		h.delay /= 2
	case h.delay == 0:
		h.delay = 100 * time.Millisecond
	default:
		h.delay = min(2*h.delay, 10*time.Second)
	}
	return h.delay
}

func (h *viewHandler) snapshot() handlerState {
	pending := h.backlog()
	h.mu.Lock()
	defer h.mu.Unlock()
	return handlerState{
		Name: h.name, Delay: fmt.Sprint(h.delay), Pending: pending, Count: h.count,
		Received: append([]received{}, h.received...),
	}
}

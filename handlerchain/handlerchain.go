// Package handlerchain holds Chain, one informer.ResourceEventHandler that
// passes every notification to several handlers, one after another, in a
// fixed order:
// the tutorial's handler "priority", where the earlier handler in the chain
// is the higher priority. Every handler in the chain is called, whatever the
// others do: handlers return nothing, so there is no error to stop at, and a
// handler that panics is recovered, reported, and skipped for that one
// notification only.
//
// client-go counterpart: none. A client-go informer calls each registered
// handler independently, from its own goroutine, in no order, and a panic
// in a handler crashes the program (HandleCrash re-panics by default; the
// root package's processor.go does the same). A chain is built on top of
// that: register it with AddEventHandler like any handler. Because the chain runs its handlers
// on one goroutine, a slow handler delays the ones after it; register
// handlers separately when they need not be ordered. Handlers are added and
// removed while an informer runs with AddEventHandler and RemoveEventHandler
// (the tutorial's "hot upgrade").
//
// Tutorial: 004 §4.3 (handler chains, filters, priority) and 000 ch. 5
// (生产环境热升级: adding and removing handlers at run time). Walkthrough:
// Step 14 (go test -v -run Step14 ./handlerchain).
package handlerchain

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	informer "github.com/learn-k8s/informer"
)

// Chain is an informer.ResourceEventHandler that calls each of Handlers in
// order, for every notification. Wrap a handler in an
// informer.FilteringResourceEventHandler to let it see only some objects; the other
// handlers of the chain are not affected.
type Chain struct {
	// Handlers are called first to last. Nil entries are skipped.
	Handlers []informer.ResourceEventHandler
	// PanicHandler, if set, is told about a handler that panicked (its
	// index in Handlers and the recovered value) instead of the default,
	// which logs the panic and its stack with slog.Error. Either way the
	// chain goes on with the next handler.
	PanicHandler func(index int, recovered any)
}

// New returns a chain of handlers, called in the order given.
func New(handlers ...informer.ResourceEventHandler) Chain {
	return Chain{Handlers: handlers}
}

var _ informer.ResourceEventHandler = Chain{}

// OnAdd calls OnAdd of every handler in order.
func (c Chain) OnAdd(obj any, isInInitialList bool) {
	c.each(func(h informer.ResourceEventHandler) { h.OnAdd(obj, isInInitialList) })
}

// OnUpdate calls OnUpdate of every handler in order.
func (c Chain) OnUpdate(oldObj, newObj any) {
	c.each(func(h informer.ResourceEventHandler) { h.OnUpdate(oldObj, newObj) })
}

// OnDelete calls OnDelete of every handler in order.
func (c Chain) OnDelete(obj any) {
	c.each(func(h informer.ResourceEventHandler) { h.OnDelete(obj) })
}

// each calls call with every handler, first to last.
func (c Chain) each(call func(informer.ResourceEventHandler)) {
	for i, h := range c.Handlers {
		if h != nil {
			c.callOne(i, h, call)
		}
	}
}

// callOne calls one handler, recovering a panic so that the rest of the
// chain still runs.
func (c Chain) callOne(i int, h informer.ResourceEventHandler, call func(informer.ResourceEventHandler)) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if c.PanicHandler != nil {
			c.PanicHandler(i, r)
			return
		}
		slog.Error("a handler in a handler chain panicked; the chain goes on",
			"index", i, "handler", fmt.Sprintf("%T", h), "panic", r, "stack", string(debug.Stack()))
	}()
	call(h)
}

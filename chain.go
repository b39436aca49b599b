// chain.go holds HandlerChain, one ResourceEventHandler that passes every
// notification to several handlers, one after another, in a fixed order:
// the tutorial's handler "priority", where the earlier handler in the chain
// is the higher priority. Every handler in the chain is called, whatever the
// others do: handlers return nothing, so there is no error to stop at, and a
// handler that panics is recovered, reported, and skipped for that one
// notification only.
//
// client-go counterpart: none. A client-go informer calls each registered
// handler independently, from its own goroutine, in no order, and a panic
// in a handler crashes the program (HandleCrash re-panics by default; our
// processor.go does the same). A chain is built on top of that: register it
// with AddEventHandler like any handler. Because the chain runs its handlers
// on one goroutine, a slow handler delays the ones after it; register
// handlers separately when they need not be ordered. Handlers are added and
// removed while an informer runs with AddEventHandler and RemoveEventHandler
// (the tutorial's "hot upgrade").
//
// Tutorial: 004 §4.3 (handler chains, filters, priority) and 000 ch. 5
// (生产环境热升级: adding and removing handlers at run time).

package informer

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// HandlerChain is a ResourceEventHandler that calls each of Handlers in
// order, for every notification. Wrap a handler in a
// FilteringResourceEventHandler to let it see only some objects; the other
// handlers of the chain are not affected.
type HandlerChain struct {
	// Handlers are called first to last. Nil entries are skipped.
	Handlers []ResourceEventHandler
	// PanicHandler, if set, is told about a handler that panicked (its
	// index in Handlers and the recovered value) instead of the default,
	// which logs the panic and its stack with slog.Error. Either way the
	// chain goes on with the next handler.
	PanicHandler func(index int, recovered any)
}

// NewHandlerChain returns a chain of handlers, called in the order given.
func NewHandlerChain(handlers ...ResourceEventHandler) HandlerChain {
	return HandlerChain{Handlers: handlers}
}

var _ ResourceEventHandler = HandlerChain{}

// OnAdd calls OnAdd of every handler in order.
func (c HandlerChain) OnAdd(obj any, isInInitialList bool) {
	c.each(func(h ResourceEventHandler) { h.OnAdd(obj, isInInitialList) })
}

// OnUpdate calls OnUpdate of every handler in order.
func (c HandlerChain) OnUpdate(oldObj, newObj any) {
	c.each(func(h ResourceEventHandler) { h.OnUpdate(oldObj, newObj) })
}

// OnDelete calls OnDelete of every handler in order.
func (c HandlerChain) OnDelete(obj any) {
	c.each(func(h ResourceEventHandler) { h.OnDelete(obj) })
}

// each calls call with every handler, first to last.
func (c HandlerChain) each(call func(ResourceEventHandler)) {
	for i, h := range c.Handlers {
		if h != nil {
			c.callOne(i, h, call)
		}
	}
}

// callOne calls one handler, recovering a panic so that the rest of the
// chain still runs.
func (c HandlerChain) callOne(i int, h ResourceEventHandler, call func(ResourceEventHandler)) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if c.PanicHandler != nil {
			c.PanicHandler(i, r)
			return
		}
		slog.Error("a handler in a HandlerChain panicked; the chain goes on",
			"index", i, "handler", fmt.Sprintf("%T", h), "panic", r, "stack", string(debug.Stack()))
	}()
	call(h)
}

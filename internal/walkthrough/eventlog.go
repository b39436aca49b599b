// eventlog.go holds EventLog, which records the notifications of any number
// of handlers as lines such as "audit add default/web", in the order they
// happen, for the Steps that show handlers in order.
//
// client-go counterpart: none (a test helper).
//
// Tutorial: none of its own (a test helper); the Steps that use it cite theirs.

package walkthrough

import (
	"slices"
	"sync"

	informer "github.com/learn-k8s/informer"
)

// EventLog records notifications as lines. The zero value is ready to use.
type EventLog struct {
	mu    sync.Mutex // guards lines
	lines []string
}

// Handler returns a handler that records its notifications under name.
func (l *EventLog) Handler(name string) informer.ResourceEventHandler {
	rec := func(op string, obj any) {
		key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
		l.Add(name + " " + op + " " + key)
	}
	return informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { rec("add", obj) },
		UpdateFunc: func(_, obj any) { rec("update", obj) },
		DeleteFunc: func(obj any) { rec("delete", obj) },
	}
}

// Add records a line of its own, in order with the handlers' lines.
func (l *EventLog) Add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
}

// All returns a copy of the lines so far.
func (l *EventLog) All() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// Has reports whether line was recorded.
func (l *EventLog) Has(line string) bool { return slices.Contains(l.All(), line) }

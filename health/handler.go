// handler.go holds the handler wrapper a Recorder makes: it counts the
// notifications a handler has finished and sees one that is taking long,
// the sign of a handler that cannot keep up. The informer keeps every
// notification for a slow handler in that handler's own buffer (never
// dropped, never slowing the others), so a handler that stays busy falls
// further and further behind.
//
// client-go counterpart: none; client-go measures handlers through the
// callers' own metrics.
//
// Tutorial: 000 ch. 5 (增量事件流控与背压: backpressure on a slow handler).

package health

import (
	"encoding/json"
	"sync"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
)

// HandlerHealth is one handler's progress.
type HandlerHealth struct {
	// Handler is the name given to Recorder.Handler.
	Handler string `json:"handler"`
	// Handled counts the notifications the handler has finished.
	Handled int64 `json:"handled"`
	// Busy is how long the notification in progress has taken so far; 0
	// when the handler is idle. One that keeps growing is a stuck handler.
	Busy time.Duration `json:"busy"`
	// InProgress reports whether a notification is in progress.
	InProgress bool `json:"inProgress"`
}

// MarshalJSON writes Busy as a string such as "1.5s".
func (h HandlerHealth) MarshalJSON() ([]byte, error) {
	type plain HandlerHealth // the same fields, without this method
	return json.Marshal(struct {
		plain
		Busy string `json:"busy"`
	}{plain: plain(h), Busy: h.Busy.String()})
}

// Handler returns h wrapped so that the Recorder follows its progress under
// name. Register the wrapper with AddEventHandler instead of h. A nil h is
// returned as is (AddEventHandler refuses it).
func (r *Recorder) Handler(name string, h informer.ResourceEventHandler) informer.ResourceEventHandler {
	if h == nil {
		return nil
	}
	f := &handlerFigures{name: name}
	r.mu.Lock()
	r.handlers = append(r.handlers, f)
	r.mu.Unlock()
	return &handler{inner: h, figures: f, clock: r.clock}
}

// handlerFigures is what the Recorder knows of one handler.
type handlerFigures struct {
	name string

	mu      sync.Mutex // guards the fields below
	handled int64
	since   time.Time // when the notification in progress began; zero when idle
	busy    bool
}

func (f *handlerFigures) begin(now time.Time) {
	f.mu.Lock()
	f.since, f.busy = now, true
	f.mu.Unlock()
}

func (f *handlerFigures) end() {
	f.mu.Lock()
	f.handled++
	f.since, f.busy = time.Time{}, false
	f.mu.Unlock()
}

func (f *handlerFigures) snapshot(clock clock.Clock) HandlerHealth {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := HandlerHealth{Handler: f.name, Handled: f.handled, InProgress: f.busy}
	if f.busy {
		h.Busy = clock.Since(f.since)
	}
	return h
}

// handler calls inner between begin and end.
type handler struct {
	inner   informer.ResourceEventHandler
	figures *handlerFigures
	clock   clock.Clock
}

func (h *handler) OnAdd(obj any, isInInitialList bool) {
	h.figures.begin(h.clock.Now())
	defer h.figures.end()
	h.inner.OnAdd(obj, isInInitialList)
}

func (h *handler) OnUpdate(oldObj, newObj any) {
	h.figures.begin(h.clock.Now())
	defer h.figures.end()
	h.inner.OnUpdate(oldObj, newObj)
}

func (h *handler) OnDelete(obj any) {
	h.figures.begin(h.clock.Now())
	defer h.figures.end()
	h.inner.OnDelete(obj)
}

// controls.go holds the live view's controls: each is a POST that drives the
// API server (writes, dropped watches, compaction, down and up) or the
// informer (handlers, resync, step mode) through public calls only. Every
// control first writes its own line into the feed, so its effects follow it
// there in order. Only pages served from this loopback address may use them.
//
// client-go counterpart: none.
// Tutorial: 000 §4.3 (when things go wrong), 004 §4.2–§4.4.

package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/learn-k8s/informer/fakeapi"
)

// controlFunc runs a control and says what it did.
type controlFunc func(r *http.Request) (string, error)

// controls maps each control's name (its path under /api/) to its function.
func (a *app) controls() map[string]controlFunc {
	return map[string]controlFunc{
		"create":        func(*http.Request) (string, error) { return a.createPod() },
		"update":        func(r *http.Request) (string, error) { return a.updatePod(r.FormValue("name")) },
		"delete":        func(r *http.Request) (string, error) { return a.deletePod(r.FormValue("name")) },
		"burst":         a.burst,
		"dropwatch":     func(*http.Request) (string, error) { a.api.CloseWatches(); return "watches closed", nil },
		"compact":       func(*http.Request) (string, error) { a.api.Compact(0); return "history compacted", nil },
		"down":          a.down,
		"up":            a.up,
		"addhandler":    a.addHandler,
		"removehandler": a.removeHandler,
		"resync":        a.resync,
		"pause":         a.pause,
		"step":          a.step,
		"queue":         a.switchQueue,
		"slower": func(*http.Request) (string, error) {
			return "slowHandler: " + a.handlers[1].slower(false).String(), nil
		},
		"faster": func(*http.Request) (string, error) { return "slowHandler: " + a.handlers[1].slower(true).String(), nil },
	}
}

// control serves one control: POST only; its line goes into the feed before
// it runs; the answer is JSON {"ok":..., "text":...}.
func (a *app) control(name string, run controlFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "controls are POST only", http.StatusMethodNotAllowed)
			return
		}
		a.feed.add("control", name, r.FormValue("name"), "", r.Form.Encode())
		text, err := run(r)
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			code := http.StatusConflict
			if errors.Is(err, errBadRequest) {
				code = http.StatusBadRequest
			}
			w.WriteHeader(code)
			a.feed.add("control", name+" failed", "", "", err.Error())
			sendJSON(w, map[string]any{"ok": false, "text": err.Error()})
			return
		}
		sendJSON(w, map[string]any{"ok": true, "text": text})
	}
}

// loopbackOnly refuses requests that name another host (DNS rebinding) and
// controls posted by a page from another origin.
func loopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "the live view answers loopback addresses only", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && r.Method != http.MethodGet {
			if u, err := url.Parse(o); err != nil || u.Host != r.Host {
				http.Error(w, "controls only from the live view's own page", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// podNames lists the pods on the server, in key order.
func (a *app) podNames() []string {
	items, _ := a.api.List(fakeapi.Pods, "default")
	names := make([]string, 0, len(items))
	for _, it := range items {
		md, _ := it["metadata"].(map[string]any)
		if n, ok := md["name"].(string); ok {
			names = append(names, n)
		}
	}
	return names
}

func (a *app) createPod() (string, error) {
	a.mu.Lock()
	a.podSeq++
	n := a.podSeq
	a.mu.Unlock()
	name := fmt.Sprintf("pod-%d", n)
	app := [...]string{"web", "db"}[n%2]
	_, err := a.api.Create(fakeapi.Pods, "default", map[string]any{
		"metadata": map[string]any{"name": name, "labels": map[string]any{"app": app}},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": app, "image": "nginx"}}},
	})
	return "default/" + name, err
}

// updatePod changes a label of the named pod, or of the first one.
func (a *app) updatePod(name string) (string, error) {
	if name == "" {
		names := a.podNames()
		if len(names) == 0 {
			return "", errors.New("there is no pod to update")
		}
		name = names[0]
	}
	obj, err := a.api.Get(fakeapi.Pods, "default", name)
	if err != nil {
		return "", err
	}
	md, _ := obj["metadata"].(map[string]any)
	labels, _ := md["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		md["labels"] = labels
	}
	gen, _ := strconv.Atoi(fmt.Sprint(labels["generation"]))
	labels["generation"] = strconv.Itoa(gen + 1)
	_, err = a.api.Update(fakeapi.Pods, "default", obj)
	return "default/" + name, err
}

// deletePod deletes the named pod, or the first one.
func (a *app) deletePod(name string) (string, error) {
	if name == "" {
		names := a.podNames()
		if len(names) == 0 {
			return "", errors.New("there is no pod to delete")
		}
		name = names[0]
	}
	return "default/" + name, a.api.Delete(fakeapi.Pods, "default", name)
}

// burst makes n updates (default 10) over the first three pods, so that the
// queue merges several Deltas under one key.
func (a *app) burst(r *http.Request) (string, error) {
	n := 10
	if v := r.FormValue("n"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > 1000 {
			return "", fmt.Errorf("%w: n must be 1 to 1000", errBadRequest)
		}
	}
	names := a.podNames()
	if len(names) == 0 {
		return "", errors.New("there is no pod to update")
	}
	names = names[:min(3, len(names))]
	for i := range n {
		if _, err := a.updatePod(names[i%len(names)]); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%d updates", n), nil
}

func (a *app) down(*http.Request) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.apiDown {
		return "", errors.New("the server is already down")
	}
	if err := a.api.Stop(); err != nil {
		return "", err
	}
	a.apiDown = true
	return "the server stopped listening (writes from this page still reach its store)", nil
}

func (a *app) up(*http.Request) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.apiDown {
		return "", errors.New("the server is already up")
	}
	if err := a.api.Restart(); err != nil {
		return "", err
	}
	a.apiDown = false
	return "the server listens again", nil
}

func (a *app) addHandler(*http.Request) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for slot, h := range a.handlers {
		if h == nil {
			h = newHandler(slot, a.feed, a.ctx)
			reg, err := a.inf.AddEventHandler(wrapHandler(slot, h))
			if err != nil {
				return "", err
			}
			h.reg, a.handlers[slot] = reg, h
			return h.name, nil
		}
	}
	return "", errors.New("every handler slot is taken")
}

// removeHandler removes the last handler added (never the first two).
func (a *app) removeHandler(*http.Request) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for slot := handlerSlots - 1; slot >= 2; slot-- {
		if h := a.handlers[slot]; h != nil {
			if err := a.inf.RemoveEventHandler(h.reg); err != nil {
				return "", err
			}
			a.handlers[slot] = nil
			return h.name, nil
		}
	}
	return "", errors.New("only the two first handlers are left; they stay")
}

// resync moves the informer's clock one resync period forward: the resync
// timer fires and every handler is due.
func (a *app) resync(*http.Request) (string, error) {
	a.clock.Jump(a.cfg.ResyncPeriod)
	return "clock moved " + a.cfg.ResyncPeriod.String() + " forward", nil
}

func (a *app) pause(r *http.Request) (string, error) {
	on, err := strconv.ParseBool(r.FormValue("on"))
	if err != nil {
		return "", fmt.Errorf("%w: on must be true or false", errBadRequest)
	}
	a.mu.Lock()
	a.paused = on
	q := a.queue
	a.mu.Unlock()
	if q != nil {
		q.setPaused(on)
	}
	if on {
		return "step mode: each step Pops one item", nil
	}
	return "running", nil
}

func (a *app) step(*http.Request) (string, error) {
	a.mu.Lock()
	q := a.queue
	a.mu.Unlock()
	if q == nil || !q.step() {
		return "", errors.New("not in step mode")
	}
	return "one Pop allowed", nil
}

// switchQueue stops the informer and starts a new one on the other queue
// (kind=DeltaFIFO or kind=RealFIFO); the handlers carry over, and get the
// new informer's initial list.
func (a *app) switchQueue(r *http.Request) (string, error) {
	kind := r.FormValue("kind")
	if queueKinds[kind] == nil {
		return "", fmt.Errorf("%w: kind must be DeltaFIFO or RealFIFO", errBadRequest)
	}
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.stopInformer()
	a.startInformer(kind)
	return "the informer now runs a " + kind, nil
}

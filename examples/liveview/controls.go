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
	"slices"
	"strconv"

	"github.com/learn-k8s/informer/fakeapi"
)

// controlFunc runs a control and says what it did.
type controlFunc func(r *http.Request) (message, error)

// said turns a function that returns plain text into a controlFunc.
func said(f func() (string, error)) controlFunc {
	return func(*http.Request) (message, error) {
		text, err := f()
		return plain(text), err
	}
}

// controls maps each control's name (its path under /api/) to its function.
// The slower and faster controls, and resync and step, are in controls_informer.go.
func (a *app) controls() map[string]controlFunc {
	return map[string]controlFunc{
		"create": said(a.createPod),
		"update": func(r *http.Request) (message, error) {
			return said(func() (string, error) { return a.updatePod(r.FormValue("name")) })(r)
		},
		"delete": func(r *http.Request) (message, error) {
			return said(func() (string, error) { return a.deletePod(r.FormValue("name")) })(r)
		},
		"burst": a.burst,
		"dropwatch": func(*http.Request) (message, error) {
			a.api.CloseWatches()
			return msg("watchesClosed", "the server ended every watch"), nil
		},
		"compact": func(*http.Request) (message, error) {
			a.api.Compact(0)
			return msg("compacted", "history compacted: no old event is kept"), nil
		},
		"down":          a.down,
		"up":            a.up,
		"addhandler":    a.addHandler,
		"removehandler": a.removeHandler,
		"resync":        a.resyncNow,
		"resyncperiod":  a.setResyncPeriod,
		"restart":       a.startOver,
		"pause":         a.pause(true),
		"resume":        a.pause(false),
		"step":          a.step,
		"queue":         a.switchQueue,
		"slower":        a.slowerOrFaster(false),
		"faster":        a.slowerOrFaster(true),
	}
}

// control serves one control: POST only; its line goes into the feed before
// it runs; the answer is JSON {"ok":..., "text":..., "msg":..., "args":...,
// "seq":...}. seq is the feed's newest entry once the control has run: a
// snapshot whose seq is as high began after it, so it shows what the
// control did (a page that acts on the state waits for one).
// A control that cannot run now (the server is already down...) answers
// 200 with ok false: the request was fine, so the page logs no failed
// request; bad input is a 400.
func (a *app) control(name string, run controlFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "controls are POST only", http.StatusMethodNotAllowed)
			return
		}
		a.feed.add("control", name, r.FormValue("name"), "", r.Form.Encode())
		m, err := run(r)
		w.Header().Set("Content-Type", "application/json")
		ok := err == nil
		if !ok {
			m = messageOf(err)
			if errors.Is(err, errBadRequest) {
				w.WriteHeader(http.StatusBadRequest)
			}
			a.feed.addMsg("control", name+" failed", "", "", m)
		}
		sendJSON(w, map[string]any{"ok": ok, "text": m.Text, "msg": m.Msg, "args": m.Args,
			"seq": a.feed.lastSeq()})
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

// podNames lists the pods on the server in the order the panels show them
// (pod-2 before pod-10): "the first pod" is the one at the top.
func (a *app) podNames() []string {
	items, _ := a.api.List(fakeapi.Pods, "default")
	names := make([]string, 0, len(items))
	for _, it := range items {
		md, _ := it["metadata"].(map[string]any)
		if n, ok := md["name"].(string); ok {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, naturalCompare)
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
			return "", refuse("noPod", "there is no pod")
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
			return "", refuse("noPod", "there is no pod")
		}
		name = names[0]
	}
	return "default/" + name, a.api.Delete(fakeapi.Pods, "default", name)
}

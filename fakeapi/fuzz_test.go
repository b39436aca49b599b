// fuzz_test.go: fuzz targets for what a client controls: the label selector
// parser and whole requests (method, path, query, Content-Type, body).
// Plain `go test` runs the seeds below and the corpus in testdata/fuzz/;
// `go test -fuzz=FuzzRequest -fuzztime=5m -parallel=1 ./fakeapi` searches
// for more (figures in docs/how-we-know.md).

package fakeapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// FuzzLabelSelector checks that the parser never panics, that what it
// accepts is valid, and that rendering an accepted selector and parsing it
// again gives the same selector.
func FuzzLabelSelector(f *testing.F) {
	for _, s := range []string{"", "app=web", "app==web", "app!=web", "app in (a, b)", "app notin (a)",
		"tier", "!tier", "a in (x),b!=y,!c", "example.com/app=x", "a/b/c=x", "app in ()", "app in (x",
		"a),b", ",,", "app=", " app = web ", "a=b=c", "!", "a in (b,c))", "a notin (,)", "é=1"} {
		f.Add(s)
	}
	labels := []map[string]string{{}, {"app": "web", "tier": "front"}, {"app": "", "example.com/app": "x"}}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := parseLabelSelector(s)
		if err != nil {
			return
		}
		for _, r := range sel {
			if keyErr(r.key) != nil || valuesErr(r) != nil {
				t.Fatalf("%q: accepted an invalid requirement %+v", s, r)
			}
			if n := len(r.values); (r.op == "=" || r.op == "!=") && n != 1 || (r.op == "exists" || r.op == "!") && n != 0 {
				t.Fatalf("%q: requirement %+v has the wrong number of values", s, r)
			}
		}
		again, err := parseLabelSelector(render(sel))
		if err != nil || render(again) != render(sel) {
			t.Fatalf("%q rendered as %q parses as %q (%v)", s, render(sel), render(again), err)
		}
		for _, l := range labels {
			sel.matches(func(k string) (string, bool) { v, ok := l[k]; return v, ok })
		}
	})
}

// render writes sel back in the selector syntax.
func render(sel selector) string {
	var parts []string
	for _, r := range sel {
		switch r.op {
		case "exists":
			parts = append(parts, r.key)
		case "!":
			parts = append(parts, "!"+r.key)
		case "in", "notin":
			parts = append(parts, r.key+" "+r.op+" ("+strings.Join(r.values, ",")+")")
		default:
			parts = append(parts, r.key+r.op+r.values[0])
		}
	}
	return strings.Join(parts, ",")
}

// fuzzMethods are the methods FuzzRequest picks from.
var fuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// FuzzRequest sends one arbitrary request to a freshly seeded server through
// ServeHTTP and checks: no panic; an error answer is one Status object whose
// code is the HTTP code, and it leaves the state exactly as it was; a GET
// never changes the state; every answer is JSON (a watch: one JSON event per
// line); and whatever was accepted, every stored object is still well formed.
func FuzzRequest(f *testing.F) {
	const pods = "/api/v1/namespaces/a/pods"
	tok := continueToken{RV: 3, Start: "a/db"}.String()
	for _, c := range []struct {
		method   uint8
		path, q  string
		ct, body string
	}{
		{0, pods, "", "", ""},
		{0, "/api/v1/pods", "limit=1&continue=" + tok, "", ""},
		{0, pods, "limit=1&labelSelector=app%3Dweb", "", ""},
		{0, pods, "watch=1&resourceVersion=2&labelSelector=app+in+(web)", "", ""},
		{0, pods, "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", "", ""},
		{0, pods, "resourceVersion=3&resourceVersionMatch=Exact", "", ""},
		{0, pods, "fieldSelector=status.phase%3DPending,metadata.name!%3Dweb", "", ""},
		{0, pods + "/web", "", "", ""},
		{0, "/apis/apps/v1/namespaces/a/deployments", "", "", ""},
		{1, pods, "", "application/json", `{"metadata":{"name":"new","labels":{"app":"x"}}}`},
		{1, pods, "", "application/json", `{"metadata":{"generateName":"gen-"}}`},
		{1, "/api/v1/nodes", "", "application/json", `{"kind":"Node","metadata":{"name":"n2"}}`},
		{2, pods + "/web", "", "application/json", `{"metadata":{"name":"web","resourceVersion":"2"},"spec":{}}`},
		{3, pods + "/web", "", "application/merge-patch+json", `{"metadata":{"labels":{"app":null,"x":"y"}}}`},
		{3, pods + "/web", "", "application/strategic-merge-patch+json", `{"spec":{"containers":[{"name":"main","$patch":"delete"},{"name":"side"}]}}`},
		{4, pods + "/db", "", "application/json", `{"preconditions":{"resourceVersion":"3"}}`},
		{4, "/api/v1/namespaces/a/configmaps/cfg", "", "", ""},
		{5, pods, "", "", ""},
		{1, pods, "", "application/json", `{"metadata":{"name":"x","labels":{"a":1}}}`},
	} {
		f.Add(c.method, c.path, c.q, c.ct, []byte(c.body))
	}
	s, err := Start(Options{VersionWait: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, method uint8, path, query, ct string, body []byte) {
		s.st = newStore(s.opts.History) // ServeHTTP is called directly: nothing else uses s.st
		seedObjects(t, s)
		s.Compact(3) // fuzzed versions and tokens may be valid, expired or in the future
		before := dumpState(s)
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a watch ends after what it has at once, and no wait blocks
		r := (&http.Request{
			Method: fuzzMethods[int(method)%len(fuzzMethods)],
			URL:    &url.URL{Path: path, RawQuery: query},
			Header: http.Header{},
			Body:   io.NopCloser(bytes.NewReader(body)),
		}).WithContext(ctx)
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)

		after := dumpState(s)
		if (w.Code >= 400 || r.Method == "GET") && after != before {
			t.Fatalf("%s %s?%s answered %d and changed the state:\nbefore %s\nafter  %s", r.Method, path, query, w.Code, before, after)
		}
		checkAnswer(t, w, r, s.st.current())
		checkStored(t, s)
	})
}

// seedObjects stores a few objects of several kinds in namespaces a and b.
func seedObjects(t *testing.T, s *Server) {
	t.Helper()
	for _, c := range []struct {
		r        Resource
		ns, body string
	}{
		{Pods, "a", podJSON("web", "app=web")},
		{Pods, "a", podJSON("db", "app=db")},
		{Pods, "b", podJSON("web", "app=web,tier=front")},
		{ConfigMaps, "a", `{"metadata":{"name":"cfg"},"data":{"k":"v"}}`},
		{Nodes, "", `{"metadata":{"name":"n1"}}`},
		{Deployments, "a", `{"metadata":{"name":"dep"},"spec":{"replicas":1}}`},
		{Namespaces, "", `{"metadata":{"name":"a"}}`},
		{Namespaces, "", `{"metadata":{"name":"b"}}`},
	} {
		var obj map[string]any
		_ = json.Unmarshal([]byte(c.body), &obj)
		if _, err := s.Create(c.r, c.ns, obj); err != nil {
			t.Fatal(err)
		}
	}
}

// checkAnswer checks the shape of one answer: a Status for an error, JSON
// for a success, one JSON event per line for a watch; a list never claims
// a version newer than the server's current one.
func checkAnswer(t *testing.T, w *httptest.ResponseRecorder, r *http.Request, current uint64) {
	t.Helper()
	raw := w.Body.Bytes()
	if w.Code >= 400 {
		var st map[string]any
		if err := json.Unmarshal(raw, &st); err != nil || st["kind"] != "Status" || st["code"] != float64(w.Code) || st["reason"] == "" {
			t.Fatalf("%s %s: error answer %d is not a matching Status: %.300q", r.Method, r.URL, w.Code, raw)
		}
		return
	}
	if w.Header().Get("Content-Type") != "application/json" {
		return // discovery's health checks answer plain "ok"
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s %s: answer %d has a line that is not a JSON object: %.300q", r.Method, r.URL, w.Code, sc.Bytes())
		}
		if meta, _ := v["metadata"].(map[string]any); meta != nil && v["items"] != nil {
			rv, _ := strconv.ParseUint(meta["resourceVersion"].(string), 10, 64)
			if rv > current {
				t.Fatalf("list at version %d, newer than the server", rv)
			}
		}
	}
}

// checkStored fails t if any stored object could not have been written
// through the API: every one must pass the checks a write goes through.
func checkStored(t *testing.T, s *Server) {
	t.Helper()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	for ri, objs := range s.st.objects {
		for key, o := range objs {
			req := writeRequest{ri: ri, ns: o.ns, name: o.name}
			if e := req.checkBody(deepCopy(o.body).(map[string]any), false); e != nil || key != o.key || o.rv > s.st.rv {
				t.Fatalf("stored %s %s is malformed (%v): %v", ri, key, e, o.body)
			}
			if rv, _ := metadata(o.body)["resourceVersion"].(string); rv != strconv.FormatUint(o.rv, 10) {
				t.Fatalf("stored %s %s: resourceVersion %q, stored at %d", ri, key, rv, o.rv)
			}
		}
	}
}

// FuzzAccept checks content negotiation (compat_negotiate.go) with any Accept
// header, on a list, one object and a watch: the answer is JSON in some
// form or a Status (406 for a form that does not fit), never a panic, and
// a read never changes the state.
func FuzzAccept(f *testing.F) {
	for _, a := range []string{"", "application/json", "*/*",
		"application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
		"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
		"application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
		"application/json;as=Table;v=v2;g=meta.k8s.io", "application/json;as=;g=;v=", "application/json;;;,,",
		"text/html, application/xml;q=0.9", "application/json;as=Table;v=v1;g=meta.k8s.io;q=0"} {
		for kind := range uint8(3) {
			f.Add(kind, a, "")
		}
	}
	f.Add(uint8(0), "application/json;as=Table;v=v1;g=meta.k8s.io", "includeObject=Object")
	f.Add(uint8(1), "application/json;as=Table;v=v1;g=meta.k8s.io", "includeObject=Bogus")
	s, err := Start(Options{VersionWait: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	paths := []string{"/api/v1/namespaces/a/pods", "/api/v1/namespaces/a/pods/web", "/api/v1/pods"}
	f.Fuzz(func(t *testing.T, kind uint8, accept, query string) {
		s.st = newStore(s.opts.History) // ServeHTTP is called directly: nothing else uses s.st
		seedObjects(t, s)
		before := dumpState(s)
		path := paths[int(kind)%len(paths)]
		if path == "/api/v1/pods" {
			query = "watch=1&" + query
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a watch sends what it has at once, then ends
		r := (&http.Request{Method: http.MethodGet, URL: &url.URL{Path: path, RawQuery: query}, Header: http.Header{}}).WithContext(ctx)
		r.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if after := dumpState(s); after != before {
			t.Fatalf("GET %s (Accept %q) changed the state", path, accept)
		}
		checkAnswer(t, w, r, s.st.current())
	})
}

// helpers_test.go: what every fakeapi test shares: starting a server, plain
// HTTP requests decoded as JSON maps, watch streams read line by line, and
// the check that no goroutine outlives the server.

package fakeapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// client is the HTTP client of the tests; its idle connections are closed
// before the goroutine check.
var client = &http.Client{Transport: &http.Transport{}}

// startServer starts a server for one test and registers its Close and
// a check that it left no goroutine behind.
func startServer(t *testing.T, opts Options) *Server {
	t.Helper()
	t.Cleanup(func() { checkNoGoroutines(t) }) // runs after Close (cleanups run last-in first-out)
	s, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// checkNoGoroutines fails t if a goroutine of a server, or of a connection
// to it, is still running a few seconds after the server closed.
func checkNoGoroutines(t *testing.T) {
	t.Helper()
	client.CloseIdleConnections()
	suspects := []string{"fakeapi.(*Server)", "fakeapi.(*store)", "net/http.(*conn).serve", "net/http.(*persistConn)"}
	deadline := time.Now().Add(5 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		var leaked []string
		for _, g := range strings.Split(stacks, "\n\n") {
			for _, s := range suspects {
				if strings.Contains(g, s) {
					leaked = append(leaked, g)
					break
				}
			}
		}
		if len(leaked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			// A cleanup reports with t.Errorf: the test is over, t.Fatal is not for it.
			t.Errorf("%d goroutines left after Close, e.g.:\n%s", len(leaked), leaked[0])
			return
		}
		time.Sleep(10 * time.Millisecond) // polling with a deadline, not synchronisation
	}
}

// call makes one request and decodes the JSON answer into a map.
func call(t *testing.T, method, url, contentType, body string) (int, map[string]any) {
	t.Helper()
	code, raw, _ := callRaw(t, method, url, contentType, body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: answer is not a JSON object: %v: %q", method, url, err, raw)
	}
	return code, m
}

// callRaw makes one request and returns the code, body and headers.
func callRaw(t *testing.T, method, url, contentType, body string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw, resp.Header
}

// podJSON is a pod manifest with the given name and labels ("k=v,k2=v2").
func podJSON(name, labels string) string {
	l := map[string]any{}
	for _, kv := range strings.Split(labels, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			l[k] = v
		}
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "labels": l},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "main", "image": "busybox"}}}})
	return string(b)
}

// mustCreatePod creates a pod in namespace default through the Go API.
func mustCreatePod(t *testing.T, s *Server, name, labels string) map[string]any {
	t.Helper()
	var obj map[string]any
	_ = json.Unmarshal([]byte(podJSON(name, labels)), &obj)
	m, err := s.Create(Pods, "default", obj)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// meta returns m's metadata map.
func meta(m map[string]any) map[string]any {
	md, _ := m["metadata"].(map[string]any)
	return md
}

// rvOf returns m's metadata.resourceVersion.
func rvOf(m map[string]any) string { s, _ := meta(m)["resourceVersion"].(string); return s }

// watchEvent is one line of a watch stream, decoded as plain JSON.
type watchEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
}

// stream is an open watch: its events arrive on a channel, which is closed
// when the stream ends.
type stream struct {
	events chan watchEvent
	body   io.ReadCloser
	header http.Header
}

// openWatch starts a watch request and checks it is answered 200.
func openWatch(t *testing.T, url string) *stream {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return openWatchRequest(t, req)
}

// openWatchRequest is openWatch for a request of the caller's making.
func openWatchRequest(t *testing.T, req *http.Request) *stream {
	t.Helper()
	url := req.URL
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("watch %s: %d %s", url, resp.StatusCode, raw)
	}
	st := &stream{events: make(chan watchEvent, 10000), body: resp.Body, header: resp.Header}
	go func() {
		defer close(st.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			var ev watchEvent
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				ev = watchEvent{Type: "UNDECODABLE: " + sc.Text()}
			}
			st.events <- ev
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return st
}

// next returns the next event, skipping BOOKMARKs unless wantBookmarks.
func (st *stream) next(t *testing.T, wantBookmarks bool) watchEvent {
	t.Helper()
	return st.nextFor(t, "another watch event", wantBookmarks)
}

// nextFor is next, what naming the event awaited for the failure message.
func (st *stream) nextFor(t *testing.T, what string, wantBookmarks bool) watchEvent {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-st.events:
			if !ok {
				t.Fatalf("watch stream ended; wanted %s", what)
			}
			if ev.Type == "BOOKMARK" && !wantBookmarks {
				continue
			}
			return ev
		case <-timeout:
			t.Fatalf("timed out after 5s waiting for %s", what)
		}
	}
}

// nextOrEnd returns the next event, bookmarks included, or ok false if
// the stream ended, failing t if neither happens within 5 s; what names
// what is awaited.
func (st *stream) nextOrEnd(t *testing.T, what string) (ev watchEvent, ok bool) {
	t.Helper()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	select {
	case ev, ok = <-st.events:
		return ev, ok
	case <-timer.C:
		t.Fatalf("timed out after 5s waiting for %s", what)
		return ev, false
	}
}

// expect reads the next non-bookmark event and checks its type and name.
func (st *stream) expect(t *testing.T, typ, name string) watchEvent {
	t.Helper()
	ev := st.nextFor(t, typ+" "+name, false)
	if got, _ := meta(ev.Object)["name"].(string); ev.Type != typ || got != name {
		t.Fatalf("event = %s %s, want %s %s", ev.Type, got, typ, name)
	}
	return ev
}

// ended waits for the stream to end, failing on any non-bookmark event.
func (st *stream) ended(t *testing.T) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-st.events:
			if !ok {
				return
			}
			if ev.Type != "BOOKMARK" {
				t.Fatalf("unexpected event %s before the end of the stream", ev.Type)
			}
		case <-timeout:
			t.Fatal("watch stream did not end within 5s")
		}
	}
}

// readCapture loads a real kube-apiserver answer from testdata/.
func readCapture(t testing.TB, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sameKeys fails t unless got and want have the same keys, recursively for
// the maps under the listed paths ("" = the top level, "details" ...).
func sameKeys(t *testing.T, what string, got, want map[string]any, paths ...string) {
	t.Helper()
	for _, p := range paths {
		g, w := got, want
		if p != "" {
			for _, part := range strings.Split(p, ".") {
				g, _ = g[part].(map[string]any)
				w, _ = w[part].(map[string]any)
			}
		}
		if gk, wk := keys(g), keys(w); gk != wk {
			t.Errorf("%s: keys at %q = %s, real server has %s", what, p, gk, wk)
		}
	}
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return fmt.Sprint(ks)
}

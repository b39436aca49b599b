// helpers_test.go holds the live view tests' helpers: starting the program
// on a free loopback port, posting controls, and reading the feed the way a
// page does, over server-sent events.

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// startTestApp starts the program and stops it when the test ends.
func startTestApp(t *testing.T, pods int) *app {
	t.Helper()
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: time.Hour, ResyncPeriod: 90 * time.Second, Pods: pods, Queue: "DeltaFIFO", BackoffScale: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// testClient is the tests' HTTP client; its idle connections are closed
// before goroutines are counted.
var testClient = &http.Client{Transport: &http.Transport{}}

// post posts a control and returns its answer's text; it fails the test
// unless the control answered ok.
func post(t *testing.T, a *app, control string, form url.Values) string {
	t.Helper()
	code, ok, text := tryPost(t, a, control, form)
	if code != http.StatusOK || !ok {
		t.Fatalf("POST %s %v: %d %s", control, form, code, text)
	}
	return text
}

func tryPost(t *testing.T, a *app, control string, form url.Values) (code int, ok bool, text string) {
	t.Helper()
	resp, err := testClient.PostForm(a.URL()+"api/"+control, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		OK   bool   `json:"ok"`
		Text string `json:"text"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &answer); err != nil {
		return resp.StatusCode, false, string(raw)
	}
	return resp.StatusCode, answer.OK, answer.Text
}

// stream is one page's view of the feed: its entries and snapshots.
type stream struct {
	entries chan entry
	states  chan state
	body    io.Closer
	pending []entry // entries read but not yet matched
}

// openStream opens /events as a page does.
func openStream(t *testing.T, a *app) *stream {
	t.Helper()
	resp, err := testClient.Get(a.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("GET /events: %d %s", resp.StatusCode, ct)
	}
	st := &stream{entries: make(chan entry, 10000), states: make(chan state, 1), body: resp.Body}
	go st.read(resp.Body)
	t.Cleanup(func() { resp.Body.Close() })
	return st
}

// read parses "event: NAME" / "data: JSON" pairs until the stream ends.
func (st *stream) read(body io.Reader) {
	defer close(st.entries)
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 16<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && name == "log":
			var es []entry
			if json.Unmarshal([]byte(line[6:]), &es) == nil {
				for _, e := range es {
					st.entries <- e
				}
			}
		case strings.HasPrefix(line, "data: ") && name == "state":
			var s state
			if json.Unmarshal([]byte(line[6:]), &s) == nil {
				select { // keep only the newest
				case <-st.states:
				default:
				}
				st.states <- s
			}
		}
	}
}

// match is one expected feed entry: every non-empty field must be equal,
// and Text must contain text.
type match struct{ panel, kind, key, rv, text string }

func (m match) matches(e entry) bool {
	return (m.panel == "" || m.panel == e.Panel) && (m.kind == "" || m.kind == e.Kind) &&
		(m.key == "" || m.key == e.Key) && (m.rv == "" || m.rv == e.RV) && strings.Contains(e.Text, m.text)
}

// expect waits for entries matching want, in that order (other entries may
// come between them), and returns them.
func (st *stream) expect(t *testing.T, want ...match) []entry {
	t.Helper()
	var got []entry
	deadline := time.After(10 * time.Second)
	for _, m := range want {
		for found := false; !found; {
			var e entry
			if len(st.pending) > 0 {
				e, st.pending = st.pending[0], st.pending[1:]
			} else {
				select {
				case e2, ok := <-st.entries:
					if !ok {
						t.Fatalf("the feed ended; still waiting for %+v (got %+v)", m, got)
					}
					e = e2
				case <-deadline:
					t.Fatalf("no feed entry %+v within 10s (matched so far: %+v)", m, got)
				}
			}
			if m.matches(e) {
				got, found = append(got, e), true
			}
		}
	}
	return got
}

// waitState waits for a snapshot for which cond holds.
func (st *stream) waitState(t *testing.T, what string, cond func(state) bool) state {
	t.Helper()
	deadline := time.After(10 * time.Second)
	var last state
	for {
		select {
		case s := <-st.states:
			if cond(s) {
				return s
			}
			last = s
		case <-deadline:
			t.Fatalf("no snapshot with %s within 10s; the last: %+v", what, last)
		}
	}
}

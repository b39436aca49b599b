// fixes_test.go tests, over HTTP as a page does, what issue 22 fixed in the
// program behind the page: the defaults (the RealFIFO, no resync), lists
// that are never null, the cache written into the feed before the handler
// calls, no step banked on an empty queue, a Bookmark passing the step gate,
// a clean queue switch, how watches end, failures counted, and the icon.

package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestDefaultsAreTheRealFIFOWithoutResync(t *testing.T) {
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	st := openStream(t, a)
	s := st.waitState(t, "a synced informer", func(s state) bool { return s.Informer.Synced })
	if s.Informer.Queue != "RealFIFO" || s.Informer.ResyncPeriod != "0s" || s.Queue.Kind != "*informer.RealFIFO" {
		t.Fatalf("the defaults: %+v, queue %s", s.Informer, s.Queue.Kind)
	}
	if code, ok, _ := tryPost(t, a, "resync", nil); code != http.StatusOK || ok {
		t.Fatalf("Resync now without a period: %d, ok %v; want a refusal", code, ok)
	}
}

// Before any watch event, the snapshot's lists are empty lists, not null:
// a page reading them must not break (issue 22, defect 1).
func TestSnapshotListsAreNeverNull(t *testing.T) {
	a := startTestApp(t, 0)
	resp, err := testClient.Get(a.URL() + "api/state")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), "null") {
		t.Fatalf("the state has a null: %s", body)
	}
}

// Every handler call comes after the cache line of the Pop that caused it
// (defect 2), for a burst of updates merged by the DeltaFIFO.
func TestCacheLinesComeBeforeHandlerCalls(t *testing.T) {
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: time.Hour, Pods: 3, Queue: "DeltaFIFO", SlowDelay: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	st := openStream(t, a)
	st.waitState(t, "a synced cache of 3", func(s state) bool { return len(s.Cache.Objects) == 3 && s.Wire.State == "watching" })
	post(t, a, "burst", url.Values{"n": {"12"}})
	stored := map[string]bool{}
	for calls := 0; calls < 24; { // 12 updates, two handlers
		e := st.expect(t, match{})[0]
		switch {
		case e.Panel == "cache":
			stored[e.Key+"@"+e.RV] = true
		case e.Panel == "handlers" && e.Kind == "OnUpdate":
			if !stored[e.Key+"@"+e.RV] {
				t.Fatalf("%s: %s at rv %s before its cache line", e.Text, e.Key, e.RV)
			}
			calls++
		}
	}
}

// A step on an empty queue is refused, so a later change waits for its
// own step (defect 12); a Bookmark passes the gate by itself (defect 4).
func TestNoStepIsBankedAndBookmarksPass(t *testing.T) {
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: 20 * time.Millisecond, Pods: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	st := openStream(t, a)
	st.waitState(t, "a synced RealFIFO", func(s state) bool { return s.Informer.Synced && s.Queue.Real })
	post(t, a, "pause", nil)
	st.expect(t, match{panel: "queue", kind: "Bookmark"}, match{panel: "queue", kind: "Pop", text: "Bookmark rv"})
	if _, ok, text := tryPost(t, a, "step", nil); ok {
		t.Fatalf("a step on an empty queue was accepted: %s", text)
	}
	key := post(t, a, "create", nil)
	s := st.waitState(t, "the pod queued and more bookmarks popped", func(s state) bool {
		return len(s.Queue.Deltas) > 0 && s.Queue.Deltas[0].Key == key
	})
	if len(s.Cache.Objects) != 1 {
		t.Fatalf("without a step, the cache holds %+v", s.Cache.Objects)
	}
	post(t, a, "step", nil)
	st.waitState(t, "the pod in the cache", func(s state) bool { return len(s.Cache.Objects) == 2 })
}

// Switching the queue lets the handlers finish, shows no fault, drops a
// paused queue instead of draining it, and loses no handler call (defect 5).
func TestQueueSwitchIsClean(t *testing.T) {
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: time.Hour, Pods: 2, Queue: "DeltaFIFO", SlowDelay: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	st := openStream(t, a)
	before := st.until(t, match{kind: "informer started"}) // the first informer
	st.waitState(t, "a synced DeltaFIFO", func(s state) bool { return s.Informer.Synced && len(s.Cache.Objects) == 2 })
	post(t, a, "burst", url.Values{"n": {"6"}})
	st.waitState(t, "fastHandler done, slowHandler behind", func(s state) bool { return s.Handlers[0].Count == 8 && s.Handlers[1].Pending > 0 })
	post(t, a, "pause", nil)
	post(t, a, "create", nil) // queued, never popped by this queue
	st.waitState(t, "a key queued", func(s state) bool { return len(s.Queue.Keys) == 1 })
	post(t, a, "queue", url.Values{"kind": {"RealFIFO"}})
	upTo := st.until(t, match{kind: "informer started", text: "RealFIFO"})
	calls := map[string]int{}
	switched := false
	for _, e := range append(before, upTo...) {
		switched = switched || e.Kind == "queue"
		if switched && (strings.Contains(e.Kind, "failed") || e.Kind == "backoff" || e.Kind == "ERROR" || strings.HasPrefix(e.Kind, "Pop")) {
			t.Fatalf("during the switch: %+v", e)
		}
		if e.Panel == "handlers" {
			calls[strings.Fields(e.Text)[0]]++
		}
	}
	if calls["main.fastHandler"] != 2+6 || calls["main.slowHandler"] != calls["main.fastHandler"] {
		t.Fatalf("before the new informer, the handlers had %v calls; want 8 each (2 adds, 6 updates), none lost", calls)
	}
	post(t, a, "resume", nil)
}

// until reads the feed up to the first entry matching m and returns every
// entry read, that one included.
func (st *stream) until(t *testing.T, m match) []entry {
	t.Helper()
	var got []entry
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-st.entries:
			if !ok {
				t.Fatalf("the feed ended before %+v", m)
			}
			got = append(got, e)
			if m.matches(e) {
				return got
			}
		case <-deadline:
			t.Fatalf("no feed entry %+v within 10s", m)
		}
	}
}

// A dropped watch says it ended; a 410 says 410 Expired, on its event and
// on the request it ended (defect 8); a server down is one line that counts
// its failures, not the Go error line after line (defect 9).
func TestWatchesSayHowTheyEndedAndFailuresAreCounted(t *testing.T) {
	a := startTestApp(t, 1)
	st := openStream(t, a)
	st.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })
	key := post(t, a, "create", nil)
	st.expect(t, match{kind: "OnAdd", key: key})
	post(t, a, "dropwatch", nil)
	st.expect(t, match{kind: "watch ended", text: "ended by the server after 1 events"})
	post(t, a, "update", nil)
	st.expect(t, match{kind: "OnUpdate"})
	post(t, a, "down", nil)
	st.expect(t, match{kind: "backoff"}, match{kind: "WATCH failed", text: "connection refused"}, match{kind: "backoff"}, match{kind: "WATCH failed"})
	s := st.waitState(t, "failures counted", func(s state) bool {
		last := s.Wire.Requests[len(s.Wire.Requests)-1]
		return last.Times >= 2 && last.Msg == "failedRefused"
	})
	for _, r := range s.Wire.Requests {
		if strings.Contains(r.Result, "dial tcp") {
			t.Fatalf("a request shows the Go error: %+v", r)
		}
	}
	post(t, a, "delete", nil)
	post(t, a, "compact", nil)
	post(t, a, "up", nil)
	st.expect(t, match{kind: "ERROR", text: "410 Expired: too old resource version"}, match{kind: "watch ended", text: "ended by ERROR 410 Expired"})
	s = st.waitState(t, "the relist", func(s state) bool { return len(s.Cache.Objects) == 1 })
	streaming := 0
	for _, r := range s.Wire.Requests {
		if r.Msg == "streaming" {
			streaming++
		}
	}
	if streaming != 1 {
		t.Fatalf("%d requests say streaming: %+v", streaming, s.Wire.Requests)
	}
}

func TestFaviconIsNoError(t *testing.T) {
	a := startTestApp(t, 0)
	resp, err := testClient.Get(a.URL() + "favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("GET /favicon.ico: %d", resp.StatusCode)
	}
}

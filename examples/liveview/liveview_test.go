// liveview_test.go tests the live view over HTTP, as a page uses it: every
// control's effects appear in the feed, in order, stage after stage; step
// mode Pops exactly one item per step; two pages see the same feed; the
// controls are POST only and refuse other origins; and stopping the program
// leaves no goroutine behind.

package main

import (
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestPodControlsTravelThroughEveryStage(t *testing.T) {
	a := startTestApp(t, 0)
	st := openStream(t, a)
	st.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })

	key := post(t, a, "create", nil)
	st.expect(t,
		match{panel: "control", kind: "create"},
		match{panel: "wire", kind: "ADDED", key: key},
		match{panel: "queue", kind: "Add", key: key},
		match{panel: "queue", kind: "Pop", key: key, text: "Added rv"},
		match{panel: "handlers", kind: "OnAdd", key: key, text: "main.fastHandler"},
	)
	if s := st.waitState(t, "the pod in the cache", func(s state) bool { return len(s.Cache.Objects) == 1 }); s.Cache.Objects[0].Key != key {
		t.Fatalf("the cache holds %+v", s.Cache.Objects)
	}
	post(t, a, "update", nil)
	st.expect(t,
		match{panel: "control", kind: "update"},
		match{panel: "wire", kind: "MODIFIED", key: key},
		match{panel: "queue", kind: "Update", key: key},
		match{panel: "queue", kind: "Pop", key: key, text: "Updated rv"},
		match{panel: "handlers", kind: "OnUpdate", key: key},
	)
	post(t, a, "burst", url.Values{"n": {"3"}})
	st.expect(t, match{kind: "burst"}, match{kind: "MODIFIED"}, match{kind: "MODIFIED"}, match{kind: "MODIFIED"})
	post(t, a, "delete", nil)
	st.expect(t,
		match{panel: "control", kind: "delete"},
		match{panel: "wire", kind: "DELETED", key: key},
		match{panel: "queue", kind: "Delete", key: key},
		match{panel: "queue", kind: "Pop", key: key, text: "Deleted rv"},
		match{panel: "handlers", kind: "OnDelete", key: key},
	)
	s := st.waitState(t, "an empty cache", func(s state) bool { return len(s.Cache.Objects) == 0 })
	if len(s.Server.Objects) != 0 || s.Server.History[len(s.Server.History)-1].Key != "DELETED "+key {
		t.Fatalf("the server panel shows %+v", s.Server)
	}
}

func TestDropWatchRewatchesFromTheLastVersion(t *testing.T) {
	a := startTestApp(t, 1)
	st := openStream(t, a)
	st.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })
	// A watch that ends with no event in it ends the cycle (client-go's
	// "very short watch"): give the watch an event first.
	key := post(t, a, "create", nil)
	st.expect(t, match{kind: "OnAdd", key: key})
	rv := a.api.ResourceVersion()
	post(t, a, "dropwatch", nil)
	got := st.expect(t, match{kind: "dropwatch"}, match{panel: "wire", kind: "watch ended"}, match{panel: "wire", kind: "WATCH", rv: rv})
	if !strings.Contains(got[2].Text, "resourceVersion="+rv) || !strings.Contains(got[2].Text, "allowWatchBookmarks=true") {
		t.Fatalf("the re-watch's query is %q", got[2].Text)
	}
	s := st.waitState(t, "the re-watch", func(s state) bool {
		n := len(s.Wire.Requests)
		return n > 0 && s.Wire.Requests[n-1].Verb == "WATCH" && s.Wire.Requests[n-1].Result != "" && s.Wire.State == "watching"
	})
	for _, r := range s.Wire.Requests {
		if r.Verb == "LIST" && r.Query != "limit=500&resourceVersion=0" {
			t.Fatalf("a dropped watch made the Reflector list again: %+v", s.Wire.Requests)
		}
	}
}

// A deletion made while the server is down, then compacted away, comes
// back as a 410, a relist, and a tombstone for the handlers.
func TestMissedDeletionAfterCompactionIsARelistWithATombstone(t *testing.T) {
	a := startTestApp(t, 2)
	st := openStream(t, a)
	st.waitState(t, "a synced cache of 2", func(s state) bool { return len(s.Cache.Objects) == 2 && s.Wire.State == "watching" })
	created := post(t, a, "create", nil) // an event, so that the end of the watch is no "very short watch"
	st.expect(t, match{kind: "OnAdd", key: created})
	post(t, a, "down", nil)
	st.expect(t, match{kind: "down"}, match{panel: "wire", kind: "watch ended"}, match{panel: "wire", kind: "backoff"})
	key := post(t, a, "delete", nil)
	post(t, a, "compact", nil)
	s := st.waitState(t, "the window after the deletion", func(s state) bool { return s.Server.Kept == 0 })
	if s.Server.Oldest != s.Server.RV {
		t.Fatalf("after compacting, a watch may resume from %s, want %s", s.Server.Oldest, s.Server.RV)
	}
	post(t, a, "up", nil)
	st.expect(t,
		match{kind: "up"},
		match{panel: "wire", kind: "ERROR", text: "too old resource version"},
		match{panel: "wire", kind: "LIST"},
		match{panel: "wire", kind: "LIST answered", text: "2 items"},
		match{panel: "queue", kind: "Replace", text: "2 objects"},
		match{panel: "queue", kind: "Pop", key: key, text: "DeletedFinalStateUnknown"},
		match{panel: "handlers", kind: "OnDelete", key: key, text: "DeletedFinalStateUnknown"},
	)
}

func TestStepModePopsExactlyOneItemPerStep(t *testing.T) {
	a := startTestApp(t, 0)
	st := openStream(t, a)
	st.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })
	if _, ok, _ := tryPost(t, a, "step", nil); ok {
		t.Fatal("a step outside step mode was accepted")
	}
	post(t, a, "pause", nil)
	first := post(t, a, "create", nil)
	post(t, a, "create", nil)
	post(t, a, "update", url.Values{"name": {strings.TrimPrefix(first, "default/")}})
	s := st.waitState(t, "two keys queued, the first with two Deltas", func(s state) bool {
		return len(s.Queue.Keys) == 2 && len(s.Queue.Keys[0].Deltas) == 2
	})
	if !s.Queue.Paused || len(s.Cache.Objects) != 0 {
		t.Fatalf("paused, the queue is %+v and the cache %+v", s.Queue, s.Cache.Objects)
	}
	pops := s.Queue.Pops
	post(t, a, "step", nil)
	st.expect(t,
		match{kind: "step"},
		match{panel: "queue", kind: "Pop", key: first, text: "Added rv"},
		match{panel: "cache", kind: "cache: stored", key: first},
	)
	s = st.waitState(t, "the first key handled", func(s state) bool { return len(s.Cache.Objects) == 1 })
	if s.Queue.Pops != pops+1 || len(s.Queue.Keys) != 1 || s.Queue.Keys[0].Key == first {
		t.Fatalf("after one step: %d Pops (before: %d), queue %+v", s.Queue.Pops, pops, s.Queue.Keys)
	}
	post(t, a, "step", nil)
	s = st.waitState(t, "the second key handled", func(s state) bool { return len(s.Cache.Objects) == 2 })
	if s.Queue.Pops != pops+2 || len(s.Queue.Keys) != 0 {
		t.Fatalf("after two steps: %d Pops (before: %d), queue %+v", s.Queue.Pops, pops, s.Queue.Keys)
	}
	post(t, a, "resume", nil)
	key := post(t, a, "create", nil)
	st.expect(t, match{panel: "handlers", kind: "OnAdd", key: key})
}

func TestHandlerControls(t *testing.T) {
	a := startTestApp(t, 1)
	st := openStream(t, a)
	st.waitState(t, "a synced cache", func(s state) bool { return len(s.Cache.Objects) == 1 })
	name := post(t, a, "addhandler", nil)
	st.expect(t, match{kind: "addhandler"}, match{panel: "handlers", kind: "OnAdd", text: name})
	st.waitState(t, "three handlers", func(s state) bool { return len(s.Handlers) == 3 && s.Handlers[2].Name == name })
	if got := post(t, a, "removehandler", nil); got != name {
		t.Fatalf("removehandler removed %q, want %q", got, name)
	}
	st.waitState(t, "two handlers", func(s state) bool { return len(s.Handlers) == 2 })
	if code, ok, _ := tryPost(t, a, "removehandler", nil); code != http.StatusOK || ok {
		t.Fatalf("removing one of the first two handlers: %d, want 200 and ok false", code)
	}

	post(t, a, "slower", nil)
	st.waitState(t, "a slower slow handler", func(s state) bool { return s.Handlers[1].Delay == "1s" })
	post(t, a, "faster", nil)
	st.waitState(t, "the slow handler back at 500ms", func(s state) bool { return s.Handlers[1].Delay == "500ms" })

	post(t, a, "resync", nil)
	st.expect(t, match{kind: "resync"}, match{panel: "queue", kind: "Resync"},
		match{panel: "queue", kind: "Pop", text: "Sync rv"},
		match{panel: "handlers", kind: "OnUpdate", text: "same version: relist or resync"})
}

func TestTwoPagesSeeTheSameFeed(t *testing.T) {
	a := startTestApp(t, 0)
	one, two := openStream(t, a), openStream(t, a)
	one.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })
	key := post(t, a, "create", nil)
	want := []match{{kind: "create"}, {kind: "ADDED", key: key}, {kind: "OnAdd", key: key}}
	e1, e2 := one.expect(t, want...), two.expect(t, want...)
	for i := range e1 {
		if e1[i].Seq != e2[i].Seq {
			t.Fatalf("the pages saw %+v and %+v", e1, e2)
		}
	}
}

func TestControlsArePOSTOnlyAndSameOrigin(t *testing.T) {
	a := startTestApp(t, 0)
	resp, err := testClient.Get(a.URL() + "api/create")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest("POST", a.URL()+"api/create", nil)
	req.Header.Set("Origin", "http://evil.example")
	resp2, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	req, _ = http.NewRequest("POST", a.URL()+"api/create", nil)
	req.Host = "evil.example"
	resp3, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp3.Body.Close()
	if resp.StatusCode == 200 || resp2.StatusCode != 403 || resp3.StatusCode != 403 {
		t.Fatalf("GET: %d, other origin: %d, other host: %d", resp.StatusCode, resp2.StatusCode, resp3.StatusCode)
	}
	if n := len(a.podNames()); n != 0 {
		t.Fatalf("refused controls created %d pods", n)
	}
	if _, err := start(config{Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("the program agreed to listen beyond loopback")
	}
}

func TestStoppingLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	a, err := start(config{Addr: "127.0.0.1:0", BookmarkInterval: 50 * time.Millisecond, ResyncPeriod: time.Minute, Pods: 2})
	if err != nil {
		t.Fatal(err)
	}
	st := openStream(t, a)
	st.expect(t, match{kind: "BOOKMARK"})
	post(t, a, "slower", nil) // the slow handler is at work when we stop
	post(t, a, "pause", nil)
	post(t, a, "create", nil) // a Pop waits for a step when we stop
	a.Close()
	st.body.Close()
	testClient.CloseIdleConnections()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after stopping, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// On the page's other queue, client-go v0.37.2's RealFIFO: the informer
// starts over with a streaming list, and a step pops one batch.
func TestRealFIFOStreamsTheListAndStepsByBatch(t *testing.T) {
	a := startTestApp(t, 1)
	st := openStream(t, a)
	st.waitState(t, "a watching Reflector", func(s state) bool { return s.Wire.State == "watching" })
	post(t, a, "queue", url.Values{"kind": {"RealFIFO"}})
	st.expect(t,
		match{kind: "queue", text: "kind=RealFIFO"},
		match{panel: "control", kind: "informer started", text: "RealFIFO"},
		match{panel: "wire", kind: "WATCH", text: "sendInitialEvents=true"},
		match{panel: "wire", kind: "ADDED", key: "default/pod-1"},
		match{panel: "wire", kind: "BOOKMARK"},
		match{panel: "queue", kind: "Replace", text: "1 objects"},
		match{panel: "handlers", kind: "OnAdd", key: "default/pod-1", text: "initial list"},
	)
	st.waitState(t, "the RealFIFO at work", func(s state) bool {
		return s.Informer.Queue == "RealFIFO" && s.Informer.Synced && s.Queue.Kind == "*informer.RealFIFO"
	})

	post(t, a, "pause", nil)
	first := post(t, a, "create", nil)
	second := post(t, a, "create", nil)
	post(t, a, "update", url.Values{"name": {strings.TrimPrefix(first, "default/")}})
	s := st.waitState(t, "three deltas queued in order", func(s state) bool { return len(s.Queue.Deltas) == 3 })
	if d := s.Queue.Deltas; d[0].Key != first || d[1].Key != second || d[2].Key != first || d[2].Type != "Updated" {
		t.Fatalf("the RealFIFO holds %+v", d)
	}
	pops := s.Queue.Pops
	post(t, a, "step", nil)
	// One PopBatch: the two creates (distinct keys); the update of the
	// first key waits for the next batch.
	st.expect(t, match{kind: "step"}, match{panel: "queue", kind: "PopBatch", text: first + ":Added"})
	s = st.waitState(t, "one delta left", func(s state) bool { return len(s.Queue.Deltas) == 1 && len(s.Cache.Objects) == 3 })
	if s.Queue.Pops != pops+1 || s.Queue.Deltas[0].Type != "Updated" {
		t.Fatalf("after one step: %d Pops (before: %d), queue %+v", s.Queue.Pops, pops, s.Queue.Deltas)
	}
	post(t, a, "resume", nil)
	st.expect(t, match{panel: "handlers", kind: "OnUpdate", key: first})
}

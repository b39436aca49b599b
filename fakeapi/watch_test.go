// watch_test.go: watch streams: initial events, resuming after a version,
// bookmarks, timeouts, selectors, 410 as an ERROR event, streaming lists.

package fakeapi

import (
	"strconv"
	"testing"
	"time"
)

func TestWatchFromListVersion(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "old", "app=demo")
	_, list := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods", "", "")
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=true&resourceVersion="+rvOf(list))
	if ct := st.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	created := mustCreatePod(t, s, "p", "app=demo")
	meta(created)["labels"] = map[string]any{"app": "demo", "v": "2"}
	if _, err := s.Update(Pods, "default", created); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(Pods, "default", "p"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ConfigMaps, "default", map[string]any{"metadata": map[string]any{"name": "other-kind"}}); err != nil {
		t.Fatal(err)
	}
	mustCreatePod(t, s, "last", "")
	var rvs []string
	for _, want := range [][2]string{{"ADDED", "p"}, {"MODIFIED", "p"}, {"DELETED", "p"}, {"ADDED", "last"}} {
		ev := st.expect(t, want[0], want[1])
		if ev.Object["kind"] != "Pod" || ev.Object["apiVersion"] != "v1" {
			t.Errorf("watch objects carry kind and apiVersion; got %v/%v", ev.Object["kind"], ev.Object["apiVersion"])
		}
		rvs = append(rvs, rvOf(ev.Object))
	}
	if rvs[2] == rvs[1] {
		t.Error("DELETED must carry the version of the deletion")
	}

	// A second watch from the same version replays the same events from the history.
	st2 := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+rvOf(list))
	for _, want := range [][2]string{{"ADDED", "p"}, {"MODIFIED", "p"}, {"DELETED", "p"}, {"ADDED", "last"}} {
		st2.expect(t, want[0], want[1])
	}
}

func TestWatchWithoutVersionStartsWithCurrentObjects(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "a", "")
	mustCreatePod(t, s, "b", "")
	for _, rv := range []string{"", "&resourceVersion=0"} {
		st := openWatch(t, s.URL()+"/api/v1/pods?watch=1"+rv)
		st.expect(t, "ADDED", "a")
		st.expect(t, "ADDED", "b")
		s.CloseWatches()
		st.ended(t)
	}
	st := openWatch(t, s.URL()+"/api/v1/pods?watch=1")
	st.expect(t, "ADDED", "a")
	st.expect(t, "ADDED", "b")
	mustCreatePod(t, s, "c", "")
	st.expect(t, "ADDED", "c")
}

func TestWatchBookmarksAndTimeout(t *testing.T) {
	s := startServer(t, Options{BookmarkInterval: 20 * time.Millisecond})
	mustCreatePod(t, s, "a", "")
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion="+s.ResourceVersion())
	ev := st.next(t, true)
	if ev.Type != "BOOKMARK" || ev.Object["kind"] != "Pod" || rvOf(ev.Object) != s.ResourceVersion() {
		t.Fatalf("event = %+v, want a BOOKMARK at %s", ev, s.ResourceVersion())
	}
	if m := meta(ev.Object); len(m) != 1 {
		t.Errorf("bookmark metadata = %v, want only resourceVersion", m)
	}
	start := time.Now()
	st.ended(t) // timeoutSeconds=1
	if time.Since(start) > 3*time.Second {
		t.Error("timeoutSeconds=1 did not end the watch")
	}
	// Without allowWatchBookmarks there are none.
	st = openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1&resourceVersion="+s.ResourceVersion())
	if ev, ok := st.nextOrEnd(t, "the end of the watch (timeoutSeconds=1)"); ok {
		t.Errorf("got %s without allowWatchBookmarks", ev.Type)
	}
}

func TestWatchSelectorsEnterAndLeave(t *testing.T) {
	s := startServer(t, Options{})
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&labelSelector=app%3Dx&resourceVersion="+s.ResourceVersion())
	p := mustCreatePod(t, s, "p", "app=y")
	mustCreatePod(t, s, "q", "app=x")
	st.expect(t, "ADDED", "q")
	meta(p)["labels"] = map[string]any{"app": "x"}
	p, _ = s.Update(Pods, "default", p)
	ev := st.expect(t, "ADDED", "p") // starts matching
	meta(p)["labels"] = map[string]any{"app": "y"}
	s.Update(Pods, "default", p)
	left := st.expect(t, "DELETED", "p") // stops matching: its last matching state, at the new version
	if meta(left.Object)["labels"].(map[string]any)["app"] != "x" || rvOf(left.Object) != s.ResourceVersion() {
		t.Errorf("DELETED on leaving = %v", meta(left.Object))
	}
	_ = ev
	s.Delete(Pods, "default", "p") // not matching: nothing
	s.Delete(Pods, "default", "q")
	st.expect(t, "DELETED", "q")

	fs := openWatch(t, s.URL()+"/api/v1/pods?watch=1&fieldSelector=metadata.name%3Dz&resourceVersion="+s.ResourceVersion())
	mustCreatePod(t, s, "y", "")
	mustCreatePod(t, s, "z", "")
	fs.expect(t, "ADDED", "z")
}

func TestWatchTooOldIsAnErrorEvent(t *testing.T) {
	s := startServer(t, Options{History: 2})
	for _, n := range []string{"a", "b", "c", "d"} {
		mustCreatePod(t, s, n, "")
	}
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=2")
	ev := st.next(t, true)
	if ev.Type != "ERROR" || ev.Object["code"] != 410.0 || ev.Object["message"] != "too old resource version: 2 (3)" {
		t.Fatalf("event = %+v", ev)
	}
	st.ended(t)
	// The oldest version a watch may start from works (c and d are rv 4 and 5).
	st = openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=3")
	st.expect(t, "ADDED", "c")
	st.expect(t, "ADDED", "d")
}

func TestWatchStreamingList(t *testing.T) {
	s := startServer(t, Options{BookmarkInterval: time.Hour})
	mustCreatePod(t, s, "a", "")
	mustCreatePod(t, s, "b", "")
	rv := s.ResourceVersion()
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=")
	st.expect(t, "ADDED", "a")
	st.expect(t, "ADDED", "b")
	bm := st.next(t, true)
	ann, _ := meta(bm.Object)["annotations"].(map[string]any)
	if bm.Type != "BOOKMARK" || ann["k8s.io/initial-events-end"] != "true" || rvOf(bm.Object) != rv {
		t.Fatalf("after the initial events: %+v, want the initial-events-end bookmark at %s", bm, rv)
	}
	mustCreatePod(t, s, "c", "")
	st.expect(t, "ADDED", "c")

	// sendInitialEvents=false: no initial events, only what follows.
	st = openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan")
	mustCreatePod(t, s, "d", "")
	st.expect(t, "ADDED", "d")
}

func TestWatchFromFutureVersionWaits(t *testing.T) {
	s := startServer(t, Options{})
	future := s.st.current() + 2
	st := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+itoa(future))
	mustCreatePod(t, s, "a", "") // future-1
	mustCreatePod(t, s, "b", "") // future: still not after it
	mustCreatePod(t, s, "c", "")
	st.expect(t, "ADDED", "c")
}

func TestCloseWatchesEndsStreamsCleanly(t *testing.T) {
	s := startServer(t, Options{})
	st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+s.ResourceVersion())
	waitFor(t, "the watch to open", func() bool { return s.Stats().OpenWatches == 1 })
	s.CloseWatches()
	st.ended(t)
	waitFor(t, "the watch to be closed", func() bool { return s.Stats().OpenWatches == 0 })
}

// waitFor polls cond until it holds, failing after 5 seconds; what names
// what is awaited.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after 5s waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond) // polling with a deadline
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

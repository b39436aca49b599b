// wire_test.go: the fake's answers have the shape of a real kube-apiserver's
// (testdata/ holds answers captured from v1.37.2), decoded as plain JSON.

package fakeapi

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestWireListShape(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "demo", "app=demo")
	code, got := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods", "", "")
	if code != 200 {
		t.Fatalf("list: %d", code)
	}
	want := readCapture(t, "list.json")
	sameKeys(t, "list", got, want, "", "metadata")
	if got["kind"] != "PodList" || got["apiVersion"] != "v1" {
		t.Errorf("kind/apiVersion = %v/%v", got["kind"], got["apiVersion"])
	}
	item := got["items"].([]any)[0].(map[string]any)
	if _, ok := item["kind"]; ok {
		t.Error("a typed list's items must not carry kind")
	}
	m := meta(item)
	for _, f := range []string{"name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "labels"} {
		if _, ok := m[f]; !ok {
			t.Errorf("item metadata lacks %s", f)
		}
	}
	if m["resourceVersion"] != meta(got)["resourceVersion"] {
		t.Errorf("item rv %v, list rv %v: the only write should be both", m["resourceVersion"], meta(got)["resourceVersion"])
	}
}

func TestWirePagedListShape(t *testing.T) {
	s := startServer(t, Options{})
	for _, n := range []string{"a", "b", "c", "d"} {
		mustCreatePod(t, s, n, "app=demo")
	}
	_, got := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods?limit=1", "", "")
	sameKeys(t, "list page", got, readCapture(t, "list-limit1.json"), "", "metadata")
	if n := meta(got)["remainingItemCount"]; n != 3.0 {
		t.Errorf("remainingItemCount = %v, want 3", n)
	}
}

// TestWireErrorShapes compares each error Status with the real one: same
// keys, code, reason, and (where the names match) the same message.
func TestWireErrorShapes(t *testing.T) {
	s := startServer(t, Options{VersionWait: 1})
	u := s.URL() + "/api/v1/namespaces/default/pods"
	check := func(capture string, code int, got map[string]any, exactMessage bool) {
		t.Helper()
		want := readCapture(t, capture)
		sameKeys(t, capture, got, want, "", "details")
		if got["code"] != want["code"] || got["reason"] != want["reason"] || float64(code) != want["code"] {
			t.Errorf("%s: %d %v %v, real server %v %v", capture, code, got["code"], got["reason"], want["code"], want["reason"])
		}
		if exactMessage && got["message"] != want["message"] {
			t.Errorf("%s: message %q, real server %q", capture, got["message"], want["message"])
		}
	}
	code, got := call(t, "GET", u+"/demo", "", "")
	check("pod-get-404.json", code, got, true)

	call(t, "POST", u, "application/json", podJSON("demo", "app=demo"))
	code, got = call(t, "POST", u, "application/json", podJSON("demo", "app=demo"))
	check("pod-create-dup.json", code, got, true)

	stale := strings.Replace(podJSON("demo", "step=updated"), `"name":"demo"`, `"name":"demo","resourceVersion":"1"`, 1)
	code, got = call(t, "PUT", u+"/demo", "application/json", stale)
	check("pod-put-stale.json", code, got, true)

	code, got = call(t, "GET", u+"?resourceVersion=99999999", "", "")
	check("list-too-large-rv.json", code, got, false)

	s.Compact(0)
	code, got = call(t, "GET", u+"?resourceVersion=1&resourceVersionMatch=Exact", "", "")
	check("list-rv1-exact-expired.json", code, got, true)
}

func TestWireDeleteAnswersTheDeletedPod(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "demo", "app=demo")
	code, got := call(t, "DELETE", s.URL()+"/api/v1/namespaces/default/pods/demo", "", "")
	want := readCapture(t, "pod-delete.json")
	if code != 200 || got["kind"] != "Pod" {
		t.Fatalf("delete: %d %v", code, got["kind"])
	}
	for _, f := range []string{"deletionTimestamp", "deletionGracePeriodSeconds", "resourceVersion"} {
		if _, ok := meta(want)[f]; ok {
			if _, ok := meta(got)[f]; !ok {
				t.Errorf("deleted pod lacks metadata.%s", f)
			}
		}
	}
	if rvOf(got) != s.ResourceVersion() {
		t.Errorf("deleted pod rv %s, want the deletion's version %s", rvOf(got), s.ResourceVersion())
	}
}

// TestWireWatchShapes: the 410 ERROR event and the initial-events-end
// BOOKMARK look like the real ones.
func TestWireWatchShapes(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "demo", "app=demo")
	u := s.URL() + "/api/v1/namespaces/default/pods?watch=1"

	st := openWatch(t, u+"&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	wantLines := readLines(t, "watch-initial-events.jsonl")
	added := st.next(t, true)
	if added.Type != "ADDED" || added.Object["kind"] != "Pod" || added.Object["apiVersion"] != "v1" {
		t.Errorf("initial event = %s %v/%v, want ADDED of a Pod with kind and apiVersion", added.Type, added.Object["kind"], added.Object["apiVersion"])
	}
	bm := st.next(t, true)
	sameKeys(t, "initial-events-end bookmark", bm.Object, wantLines[1].Object, "metadata", "metadata.annotations")
	if bm.Type != "BOOKMARK" || meta(bm.Object)["annotations"].(map[string]any)["k8s.io/initial-events-end"] != "true" {
		t.Errorf("second event = %+v, want the initial-events-end BOOKMARK", bm)
	}

	s.Compact(0)
	st = openWatch(t, u+"&resourceVersion=1")
	ev := st.next(t, true)
	want := readLines(t, "watch-rv1-expired.jsonl")[0]
	sameKeys(t, "410 ERROR event", ev.Object, want.Object, "")
	wantMsg := "too old resource version: 1 (" + s.ResourceVersion() + ")"
	if ev.Type != "ERROR" || ev.Object["code"] != 410.0 || ev.Object["reason"] != "Expired" || ev.Object["message"] != wantMsg {
		t.Errorf("event = %s %v, want ERROR 410 Expired %q", ev.Type, ev.Object, wantMsg)
	}
	st.ended(t)
}

func readLines(t *testing.T, name string) []watchEvent {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []watchEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev watchEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

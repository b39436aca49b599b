// faults_test.go: stop and restart with the data kept, delays, history size,
// discovery, and the overflow rule for slow watchers.

package fakeapi

import (
	"testing"
	"time"
)

func TestStopRestartKeepsData(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "kept", "")
	url := s.URL()
	st := openWatch(t, url+"/api/v1/pods?watch=1&resourceVersion="+s.ResourceVersion())
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	st.ended(t)
	if _, err := client.Get(url + "/api/v1/pods"); err == nil {
		t.Fatal("a stopped server answered")
	}
	mustCreatePod(t, s, "while-down", "") // direct writes work while stopped
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.URL() != url {
		t.Fatalf("restarted on %s, want %s", s.URL(), url)
	}
	_, list := call(t, "GET", url+"/api/v1/pods", "", "")
	if got := names(list); len(got) != 2 {
		t.Errorf("after restart: %v", got)
	}
	s.Close()
	s.Close() // idempotent
	if err := s.Restart(); err == nil {
		t.Error("Restart after Close succeeded")
	}
}

func TestSetDelay(t *testing.T) {
	s := startServer(t, Options{})
	s.SetDelay(100 * time.Millisecond)
	start := time.Now()
	call(t, "GET", s.URL()+"/api/v1/pods", "", "")
	if time.Since(start) < 100*time.Millisecond {
		t.Error("the response was not delayed")
	}
	s.SetDelay(0)
}

func TestSetHistory(t *testing.T) {
	s := startServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		mustCreatePod(t, s, n, "")
	}
	s.SetHistory(1)
	st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion=2")
	if ev := st.next(t, true); ev.Type != "ERROR" {
		t.Errorf("watch from before the history: %s, want ERROR", ev.Type)
	}
}

func TestDiscovery(t *testing.T) {
	s := startServer(t, Options{})
	_, v := call(t, "GET", s.URL()+"/version", "", "")
	if v["major"] != "1" || v["gitVersion"] == nil {
		t.Errorf("/version = %v", v)
	}
	_, api := call(t, "GET", s.URL()+"/api", "", "")
	if api["kind"] != "APIVersions" {
		t.Errorf("/api = %v", api)
	}
	_, apis := call(t, "GET", s.URL()+"/apis", "", "")
	if apis["kind"] != "APIGroupList" || len(apis["groups"].([]any)) != 1 {
		t.Errorf("/apis = %v", apis)
	}
	find := func(path, name string) map[string]any {
		_, rl := call(t, "GET", s.URL()+path, "", "")
		for _, r := range rl["resources"].([]any) {
			if r.(map[string]any)["name"] == name {
				return r.(map[string]any)
			}
		}
		t.Fatalf("%s lacks %s", path, name)
		return nil
	}
	for _, c := range []struct {
		path, name, kind, short string
		namespaced              bool
		verbs                   int // 8 with deletecollection; namespaces have none (as the real server's)
	}{
		{"/api/v1", "pods", "Pod", "po", true, 8},
		{"/api/v1", "configmaps", "ConfigMap", "cm", true, 8},
		{"/api/v1", "namespaces", "Namespace", "ns", false, 7},
		{"/api/v1", "nodes", "Node", "no", false, 8},
		{"/apis/apps/v1", "deployments", "Deployment", "deploy", true, 8},
	} {
		r := find(c.path, c.name)
		if r["kind"] != c.kind || r["namespaced"] != c.namespaced || r["shortNames"].([]any)[0] != c.short || len(r["verbs"].([]any)) != c.verbs {
			t.Errorf("%s %s = %v", c.path, c.name, r)
		}
	}
	// The subresources, as the real server lists them (testdata/writes/deletecollection.json).
	if r := find("/api/v1", "pods/status"); r["kind"] != "Pod" || len(r["verbs"].([]any)) != 3 {
		t.Errorf("pods/status = %v", r)
	}
	if r := find("/apis/apps/v1", "deployments/scale"); r["kind"] != "Scale" || r["group"] != "autoscaling" || r["version"] != "v1" {
		t.Errorf("deployments/scale = %v", r)
	}
}

// TestSlowWatcherIsCutOff: a watcher whose buffer is full is dropped at
// once, without blocking the write, while the others keep every event.
func TestSlowWatcherIsCutOff(t *testing.T) {
	st := newStore(100)
	ri := lookup(Pods)
	slow := &watcher{ri: ri, ch: make(chan *event, 2)}
	fast := &watcher{ri: ri, ch: make(chan *event, 100)}
	st.register(slow, false, st.rv)
	st.register(fast, false, st.rv)
	for i := range 5 {
		body := map[string]any{"metadata": map[string]any{"name": "p" + string(rune('a'+i)), "namespace": "default"},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}
		if _, e := st.create(writeRequest{ri: ri, ns: "default"}, body); e != nil {
			t.Fatal(e)
		}
	}
	if !slow.closed || len(slow.ch) != 2 {
		t.Errorf("slow watcher: closed=%v buffered=%d, want cut off after its 2 buffered events", slow.closed, len(slow.ch))
	}
	if fast.closed || len(fast.ch) != 5 {
		t.Errorf("fast watcher: closed=%v buffered=%d, want all 5", fast.closed, len(fast.ch))
	}
	if _, ok := st.bookmarkVersion(slow); ok {
		t.Error("a cut-off watcher must not be sent a bookmark")
	}
}

// gc_test.go tests the garbage collector (compat_gc_collector.go), which
// acts a moment after each change (the tests wait for it): a
// ReplicaSet deleted in each propagation mode, over HTTP, with pods that
// name it in their ownerReferences; a dependent with a second owner; a
// dependent made after its owner went; a reference to an object fakeapi
// never held; and the collector switched off.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

const rsPath = "/apis/apps/v1/namespaces/default/replicasets"

// gcOwner creates the ReplicaSet default/web and returns its uid.
func gcOwner(t *testing.T, s *Server) string {
	t.Helper()
	code, rs := call(t, "POST", s.URL()+rsPath, "application/json", `{"apiVersion":"apps/v1","kind":"ReplicaSet",
		"metadata":{"name":"web"},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
		"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
	if code != 201 {
		t.Fatalf("creating the ReplicaSet: %d %v", code, rs)
	}
	return meta(rs)["uid"].(string)
}

// gcPod creates pod name in default, owned as refs say, with finalizers.
func gcPod(t *testing.T, s *Server, name string, finalizers []string, refs ...map[string]any) {
	t.Helper()
	m := map[string]any{"name": name, "labels": map[string]any{"app": "web"}}
	if len(refs) > 0 {
		m["ownerReferences"] = refs
	}
	if len(finalizers) > 0 {
		m["finalizers"] = finalizers
	}
	body, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": m,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}})
	if code, pod := call(t, "POST", s.URL()+"/api/v1/namespaces/default/pods", "application/json", string(body)); code != 201 {
		t.Fatalf("creating pod %s: %d %v", name, code, pod)
	}
}

// rsRef is an ownerReference to the ReplicaSet web of uid.
func rsRef(uid string, controller, block bool) map[string]any {
	return map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": uid,
		"controller": controller, "blockOwnerDeletion": block}
}

// gcState describes the pods of default and the ReplicaSet web as
// "name[owners](deleting)" entries, sorted, and "rs:…".
func gcState(t *testing.T, s *Server) string {
	t.Helper()
	pods, _ := s.List(Pods, "default")
	var out []string
	for _, p := range pods {
		md := meta(p)
		var owners []string
		refs, _ := md["ownerReferences"].([]any)
		for _, r := range refs {
			owners = append(owners, r.(map[string]any)["kind"].(string))
		}
		entry := fmt.Sprintf("%s[%s]", md["name"], strings.Join(owners, ","))
		if md["deletionTimestamp"] != nil {
			entry += "(deleting)"
		}
		out = append(out, entry)
	}
	slices.Sort(out)
	rs, err := s.Get(Resource{"apps", "v1", "replicasets"}, "default", "web")
	switch {
	case err != nil:
		out = append(out, "rs:gone")
	default:
		fins, _ := meta(rs)["finalizers"].([]any)
		out = append(out, fmt.Sprintf("rs:%v", fins))
	}
	return strings.Join(out, " ")
}

// waitGCState waits (10 s at most) until gcState is want.
func waitGCState(t *testing.T, s *Server, what, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := gcState(t, s)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s, after 10 s:\n got %s\nwant %s", what, got, want)
		}
		time.Sleep(5 * time.Millisecond) // polling with a deadline, not synchronisation
	}
}

func TestGarbageCollectorFollowsOwnerReferences(t *testing.T) {
	for _, tc := range []struct {
		name, delete string // the DELETE's body
		want         string // after the delete
		thenRelease  string // after the finalizer of "held" goes
	}{
		{"background", ``, "held[ReplicaSet](deleting) shared[ConfigMap] rs:gone", "shared[ConfigMap] rs:gone"},
		{"foreground", `{"propagationPolicy":"Foreground"}`,
			"held[ReplicaSet](deleting) shared[ConfigMap] rs:[foregroundDeletion]", "shared[ConfigMap] rs:gone"},
		{"orphan", `{"propagationPolicy":"Orphan"}`,
			"blocking[] held[] loose[] shared[ConfigMap] rs:gone", "blocking[] held[] loose[] shared[ConfigMap] rs:gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, Options{})
			uid := gcOwner(t, s)
			code, cm := call(t, "POST", s.URL()+"/api/v1/namespaces/default/configmaps", "application/json",
				`{"metadata":{"name":"keep"},"data":{"k":"v"}}`)
			if code != 201 {
				t.Fatalf("creating the ConfigMap: %d", code)
			}
			cmRef := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "keep", "uid": meta(cm)["uid"]}
			gcPod(t, s, "blocking", nil, rsRef(uid, true, true))
			gcPod(t, s, "loose", nil, rsRef(uid, false, false))
			gcPod(t, s, "held", []string{"example.com/hold"}, rsRef(uid, false, true))
			gcPod(t, s, "shared", nil, rsRef(uid, false, false), cmRef)
			code, _ = call(t, "DELETE", s.URL()+rsPath+"/web", "application/json", tc.delete)
			if code != 200 {
				t.Fatalf("DELETE: %d", code)
			}
			waitGCState(t, s, "after the delete", tc.want)
			held, err := s.Get(Pods, "default", "held")
			if err != nil {
				t.Fatal(err)
			}
			delete(meta(held), "finalizers")
			body, _ := json.Marshal(held)
			if code, answer := call(t, "PUT", s.URL()+"/api/v1/namespaces/default/pods/held", "application/json", string(body)); code != 200 {
				t.Fatalf("removing held's finalizer: %d %v", code, answer)
			}
			waitGCState(t, s, "once held's finalizer went", tc.thenRelease)
		})
	}
}

func TestGarbageCollectorDanglingAndUnknownOwners(t *testing.T) {
	s := startServer(t, Options{})
	uid := gcOwner(t, s)
	if code, _ := call(t, "DELETE", s.URL()+rsPath+"/web", "", ""); code != 200 {
		t.Fatalf("DELETE: %d", code)
	}
	gcPod(t, s, "late", nil, rsRef(uid, true, true)) // made after its owner went: collected
	gcPod(t, s, "example", nil, rsRef("00000000-0000-4000-8000-000000000001", true, true))
	// (a dependent of a deleted owner goes; one naming an object never held stays)
	waitGCState(t, s, "a late dependent and one of an unknown owner", "example[ReplicaSet] rs:gone")
}

func TestGarbageCollectorDisabledLeavesDependentsAndFinalizers(t *testing.T) {
	s := startServer(t, Options{DisableGarbageCollector: true})
	uid := gcOwner(t, s)
	gcPod(t, s, "blocking", nil, rsRef(uid, true, true))
	if code, _ := call(t, "DELETE", s.URL()+rsPath+"/web", "application/json", `{"propagationPolicy":"Foreground"}`); code != 200 {
		t.Fatalf("DELETE: %d", code)
	}
	// Without a collector the owner waits and the dependent stays, for good:
	// nothing was queued for a collector, and none was started.
	if got, want := gcState(t, s), "blocking[ReplicaSet] rs:[foregroundDeletion]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if gc := &s.st.controllers.gc; len(gc.tasks) > 0 || gc.started {
		t.Fatalf("with the collector off, %d tasks are queued and its goroutine started=%v", len(gc.tasks), gc.started)
	}
}

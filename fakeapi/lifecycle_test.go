// lifecycle_test.go: what the captured scenarios of writes_lifecycle_test.go
// cannot compare because it is random or timed: a service keeps the very
// cluster IP and node port it was given across a PUT that leaves them out,
// and a deleted namespace is Terminating for exactly as long as the
// namespace controller waits, which ends with the server.

package fakeapi

import (
	"testing"
	"time"
)

func TestServicePutKeepsAllocations(t *testing.T) {
	s := startServer(t, Options{})
	base := s.URL() + "/api/v1/namespaces/default/services"
	code, created := call(t, "POST", base, "application/json",
		`{"metadata":{"name":"np"},"spec":{"type":"NodePort","selector":{"app":"a"},"ports":[{"name":"http","port":80},{"name":"dns","port":53,"protocol":"UDP"}]}}`)
	if code != 201 {
		t.Fatalf("create: %d %v", code, created)
	}
	// The same ports in another order, without their node ports, and no
	// clusterIP, clusterIPs, ipFamilies or ipFamilyPolicy.
	code, updated := call(t, "PUT", base+"/np", "application/json",
		`{"metadata":{"name":"np"},"spec":{"type":"NodePort","selector":{"app":"b"},"ports":[{"name":"dns","port":53,"protocol":"UDP"},{"name":"http","port":80}]}}`)
	if code != 200 {
		t.Fatalf("update: %d %v", code, updated)
	}
	for _, path := range []string{"spec.clusterIP", "spec.clusterIPs", "spec.ipFamilies", "spec.ipFamilyPolicy"} {
		if before, after := show(atPath(created, path)), show(atPath(updated, path)); before != after || before == "null" {
			t.Errorf("%s: %s after the PUT, %s before", path, after, before)
		}
	}
	nodePort := func(obj map[string]any, name string) any {
		for _, p := range atPath(obj, "spec.ports").([]any) {
			if p.(map[string]any)["name"] == name {
				return p.(map[string]any)["nodePort"]
			}
		}
		return nil
	}
	for _, name := range []string{"http", "dns"} {
		if before, after := nodePort(created, name), nodePort(updated, name); before == nil || before != after {
			t.Errorf("port %s: nodePort %v after the PUT, %v before", name, after, before)
		}
	}
}

func TestNamespaceTerminatingUntilEmptied(t *testing.T) {
	s := startServer(t, Options{NamespaceDeletionDelay: time.Hour})
	if code, got := call(t, "POST", s.URL()+"/api/v1/namespaces", "application/json", `{"metadata":{"name":"team"}}`); code != 201 {
		t.Fatalf("create ns: %d %v", code, got)
	}
	cms := s.URL() + "/api/v1/namespaces/team/configmaps"
	if code, got := call(t, "POST", cms, "application/json", `{"metadata":{"name":"c"}}`); code != 201 {
		t.Fatalf("create cm: %d %v", code, got)
	}
	if code, got := call(t, "DELETE", s.URL()+"/api/v1/namespaces/team", "", ""); code != 200 || atPath(got, "status.phase") != "Terminating" {
		t.Fatalf("delete ns: %d %v", code, got)
	}
	// The controller waits an hour: the namespace stays as it is.
	if code, got := call(t, "GET", s.URL()+"/api/v1/namespaces/team", "", ""); code != 200 || atPath(got, "status.phase") != "Terminating" {
		t.Errorf("get ns: %d %v, want Terminating", code, got)
	}
	if code, got := call(t, "POST", cms, "application/json", `{"metadata":{"name":"d"}}`); code != 403 ||
		got["message"] != `configmaps "d" is forbidden: unable to create new content in namespace team because it is being terminated` {
		t.Errorf("create in a Terminating namespace: %d %v, want the real 403", code, got)
	}
	if _, err := s.Get(ConfigMaps, "team", "c"); err != nil {
		t.Errorf("the config map went before the controller ran: %v", err)
	}
	// Close ends the waiting controller (startServer checks no goroutine is left).
}

func TestNamespaceControllerEmptiesAndRemoves(t *testing.T) {
	s := startServer(t, Options{NamespaceDeletionDelay: time.Millisecond})
	if code, got := call(t, "POST", s.URL()+"/api/v1/namespaces", "application/json", `{"metadata":{"name":"team"}}`); code != 201 {
		t.Fatalf("create ns: %d %v", code, got)
	}
	if _, err := s.Create(ConfigMaps, "team", map[string]any{"metadata": map[string]any{"name": "c"}}); err != nil {
		t.Fatal(err)
	}
	cms := openWatch(t, s.URL()+"/api/v1/namespaces/team/configmaps?watch=1&resourceVersion="+s.ResourceVersion())
	ns := openWatch(t, s.URL()+"/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dteam&resourceVersion="+s.ResourceVersion())
	if code, got := call(t, "DELETE", s.URL()+"/api/v1/namespaces/team", "", ""); code != 200 {
		t.Fatalf("delete ns: %d %v", code, got)
	}
	if ev := ns.next(t, false); ev.Type != "MODIFIED" || atPath(ev.Object, "status.phase") != "Terminating" {
		t.Errorf("namespace: %s %v, want MODIFIED Terminating", ev.Type, ev.Object["status"])
	}
	if ev := cms.next(t, false); ev.Type != "DELETED" || atPath(ev.Object, "metadata.name") != "c" {
		t.Errorf("config map: %s %v, want DELETED c", ev.Type, ev.Object["metadata"])
	}
	if ev := ns.next(t, false); ev.Type != "DELETED" {
		t.Errorf("namespace: %s, want DELETED once it is empty", ev.Type)
	}
	if code, got := call(t, "POST", s.URL()+"/api/v1/namespaces/team/configmaps", "application/json", `{"metadata":{"name":"d"}}`); code != 404 {
		t.Errorf("create in a deleted namespace: %d %v, want 404", code, got)
	}
}

// crud_test.go: get, create, update, patch and delete over HTTP and through
// the Go methods, and the fields the server owns.

package fakeapi

import (
	"errors"
	"strings"
	"testing"
)

func TestCreateSetsServerFields(t *testing.T) {
	s := startServer(t, Options{})
	before := s.ResourceVersion()
	code, got := call(t, "POST", s.URL()+"/api/v1/namespaces/default/pods", "application/json",
		strings.Replace(podJSON("demo", "app=demo"), `"name":"demo"`, `"name":"demo","uid":"client-made","extra":"kept"`, 1))
	if code != 201 {
		t.Fatalf("create: %d %v", code, got)
	}
	m := meta(got)
	if m["uid"] == "client-made" || len(m["uid"].(string)) != 36 {
		t.Errorf("uid = %v, want a server-made UUID", m["uid"])
	}
	// An unknown field is dropped, as the real server drops it (compat_fieldvalidation.go).
	if _, kept := m["extra"]; kept || m["namespace"] != "default" || m["generation"] != 1.0 || m["creationTimestamp"] == nil {
		t.Errorf("metadata = %v", m)
	}
	if rvOf(got) == before || rvOf(got) != s.ResourceVersion() {
		t.Errorf("rv %s: want the new global version %s (was %s)", rvOf(got), s.ResourceVersion(), before)
	}
	_, fetched := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods/demo", "", "")
	if fetched["kind"] != "Pod" || rvOf(fetched) != rvOf(got) {
		t.Errorf("get = %v", fetched)
	}
}

func TestGenerateName(t *testing.T) {
	s := startServer(t, Options{})
	got, err := s.Create(ConfigMaps, "default", map[string]any{"metadata": map[string]any{"generateName": "cfg-"}})
	if err != nil {
		t.Fatal(err)
	}
	if name := meta(got)["name"].(string); !strings.HasPrefix(name, "cfg-") || len(name) != 9 {
		t.Errorf("name = %q, want cfg- and 5 random characters", name)
	}
	if _, ok := meta(got)["generation"]; ok {
		t.Error("a kind without spec has no generation")
	}
}

func TestUpdate(t *testing.T) {
	s := startServer(t, Options{})
	u := s.URL() + "/api/v1/namespaces/default/pods/demo"
	created := mustCreatePod(t, s, "demo", "app=demo")

	// A label change keeps the generation; an unconditional update (no rv) is accepted.
	code, got := call(t, "PUT", u, "application/json", podJSON("demo", "app=demo,step=1"))
	if code != 200 || meta(got)["generation"] != 1.0 || meta(got)["labels"].(map[string]any)["step"] != "1" {
		t.Fatalf("update: %d %v", code, got)
	}
	if meta(got)["uid"] != meta(created)["uid"] || meta(got)["creationTimestamp"] != meta(created)["creationTimestamp"] {
		t.Error("update changed server-owned fields")
	}
	// A spec change bumps the generation; the stored rv is accepted.
	body := strings.Replace(podJSON("demo", "app=demo,step=1"), "busybox", "nginx", 1)
	body = strings.Replace(body, `"name":"demo"`, `"name":"demo","resourceVersion":"`+rvOf(got)+`"`, 1)
	code, got2 := call(t, "PUT", u, "application/json", body)
	if code != 200 || meta(got2)["generation"] != 2.0 {
		t.Fatalf("spec update: %d %v", code, got2)
	}
	// Re-sending the same object is a no-op: no new version.
	rv := s.ResourceVersion()
	if code, got3 := call(t, "PUT", u, "application/json", body); code != 409 {
		t.Fatalf("stale rv: %d %v", code, got3)
	}
	if _, got4 := call(t, "PUT", u, "application/json", strings.Replace(body, rvOf(got), rvOf(got2), 1)); rvOf(got4) != rvOf(got2) || s.ResourceVersion() != rv {
		t.Errorf("no-op update moved the version to %s (global %s → %s)", rvOf(got4), rv, s.ResourceVersion())
	}
	// Updating a missing object is 404.
	if code, _ := call(t, "PUT", u+"x", "application/json", podJSON("demox", "")); code != 404 {
		t.Errorf("update of missing object: %d", code)
	}
}

func TestDirectUpdateConflict(t *testing.T) {
	s := startServer(t, Options{})
	created := mustCreatePod(t, s, "demo", "app=demo")
	meta(created)["labels"] = map[string]any{"app": "v2"}
	if _, err := s.Update(Pods, "default", created); err != nil {
		t.Fatal(err)
	}
	_, err := s.Update(Pods, "default", created) // same, now stale, resourceVersion
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != 409 || apiErr.Reason != "Conflict" {
		t.Fatalf("stale direct update: %v", err)
	}
}

func TestPatch(t *testing.T) {
	s := startServer(t, Options{})
	u := s.URL() + "/api/v1/namespaces/default/pods/demo"
	mustCreatePod(t, s, "demo", "app=demo,gone=yes")

	code, got := call(t, "PATCH", u, "application/merge-patch+json", `{"metadata":{"labels":{"step":"patched","gone":null}}}`)
	labels := meta(got)["labels"].(map[string]any)
	if code != 200 || labels["step"] != "patched" || labels["app"] != "demo" || labels["gone"] != nil {
		t.Fatalf("merge patch: %d %v", code, labels)
	}
	// Strategic: containers merge by name instead of being replaced.
	code, got = call(t, "PATCH", u, "application/strategic-merge-patch+json",
		`{"spec":{"$setElementOrder/containers":[{"name":"main"}],"containers":[{"name":"main","image":"nginx"}]}}`)
	c := got["spec"].(map[string]any)["containers"].([]any)
	if code != 200 || len(c) != 1 || c[0].(map[string]any)["image"] != "nginx" || meta(got)["generation"] != 2.0 {
		t.Fatalf("strategic patch: %d %v", code, got["spec"])
	}
	if code, _ = call(t, "PATCH", u, "application/merge-patch+json", `{"metadata":{"resourceVersion":"1"}}`); code != 409 {
		t.Errorf("patch with stale rv: %d, want 409", code)
	}
	if code, got = call(t, "PATCH", u, "application/json-patch+json", `[{"op":"add","path":"/metadata/labels/jp","value":"yes"}]`); code != 200 || meta(got)["labels"].(map[string]any)["jp"] != "yes" {
		t.Errorf("json patch: %d %v", code, got)
	}
	if code, got = call(t, "PATCH", u, "application/apply-patch+yaml", `{}`); code != 415 || got["reason"] != "UnsupportedMediaType" {
		t.Errorf("apply patch: %d %v, want 415 (fakeapi has no server-side apply)", code, got)
	}
	if code, _ = call(t, "PATCH", u+"x", "application/merge-patch+json", `{}`); code != 404 {
		t.Errorf("patch of missing object: %d", code)
	}
}

func TestDelete(t *testing.T) {
	s := startServer(t, Options{})
	u := s.URL() + "/api/v1/namespaces/default/pods/demo"
	created := mustCreatePod(t, s, "demo", "app=demo")
	code, got := call(t, "DELETE", u, "application/json", `{"preconditions":{"resourceVersion":"1"}}`)
	if code != 409 || !strings.Contains(got["message"].(string), "the ResourceVersion in the precondition (1) does not match") {
		t.Fatalf("delete with stale precondition: %d %v", code, got)
	}
	if code, _ = call(t, "DELETE", u, "application/json", `{"preconditions":{"resourceVersion":"`+rvOf(created)+`"}}`); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	if code, _ = call(t, "DELETE", u, "", ""); code != 404 {
		t.Errorf("second delete: %d, want 404", code)
	}
	// Kinds other than pods answer a Success Status.
	if _, err := s.Create(ConfigMaps, "default", map[string]any{"metadata": map[string]any{"name": "cfg"}}); err != nil {
		t.Fatal(err)
	}
	code, got = call(t, "DELETE", s.URL()+"/api/v1/namespaces/default/configmaps/cfg", "", "")
	if code != 200 || got["kind"] != "Status" || got["status"] != "Success" || got["details"].(map[string]any)["name"] != "cfg" {
		t.Errorf("configmap delete: %d %v", code, got)
	}
}

func TestKindsAndScopes(t *testing.T) {
	s := startServer(t, Options{})
	u := s.URL()
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/v1/namespaces", `{"metadata":{"name":"team-a"}}`},
		{"POST", "/api/v1/nodes", `{"metadata":{"name":"node-1"}}`},
		{"POST", "/api/v1/namespaces", `{"metadata":{"name":"team-b"}}`},
		{"POST", "/apis/apps/v1/namespaces/team-a/deployments", `{"metadata":{"name":"web"},"spec":` + deploySpec + `}`},
		{"POST", "/api/v1/namespaces/team-a/configmaps", `{"metadata":{"name":"cfg"},"data":{"k":"v"}}`},
		{"POST", "/api/v1/namespaces/team-b/configmaps", `{"metadata":{"name":"cfg"}}`},
	} {
		if code, got := call(t, c.method, u+c.path, "application/json", c.body); code != 201 {
			t.Fatalf("%s %s: %d %v", c.method, c.path, code, got)
		}
	}
	_, d := call(t, "GET", u+"/apis/apps/v1/namespaces/team-a/deployments/web", "", "")
	if d["kind"] != "Deployment" || d["apiVersion"] != "apps/v1" {
		t.Errorf("deployment = %v", d)
	}
	_, ns := call(t, "GET", u+"/api/v1/namespaces/team-a", "", "")
	if _, ok := meta(ns)["namespace"]; ok || ns["kind"] != "Namespace" {
		t.Errorf("namespace object = %v", ns)
	}
	_, all := call(t, "GET", u+"/api/v1/configmaps", "", "")
	if n := len(all["items"].([]any)); n != 2 || all["kind"] != "ConfigMapList" {
		t.Errorf("all-namespace list: %d items, kind %v", n, all["kind"])
	}
	if items, _ := s.List(ConfigMaps, "team-b"); len(items) != 1 {
		t.Errorf("List(team-b) = %d items", len(items))
	}
	for _, path := range []string{"/api/v1/namespaces/x/nodes", "/api/v1/pods/demo", "/api/v1/widgets", "/api/v1/namespaces/x/configmaps/p/status"} {
		if code, got := call(t, "GET", u+path, "", ""); code != 404 || got["kind"] != "Status" {
			t.Errorf("GET %s: %d %v, want a 404 Status", path, code, got)
		}
	}
}

func TestDirectMethodsNamespaceDefaults(t *testing.T) {
	s := startServer(t, Options{})
	if _, err := s.Create(ConfigMaps, "", map[string]any{"metadata": map[string]any{"name": "d"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ConfigMaps, "", map[string]any{"metadata": map[string]any{"name": "o", "namespace": "other"}}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ConfigMaps, "default", "d"); err != nil || meta(got)["namespace"] != "default" {
		t.Errorf("Get(default, d) = %v, %v", got, err)
	}
	if _, err := s.Get(ConfigMaps, "other", "o"); err != nil {
		t.Error(err)
	}
	if items, _ := s.List(ConfigMaps, ""); len(items) != 2 {
		t.Errorf("List all = %d items, want 2", len(items))
	}
	if _, err := s.Create(Namespaces, "ignored", map[string]any{"metadata": map[string]any{"name": "n"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(Namespaces, "", "n"); err != nil {
		t.Error(err)
	}
	if err := s.Delete(ConfigMaps, "", "d"); err != nil {
		t.Error(err)
	}
}

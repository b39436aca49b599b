// openapi_test.go: the OpenAPI v3 index and group-version documents, read
// as plain JSON the way kubectl reads them, and the write options
// (fieldValidation, dryRun) that kubectl sends once it has read them.

package fakeapi

import (
	"strings"
	"testing"
)

// supportsFieldValidation does what kubectl's query-parameter verifier
// does: find the PATCH operation tagged with the kind, then the parameter.
func supportsFieldValidation(doc map[string]any, group, version, kind string) bool {
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range paths {
		op, _ := p.(map[string]any)["patch"].(map[string]any)
		gvk, _ := op["x-kubernetes-group-version-kind"].(map[string]any)
		if op == nil || gvk["group"] != group || gvk["version"] != version || gvk["kind"] != kind {
			continue
		}
		params, _ := op["parameters"].([]any)
		for _, x := range params {
			if x.(map[string]any)["name"] == "fieldValidation" {
				return true
			}
		}
		return false
	}
	return false
}

func TestOpenAPIV3(t *testing.T) {
	s := startServer(t, Options{})
	code, index := call(t, "GET", s.URL()+"/openapi/v3", "", "")
	if code != 200 {
		t.Fatalf("/openapi/v3: %d %v", code, index)
	}
	paths, _ := index["paths"].(map[string]any)
	for _, c := range []struct{ gv, group, version, kind, objectPath, schema string }{
		{"api/v1", "", "v1", "Pod", "/api/v1/namespaces/{namespace}/pods/{name}", "io.k8s.api.core.v1.Pod"},
		{"apis/apps/v1", "apps", "v1", "Deployment", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}", "io.k8s.api.apps.v1.Deployment"},
		{"api/v1", "", "v1", "Node", "/api/v1/nodes/{name}", "io.k8s.api.core.v1.Node"},
	} {
		entry, _ := paths[c.gv].(map[string]any)
		url, _ := entry["serverRelativeURL"].(string)
		if !strings.HasPrefix(url, "/openapi/v3/"+c.gv+"?hash=") {
			t.Fatalf("index entry %s = %v, want a serverRelativeURL with a hash", c.gv, entry)
		}
		code, doc := call(t, "GET", s.URL()+url, "", "")
		if code != 200 || doc["openapi"] != "3.0.0" || doc["info"] == nil {
			t.Fatalf("%s: %d, openapi %v info %v", url, code, doc["openapi"], doc["info"])
		}
		if !supportsFieldValidation(doc, c.group, c.version, c.kind) {
			t.Errorf("%s: no PATCH operation for %s with a fieldValidation parameter", c.gv, c.kind)
		}
		p, _ := doc["paths"].(map[string]any)[c.objectPath].(map[string]any)
		for _, verb := range []string{"get", "put", "patch", "delete"} {
			op, _ := p[verb].(map[string]any)
			if op["x-kubernetes-action"] != verb {
				t.Errorf("%s %s: x-kubernetes-action = %v", verb, c.objectPath, op["x-kubernetes-action"])
			}
		}
		if _, ok := doc["components"].(map[string]any)["schemas"].(map[string]any)[c.schema]; !ok {
			t.Errorf("%s: no component schema for %s", c.gv, c.kind)
		}
	}
	// A kind in the other group-version is not in this document.
	_, core := call(t, "GET", s.URL()+"/openapi/v3/api/v1", "", "")
	if supportsFieldValidation(core, "apps", "v1", "Deployment") {
		t.Error("api/v1 document describes Deployment")
	}
	if code, st := call(t, "GET", s.URL()+"/openapi/v3/apis/batch/v1", "", ""); code != 404 || st["reason"] != "NotFound" {
		t.Errorf("unknown group-version: %d %v, want 404 NotFound", code, st)
	}
}

func TestFieldValidationParam(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "p", "app=a")
	base := s.URL() + "/api/v1/namespaces/default/pods"
	for _, v := range []string{"Strict", "Warn", "Ignore"} {
		code, got := call(t, "PATCH", base+"/p?fieldValidation="+v, "application/merge-patch+json", `{"metadata":{"labels":{"v":"`+v+`"}}}`)
		if code != 200 || meta(got)["labels"].(map[string]any)["v"] != v {
			t.Errorf("patch fieldValidation=%s: %d %v", v, code, got)
		}
	}
	if code, got := call(t, "POST", base+"?fieldValidation=Strict", "application/json", podJSON("q", "")); code != 201 {
		t.Errorf("create fieldValidation=Strict: %d %v", code, got)
	}
	before := s.ResourceVersion()
	for _, c := range []struct{ method, url, ct, body, kind string }{
		{"POST", base + "?fieldValidation=strict", "application/json", podJSON("r", ""), "CreateOptions"},
		{"PUT", base + "/p?fieldValidation=Bogus", "application/json", podJSON("p", "app=b"), "UpdateOptions"},
		{"PATCH", base + "/p?fieldValidation=Bogus", "application/merge-patch+json", `{"metadata":{"labels":{"app":"b"}}}`, "PatchOptions"},
		{"PATCH", base + "/absent?fieldValidation=Bogus", "application/merge-patch+json", `{}`, "PatchOptions"}, // options first, as the real server
		{"DELETE", base + "/p?dryRun=Bogus", "", "", "DeleteOptions"},
	} {
		code, st := call(t, c.method, c.url, c.ct, c.body)
		msg, _ := st["message"].(string)
		if code != 422 || st["reason"] != "Invalid" || !strings.HasPrefix(msg, c.kind+`.meta.k8s.io "" is invalid: `) ||
			!strings.Contains(msg, "Unsupported value: ") {
			t.Errorf("%s %s: %d %v, want 422 Invalid about %s", c.method, c.url, code, st, c.kind)
		}
	}
	if s.ResourceVersion() != before {
		t.Errorf("rejected writes moved the resourceVersion from %s to %s", before, s.ResourceVersion())
	}
	if p, err := s.Get(Pods, "default", "p"); err != nil || meta(p)["labels"].(map[string]any)["app"] != "a" {
		t.Errorf("after rejected writes, pod p = %v, %v", p, err)
	}
	if _, err := s.Get(Pods, "default", "r"); err == nil {
		t.Error("a create with a bad fieldValidation stored the pod")
	}
}

func TestDryRun(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "p", "app=a")
	w := openWatch(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+s.ResourceVersion())
	before := s.ResourceVersion()
	base := s.URL() + "/api/v1/namespaces/default/pods"
	code, got := call(t, "POST", base+"?dryRun=All", "application/json", podJSON("new", ""))
	if code != 201 || meta(got)["uid"] == nil || meta(got)["resourceVersion"] != nil {
		t.Errorf("dry-run create: %d %v, want 201 with a uid and no resourceVersion", code, got)
	}
	code, got = call(t, "PATCH", base+"/p?dryRun=All", "application/merge-patch+json", `{"metadata":{"labels":{"app":"b"}}}`)
	if code != 200 || meta(got)["labels"].(map[string]any)["app"] != "b" || rvOf(got) != before {
		t.Errorf("dry-run patch: %d %v, want the patched pod at the stored version %s", code, got, before)
	}
	if code, got = call(t, "DELETE", base+"/p?dryRun=All", "", ""); code != 200 {
		t.Errorf("dry-run delete: %d %v", code, got)
	}
	if code, st := call(t, "POST", base+"?dryRun=All", "application/json", podJSON("p", "")); code != 409 {
		t.Errorf("dry-run create of an existing pod: %d %v, want 409", code, st)
	}
	if s.ResourceVersion() != before {
		t.Errorf("dry runs moved the resourceVersion from %s to %s", before, s.ResourceVersion())
	}
	if p, err := s.Get(Pods, "default", "p"); err != nil || meta(p)["labels"].(map[string]any)["app"] != "a" {
		t.Errorf("after dry runs, pod p = %v, %v", p, err)
	}
	if _, err := s.Get(Pods, "default", "new"); err == nil {
		t.Error("a dry-run create stored the pod")
	}
	// A real write after the dry runs is the next event the watch sees.
	mustCreatePod(t, s, "real", "")
	w.expect(t, "ADDED", "real")
}

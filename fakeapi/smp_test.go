// smp_test.go: strategic merge patches, step by step on one deployment and
// one service, give the real server's results, list order included:
// testdata/smp.json holds the real kube-apiserver v1.37.2's answer to each
// step (captured by testdata/smp-capture.py). The real objects also carry
// the defaults the real server fills in; the fake's must be the same but
// for those: same lists, same order, same values.

package fakeapi

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
)

func TestStrategicMergePatchAsReal(t *testing.T) {
	raw, err := os.ReadFile("testdata/smp.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Deployment, Service map[string]any
		Steps               []struct {
			Kind, Name string
			Patch      map[string]any
			Code       int
			Result     map[string]any
		}
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{})
	paths := map[string]string{
		"deployment": "/apis/apps/v1/namespaces/default/deployments",
		"service":    "/api/v1/namespaces/default/services",
	}
	for kind, obj := range map[string]map[string]any{"deployment": golden.Deployment, "service": golden.Service} {
		if code, got := call(t, "POST", s.URL()+paths[kind], "application/json", jsonText(obj)); code != http.StatusCreated {
			t.Fatalf("create %s: %d %v", kind, code, got)
		}
	}
	for _, step := range golden.Steps {
		code, got := call(t, "PATCH", s.URL()+paths[step.Kind]+"/smp", "application/strategic-merge-patch+json", jsonText(step.Patch))
		if code != step.Code {
			t.Fatalf("%s: %d %v, the real server %d", step.Name, code, got, step.Code)
		}
		if spec, ok := got["spec"].(map[string]any); ok { // a service's cluster IP is the allocator's pick
			if real, ok := step.Result["spec"].(map[string]any); ok {
				for _, k := range []string{"clusterIP", "clusterIPs"} {
					if _, ok := spec[k]; ok {
						spec[k] = real[k]
					}
				}
			}
		}
		if !subsetJSON(got["spec"], step.Result["spec"]) {
			t.Errorf("%s: spec\n%s\nnot within the real server's\n%s", step.Name, jsonText(got["spec"]), jsonText(step.Result["spec"]))
		}
		for _, k := range []string{"labels", "annotations", "finalizers"} {
			if g, w := jsonText(meta(got)[k]), jsonText(meta(step.Result)[k]); g != w {
				t.Errorf("%s: metadata.%s = %s, the real server's %s", step.Name, k, g, w)
			}
		}
	}
}

// TestMergePatchLeavesNoEmptyFields: a merge patch that removes the last
// annotation and the last data key leaves neither field behind, as on the
// real server (checked against kube-apiserver v1.37.2: both absent).
func TestMergePatchLeavesNoEmptyFields(t *testing.T) {
	s := startServer(t, Options{})
	cms := s.URL() + "/api/v1/namespaces/default/configmaps"
	if code, got := call(t, "POST", cms, "application/json", `{"metadata":{"name":"mp","annotations":{"n":"1"}},"data":{"a":"b"}}`); code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, got)
	}
	code, got := call(t, "PATCH", cms+"/mp", "application/merge-patch+json", `{"metadata":{"annotations":{"n":null}},"data":{"a":null}}`)
	_, hasAnnotations := meta(got)["annotations"]
	_, hasData := got["data"]
	if code != http.StatusOK || hasAnnotations || hasData {
		t.Errorf("after the patch: %d %v, want neither annotations nor data", code, got)
	}
}

// realobjects_test.go makes the real answers in testdata/real/ and checks
// that they round-trip through the typed kinds. It is opt-in: it runs only
// when KUBE_APISERVER_URL is set (KUBE_TOKEN and KUBE_CACERT too), e.g.
// against the kit's loopback kube-apiserver v1.37.2 (docs/real-cluster.md):
//
//	kit/start.sh && source .kit/run/env
//	go test -run TestRealObjects -v .
//	UPDATE_TESTDATA=1 go test -run TestRealObjects -v .
//
// The first checks the live answers; the second also saves them (indented,
// otherwise as the server sent them). It creates, in the namespace "demo",
// the rich pod of pod-rich.request.json, sets its status through the /status
// subresource from pod-rich.status.request.json, deletes a pod that a
// finalizer keeps, and provokes a 404, a 409 and a 422. testdata/README.md
// lists the files.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// realClient returns a client for the server of KUBE_APISERVER_URL, or
// skips the test when it is not set.
func realClient(t *testing.T) *RESTClient {
	t.Helper()
	host := os.Getenv("KUBE_APISERVER_URL")
	if host == "" {
		t.Skip("set KUBE_APISERVER_URL (and KUBE_TOKEN, KUBE_CACERT) to run against a real API server")
	}
	c, err := NewRESTClient(RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rawCall sends one request and returns the status code and the body as the
// server sent it, whatever the code.
func rawCall(t *testing.T, c *RESTClient, method, path, contentType string, body []byte) (int, []byte) {
	t.Helper()
	code, _, raw := acceptCall(t, c, method, path, "application/json", contentType, body)
	return code, raw
}

// readJSON reads a JSON file of testdata/real into a plain map.
func readJSON(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRealObjects(t *testing.T) {
	c := realClient(t)
	const ns = "demo"
	pods := "/api/v1/namespaces/" + ns + "/pods"
	call := func(method, path, contentType string, body any, wantCode int) []byte {
		t.Helper()
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		code, raw := rawCall(t, c, method, path, contentType, data)
		if code != wantCode {
			t.Fatalf("%s %s: %d %s, want %d", method, path, code, raw, wantCode)
		}
		return raw
	}
	answers := map[string][]byte{}
	keep := func(name string, raw []byte) {
		t.Helper()
		roundTrip(t, name, raw, typedFor(t, raw))
		answers[name] = raw
	}

	code, _ := rawCall(t, c, http.MethodPost, "/api/v1/namespaces", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
	if code != http.StatusCreated && code != http.StatusConflict {
		t.Fatalf("creating namespace %s: %d", ns, code)
	}
	unblock := func(name string) { // remove the finalizers, then delete at once
		rawCall(t, c, http.MethodPatch, pods+"/"+name, "application/merge-patch+json", []byte(`{"metadata":{"finalizers":null}}`))
		rawCall(t, c, http.MethodDelete, pods+"/"+name, "application/json", []byte(`{"gracePeriodSeconds":0}`))
	}
	unblock("rich")
	unblock("terminating")
	t.Cleanup(func() { unblock("rich"); unblock("terminating") })

	// The rich pod: as created, then with a status set through /status.
	keep("pod-rich-created.json", call(http.MethodPost, pods, "application/json", readJSON(t, "pod-rich.request.json"), http.StatusCreated))
	var pod map[string]any
	if err := json.Unmarshal(call(http.MethodGet, pods+"/rich", "", nil, http.StatusOK), &pod); err != nil {
		t.Fatal(err)
	}
	pod["status"] = readJSON(t, "pod-rich.status.request.json")
	call(http.MethodPut, pods+"/rich/status", "application/json", pod, http.StatusOK)
	keep("pod-rich.json", call(http.MethodGet, pods+"/rich", "", nil, http.StatusOK))

	// A pod being deleted: a finalizer keeps it, with its deletionTimestamp.
	terminating := readJSON(t, "pod-rich.request.json")
	terminating["metadata"].(map[string]any)["name"] = "terminating"
	call(http.MethodPost, pods, "application/json", terminating, http.StatusCreated)
	call(http.MethodDelete, pods+"/terminating", "application/json", map[string]any{}, http.StatusOK)
	keep("pod-terminating.json", call(http.MethodGet, pods+"/terminating", "", nil, http.StatusOK))

	// Failures: the Status bodies.
	keep("status-404.json", call(http.MethodGet, pods+"/missing", "", nil, http.StatusNotFound))
	pod["metadata"].(map[string]any)["resourceVersion"] = "1"
	keep("status-409.json", call(http.MethodPut, pods+"/rich", "application/json", pod, http.StatusConflict))
	keep("status-422.json", call(http.MethodPost, pods, "application/json", map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "Bad_Name", "labels": map[string]any{"-bad": "x"}}, "spec": map[string]any{}},
		http.StatusUnprocessableEntity))

	if os.Getenv("UPDATE_TESTDATA") == "" {
		return
	}
	for name, raw := range answers {
		var out bytes.Buffer
		if err := json.Indent(&out, raw, "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join("testdata", "real", name), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		say(t, "saved testdata/real/%s", "已保存 testdata/real/%s", name)
	}
}

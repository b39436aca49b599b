// realprotobuf_test.go captures a real kube-apiserver's protobuf answers,
// with its JSON answers to the very same requests, into
// fakeapi/testdata/protobuf/server/, and checks on the live answers what
// protobuf_test.go checks on the saved ones: every object decodes over
// protobuf into what it decodes into over JSON. It is opt-in: it runs only
// when KUBE_APISERVER_URL is set (KUBE_TOKEN and KUBE_CACERT too), e.g.
// against the loopback kube-apiserver v1.37.2 of ../shared/kube-apiserver:
//
//	source ~/.cache/kube-apiserver-peer/run/env && go test -run TestRealProtobufAnswers -v .
//	source ~/.cache/kube-apiserver-peer/run/env && UPDATE_TESTDATA=1 go test -run TestRealProtobufAnswers -v .
//
// The second also saves the answers, byte for byte as sent.
// fakeapi/testdata/protobuf/README.md lists the files and the requests.

package informer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// protobufAccept is what client-go's typed clients send (rest.Request's
// UseProtobufAsDefault in v0.37.2).
const protobufAccept = "application/vnd.kubernetes.protobuf,application/json"

// serverCapturesDir holds the real server's answers.
var serverCapturesDir = filepath.Join("fakeapi", "testdata", "protobuf", "server")

// acceptCall sends one request asking for accept, with body (nil for none)
// of contentType, and returns the status code, the Content-Type and the
// body as the server sent them, whatever the code.
func acceptCall(t *testing.T, c *RESTClient, method, path, accept, contentType string, body []byte) (int, string, []byte) {
	t.Helper()
	u := *c.base
	u.Path += path
	if i := bytes.IndexByte([]byte(path), '?'); i >= 0 {
		u.Path = c.base.Path + path[:i]
		u.RawQuery = path[i+1:]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), raw
}

func TestRealProtobufAnswers(t *testing.T) {
	c := realClient(t)
	const ns = "pbwire"
	pods := "/api/v1/namespaces/" + ns + "/pods"
	must := func(method, path string, body any, want int) []byte {
		t.Helper()
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		code, _, raw := acceptCall(t, c, method, path, "application/json", "application/json", data)
		if code != want {
			t.Fatalf("%s %s: %d %s, want %d", method, path, code, raw, want)
		}
		return raw
	}
	// The pods of an earlier run are removed first: their finalizers, then
	// the pods, at once.
	clean := func() {
		for _, name := range []string{"rich", "tricky", "p1", "p2", "p3", "p4"} {
			_, _ = send(c, http.MethodPatch, pods+"/"+name, "application/merge-patch+json",
				map[string]any{"metadata": map[string]any{"finalizers": nil}})
			acceptCall(t, c, http.MethodDelete, pods+"/"+name, "application/json", "application/json", []byte(`{"gracePeriodSeconds":0}`))
		}
	}
	clean()
	t.Cleanup(clean)
	acceptCall(t, c, http.MethodPost, "/api/v1/namespaces", "application/json", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))

	rich := readJSON(t, "pod-rich.request.json")
	must(http.MethodPost, pods, rich, http.StatusCreated)
	var pod map[string]any
	if err := json.Unmarshal(must(http.MethodGet, pods+"/rich", nil, http.StatusOK), &pod); err != nil {
		t.Fatal(err)
	}
	pod["status"] = readJSON(t, "pod-rich.status.request.json")
	must(http.MethodPut, pods+"/rich/status", pod, http.StatusOK)
	must(http.MethodPost, pods, map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "tricky", "annotations": map[string]any{
			"html": "<b>&amp;</b>", "lines": "a\u2028b\u2029c", "control": "tab\there\nnl\u0001",
			"unicode": "héllo 世界 😀", "quote": `say "hi" \ back`}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx",
			"env": []any{map[string]any{"name": "X", "value": "<x>"}}}}}}, http.StatusCreated)
	for _, name := range []string{"p1", "p2", "p3"} {
		must(http.MethodPost, pods, podJSON(ns, name, map[string]string{"app": "demo"}), http.StatusCreated)
	}

	answers := map[string][]byte{}
	both := func(name, path string, wantCode int) (js, pb []byte) {
		t.Helper()
		code, ctype, js := acceptCall(t, c, http.MethodGet, path, "application/json", "", nil)
		if code != wantCode || ctype != "application/json" {
			t.Fatalf("GET %s as JSON: %d %s, want %d", path, code, ctype, wantCode)
		}
		code, ctype, pb = acceptCall(t, c, http.MethodGet, path, protobufAccept, "", nil)
		wantType := "application/vnd.kubernetes.protobuf"
		if bytes.Contains([]byte(path), []byte("watch=")) {
			wantType += ";stream=watch"
		}
		if code != wantCode || ctype != wantType {
			t.Fatalf("GET %s as protobuf: %d %s, want %d %s", path, code, ctype, wantCode, wantType)
		}
		answers[name+".json"] = js
		answers[name+".pb"] = pb
		return js, pb
	}
	both("pod-rich", pods+"/rich", http.StatusOK)
	both("pod-tricky", pods+"/tricky", http.StatusOK)
	both("status-404", pods+"/missing", http.StatusNotFound)
	js, _ := both("list-limit2", pods+"?limit=2", http.StatusOK)
	var page ObjectList
	if err := json.Unmarshal(js, &struct {
		Metadata *ListMeta `json:"metadata"`
	}{&page.ListMeta}); err != nil {
		t.Fatal(err)
	}
	both("list-continue", pods+"?limit=2&continue="+page.Continue, http.StatusOK)
	js, _ = both("list", pods, http.StatusOK)
	if err := json.Unmarshal(js, &struct {
		Metadata *ListMeta `json:"metadata"`
	}{&page.ListMeta}); err != nil {
		t.Fatal(err)
	}

	// Changes after the list: a label, a delete, a new pod. A watch from the
	// list's version replays them: the same events whatever form is asked for.
	if _, err := send(c, http.MethodPatch, pods+"/p1", "application/merge-patch+json",
		map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "changed"}}}); err != nil {
		t.Fatal(err)
	}
	must(http.MethodDelete, pods+"/p2", map[string]any{"gracePeriodSeconds": 0}, http.StatusOK)
	must(http.MethodPost, pods, podJSON(ns, "p4", nil), http.StatusCreated)
	both("watch", pods+"?watch=1&resourceVersion="+page.ResourceVersion+"&timeoutSeconds=1", http.StatusOK)
	both("watch-initial-events", pods+"?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"+
		"&allowWatchBookmarks=true&timeoutSeconds=1", http.StatusOK)
	both("watch-expired", pods+"?watch=1&resourceVersion=1&timeoutSeconds=1", http.StatusOK)

	for name, js := range answers {
		if name, ok := strings.CutSuffix(name, ".json"); ok {
			t.Run(name, func(t *testing.T) { checkProtobufAnswer(t, name, js, answers[name+".pb"]) })
		}
	}
	if os.Getenv("UPDATE_TESTDATA") == "" {
		return
	}
	for name, raw := range answers {
		if err := os.WriteFile(filepath.Join(serverCapturesDir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		say(t, "saved %s", "已保存 %s", filepath.Join(serverCapturesDir, name))
	}
}

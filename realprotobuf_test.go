// realprotobuf_test.go captures a real kube-apiserver's protobuf answers,
// with its JSON answers to the very same requests, into
// fakeapi/testdata/protobuf/server/, and checks on the live answers what
// protobuf_test.go checks on the saved ones: every object decodes over
// protobuf into what it decodes into over JSON. It is opt-in: it runs only
// when KUBE_APISERVER_URL is set (KUBE_TOKEN and KUBE_CACERT too), e.g.
// against the kit's loopback kube-apiserver v1.37.2 (docs/real-cluster.md):
//
//	kit/start.sh && source .kit/run/env
//	go test -run TestRealProtobufAnswers -v .
//	UPDATE_TESTDATA=1 go test -run TestRealProtobufAnswers -v .
//
// The second also saves the answers, byte for byte as sent.
// fakeapi/testdata/protobuf/README.md lists the files and the requests.
//
// Reading 3: the real wire (protobuf for the built-in kinds).

package informer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
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
	// both asks for path in JSON, then in protobuf, then in JSON again. A
	// list and the bookmark that ends a streaming list carry the server's
	// current resourceVersion, which any write moves (the apiserver renews its
	// own lease every few seconds): when the two JSON answers differ, the
	// server changed in between, and both ask again.
	both := func(name, path string, wantCode int) (js, pb []byte) {
		t.Helper()
		wantType := "application/vnd.kubernetes.protobuf"
		if bytes.Contains([]byte(path), []byte("watch=")) {
			wantType += ";stream=watch"
		}
		for try := 1; ; try++ {
			var code int
			var ctype string
			code, ctype, js = acceptCall(t, c, http.MethodGet, path, "application/json", "", nil)
			if code != wantCode || ctype != "application/json" {
				t.Fatalf("GET %s as JSON: %d %s, want %d", path, code, ctype, wantCode)
			}
			code, ctype, pb = acceptCall(t, c, http.MethodGet, path, protobufAccept, "", nil)
			if code != wantCode || ctype != wantType {
				t.Fatalf("GET %s as protobuf: %d %s, want %d %s", path, code, ctype, wantCode, wantType)
			}
			_, _, again := acceptCall(t, c, http.MethodGet, path, "application/json", "", nil)
			if bytes.Equal(js, again) || try == 5 {
				break
			}
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

// countingTransport counts the answers of each Content-Type and the
// requests of each kind (list, watch) a client makes.
type countingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	// seen counts "what code content-type": what is list, watch or the
	// method, after "json-asked " when the request asked for JSON only.
	seen map[string]int
}

func (ct *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := ct.base.RoundTrip(req)
	if err == nil {
		what := req.Method
		if req.Method == http.MethodGet && req.URL.Query().Get("watch") != "" {
			what = "watch"
		} else if req.Method == http.MethodGet && !strings.Contains(req.URL.Path[strings.LastIndex(req.URL.Path, "/pods")+1:], "/") {
			what = "list"
		}
		if req.Header.Get("Accept") != acceptProtobuf {
			what = "json-asked " + what // the test's own requests
		}
		ct.mu.Lock()
		ct.seen[fmt.Sprintf("%s %d %s", what, resp.StatusCode, resp.Header.Get("Content-Type"))]++
		ct.mu.Unlock()
	}
	return resp, err
}

func (ct *countingTransport) count(prefix string) int {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	n := 0
	for k, v := range ct.seen {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}

// countingClient is a client of the real server whose answers are counted.
func countingClient(t *testing.T) (*RESTClient, *countingTransport) {
	c := realClient(t)
	ct := &countingTransport{base: c.client.Transport, seen: map[string]int{}}
	c.client.Transport = ct
	return c, ct
}

// TestRealProtobufUpdateKeepsEveryField reads the rich pod over protobuf
// into the typed Pod, changes one label, and writes it back over protobuf:
// the server then holds every field it held before (its JSON, read before
// and after, differs only in the label, the resourceVersion and the
// managedFields entry of the update).
func TestRealProtobufUpdateKeepsEveryField(t *testing.T) {
	c, ct := countingClient(t)
	const ns = "pbupdate"
	pods := "/api/v1/namespaces/" + ns + "/pods"
	_, _ = send(c, http.MethodPatch, pods+"/rich", "application/merge-patch+json",
		map[string]any{"metadata": map[string]any{"finalizers": nil}})
	_, _, _ = acceptCall(t, c, http.MethodDelete, pods+"/rich", "application/json", "application/json", []byte(`{"gracePeriodSeconds":0}`))
	_, _, _ = acceptCall(t, c, http.MethodPost, "/api/v1/namespaces", "application/json", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
	if _, err := send(c, http.MethodPost, pods, "application/json", readJSON(t, "pod-rich.request.json")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = send(c, http.MethodPatch, pods+"/rich", "application/merge-patch+json",
			map[string]any{"metadata": map[string]any{"finalizers": nil}})
		_, _, _ = acceptCall(t, c, http.MethodDelete, pods+"/rich", "application/json", "application/json", []byte(`{"gracePeriodSeconds":0}`))
	})
	_, _, before := acceptCall(t, c, http.MethodGet, pods+"/rich", "application/json", "", nil)

	ctx := context.Background()
	obj, err := c.Get(ctx, podsResource, ns, "rich")
	if err != nil {
		t.Fatal(err)
	}
	pod := obj.(*Pod).DeepCopy()
	pod.Labels["touched"] = "by-protobuf"
	if _, err := c.Update(ctx, podsResource, pod); err != nil {
		t.Fatal(err)
	}
	if n := ct.count("GET 200 " + ContentTypeProtobuf); n != 1 {
		t.Errorf("Get: %d answers in protobuf, want 1 (%v)", n, ct.seen)
	}
	if n := ct.count("PUT 200 " + ContentTypeProtobuf); n != 1 {
		t.Errorf("Update: %d answers in protobuf, want 1 (%v)", n, ct.seen)
	}
	_, _, after := acceptCall(t, c, http.MethodGet, pods+"/rich", "application/json", "", nil)
	var b, a map[string]any
	if err := json.Unmarshal(before, &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &a); err != nil {
		t.Fatal(err)
	}
	if a["metadata"].(map[string]any)["labels"].(map[string]any)["touched"] != "by-protobuf" {
		t.Fatalf("the label did not arrive: %s", after)
	}
	for _, m := range []map[string]any{a, b} {
		meta := m["metadata"].(map[string]any)
		delete(meta["labels"].(map[string]any), "touched")
		delete(meta, "resourceVersion")
		delete(meta, "managedFields")
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the update changed more than the label\nbefore: %s\nafter:  %s", before, after)
	}
	say(t, "typed Get → label → Update over protobuf kept all %d bytes of the pod's JSON but the label",
		"typed Get → 改标签 → Update（protobuf）保留了 pod JSON 的全部 %d 字节，只改了标签", len(before))
}

// TestRealProtobufInformer runs an informer of typed Pods (protobuf, the
// default) in both list modes on a namespace with the rich pod and small
// ones, through list, watch, a restart of the server (etcd kept; the
// informer's watch then gets 410 Expired from the new watch cache and it
// relists) and changes after it; each time its cache must equal what the
// server holds, object for object (each decoded from the server's JSON),
// and every list and watch must have been answered in protobuf. It needs
// KUBE_APISERVER_RESTART, as TestRealAPIServerRestart does.
func TestRealProtobufInformer(t *testing.T) {
	restart := os.Getenv("KUBE_APISERVER_RESTART")
	c, ct := countingClient(t)
	if restart == "" {
		t.Skip("set KUBE_APISERVER_RESTART too (see realapiserver_restart_test.go)")
	}
	ns := fmt.Sprintf("pbinformer-%d", time.Now().UnixNano())
	pods := "/api/v1/namespaces/" + ns + "/pods"
	_, _, _ = acceptCall(t, c, http.MethodPost, "/api/v1/namespaces", "application/json", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
	rich := readJSON(t, "pod-rich.request.json")
	rich["metadata"].(map[string]any)["finalizers"] = nil
	for _, body := range []map[string]any{rich, podJSON(ns, "a", nil), podJSON(ns, "b", map[string]string{"app": "x"})} {
		if _, err := send(c, http.MethodPost, pods, "application/json", body); err != nil {
			t.Fatal(err)
		}
	}
	// sameAsServer reports whether the cache holds exactly the server's
	// objects, each equal to the server's JSON of it decoded into a Pod.
	sameAsServer := func(inf SharedIndexInformer) bool {
		_, _, raw := acceptCall(t, c, http.MethodGet, pods, "application/json", "", nil)
		var list struct{ Items []*Pod }
		if err := json.Unmarshal(raw, &list); err != nil {
			return false
		}
		cached := inf.GetStore().List()
		if len(cached) != len(list.Items) {
			return false
		}
		for _, want := range list.Items {
			got, ok, _ := inf.GetStore().GetByKey(keyOf(want))
			if !ok || !reflect.DeepEqual(got, want) {
				return false
			}
		}
		return true
	}
	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprintf("streamingList=%v", streaming), func(t *testing.T) {
			gates := DefaultPipelineGates()
			gates.WatchListClient = streaming
			lw := NewListWatchFromClient(c, podsResource, ns, "")
			inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{PipelineGates: &gates})
			runInformer(t, inf)
			waitFor(t, "the cache to equal the server after the sync", func() bool { return sameAsServer(inf) })
			patch := map[string]any{"metadata": map[string]any{"labels": map[string]any{"round": fmt.Sprint(streaming)}}}
			if _, err := send(c, http.MethodPatch, pods+"/a", "application/merge-patch+json", patch); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the cache to equal the server after a watch event", func() bool { return sameAsServer(inf) })

			lists := ct.count("list")
			watches := ct.count("watch")
			say(t, "restarting the API server", "重启 API 服务器")
			if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
				t.Fatalf("restart: %v\n%s", err, out)
			}
			if _, err := send(c, http.MethodPatch, pods+"/b", "application/merge-patch+json", patch); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Minute) // backoffs grow to 30 s while the server is down
			for !sameAsServer(inf) {
				if time.Now().After(deadline) {
					t.Fatal("the cache did not come back to the server's objects after the restart")
				}
				time.Sleep(100 * time.Millisecond) // polling interval
			}
			// The watch cut by the restart is resumed from its version, which
			// the new watch cache no longer has: 410, then a relist (a list, or
			// a streaming list's watch), then a watch.
			say(t, "after the restart: %d lists and %d watches more; the cache equals the server",
				"重启之后：多了 %d 次 list、%d 次 watch；缓存与服务器一致", ct.count("list")-lists, ct.count("watch")-watches)
		})
	}
	for what, n := range ct.seen {
		if (strings.HasPrefix(what, "list 200") || strings.HasPrefix(what, "watch 200")) && !strings.Contains(what, ContentTypeProtobuf) {
			t.Errorf("%d answers %q: every list and watch of the informer should be protobuf", n, what)
		}
	}
	say(t, "answers: %v", "应答：%v", ct.seen)
}

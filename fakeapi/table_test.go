// table_test.go: Tables (server-side printing, what `kubectl get` shows),
// decoded as plain JSON and compared with a real kube-apiserver's
// (testdata/table-pods.json and watch-table.jsonl, v1.37.2, managedFields cut).

package fakeapi

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// kubectlAccept is the Accept header of `kubectl get`.
const kubectlAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// getAccept GETs url with Accept: accept and decodes the answer as plain JSON.
func getAccept(t *testing.T, url, accept string) (int, map[string]any) {
	t.Helper()
	return callAccept(t, "GET", url, "", "", accept)
}

// callAccept is call with an Accept header.
func callAccept(t *testing.T, method, url, contentType, body, accept string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Accept", accept)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, m
}

// columnNames lists a Table's column names, with -o wide's after a "|".
func columnNames(tbl map[string]any) string {
	var names []string
	wideSeen := false
	for _, c := range tbl["columnDefinitions"].([]any) {
		col := c.(map[string]any)
		if col["priority"] == 1.0 && !wideSeen {
			names, wideSeen = append(names, "|"), true
		}
		names = append(names, col["name"].(string))
	}
	return strings.Join(names, ",")
}

// crashingPod is a pod with one ready container and one in CrashLoopBackOff
// that last failed 7 minutes ago: the pod the real capture was made from.
func crashingPod(finished time.Time) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "p1", "labels": map[string]any{"app": "x"}},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "c"}, map[string]any{"name": "d"}}},
		"status": map[string]any{"phase": "Running", "podIP": "10.0.0.7", "containerStatuses": []any{
			map[string]any{"name": "c", "ready": true, "restartCount": 0, "state": map[string]any{"running": map[string]any{}}},
			map[string]any{"name": "d", "ready": false, "restartCount": 3,
				"lastState": map[string]any{"terminated": map[string]any{"exitCode": 1, "reason": "Error", "finishedAt": finished.UTC().Format(time.RFC3339)}},
				"state":     map[string]any{"waiting": map[string]any{"reason": "CrashLoopBackOff"}}},
		}}}
}

func TestTablePods(t *testing.T) {
	s := startServer(t, Options{})
	if _, err := s.Create(Pods, "default", crashingPod(time.Now().Add(-7*time.Minute))); err != nil {
		t.Fatal(err)
	}
	mustCreatePod(t, s, "plain", "")
	code, got := getAccept(t, s.URL()+"/api/v1/namespaces/default/pods", kubectlAccept)
	want := readCapture(t, "table-pods.json")
	if code != 200 || got["kind"] != "Table" || got["apiVersion"] != "meta.k8s.io/v1" {
		t.Fatalf("%d %v %v, want 200 Table meta.k8s.io/v1", code, got["kind"], got["apiVersion"])
	}
	sameKeys(t, "pods table", got, want, "", "metadata")
	if g, w := columnNames(got), columnNames(want); g != w {
		t.Errorf("columns %s, real server %s", g, w)
	}
	wantCol := want["columnDefinitions"].([]any)[0].(map[string]any)
	for i, c := range got["columnDefinitions"].([]any) {
		sameKeys(t, fmt.Sprint("column ", i), c.(map[string]any), wantCol, "")
	}
	rows := got["rows"].([]any)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	wantRow := want["rows"].([]any)[0].(map[string]any)
	row := rows[0].(map[string]any)
	sameKeys(t, "row", row, wantRow, "", "object")
	// Every cell but AGE and RESTARTS' "(7m ago)" is the real server's for
	// the same pod; those two depend on the clock.
	cells, wantCells := row["cells"].([]any), wantRow["cells"].([]any)
	if r, _ := cells[3].(string); !regexp.MustCompile(`^3 \(7m(1s)? ago\)$`).MatchString(r) || wantCells[3] != "3 (7m ago)" {
		t.Errorf("RESTARTS = %q, want 3 (7m ago) as the real server's %q", r, wantCells[3])
	}
	for i := range wantCells {
		if i != 3 && i != 4 && cells[i] != wantCells[i] {
			t.Errorf("cell %d = %v, real server %v", i, cells[i], wantCells[i])
		}
	}
	if age, _ := cells[4].(string); !regexp.MustCompile(`^[0-9]+s$`).MatchString(age) {
		t.Errorf("AGE of a new pod = %q, want seconds", age)
	}
	object := row["object"].(map[string]any)
	if object["kind"] != "PartialObjectMetadata" || meta(object)["namespace"] != "default" || meta(object)["labels"] == nil {
		t.Errorf("row object = %v, want PartialObjectMetadata with namespace and labels", object)
	}
	if _, ok := object["spec"]; ok {
		t.Error("a PartialObjectMetadata carries no spec")
	}
	plain := rows[1].(map[string]any)["cells"].([]any)
	if fmt.Sprint(plain[:4]) != "[plain 0/1 Pending 0]" {
		t.Errorf("a pod without container statuses: %v, want plain 0/1 Pending 0", plain[:4])
	}

	// Deleting a pod marks it Terminating in the DELETED event's row.
	st := openWatchAccept(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion="+s.ResourceVersion(), kubectlAccept)
	if err := s.Delete(Pods, "default", "plain"); err != nil {
		t.Fatal(err)
	}
	ev := st.next(t, false)
	if c := ev.Object["rows"].([]any)[0].(map[string]any)["cells"].([]any); ev.Type != "DELETED" || c[2] != "Terminating" {
		t.Errorf("%s %v, want DELETED with STATUS Terminating", ev.Type, c)
	}
}

// TestTableRowObjects: includeObject picks what each row carries; a single
// object and a write's answer are Tables too; plain JSON is still the default.
func TestTableRowObjects(t *testing.T) {
	s := startServer(t, Options{})
	created := mustCreatePod(t, s, "demo", "app=demo")
	u := s.URL() + "/api/v1/namespaces/default/pods"
	_, got := getAccept(t, u+"?includeObject=Object", kubectlAccept)
	if o := got["rows"].([]any)[0].(map[string]any)["object"].(map[string]any); o["kind"] != "Pod" || o["spec"] == nil {
		t.Errorf("includeObject=Object: row object %v, want the whole Pod", o)
	}
	_, got = getAccept(t, u+"?includeObject=None", kubectlAccept)
	if o, ok := got["rows"].([]any)[0].(map[string]any)["object"]; !ok || o != nil {
		t.Errorf("includeObject=None: object = %v (present %v), want null", o, ok)
	}
	code, got := getAccept(t, u+"?includeObject=All", kubectlAccept)
	if code != 400 || got["reason"] != "BadRequest" {
		t.Errorf("includeObject=All: %d %v, want 400 BadRequest", code, got["reason"])
	}
	_, got = getAccept(t, u+"/demo", "application/json;as=Table;v=v1beta1;g=meta.k8s.io")
	if got["apiVersion"] != "meta.k8s.io/v1beta1" || rvOf(got) != rvOf(created) || len(got["rows"].([]any)) != 1 {
		t.Errorf("get as a v1beta1 Table: %v", got)
	}
	for _, accept := range []string{"", "application/json", "application/json,application/vnd.kubernetes.protobuf"} {
		if _, got = getAccept(t, u, accept); got["kind"] != "PodList" {
			t.Errorf("Accept %q: kind %v, want PodList", accept, got["kind"])
		}
	}
	// Protobuf first: a protobuf list (compat_protoanswer.go, protobuf_answer_test.go).
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Accept", "application/vnd.kubernetes.protobuf,application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.Header.Get("Content-Type") != protobufMediaType {
		t.Errorf("Accept protobuf first: %v %v, want a protobuf answer", err, resp)
	} else {
		resp.Body.Close()
	}
	// A write answered as a Table; a bad includeObject writes nothing.
	for _, q := range []string{"?includeObject=Metadata", "?includeObject=bad"} {
		req, _ := http.NewRequest("POST", u+q, strings.NewReader(podJSON("w"+strings.ToLower(q[15:]), "")))
		req.Header.Set("Accept", kubectlAccept)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[string]int{"?includeObject=Metadata": 201, "?includeObject=bad": 400}[q]; resp.StatusCode != want {
			t.Errorf("POST %s: %d, want %d", q, resp.StatusCode, want)
		}
	}
	if _, err := s.Get(Pods, "default", "wbad"); err == nil {
		t.Error("a write with a bad includeObject was stored")
	}
}

// TestTableOtherKinds: namespaces (Active from creation, as on the real
// server), deployments and config maps have their own columns (every kind's
// are in printers_test.go).
func TestTableOtherKinds(t *testing.T) {
	s := startServer(t, Options{})
	for _, c := range []struct {
		r    Resource
		obj  string
		path string
		cols string
		cell string // the cells, AGE left out
	}{
		{Namespaces, `{"metadata":{"name":"a-team"}}`, "/api/v1/namespaces", // sorts before the four a cluster starts with
			"Name,Status,Age", "[a-team Active]"},
		{Deployments, `{"metadata":{"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"spec":{"containers":[{"name":"c","image":"nginx"}]}}},"status":{"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}}`,
			"/apis/apps/v1/namespaces/default/deployments", "Name,Ready,Up-to-date,Available,Age,|,Containers,Images,Selector", "[web 2/3 3 2 c nginx app=web]"},
		{ConfigMaps, `{"metadata":{"name":"cfg"}}`, "/api/v1/namespaces/default/configmaps", "Name,Data,Age", "[cfg 0]"},
	} {
		var obj map[string]any
		_ = json.Unmarshal([]byte(c.obj), &obj)
		if _, err := s.Create(c.r, "default", obj); err != nil {
			t.Fatal(err)
		}
		_, got := getAccept(t, s.URL()+c.path, kubectlAccept)
		if cols := columnNames(got); cols != c.cols {
			t.Errorf("%v: columns %s, want %s", c.r, cols, c.cols)
		}
		cells := got["rows"].([]any)[0].(map[string]any)["cells"].([]any)
		var shown []any
		for i, cell := range cells {
			if name := got["columnDefinitions"].([]any)[i].(map[string]any)["name"]; name != "Age" {
				shown = append(shown, cell)
			}
		}
		if fmt.Sprint(shown) != c.cell {
			t.Errorf("%v: cells %v, want %s (and an age)", c.r, shown, c.cell)
		}
	}
}

// TestTableWatch: each event is a one-row Table; only the first carries the
// column definitions, as the real server does; ERROR stays a Status.
func TestTableWatch(t *testing.T) {
	s := startServer(t, Options{BookmarkInterval: time.Hour})
	mustCreatePod(t, s, "a", "")
	st := openWatchAccept(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1", kubectlAccept)
	first := st.expectRow(t, "ADDED", "a")
	mustCreatePod(t, s, "b", "")
	second := st.expectRow(t, "ADDED", "b")
	f, err := os.Open("testdata/watch-table.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var real []watchEvent
	for sc.Scan() {
		var ev watchEvent
		_ = json.Unmarshal(sc.Bytes(), &ev)
		real = append(real, ev)
	}
	sameKeys(t, "first event", first.Object, real[0].Object, "", "metadata")
	sameKeys(t, "later event", second.Object, real[2].Object, "", "metadata")
	if first.Object["columnDefinitions"] == nil || second.Object["columnDefinitions"] != nil || real[2].Object["columnDefinitions"] != nil {
		t.Errorf("column definitions: first event %v, second %v; want them in the first only",
			first.Object["columnDefinitions"] != nil, second.Object["columnDefinitions"] != nil)
	}
	if rvOf(second.Object) != rvOf(second.Object["rows"].([]any)[0].(map[string]any)["object"].(map[string]any)) {
		t.Error("an event's Table is not at its object's version")
	}
	s.Compact(0)
	mustCreatePod(t, s, "c", "")
	old := openWatchAccept(t, s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=1", kubectlAccept)
	if ev := old.next(t, false); ev.Type != "ERROR" || ev.Object["kind"] != "Status" || ev.Object["code"] != 410.0 {
		t.Errorf("too old a version: %s %v, want ERROR with a 410 Status", ev.Type, ev.Object)
	}
}

// openWatchAccept is openWatch with an Accept header.
func openWatchAccept(t *testing.T, url, accept string) *stream {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", accept)
	return openWatchRequest(t, req)
}

// expectRow reads the next event and checks it is a one-row Table of name.
func (st *stream) expectRow(t *testing.T, typ, name string) watchEvent {
	t.Helper()
	ev := st.next(t, false)
	rows, _ := ev.Object["rows"].([]any)
	if ev.Type != typ || ev.Object["kind"] != "Table" || len(rows) != 1 {
		t.Fatalf("event %s %v with %d rows, want %s Table with one row", ev.Type, ev.Object["kind"], len(rows), typ)
	}
	if cells := rows[0].(map[string]any)["cells"].([]any); cells[0] != name {
		t.Fatalf("row %v, want %s", cells, name)
	}
	return ev
}

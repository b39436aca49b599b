// printers_test.go: the columns and cells of every kind's Table, compared
// with a real kube-apiserver's (testdata/printers-real.json, v1.37.2), and
// the cell rules that capture does not reach.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"
)

// timeColumns hold ages, which depend on the clock: compared separately.
var timeColumns = map[string]bool{"Age": true, "Last Seen": true, "First Seen": true}

// TestPrintersMatchRealServer stores the objects the real server was given,
// asks for each kind's Table as kubectl does, and expects the real server's
// columns (name, type, format, priority) and every cell but the ages.
func TestPrintersMatchRealServer(t *testing.T) {
	real := readCapture(t, "printers-real.json")
	s := startServer(t, Options{})
	for resource, objects := range real["objects"].(map[string]any) {
		ri := lookupName(t, resource)
		for _, o := range objects.([]any) {
			ns := "default"
			if !ri.namespaced {
				ns = ""
			}
			if _, err := s.Create(ri.Resource, ns, o); err != nil {
				t.Fatalf("%s: %v", resource, err)
			}
		}
	}
	tables := real["tables"].(map[string]any)
	if len(tables) != len(catalog)-3 { // all but pods, namespaces, deployments
		t.Fatalf("the capture has %d kinds' tables", len(tables))
	}
	for resource, want := range tables {
		ri := lookupName(t, resource)
		path := "/api/v1/"
		if ri.Group != "" {
			path = "/apis/" + ri.Group + "/v1/"
		}
		if ri.namespaced {
			path += "namespaces/default/"
		}
		_, got := getAccept(t, s.URL()+path+resource, kubectlAccept)
		wantTable := want.(map[string]any)
		var gotCols []any
		for _, c := range got["columnDefinitions"].([]any) {
			col := c.(map[string]any)
			if col["description"] == "" {
				t.Errorf("%s: column %v has no description", resource, col["name"])
			}
			delete(col, "description")
			gotCols = append(gotCols, col)
		}
		if g, w := fmt.Sprint(gotCols), fmt.Sprint(wantTable["columns"]); g != w {
			t.Errorf("%s columns:\n got %s\nreal %s", resource, g, w)
			continue
		}
		rows, wantRows := got["rows"].([]any), wantTable["rows"].([]any)
		if len(rows) != len(wantRows) {
			t.Fatalf("%s: %d rows, real server %d", resource, len(rows), len(wantRows))
		}
		for i, r := range rows {
			cells, wantCells := r.(map[string]any)["cells"].([]any), wantRows[i].([]any)
			for j, col := range gotCols {
				name := col.(map[string]any)["name"].(string)
				switch {
				case name == "Age":
					if !regexp.MustCompile(`^[0-9]+s$`).MatchString(fmt.Sprint(cells[j])) {
						t.Errorf("%s row %d: AGE %v, want seconds", resource, i, cells[j])
					}
				case timeColumns[name]: // events: TestPrinterCells pins them
				case cells[j] != wantCells[j]:
					t.Errorf("%s row %d %s: %#v, real server %#v", resource, i, name, cells[j], wantCells[j])
				}
			}
		}
	}
}

// lookupName finds a served resource by its plural name.
func lookupName(t *testing.T, resource string) *resourceInfo {
	t.Helper()
	for _, ri := range catalog {
		if ri.Resource.Resource == resource {
			return ri
		}
	}
	t.Fatalf("no resource %q", resource)
	return nil
}

// TestPrinterCells: rules the capture does not reach, one object each, as
// plain JSON; only the listed columns are checked.
func TestPrinterCells(t *testing.T) {
	// The real capture's events were printed at about this time.
	now := time.Date(2026, 12, 2, 15, 22, 30, 0, time.UTC)
	for _, c := range []struct {
		kind, obj string
		want      map[string]any // column name: cell
	}{
		// Event ages, as the real server printed them.
		{"Event", `{"count":3,"firstTimestamp":"2026-12-01T10:00:00Z","lastTimestamp":"2026-12-02T10:00:00Z"}`,
			map[string]any{"Last Seen": "5h22m", "First Seen": "29h", "Count": int64(3)}},
		{"Event", `{"eventTime":"2026-12-02T10:00:00.000000Z","series":{"count":5,"lastObservedTime":"2026-12-02T11:00:00.000000Z"}}`,
			map[string]any{"Last Seen": "4h22m", "First Seen": "5h22m", "Count": int64(5)}},
		// A single event of the newer API, and one with no times at all.
		{"Event", `{"eventTime":"2026-12-02T15:22:00.123456Z","involvedObject":{"kind":"Deployment","name":"web"}}`, // 29.88s ago: truncated
			map[string]any{"Last Seen": "29s", "First Seen": "29s", "Count": int64(1), "Object": "deployment/web", "Source": ""}},
		{"Event", `{"source":{"host":"n1"}}`, map[string]any{"Last Seen": "<unknown>", "First Seen": "<unknown>", "Source": ", n1"}},
		// Services without ports or addresses, and of a type the server does not know.
		{"Service", `{"spec":{"type":"LoadBalancer"}}`, map[string]any{"External-IP": "<pending>", "Port(s)": "<none>", "Cluster-IP": "<none>"}},
		{"Service", `{"spec":{"type":"Other","clusterIPs":["fd00::1","10.0.0.9"],"clusterIP":"fd00::1"}}`, map[string]any{"External-IP": "<unknown>", "Cluster-IP": "fd00::1"}},
		{"Service", `{"spec":{"ports":[{"port":"80"}]}}`, map[string]any{"Type": "ClusterIP", "Port(s)": "0/TCP"}}, // wrong type reads as unset
		// A role named twice shows once; no nodeInfo at all.
		{"Node", `{"metadata":{"labels":{"node-role.kubernetes.io/edge":"","kubernetes.io/role":"edge","node-role.kubernetes.io/":""}}}`,
			map[string]any{"Roles": "edge", "Status": "Unknown", "Version": "", "Kernel-Version": "<unknown>"}},
		// Selectors: every operator, sorted by key; what the real server would reject.
		{"ReplicaSet", `{"spec":{"replicas":0,"selector":{"matchExpressions":[{"key":"b","operator":"NotIn","values":["y","x"]},{"key":"a","operator":"Exists"}]}}}`,
			map[string]any{"Desired": int64(0), "Selector": "a,b notin (x,y)"}},
		{"ReplicaSet", `{"spec":{"selector":{"matchExpressions":[{"key":"a","operator":"In"}]}}}`, map[string]any{"Selector": "<error>"}},
		{"ReplicaSet", `{"spec":{"selector":{}}}`, map[string]any{"Selector": "<none>", "Desired": int64(1)}},
		{"DaemonSet", `{}`, map[string]any{"Node Selector": "<none>", "Selector": "<none>", "Containers": "", "Desired": int64(0)}},
		{"StatefulSet", `{"spec":{"replicas":null},"status":{"readyReplicas":1}}`, map[string]any{"Ready": "1/1"}},
		{"Secret", `{"type":"kubernetes.io/tls","data":{"tls.crt":"","tls.key":""}}`, map[string]any{"Type": "kubernetes.io/tls", "Data": int64(2)}},
		{"ConfigMap", `{"data":"not a map"}`, map[string]any{"Data": int64(0), "Age": "<unknown>"}},
	} {
		var body map[string]any
		if err := json.Unmarshal([]byte(c.obj), &body); err != nil {
			t.Fatal(err)
		}
		p := printers[c.kind]
		cells := p.cells(body, now)
		if len(cells) != len(p.columns) {
			t.Fatalf("%s: %d cells for %d columns", c.kind, len(cells), len(p.columns))
		}
		for i, col := range p.columns {
			if want, ok := c.want[col.Name]; ok && cells[i] != want {
				t.Errorf("%s %s: %s = %#v, want %#v", c.kind, c.obj, col.Name, cells[i], want)
			}
		}
	}
}

// TestDefaultPrinter: a kind without a printer of its own gets the
// apiserver's default table: the name and the creation time as stored.
func TestDefaultPrinter(t *testing.T) {
	p := printerFor(&resourceInfo{Resource: Resource{"example.com", "v1", "widgets"}, kind: "Widget"})
	if p != defaultPrinter || p.columns[1].Name != "Created At" || p.columns[1].Type != "date" {
		t.Fatalf("printer for an unknown kind: %+v, want the default", p.columns)
	}
	body := map[string]any{"metadata": map[string]any{"name": "w", "creationTimestamp": "2026-12-02T16:22:30+01:00"}}
	if cells := fmt.Sprint(p.cells(body, time.Now())); cells != "[w 2026-12-02T15:22:30Z]" {
		t.Errorf("cells %s, want [w 2026-12-02T15:22:30Z]", cells)
	}
	for _, ri := range catalog {
		if printerFor(ri) == defaultPrinter {
			t.Errorf("%v has no printer of its own", ri.Resource)
		}
	}
}

// protobuf_test.go: protobuf request bodies captured from real clients
// (testdata/protobuf: kubectl 1.32's create commands and client-go
// v0.37.2's typed clientset with its default config) decode to exactly the
// JSON those clients' Go objects marshal to (the .sent.json beside each
// body, made by client-go's own protobuf decoder and encoding/json), are
// accepted over HTTP, and bad bodies are refused with a Status.

package fakeapi

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// protobufCase is one captured request: its body file and where it went.
type protobufCase struct {
	name, method, path string
}

// protobufCases are the captured bodies in testdata/protobuf.
var protobufCases = []protobufCase{
	{"kubectl-create-configmap", "POST", "/api/v1/namespaces/default/configmaps"},
	{"kubectl-create-secret", "POST", "/api/v1/namespaces/default/secrets"},
	{"kubectl-create-namespace", "POST", "/api/v1/namespaces"},
	{"kubectl-create-deployment", "POST", "/apis/apps/v1/namespaces/default/deployments"},
	{"clientgo-create-pod", "POST", "/api/v1/namespaces/default/pods"},
	{"clientgo-update-pod", "PUT", "/api/v1/namespaces/default/pods/cg"},
	{"clientgo-create-deployment", "POST", "/apis/apps/v1/namespaces/default/deployments"},
	{"clientgo-create-event", "POST", "/api/v1/namespaces/default/events"},
	{"clientgo-create-secret", "POST", "/api/v1/namespaces/default/secrets"},
	{"clientgo-create-service", "POST", "/api/v1/namespaces/default/services"},
	{"clientgo-delete-pod", "DELETE", "/api/v1/namespaces/default/pods/cg"},
	{"clientgo-delete-deployment", "DELETE", "/apis/apps/v1/namespaces/default/deployments/cg"},
}

// readTestJSON reads a JSON file of testdata as plain values.
func readTestJSON(t *testing.T, path string) any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// plainJSON round-trips v through encoding/json, so values compare as
// plain JSON whatever Go types built them.
func plainJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestProtobufDecodeGolden(t *testing.T) {
	for _, c := range protobufCases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "protobuf", c.name+".pb"))
			if err != nil {
				t.Fatal(err)
			}
			rt, ok := parseRoute(c.path)
			if !ok {
				t.Fatalf("bad path %s", c.path)
			}
			kind := rt.ri.kind
			if c.method == "DELETE" {
				kind = "DeleteOptions"
			}
			got, e := decodeProtobuf(raw, rt.ri, kind)
			if e != nil {
				t.Fatal(e)
			}
			want := readTestJSON(t, filepath.Join("testdata", "protobuf", c.name+".sent.json"))
			if g := plainJSON(t, got); !reflect.DeepEqual(g, want) {
				gb, _ := json.Marshal(g)
				wb, _ := json.Marshal(want)
				t.Errorf("decoded\n%s\nwant (client-go's own decoding)\n%s", gb, wb)
			}
		})
	}
}

// TestProtobufOverHTTP sends the captured create bodies to the server and
// reads back what it stored: the decoded object, with the server's fields.
func TestProtobufOverHTTP(t *testing.T) {
	s := startServer(t, Options{})
	for _, c := range protobufCases {
		if c.method != "POST" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("testdata", "protobuf", c.name+".pb"))
		if err != nil {
			t.Fatal(err)
		}
		code, got := call(t, "POST", s.URL()+c.path, protobufMediaType, string(raw))
		if code != http.StatusCreated {
			t.Errorf("%s: POST %s: %d %v", c.name, c.path, code, got)
			continue
		}
		sent := readTestJSON(t, filepath.Join("testdata", "protobuf", c.name+".sent.json")).(map[string]any)
		name := meta(sent)["name"].(string)
		path := c.path + "/" + name
		if strings.HasSuffix(c.path, "/namespaces") {
			path = c.path + "/" + name
		}
		_, stored := call(t, "GET", s.URL()+path, "", "")
		if meta(stored)["uid"] == nil || meta(stored)["resourceVersion"] == nil {
			t.Errorf("%s: stored object lacks uid or resourceVersion: %v", c.name, stored)
		}
		for k, v := range sent {
			if k == "metadata" || k == "status" {
				continue // the server owns parts of both
			}
			if !reflect.DeepEqual(plainJSON(t, stored[k]), v) {
				t.Errorf("%s: stored %s = %v, sent %v", c.name, k, stored[k], v)
			}
		}
	}
}

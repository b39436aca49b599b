// protobuf_test.go: protobuf request bodies captured from real clients
// (testdata/protobuf: kubectl 1.32's create commands and client-go
// v0.37.2's typed clientset with its default config) decode to exactly the
// JSON those clients' Go objects marshal to (the .sent.json beside each
// body, made by client-go's own protobuf decoder and encoding/json), are
// stored as a real kube-apiserver stored the very same bytes (.real.json),
// and bad bodies are refused with a Status. testdata/protobuf/README.md
// says how each file was made.

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

// knownProtobufGaps are the fields where the fake stores what the client
// sent and the real server stores something else (see the docs' list of
// differences): a Secret's stringData, which the real server folds into
// data, and metadata.generation, which the real server gives neither
// namespaces nor services.
var knownProtobufGaps = map[string]bool{"clientgo-create-secret stringData": true,
	"kubectl-create-namespace metadata.generation": true, "clientgo-create-service metadata.generation": true}

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
		real := readTestJSON(t, filepath.Join("testdata", "protobuf", c.name+".real.json")).(map[string]any)
		name := meta(sent)["name"].(string)
		_, stored := call(t, "GET", s.URL()+c.path+"/"+name, "", "")
		if meta(stored)["uid"] == nil || meta(stored)["resourceVersion"] == nil {
			t.Errorf("%s: stored object lacks uid or resourceVersion: %v", c.name, stored)
		}
		// What the fake stored is what the real server stored for the very
		// same body, but for the fields the real server fills in itself
		// (defaults, managedFields) and the server-made metadata values.
		if spec, ok := stored["spec"].(map[string]any); ok { // a service's cluster IP is the allocator's pick
			for _, k := range []string{"clusterIP", "clusterIPs"} {
				if _, ok := spec[k]; ok {
					spec[k] = real["spec"].(map[string]any)[k]
				}
			}
		}
		for k := range meta(stored) {
			if _, ok := meta(real)[k]; !ok && !knownProtobufGaps[c.name+" metadata."+k] {
				t.Errorf("%s: stored metadata.%s, the real server did not", c.name, k)
			}
		}
		for k, v := range stored {
			if k == "metadata" || k == "status" || knownProtobufGaps[c.name+" "+k] {
				continue
			}
			if !subsetJSON(plainJSON(t, v), real[k]) {
				t.Errorf("%s: stored %s\n%s\nnot within what the real server stored\n%s", c.name, k, jsonText(v), jsonText(real[k]))
			}
		}
		for k, v := range sent {
			if k == "metadata" || k == "status" || k == "stringData" {
				continue // the server owns parts of both; stringData is folded into data
			}
			if !sentKept(plainJSON(t, stored[k]), v) {
				t.Errorf("%s: stored %s = %v, sent %v", c.name, k, stored[k], v)
			}
		}
	}
}

// TestProtobufRefused: what cannot be decoded is a 400 Status that says why,
// and nothing is stored.
func TestProtobufRefused(t *testing.T) {
	s := startServer(t, Options{})
	cm, err := os.ReadFile(filepath.Join("testdata", "protobuf", "kubectl-create-configmap.pb"))
	if err != nil {
		t.Fatal(err)
	}
	// The envelope's raw field (2) holds the ConfigMap: append a field 99
	// (varint 1) to it, fixing up the lengths by re-encoding the envelope.
	withField99 := rewrapUnknown(t, cm, func(obj []byte) []byte { return append(obj, 0x98, 0x06, 0x01) })
	for _, c := range []struct {
		name, path, body, want string
	}{
		{"no magic", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"x"}}`, "does not appear to be a protobuf message"},
		{"cut short", "/api/v1/namespaces/default/configmaps", string(cm[:len(cm)-3]), "(must be of type ConfigMap)"},
		{"unknown field", "/api/v1/namespaces/default/configmaps", string(withField99), "field number 99 (wire type 0) of message k8s.io.api.core.v1.ConfigMap is not in the schema"},
		{"kind not served here", "/api/v1/namespaces/default/pods", string(cm), "the kind in the data (ConfigMap) does not match the expected kind (Pod)"},
	} {
		code, st := call(t, "POST", s.URL()+c.path, protobufMediaType, c.body)
		msg, _ := st["message"].(string)
		if code != http.StatusBadRequest || st["kind"] != "Status" || st["reason"] != "BadRequest" || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %d %v, want 400 BadRequest saying %q", c.name, code, st, c.want)
		}
	}
	if code, l := call(t, "GET", s.URL()+"/api/v1/configmaps", "", ""); code != 200 || len(l["items"].([]any)) != 0 {
		t.Errorf("after refused writes: %d %v, want an empty list", code, l)
	}
}

// rewrapUnknown rebuilds a protobuf body with its object bytes changed by f.
func rewrapUnknown(t *testing.T, body []byte, f func([]byte) []byte) []byte {
	t.Helper()
	out := append([]byte(nil), protobufMagic...)
	for b := body[len(protobufMagic):]; len(b) > 0; {
		wf, rest, err := nextWireField(b)
		if err != nil {
			t.Fatal(err)
		}
		b = rest
		if wf.num == 2 {
			wf.b = f(append([]byte(nil), wf.b...))
		}
		out = append(out, byte(wf.num<<3|2))
		out = appendUvarint(out, uint64(len(wf.b)))
		out = append(out, wf.b...)
	}
	return out
}

// FuzzProtobuf checks the protobuf decoder on any body: it never panics,
// every failure is a 400 Status, what it accepts is JSON, and the JSON
// stays within a fixed multiple of the body's size (zero values of absent
// fields are the only growth). Seeds: the captured bodies.
// `go test -fuzz=FuzzProtobuf -fuzztime=60s -parallel=1 ./fakeapi`.
func FuzzProtobuf(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "protobuf", "*.pb"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, strings.Contains(name, "delete"))
	}
	f.Add([]byte("k8s\x00"), false)
	f.Fuzz(func(t *testing.T, body []byte, deleteOptions bool) {
		kind := "Pod"
		if deleteOptions {
			kind = "DeleteOptions"
		}
		obj, e := decodeProtobuf(body, lookup(Pods), kind)
		if e != nil {
			if e.Code != http.StatusBadRequest || e.Reason != "BadRequest" || e.Message == "" {
				t.Fatalf("error %+v is not a 400 Status", e)
			}
			return
		}
		out, err := json.Marshal(obj)
		if err != nil {
			t.Fatalf("decoded object is not JSON: %v", err)
		}
		if len(out) > 64*len(body)+4096 {
			t.Fatalf("%d bytes of protobuf became %d bytes of JSON", len(body), len(out))
		}
	})
}

// sentKept reports whether everything sent is in stored: the server adds
// defaults (compat_defaults.go) and admission may append to lists, but nothing a
// client sent is dropped.
func sentKept(stored, sent any) bool {
	switch s := sent.(type) {
	case map[string]any:
		m, ok := stored.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range s {
			if !sentKept(m[k], v) {
				return false
			}
		}
		return true
	case []any:
		l, ok := stored.([]any)
		if !ok || len(l) < len(s) { // admission may append (a pod's default tolerations)
			return false
		}
		for i := range s {
			if !sentKept(l[i], s[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(stored, sent)
}

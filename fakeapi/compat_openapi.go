// compat_openapi.go (compatibility layer): the OpenAPI documents a real
// kube-apiserver v1.37.2 serves, for the group-versions this server serves:
// /openapi/v3 (an index and one document per group-version) and /openapi/v2
// (one document, JSON or protobuf).
//
// kubectl reads them before it writes. With its default --validate=strict,
// kubectl 1.27 and 1.28 fetch /openapi/v2 in protobuf (and nothing else);
// later versions fetch the /openapi/v3 index and the object's group-version
// document, find the PATCH operation tagged with the object's
// group-version-kind, and, seeing its fieldValidation parameter, leave the
// checking to the server (compat_options.go). `kubectl explain` prints the
// descriptions of the schemas, and `kubectl apply` computes its strategic
// merge patches from their x-kubernetes-patch-* extensions (compat_patch.go uses
// the same ones). The documents are the real ones (schema/, compat_schemadata.go),
// with one change: paths this server does not serve (subresources such as
// pods/log, kinds not in the catalog, the old /watch/ paths) are left out.
// Operations on a served path are listed as the real server lists them
// (deletecollection among them, which this server refuses with 405).
// Counterparts: k8s.io/kube-openapi's handler and handler3 (the server
// side), k8s.io/client-go/openapi and discovery.OpenAPISchema, kubectl's
// query_param_verifier_v3.go and explain (the client side).
// Tutorial: none.

package fakeapi

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// openAPIV2Protobuf is the media type of /openapi/v2 in protobuf, the form
// client-go's discovery client asks for.
const openAPIV2Protobuf = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"

// openAPIDocs holds the JSON of every group-version document, keyed by its
// path under /openapi/v3/ ("api/v1", "apis/apps/v1"), and the index that
// points at them. The catalog never changes, so they are built once.
var openAPIDocs = sync.OnceValues(func() (map[string][]byte, []byte) {
	docs := map[string][]byte{}
	index := map[string]any{}
	for _, key := range openAPIKeys() {
		b, _ := json.Marshal(openAPIV3Doc(key)) // plain values: cannot fail
		docs[key] = b
		// The hash makes the URL change when the document does, so clients
		// may cache it for good; the real server uses SHA-512 too.
		sum := sha512.Sum512(b)
		index[key] = map[string]any{"serverRelativeURL": "/openapi/v3/" + key + "?hash=" + strings.ToUpper(hex.EncodeToString(sum[:]))}
	}
	b, _ := json.Marshal(map[string]any{"paths": index})
	return docs, b
})

// openAPIKeys are the group-versions' keys: "api/v1", "apis/apps/v1".
func openAPIKeys() []string {
	var keys []string
	for _, gv := range groupVersions() {
		key := "api/" + gv[1]
		if gv[0] != "" {
			key = "apis/" + gv[0] + "/" + gv[1]
		}
		keys = append(keys, key)
	}
	return keys
}

// openAPIV3Doc is the real document of one group-version, its paths cut
// to those served. Every call decodes a fresh copy.
func openAPIV3Doc(key string) map[string]any {
	doc := decodeSchemaJSON("openapi-v3-" + strings.ReplaceAll(key, "/", "-") + ".json.gz")
	servedPathsOnly(doc)
	return doc
}

// openAPIV2 is the real /openapi/v2 document in JSON and in protobuf, both
// cut to the served paths.
var openAPIV2 = sync.OnceValues(func() ([]byte, []byte) {
	doc := decodeSchemaJSON("openapi-v2.json.gz")
	servedPathsOnly(doc)
	js, _ := json.Marshal(doc)
	return js, cutProtobufPaths(schemaFile("openapi-v2.pb.gz"))
})

// decodeSchemaJSON decodes a JSON document of schema/, numbers as sent.
func decodeSchemaJSON(name string) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(schemaFile(name)))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		panic("fakeapi: schema/" + name + ": " + err.Error())
	}
	return doc
}

// servedPathsOnly removes the paths this server does not serve.
func servedPathsOnly(doc map[string]any) {
	paths, _ := doc["paths"].(map[string]any)
	for p := range paths {
		if !servedOpenAPIPath(p) {
			delete(paths, p)
		}
	}
}

// servedOpenAPIPath reports whether a path template of the documents, such
// as /api/v1/namespaces/{namespace}/pods/{name}, is one this server serves.
func servedOpenAPIPath(p string) bool {
	if p == "/api/v1/" || p == "/apis/apps/v1/" { // the discovery documents
		return true
	}
	_, ok := parseRoute(strings.NewReplacer("{namespace}", "ns", "{name}", "n").Replace(p))
	return ok
}

// cutProtobufPaths removes the unserved paths from a gnostic
// openapi_v2.Document: its field 8 (Paths) holds NamedPathItem entries in
// field 2, each naming its path in field 1. Every other byte is kept.
func cutProtobufPaths(doc []byte) []byte {
	return filterFields(doc, func(num int, b []byte) ([]byte, bool) {
		if num != 8 {
			return b, true
		}
		return filterFields(b, func(num int, item []byte) ([]byte, bool) {
			if num != 2 {
				return item, true
			}
			name, _ := filterFieldString(item, 1)
			return item, servedOpenAPIPath(name)
		}), true
	})
}

// filterFields copies a protobuf message, passing each length-delimited
// field through keep, which may replace its bytes or drop it.
func filterFields(msg []byte, keep func(num int, b []byte) ([]byte, bool)) []byte {
	var out []byte
	for len(msg) > 0 {
		wf, rest, err := nextWireField(msg)
		if err != nil {
			panic("fakeapi: embedded OpenAPI v2 protobuf: " + err.Error())
		}
		field := msg[:len(msg)-len(rest)]
		msg = rest
		if wf.wt != 2 {
			out = append(out, field...)
			continue
		}
		if b, ok := keep(wf.num, wf.b); ok {
			out = appendUvarint(out, uint64(wf.num)<<3|2)
			out = appendUvarint(out, uint64(len(b)))
			out = append(out, b...)
		}
	}
	return out
}

// filterFieldString is the string in field num of msg.
func filterFieldString(msg []byte, num int) (string, bool) {
	for len(msg) > 0 {
		wf, rest, err := nextWireField(msg)
		if err != nil {
			return "", false
		}
		msg = rest
		if wf.num == num && wf.wt == 2 {
			return string(wf.b), true
		}
	}
	return "", false
}

// appendUvarint appends v as a protobuf varint.
func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// serveOpenAPI answers /openapi/v2, /openapi/v3 and
// /openapi/v3/{group-version}; it reports false for any other path.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if path == "/openapi/v2" {
		js, pb := openAPIV2()
		w.Header().Set("Cache-Control", "no-cache, private")
		if strings.Contains(r.Header.Get("Accept"), openAPIV2Protobuf) {
			// The real server answers with this spelling (".v1.0", not "@v1.0").
			w.Header().Set("Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
			_, _ = w.Write(pb)
			return true
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(js)
		return true
	}
	if path != "/openapi/v3" && !strings.HasPrefix(path, "/openapi/v3/") {
		return false
	}
	docs, index := openAPIDocs()
	body := index
	if path != "/openapi/v3" {
		body = docs[strings.TrimPrefix(path, "/openapi/v3/")]
		if body == nil {
			writeError(w, errPathNotFound())
			return true
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	_, _ = w.Write(body)
	return true
}

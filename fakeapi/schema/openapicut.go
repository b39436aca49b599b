//go:build ignore

// openapicut.go: cuts a real server's /openapi/v2 document (JSON and
// protobuf) down to the group-versions fakeapi serves: the paths under
// /api/v1/ and /apis/apps/v1/, and the definitions those paths reach.
// Nothing is changed, only left out. refresh.sh runs it:
//
//	go run openapicut.go v2.json v2.pb out.json.gz out.pb.gz
//
// The protobuf form is gnostic's openapi_v2.Document (github.com/google/
// gnostic-models/openapiv2/OpenAPIv2.proto): paths are field 8 (Paths,
// whose field 2 holds NamedPathItem{name=1, value=2}), definitions field 9
// (Definitions, whose field 1 holds NamedSchema{name=1, value=2}).

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

var prefixes = []string{"/api/v1/", "/apis/apps/v1/"}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	check(err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	check(dec.Decode(&doc))
	paths := doc["paths"].(map[string]any)
	keptPaths := map[string]bool{}
	for p := range paths {
		kept := false
		for _, pre := range prefixes {
			kept = kept || strings.HasPrefix(p, pre)
		}
		if kept {
			keptPaths[p] = true
		} else {
			delete(paths, p)
		}
	}
	defs := doc["definitions"].(map[string]any)
	reach := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				name := strings.TrimPrefix(ref, "#/definitions/")
				if !reach[name] {
					reach[name] = true
					walk(defs[name])
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(paths)
	for name := range defs {
		if !reach[name] {
			delete(defs, name)
		}
	}
	out, err := json.Marshal(doc)
	check(err)
	writeGzip(os.Args[3], out)

	pb, err := os.ReadFile(os.Args[2])
	check(err)
	pb = filter(pb, func(num int, b []byte) (bool, []byte) {
		switch num {
		case 8:
			return true, filter(b, func(n int, e []byte) (bool, []byte) { return n != 2 || keptPaths[name(e)], e })
		case 9:
			return true, filter(b, func(n int, e []byte) (bool, []byte) { return n != 1 || reach[name(e)], e })
		}
		return true, b
	})
	writeGzip(os.Args[4], pb)
	fmt.Fprintf(os.Stderr, "kept %d paths and %d definitions\n", len(keptPaths), len(reach))
}

// filter copies the fields of message b, passing each length-delimited one
// through keep (which may also change its bytes); other fields are copied.
func filter(b []byte, keep func(num int, b []byte) (bool, []byte)) []byte {
	var out []byte
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		start := b
		b = b[n:]
		num, wt := int(tag>>3), tag&7
		switch wt {
		case 0:
			_, m := binary.Uvarint(b)
			out = append(out, start[:n+m]...)
			b = b[m:]
		case 1:
			out = append(out, start[:n+8]...)
			b = b[8:]
		case 5:
			out = append(out, start[:n+4]...)
			b = b[4:]
		case 2:
			l, m := binary.Uvarint(b)
			val := b[m : m+int(l)]
			b = b[m+int(l):]
			if ok, nv := keep(num, val); ok {
				out = binary.AppendUvarint(out, tag)
				out = binary.AppendUvarint(out, uint64(len(nv)))
				out = append(out, nv...)
			}
		default:
			check(fmt.Errorf("wire type %d", wt))
		}
	}
	return out
}

// name is field 1 (a string) of a Named* message.
func name(b []byte) string {
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		b = b[n:]
		if tag&7 != 2 {
			check(fmt.Errorf("unexpected wire type in a named entry"))
		}
		l, m := binary.Uvarint(b)
		if tag>>3 == 1 {
			return string(b[m : m+int(l)])
		}
		b = b[m+int(l):]
	}
	return ""
}

func writeGzip(path string, b []byte) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	check(zw.Close())
	check(os.WriteFile(path, buf.Bytes(), 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds the decoders arbitrary bytes, seeded with every saved
// protobuf body (objects, lists, watch streams): bad input must be an
// error, never a panic or a hang, and whatever decodes as an object must
// give valid JSON that encodes back without an error. Plain `go test` runs
// the seeds; `go test -run=^$ -fuzz=^FuzzDecode$ -fuzztime=2m
// ./internal/protobuf` searches for more.
func FuzzDecode(f *testing.F) {
	for _, pattern := range []string{"*.pb", "server/*.pb"} {
		files, _ := filepath.Glob(filepath.Join(captures, pattern))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte("k8s\x00"))
	f.Add([]byte{0, 0, 0, 1, 0x0a})
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := fuzzOne(data); err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzOne runs every decoder on data; an error says what a decoder got wrong.
func fuzzOne(data []byte) error {
	{
		if text, err := ObjectJSON(data); err == nil {
			if !json.Valid(text) {
				return fmt.Errorf("ObjectJSON gave invalid JSON %q for %q", text, data)
			}
			if _, err := Encode(text); err != nil && !errors.Is(err, ErrNotInSchema) {
				// JSON a decoder wrote must encode again, unless the
				// schema knows the kind but not a member (impossible from
				// the wire) or the text has no kind.
				var probe struct{ Kind, APIVersion string }
				if json.Unmarshal(text, &probe) == nil && probe.Kind != "" && probe.APIVersion != "" {
					return fmt.Errorf("Encode of ObjectJSON's %s: %v", text, err)
				}
			}
		}
		var items []json.RawMessage
		_ = NewDecoder(bytes.NewReader(data), Layout{}).DecodeList(func(string) any { return nil }, func() any {
			items = append(items, nil)
			return &items[len(items)-1]
		})
		dec := NewDecoder(bytes.NewReader(data), Layout{})
		for range 1000 {
			var obj json.RawMessage
			if _, _, err := dec.DecodeEvent(func(string) any { return &obj }); err != nil {
				break
			}
		}
	}
	return nil
}

// FuzzScanRawJSON checks that scanRawJSON says valid exactly when
// json.Valid does, and plain only when compacting and HTML escaping leave
// the text as it is.
func FuzzScanRawJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`, ` [1, 2.5e-3, -0]`,
		`{"a":"<b>"}`, `"\u2028"`, `{"k":"v" }`, `{"a":}`, `01`, `"\ud800"`, "\"\xff\"", `[true,false,null]`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		valid, plain := scanRawJSON(raw)
		if valid != json.Valid(raw) {
			t.Fatalf("scanRawJSON(%q) valid=%v, json.Valid says %v", raw, valid, !valid)
		}
		if !valid || !plain {
			return
		}
		var compact, escaped bytes.Buffer
		_ = json.Compact(&compact, raw)
		json.HTMLEscape(&escaped, compact.Bytes())
		if !bytes.Equal(escaped.Bytes(), raw) {
			t.Fatalf("scanRawJSON(%q) says plain, but encoding/json writes %q", raw, escaped.Bytes())
		}
	})
}

// compat_protoencode.go (compatibility layer): a stored object (its JSON
// map) in Kubernetes protobuf, byte for byte as the real server's generated
// Marshal writes the Go object the map stands for: fields in field-number
// order; every field the Go struct holds by value written even when zero
// (an empty string, a 0, an empty message), a pointer, a slice, a map or a
// []byte only when set; map entries sorted by key; a Time as whole
// seconds; a Quantity as its string; RawExtension and FieldsV1 as their
// JSON. The messages are the real .proto files' (compat_protoschema.go).
//
// TestProtobufEncodingMatchesRealServer encodes a real server's JSON
// answers and compares the bytes with its protobuf answers to the same
// requests.
// client-go counterpart: the generated Marshal methods of k8s.io/api
// (generated.pb.go) and runtime/serializer/protobuf's Serializer.Encode.
// Tutorial: none.

package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// The envelope's messages.
const (
	pbUnknown    = "k8s.io.apimachinery.pkg.runtime.Unknown"
	pbTypeMeta   = "k8s.io.apimachinery.pkg.runtime.TypeMeta"
	pbWatchEvent = schema.MetaPackage + "WatchEvent"
	pbStatus     = schema.MetaPackage + "Status"
	pbListMeta   = schema.MetaPackage + "ListMeta"
)

// protoEnvelope is an object's protobuf body: the magic, then a
// runtime.Unknown of its apiVersion and kind around its message.
func protoEnvelope(apiVersion, kind string, message []byte) []byte {
	tm := protoBytes(nil, protoNumber(pbTypeMeta, "apiVersion"), []byte(apiVersion))
	tm = protoBytes(tm, protoNumber(pbTypeMeta, "kind"), []byte(kind))
	out := append([]byte(nil), protobufMagic...)
	out = protoBytes(out, protoNumber(pbUnknown, "typeMeta"), tm)
	out = protoBytes(out, protoNumber(pbUnknown, "raw"), message)
	out = protoBytes(out, protoNumber(pbUnknown, "contentEncoding"), nil)
	return protoBytes(out, protoNumber(pbUnknown, "contentType"), nil)
}

// protoNumber is the number of field name (its .proto name) of message msg.
func protoNumber(msg, name string) int {
	for _, f := range protoSchema()[msg].Order {
		if f.Name == name {
			return f.Number
		}
	}
	panic("fakeapi: the schema has no field " + msg + "." + name) // the checked-in schema is broken
}

// encodeProtoMessage writes the fields of message m from v, the JSON map
// of the Go struct (nil: the zero struct).
func encodeProtoMessage(m *protoMessage, v map[string]any, depth int) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("a message is not in the schema")
	}
	if depth > maxProtoDepth {
		return nil, fmt.Errorf("objects nested deeper than %d", maxProtoDepth)
	}
	fields := slices.Clone(m.Order)
	slices.SortFunc(fields, func(a, b *protoField) int { return a.Number - b.Number })
	var out []byte
	for _, f := range fields {
		if f.Inline { // the embedded struct's members are v's own
			sub, err := encodeProtoMessage(protoSchema()[f.Type], v, depth+1)
			if err != nil {
				return nil, err
			}
			out = protoBytes(out, f.Number, sub)
			continue
		}
		x, present := v[f.JSON]
		if x == nil {
			present = false
		}
		var err error
		switch {
		case f.Type == "map":
			if present {
				out, err = encodeProtoMap(out, f, x, depth)
			}
		case f.Repeated:
			list, _ := x.([]any)
			for _, item := range list {
				if out, err = encodeProtoValue(out, f.Number, f.Type, item, true, depth); err != nil {
					break
				}
			}
		case !present && (f.Ptr || f.Type == "bytes"):
			// a nil pointer or []byte is not written
		default:
			out, err = encodeProtoValue(out, f.Number, f.Type, x, present, depth)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.JSON, err)
		}
	}
	return out, nil
}

// encodeProtoMap writes a map's entries, sorted by key, each its key and
// its value.
func encodeProtoMap(out []byte, f *protoField, x any, depth int) ([]byte, error) {
	entries, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object, got %T", x)
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		entry := protoBytes(nil, 1, []byte(k))
		var err error
		value := entries[k]
		if entry, err = encodeProtoValue(entry, 2, f.MapValue, value, value != nil, depth); err != nil {
			return nil, err
		}
		out = protoBytes(out, f.Number, entry)
	}
	return out, nil
}

// encodeProtoValue writes one value of type typ as field num; a value not
// present is the zero value, written too.
func encodeProtoValue(out []byte, num int, typ string, x any, present bool, depth int) ([]byte, error) {
	switch typ {
	case "string":
		s, _ := x.(string)
		return protoBytes(out, num, []byte(s)), nil
	case "bytes":
		s, _ := x.(string)
		b, err := base64.StdEncoding.DecodeString(s)
		return protoBytes(out, num, b), err
	case "bool":
		b, _ := x.(bool)
		u := uint64(0)
		if b {
			u = 1
		}
		return protoVarint(out, num, u), nil
	case "int32", "int64", "uint32", "uint64":
		n, err := jsonInteger(x, present)
		return protoVarint(out, num, uint64(n)), err
	case "double", "float":
		f, err := jsonFloat(x, present)
		if typ == "float" {
			out = appendUvarint(out, uint64(num)<<3|5)
			b := math.Float32bits(float32(f))
			return append(out, byte(b), byte(b>>8), byte(b>>16), byte(b>>24)), err
		}
		out = appendUvarint(out, uint64(num)<<3|1)
		b := math.Float64bits(f)
		for i := range 8 {
			out = append(out, byte(b>>(8*i)))
		}
		return out, err
	}
	sub, err := encodeProtoSpecial(typ, x, present)
	if err == errNotSpecial {
		m, _ := x.(map[string]any)
		sub, err = encodeProtoMessage(protoSchema()[typ], m, depth+1)
	}
	if err != nil {
		return nil, err
	}
	return protoBytes(out, num, sub), nil
}

// errNotSpecial says a message has no JSON form of its own.
var errNotSpecial = fmt.Errorf("not a type with JSON of its own")

// encodeProtoSpecial writes the fields of a type whose JSON form is its
// own (compat_protomessage.go reads them back).
func encodeProtoSpecial(typ string, x any, present bool) ([]byte, error) {
	s, isString := x.(string)
	switch typ {
	case pbTime, pbMicroTime:
		if !isString {
			return nil, nil // the zero time: an empty message
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, err
		}
		nanos := uint64(t.Nanosecond() / 1000 * 1000)
		if typ == pbTime {
			nanos = 0 // metav1.Time keeps whole seconds
		}
		out := protoVarint(nil, protoNumber(typ, "seconds"), uint64(t.Unix()))
		return protoVarint(out, protoNumber(typ, "nanos"), nanos), nil
	case pbDuration:
		d, err := time.ParseDuration(s)
		if !present {
			d, err = 0, nil
		}
		return protoVarint(nil, protoNumber(typ, "duration"), uint64(d)), err
	case pbQuantity:
		if !present {
			return nil, nil
		}
		if !isString {
			s = fmt.Sprint(x) // a number is a quantity too
		}
		return protoBytes(nil, protoNumber(typ, "string"), []byte(s)), nil
	case pbIntOrString:
		var kind, n int64
		if isString {
			kind = 1
		} else if present {
			var err error
			if n, err = jsonInteger(x, true); err != nil {
				return nil, err
			}
		}
		out := protoVarint(nil, protoNumber(typ, "type"), uint64(kind))
		out = protoVarint(out, protoNumber(typ, "intVal"), uint64(int32(n)))
		return protoBytes(out, protoNumber(typ, "strVal"), []byte(s)), nil
	case pbRawExtension, pbFieldsV1:
		if !present {
			return nil, nil
		}
		raw, err := json.Marshal(x)
		name := "raw"
		if typ == pbFieldsV1 {
			name = "Raw"
		}
		return protoBytes(nil, protoNumber(typ, name), raw), err
	}
	return nil, errNotSpecial
}

// jsonInteger is a JSON number of the stored map as an integer.
func jsonInteger(x any, present bool) (int64, error) {
	switch n := x.(type) {
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case float64:
		if n == math.Trunc(n) {
			return int64(n), nil
		}
	case json.Number:
		return strconv.ParseInt(n.String(), 10, 64)
	case nil:
		if !present {
			return 0, nil
		}
	}
	return 0, fmt.Errorf("want an integer, got %v", x)
}

// jsonFloat is a JSON number of the stored map as a float.
func jsonFloat(x any, present bool) (float64, error) {
	switch n := x.(type) {
	case int64:
		return float64(n), nil
	case float64:
		return n, nil
	case json.Number:
		return n.Float64()
	case nil:
		if !present {
			return 0, nil
		}
	}
	return 0, fmt.Errorf("want a number, got %v", x)
}

// protoBytes writes field num of wire type 2.
func protoBytes(out []byte, num int, b []byte) []byte {
	out = appendUvarint(out, uint64(num)<<3|2)
	out = appendUvarint(out, uint64(len(b)))
	return append(out, b...)
}

// protoVarint writes field num of wire type 0.
func protoVarint(out []byte, num int, u uint64) []byte {
	out = appendUvarint(out, uint64(num)<<3)
	return appendUvarint(out, u)
}

// protoStatus is a Status (an error's answer) in protobuf.
func protoStatus(st statusBody) ([]byte, error) {
	raw, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	body, e := decodeObject(raw)
	if e != nil {
		return nil, e
	}
	msg, err := encodeProtoMessage(protoSchema()[pbStatus], body, 0)
	return protoEnvelope(st.APIVersion, st.Kind, msg), err
}

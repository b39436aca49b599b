// encode_values.go writes the values of a message being encoded (encode.go)
// from their JSON: scalars, maps (entries sorted by key), and the types with
// JSON of their own (times, quantities, IntOrString, raw JSON), as
// generated.pb.go writes the Go values they decode to.
//
// client-go counterpart: the generated Marshal methods of k8s.io/api, and the
// Marshal methods of metav1.Time, resource.Quantity and intstr.IntOrString.
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// appendOne appends one value of type typ as field number num (nil: the
// zero value, which is written too).
func appendOne(dst []byte, num int, typ string, sub *msgPlan, raw []byte, depth int) ([]byte, error) {
	if sub != nil {
		body, err := encodeMessage(nil, sub, raw, depth+1)
		if err != nil {
			return dst, err
		}
		return appendBytesField(dst, num, body), nil
	}
	switch typ {
	case "string", "bytes":
		var s string
		if raw != nil {
			if err := json.Unmarshal(raw, &s); err != nil {
				return dst, err
			}
		}
		b := []byte(s)
		if typ == "bytes" {
			var err error
			if b, err = base64.StdEncoding.DecodeString(s); err != nil {
				return dst, err
			}
		}
		return appendBytesField(dst, num, b), nil
	case "bool":
		var v bool
		if raw != nil {
			if err := json.Unmarshal(raw, &v); err != nil {
				return dst, err
			}
		}
		return appendVarintField(dst, num, boolBit(v)), nil
	case "int32", "int64", "uint32", "uint64":
		var n json.Number = "0"
		if raw != nil {
			if err := json.Unmarshal(raw, &n); err != nil {
				return dst, err
			}
		}
		u, err := integer(typ, string(n))
		if err != nil {
			return dst, err
		}
		return appendVarintField(dst, num, u), nil
	case "double", "float":
		var v float64
		if raw != nil {
			if err := json.Unmarshal(raw, &v); err != nil {
				return dst, err
			}
		}
		if typ == "float" {
			dst = appendVarint(dst, uint64(num)<<3|wireFixed32)
			return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v))), nil
		}
		dst = appendVarint(dst, uint64(num)<<3|wireFixed64)
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v)), nil
	}
	return dst, fmt.Errorf("protobuf: unknown type %q", typ)
}

// integer reads a JSON integer as the varint of a field of type typ.
func integer(typ, text string) (uint64, error) {
	switch typ {
	case "int32":
		n, err := strconv.ParseInt(text, 10, 32)
		return uint64(n), err
	case "int64":
		n, err := strconv.ParseInt(text, 10, 64)
		return uint64(n), err
	case "uint32":
		return strconv.ParseUint(text, 10, 32)
	}
	return strconv.ParseUint(text, 10, 64)
}

// boolBit is 1 for true.
func boolBit(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// appendMapField appends a map's entries, sorted by key, each a message of
// its key (1) and value (2), both always written.
func appendMapField(dst []byte, f *schemaField, sub *msgPlan, raw []byte, depth int) ([]byte, error) {
	members, err := objectMembers(raw)
	if err != nil {
		return dst, err
	}
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		entry := appendBytesField(nil, 1, []byte(k))
		value := []byte(members[k])
		if string(value) == "null" {
			value = nil
		}
		if entry, err = appendOne(entry, 2, f.MapValue, sub, value, depth); err != nil {
			return dst, err
		}
		dst = appendBytesField(dst, f.Number, entry)
	}
	return dst, nil
}

// encodeOwn appends the fields of a type with JSON of its own, from its JSON.
func encodeOwn(dst []byte, p *msgPlan, raw []byte) ([]byte, error) {
	null := raw == nil || string(raw) == "null"
	var s string
	isString := !null && raw[0] == '"'
	if isString {
		if err := json.Unmarshal(raw, &s); err != nil {
			return dst, err
		}
	}
	switch p.msg.Name {
	case schema.Time, schema.MicroTime:
		if null {
			return dst, nil // the zero time: an empty message
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return dst, err
		}
		// A Timestamp writes both fields; a Time keeps whole seconds only.
		nanos := uint64(t.Nanosecond() / 1000 * 1000)
		if p.msg.Name == schema.Time {
			nanos = 0
		}
		dst = appendVarintField(dst, numberOf(p, "seconds"), uint64(t.Unix()))
		return appendVarintField(dst, numberOf(p, "nanos"), nanos), nil
	case schema.Duration:
		d, err := time.ParseDuration(s)
		if err != nil && !null {
			return dst, err
		}
		return appendVarintField(dst, numberOf(p, "duration"), uint64(d)), nil
	case schema.Quantity:
		if null {
			return dst, nil
		}
		if !isString {
			s = string(raw) // a number is a quantity too
		}
		return appendBytesField(dst, numberOf(p, "string"), []byte(s)), nil
	case schema.IntOrString:
		var kind, intVal uint64
		if !null && !isString {
			n, err := strconv.ParseInt(string(raw), 10, 32)
			if err != nil {
				return dst, err
			}
			intVal = uint64(n)
		}
		if isString {
			kind = 1
		}
		dst = appendVarintField(dst, numberOf(p, "type"), kind)
		dst = appendVarintField(dst, numberOf(p, "intVal"), intVal)
		return appendBytesField(dst, numberOf(p, "strVal"), []byte(s)), nil
	case schema.RawExtension, schema.FieldsV1:
		if null {
			return dst, nil
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return dst, err
		}
		field := "raw"
		if p.msg.Name == schema.FieldsV1 {
			field = "Raw"
		}
		return appendBytesField(dst, numberOf(p, field), compact.Bytes()), nil
	}
	return dst, fmt.Errorf("protobuf: cannot encode %s", strings.TrimPrefix(p.msg.Name, "k8s.io."))
}

// appendVarint appends v as a varint.
func appendVarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// appendVarintField appends field num of wire type 0.
func appendVarintField(dst []byte, num int, v uint64) []byte {
	dst = appendVarint(dst, uint64(num)<<3|wireVarint)
	return appendVarint(dst, v)
}

// appendBytesField appends field num of wire type 2.
func appendBytesField(dst []byte, num int, b []byte) []byte {
	dst = appendVarint(dst, uint64(num)<<3|wireBytes)
	dst = appendVarint(dst, uint64(len(b)))
	return append(dst, b...)
}

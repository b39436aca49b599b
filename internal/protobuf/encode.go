// encode.go writes an object, given as its JSON text, in Kubernetes
// protobuf, byte for byte as client-go's typed clients write the same Go
// object: the magic and a runtime.Unknown around the object's message, its
// fields in field-number order, every field the Go struct holds by value
// written even when zero (as gogo-protobuf's generated Marshal does), a
// pointer, slice or map only when set, map entries sorted by key.
//
// A member the schema does not know cannot go on the wire, and is refused
// rather than dropped: the caller then sends the object as JSON, which
// loses nothing (the root's restclient_write.go does so).
//
// client-go counterpart: the generated Marshal methods of k8s.io/api
// (generated.pb.go) and runtime/serializer/protobuf's Serializer.Encode.
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// ErrNotInSchema is the error of an object with a member the schema does
// not know, which protobuf cannot carry.
var ErrNotInSchema = errors.New("protobuf: a member the schema does not know")

// Encode returns the protobuf of the object whose JSON text is obj; its
// kind and apiVersion name its message. An error wrapping ErrNotInSchema
// says the object has a member protobuf cannot carry.
func Encode(obj []byte) ([]byte, error) {
	members, err := objectMembers(obj)
	if err != nil {
		return nil, err
	}
	var tm typeMeta
	for name, dst := range map[string]*string{"kind": &tm.kind, "apiVersion": &tm.apiVersion} {
		if raw, ok := members[name]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, fmt.Errorf("protobuf: %s: %w", name, err)
			}
			delete(members, name)
		}
	}
	if tm.kind == "" || tm.apiVersion == "" {
		return nil, errors.New("protobuf: the object has no kind or apiVersion")
	}
	p, err := planOf(messageFor(tm))
	if err != nil {
		return nil, err
	}
	raw, err := encodeMembers(nil, p, members, 0)
	if err != nil {
		return nil, err
	}
	up := plans()[unknownMessage]
	var typeMetaBytes []byte
	tp := plans()[typeMetaMessage]
	typeMetaBytes = appendBytesField(typeMetaBytes, numberOf(tp, "apiVersion"), []byte(tm.apiVersion))
	typeMetaBytes = appendBytesField(typeMetaBytes, numberOf(tp, "kind"), []byte(tm.kind))
	out := append([]byte(nil), magic...)
	out = appendBytesField(out, numberOf(up, "typeMeta"), typeMetaBytes)
	out = appendBytesField(out, numberOf(up, "raw"), raw)
	out = appendBytesField(out, numberOf(up, "contentEncoding"), nil)
	return appendBytesField(out, numberOf(up, "contentType"), nil), nil
}

// numberOf is the number of the field of p named name (by its .proto name).
func numberOf(p *msgPlan, name string) int {
	for _, f := range p.fields {
		if f.Name == name {
			return f.Number
		}
	}
	panic("protobuf: the schema has no field " + p.msg.Name + "." + name) // the checked-in schema is broken
}

// objectMembers splits a JSON object into its members; null is an empty
// object. A member given twice keeps its last value, as in encoding/json.
func objectMembers(raw []byte) (map[string]json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, fmt.Errorf("protobuf: %w", err)
	}
	return members, nil
}

// encodeMessage appends the fields of message p, given as JSON text (null
// or absent: the zero message).
func encodeMessage(dst []byte, p *msgPlan, raw []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, fmt.Errorf("protobuf: objects nested deeper than %d", maxDepth)
	}
	if p.msg.OwnJSON {
		return encodeOwn(dst, p, raw)
	}
	var members map[string]json.RawMessage
	if len(raw) > 0 && string(raw) != "null" {
		var err error
		if members, err = objectMembers(raw); err != nil {
			return dst, err
		}
	}
	return encodeMembers(dst, p, members, depth)
}

// encodeMembers appends the fields of message p from members, which must
// all be p's (its embedded messages' included).
func encodeMembers(dst []byte, p *msgPlan, members map[string]json.RawMessage, depth int) ([]byte, error) {
	used := 0
	var err error
	if dst, used, err = appendFields(dst, p, members, depth); err != nil {
		return dst, err
	}
	if used != len(members) {
		for name := range members {
			if !knows(p, name, 0) {
				return dst, fmt.Errorf("%w: %s has no member %q", ErrNotInSchema, p.msg.Name, name)
			}
		}
	}
	return dst, nil
}

// knows reports whether message p, or one it embeds, has a member name.
func knows(p *msgPlan, name string, depth int) bool {
	for i, f := range p.fields {
		if f.JSON == name && !f.Inline || f.Inline && depth < maxDepth && p.subs[i] != nil && knows(p.subs[i], name, depth+1) {
			return true
		}
	}
	return false
}

// appendFields appends p's fields in field-number order and returns how
// many members they used.
func appendFields(dst []byte, p *msgPlan, members map[string]json.RawMessage, depth int) ([]byte, int, error) {
	used := 0
	for _, f := range byNumber(p) {
		i := p.index(f.Number)
		sub := p.subs[i]
		if f.Inline {
			body, n, err := appendFields(nil, sub, members, depth+1)
			if err != nil {
				return dst, used, err
			}
			used += n
			dst = appendBytesField(dst, f.Number, body)
			continue
		}
		raw, ok := members[f.JSON]
		if ok {
			used++
		}
		if !ok || string(raw) == "null" {
			raw = nil
		}
		var err error
		if dst, err = appendField(dst, f, sub, raw, depth); err != nil {
			return dst, used, fmt.Errorf("%s: %w", f.JSON, err)
		}
	}
	return dst, used, nil
}

// byNumber returns p's fields in field-number order.
func byNumber(p *msgPlan) []*schemaField {
	fields := slices.Clone(p.fields)
	slices.SortFunc(fields, func(a, b *schemaField) int { return a.Number - b.Number })
	return fields
}

// appendField appends field f from its JSON value (nil: absent or null).
func appendField(dst []byte, f *schemaField, sub *msgPlan, raw []byte, depth int) ([]byte, error) {
	switch {
	case f.Type == "map":
		if raw == nil {
			return dst, nil
		}
		return appendMapField(dst, f, sub, raw, depth)
	case f.Repeated:
		if raw == nil {
			return dst, nil
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return dst, err
		}
		for _, item := range list {
			var err error
			if dst, err = appendOne(dst, f.Number, f.Type, sub, item, depth); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case raw == nil && (f.Ptr || f.Type == "bytes"):
		return dst, nil // a nil pointer or []byte is not written
	}
	return appendOne(dst, f.Number, f.Type, sub, raw, depth)
}

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

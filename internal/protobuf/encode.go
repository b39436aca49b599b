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
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// json.go writes a message as the JSON a kube-apiserver writes for the same
// object: what encoding/json makes of the Go struct that generated.pb.go
// would have decoded. That Go struct is never built; its facts are in the
// schema (fakeapi/schema): the members in the order of the Go fields;
// a zero value left out when the json tag says omitempty (a struct never,
// unless omitzero), a nil pointer, slice or map written as null otherwise;
// a pointer on the wire written even when it points to zero; map keys
// sorted; strings escaped as encoding/json escapes them (<, > and & too).
// The types with JSON of their own (time.go) write theirs.
//
// The informer uses it for what its typed structs do not model (a pod's
// volumes, probes, managedFields...), kept raw exactly as over JSON, and as
// the reference for everything else (typed.go).
//
// client-go counterpart: none; client-go decodes every field into its Go
// struct, and encoding/json writes that struct as JSON.
// Tutorial: none.

package protobuf

import (
	"fmt"
	"slices"
)

// writer writes messages as JSON. It holds the scratch space of one
// decoder (the collected fields of the levels being written), so it is not
// safe for concurrent use.
type writer struct {
	occ     []occurrence // the levels being read, innermost last (plan.go)
	runs    []run        // where each field's values are in occ, per level
	entries []mapEntry   // the maps being written, innermost last
	raw     []byte       // the members typed.go keeps raw, innermost level last
}

// appendMessage appends the JSON of message p, given as the values of one
// field (several are merged, as protobuf merges them; none is the zero
// message).
func (w *writer) appendMessage(dst []byte, p *msgPlan, values []occurrence, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, fmt.Errorf("protobuf: messages nested deeper than %d", maxDepth)
	}
	if p.msg.OwnJSON {
		return appendOwnJSON(dst, p, values)
	}
	dst = append(dst, '{')
	dst, err := w.appendMembers(dst, p, values, depth)
	return append(dst, '}'), err
}

// appendMembers appends the members of message p to an object being
// written, each after a comma unless it is the first.
func (w *writer) appendMembers(dst []byte, p *msgPlan, values []occurrence, depth int) ([]byte, error) {
	occStart, runStart := len(w.occ), len(w.runs)
	defer w.closeLevel(occStart, runStart)
	lv, err := w.openLevel(p, values)
	if err != nil {
		return dst, err
	}
	for i := range p.fields {
		if lv.skips(p, i) {
			continue
		}
		if dst, err = w.appendField(dst, p, i, lv.values(i), depth); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// appendField appends the member of field i of p, whose values are given,
// if encoding/json would write it; a field the Go struct embeds appends
// the embedded message's members instead.
func (w *writer) appendField(dst []byte, p *msgPlan, i int, values []occurrence, depth int) ([]byte, error) {
	f := p.fields[i]
	sub := p.subs[i]
	info := &p.infos[i]
	if info.shape == shapeInline {
		if sub == nil {
			return dst, fmt.Errorf("protobuf: %s.%s: embedded message %s is not in the schema", p.msg.Name, f.Name, f.Type)
		}
		return w.appendMembers(dst, sub, values, depth+1)
	}
	written, null := presence(f, info.shape, sub, values)
	if !written {
		return dst, nil
	}
	if dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, info.key...)
	if null {
		return append(dst, "null"...), nil
	}
	return w.appendValue(dst, f, sub, values, depth)
}

// presence says whether encoding/json writes the member of field f, of
// shape s, whose values are given, and whether it writes it as null.
func presence(f *schemaField, s shape, sub *msgPlan, values []occurrence) (written, null bool) {
	absent := len(values) == 0
	switch s {
	case shapeMap, shapeList, shapePointer:
		// A nil map, slice or pointer; on the wire, a non-empty one.
		return !absent || !f.OmitEmpty, absent
	case shapeMessage: // a struct: omitempty never leaves it out, omitzero does
		return !(f.OmitZero && zeroMessage(sub, values)), false
	case shapeBytes: // a []byte: nil when absent, empty when sent empty
		if absent {
			return !f.OmitEmpty, true
		}
		return !f.OmitEmpty || len(values[len(values)-1].f.b) > 0, false
	}
	return !f.OmitEmpty || !absent && !zeroScalar(values[len(values)-1].f), false
}

// zeroMessage reports whether a struct field with these values is zero, as
// omitzero asks: a time by its IsZero, any other message when nothing was
// sent for it. (Only metav1.Time fields carry omitzero in v0.37.2.)
func zeroMessage(p *msgPlan, values []occurrence) bool {
	if len(values) == 0 {
		return true
	}
	if p.msg.Name == timeMessage || p.msg.Name == microTimeMessage {
		t, err := timeOf(p, values[len(values)-1].f.b, p.msg.Name == microTimeMessage)
		return err == nil && t.IsZero()
	}
	for _, v := range values {
		if len(v.f.b) > 0 {
			return false
		}
	}
	return true
}

// zeroScalar reports whether a scalar's value is its type's zero value.
func zeroScalar(f field) bool {
	if f.wt == wireBytes {
		return len(f.b) == 0
	}
	return f.u == 0
}

// appendValue appends the JSON value of field f (present, not null).
func (w *writer) appendValue(dst []byte, f *schemaField, sub *msgPlan, values []occurrence, depth int) ([]byte, error) {
	var err error
	switch {
	case f.Type == "map":
		return w.appendMap(dst, f, sub, values, depth)
	case f.Repeated:
		dst = append(dst, '[')
		for j, v := range values {
			switch {
			case sub != nil:
				if dst[len(dst)-1] != '[' {
					dst = append(dst, ',')
				}
				dst, err = w.appendMessage(dst, sub, values[j:j+1], depth+1)
			case v.f.wt == wireBytes && wireTypeOf(f.Type) != wireBytes: // packed
				err = unpack(v.f, wireTypeOf(f.Type), func(e field) error {
					var err error
					if dst[len(dst)-1] != '[' {
						dst = append(dst, ',')
					}
					dst, err = appendScalar(dst, f.Type, e)
					return err
				})
			default:
				if dst[len(dst)-1] != '[' {
					dst = append(dst, ',')
				}
				dst, err = appendScalar(dst, f.Type, v.f)
			}
			if err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case sub != nil:
		return w.appendMessage(dst, sub, values, depth+1)
	}
	var v field // absent: the zero value
	if len(values) > 0 {
		v = values[len(values)-1].f // a scalar given twice: the last wins
	}
	return appendScalar(dst, f.Type, v)
}

// mapEntry is one entry of a map being written.
type mapEntry struct {
	key   []byte
	value []occurrence // its value field (one[:]), or none: the zero value
	one   [1]occurrence
}

// appendMap appends a map field, its keys sorted as encoding/json sorts
// them; a key given twice keeps its last value, as in a Go map.
func (w *writer) appendMap(dst []byte, f *schemaField, sub *msgPlan, values []occurrence, depth int) ([]byte, error) {
	start := len(w.entries)
	defer func() { w.entries = w.entries[:start] }()
	for _, v := range values {
		e := mapEntry{}
		for b := v.f.b; len(b) > 0; {
			ef, rest, err := nextField(b)
			if err != nil {
				return dst, err
			}
			b = rest
			switch {
			case ef.num == 1 && ef.wt == wireBytes:
				e.key = ef.b
			case ef.num == 2 && ef.wt == wireTypeOf(valueType(f, sub)):
				e.one[0] = occurrence{f: ef}
			case ef.num == 1 || ef.num == 2:
				return dst, fmt.Errorf("protobuf: map %s: entry field %d has wire type %d", f.Name, ef.num, ef.wt)
			}
		}
		w.entries = append(w.entries, e)
	}
	entries := w.entries[start:]
	slices.SortStableFunc(entries, func(a, b mapEntry) int { return compareBytes(a.key, b.key) })
	valueField := &schemaField{Number: 2, Name: f.Name, Type: valueType(f, sub)}
	dst = append(dst, '{')
	for i := range entries {
		e := &entries[i]
		if i+1 < len(entries) && string(entries[i+1].key) == string(e.key) {
			continue // a later entry with the same key wins
		}
		if e.one[0].f.num == 2 {
			e.value = e.one[:]
		}
		if dst[len(dst)-1] != '{' {
			dst = append(dst, ',')
		}
		dst = appendString(dst, e.key)
		dst = append(dst, ':')
		var err error
		if sub != nil {
			dst, err = w.appendMessage(dst, sub, e.value, depth+1)
		} else {
			dst, err = w.appendValue(dst, valueField, nil, e.value, depth)
		}
		if err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// valueType is the type of a map field's values.
func valueType(f *schemaField, sub *msgPlan) string {
	if sub != nil {
		return sub.msg.Name
	}
	return f.MapValue
}

// compareBytes orders byte strings as Go orders strings.
func compareBytes(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

// appendKey appends `"name":` to an object being written, after a comma
// unless it is the object's first member.
func appendKey(dst []byte, name string) []byte {
	if len(dst) > 0 && dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = appendString(dst, []byte(name))
	return append(dst, ':')
}

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
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// writer writes messages as JSON. It holds the scratch space of one
// decoder (the collected fields of the levels being written), so it is not
// safe for concurrent use.
type writer struct {
	occ     []occurrence // the levels being read, innermost last (plan.go)
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
	start := len(w.occ)
	defer func() { w.occ = w.occ[:start] }()
	var err error
	for _, v := range values {
		if w.occ, err = collect(w.occ, p, v.f.b); err != nil {
			return dst, err
		}
	}
	sortLevel(w.occ, start)
	level := w.occ[start:]
	for i := range p.fields {
		var fieldValues []occurrence
		fieldValues, level = valuesOf(level, i)
		if dst, err = w.appendField(dst, p, i, fieldValues, depth); err != nil {
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
	if f.Inline {
		if sub == nil {
			return dst, fmt.Errorf("protobuf: %s.%s: embedded message %s is not in the schema", p.msg.Name, f.Name, f.Type)
		}
		return w.appendMembers(dst, sub, values, depth+1)
	}
	written, null := presence(f, sub, values)
	if !written {
		return dst, nil
	}
	dst = appendKey(dst, f.JSON)
	if null {
		return append(dst, "null"...), nil
	}
	return w.appendValue(dst, f, sub, values, depth)
}

// presence says whether encoding/json writes the member of field f, whose
// values are given, and whether it writes it as null.
func presence(f *schemaField, sub *msgPlan, values []occurrence) (written, null bool) {
	absent := len(values) == 0
	switch {
	case f.Type == "map" || f.Repeated || f.Ptr:
		// A nil map, slice or pointer; on the wire, a non-empty one.
		return !absent || !f.OmitEmpty, absent
	case sub != nil: // a struct: omitempty never leaves it out, omitzero does
		return !(f.OmitZero && zeroMessage(sub, values)), false
	case f.Type == "bytes": // a []byte: nil when absent, empty when sent empty
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

// appendScalar appends a scalar of type typ as encoding/json writes the Go
// value generated.pb.go makes of it.
func appendScalar(dst []byte, typ string, v field) ([]byte, error) {
	switch typ {
	case "string":
		return appendString(dst, v.b), nil
	case "bytes":
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v.b)
		return append(dst, '"'), nil
	case "bool":
		return strconv.AppendBool(dst, v.u != 0), nil
	case "int32":
		return strconv.AppendInt(dst, int64(int32(v.u)), 10), nil
	case "int64":
		return strconv.AppendInt(dst, int64(v.u), 10), nil
	case "uint32":
		return strconv.AppendUint(dst, uint64(uint32(v.u)), 10), nil
	case "uint64":
		return strconv.AppendUint(dst, v.u, 10), nil
	case "double":
		return appendFloat(dst, math.Float64frombits(v.u), 64)
	case "float":
		return appendFloat(dst, float64(math.Float32frombits(uint32(v.u))), 32)
	}
	return dst, fmt.Errorf("protobuf: unknown scalar type %q", typ)
}

// appendFloat writes a float as encoding/json does: the shortest form that
// reads back, with an exponent only for very small or large values.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, fmt.Errorf("protobuf: unsupported value %v (JSON has no such number)", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// "1e-07" is written "1e-7", as encoding/json writes it.
		if n := len(dst) - start; n >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does by
// default: ", \ and control characters escaped, and also <, > and & (HTML
// escaping), U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

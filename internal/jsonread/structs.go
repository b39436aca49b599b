// structs.go decodes a typed struct that keeps the members it does not
// model (the root's lossless kinds: Pod, ObjectMeta, Status...; the rules
// are at the top of the root's lossless.go) in one pass over its text.
// decodeStruct walks an object's members once; each member's value is read
// where it stands by a reader chosen for its field's type when the type
// was first seen (readerFor, readers.go): a nested typed struct is walked
// by decodeStruct itself; a string, integer, time, or list or map of
// strings is read straight from the text. No level hands its text to
// another decoder that would scan it again, so each byte of a pod is read
// about once. Through each struct's UnmarshalJSON, encoding/json would scan
// every nested level again, and set up its reflection anew for every small
// value (a third of the time and of the allocations per pod).
//
// The readers take only the plain forms a server writes: a string of valid
// UTF-8 with no escapes, an integer with no fraction or exponent, a time in
// canonical RFC 3339 with a Z. At any other form (an escape, a float, a
// time with an offset, a null inside a list) the level being walked is
// decoded again by its own UnmarshalJSON, the reference, which applies the
// rules with encoding/json. TestFastReadersDecodeAsEncodingJSON and
// FuzzFastReaders decode the same text both ways and compare.
//
// client-go counterpart: none (sigs.k8s.io/json, a fork of encoding/json,
// decodes client-go's typed structs, by reflection at each level).
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// unknownOf is Layout.Unknown: where a struct keeps its unmodelled members.
type unknownOf func(structPtr any) *[]byte

// structField is one field of a typed struct as decodeStruct sees it.
type structField struct {
	index []int // the path to the field, through embedded structs (TypeMeta)
	// zeroByMethod is true when the type says by an IsZero method whether
	// it is zero (time.Time does), as `omitzero` asks it.
	zeroByMethod bool
	read         fastReader // nil for a type the readers do not know
}

// structTable indexes a struct type's fields by their member names.
type structTable struct {
	byName  map[string]structField
	unknown unknownOf
}

// structTables caches one structTable per struct type (reflect.Type → *structTable).
var structTables sync.Map

// tableOf returns the structTable of struct type t, built once from its tags.
func tableOf(t reflect.Type, unknown unknownOf) *structTable {
	if table, ok := structTables.Load(t); ok {
		return table.(*structTable)
	}
	table := &structTable{byName: map[string]structField{}, unknown: unknown}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" && !(f.Anonymous && name == "") && inlined(t, f.Index) {
			table.byName[name] = structField{index: f.Index,
				zeroByMethod: f.Type.Implements(isZeroerType),
				read:         readerFor(f.Type, unknown)}
		}
	}
	structTables.Store(t, table)
	return table
}

// inlined reports whether the field at index of t is t's own, or comes
// from exported structs embedded without a json tag (TypeMeta), whose
// members JSON puts in the outer object.
func inlined(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); !f.IsExported() || name != "" || f.Type.Kind() != reflect.Struct {
			return false
		}
		t = f.Type
	}
	return true
}

// isZero reports whether field is zero as `omitzero` decides it: by the
// type's IsZero method (time.Time has one; a nil pointer is zero without
// asking), else by reflect.
func (f *structField) isZero(field reflect.Value) bool {
	if f.zeroByMethod && (field.Kind() != reflect.Pointer || !field.IsNil()) {
		return field.Interface().(interface{ IsZero() bool }).IsZero()
	}
	return field.IsZero()
}

// keptMember is a member kept raw: its name as JSON text and its compact
// value, both usually slices of the text being decoded.
type keptMember struct{ name, value []byte }

// decodeStruct decodes the JSON object that starts at data[i] into v, a
// typed struct whose pointer unknown knows, and returns the offset just
// after the object. Its strings come from shared (see shared.go).
func decodeStruct(data []byte, i int, v reflect.Value, unknown unknownOf, shared *sharedValues) (int, error) {
	if i >= len(data) || data[i] != '{' {
		return 0, errBadJSON
	}
	start := i
	v.SetZero() // this also clears the members kept before
	table := tableOf(v.Type(), unknown)
	var room [8]keptMember // most levels keep fewer: no allocation for them
	kept := room[:0]
	i = spaceEnd(data, i+1)
	for i < len(data) && data[i] != '}' {
		nameEnd, ok := endOfString(data, i)
		if data[i] != '"' || !ok {
			return 0, errBadJSON
		}
		name, keptName, err := memberName(data[i:nameEnd])
		if err != nil {
			return 0, err
		}
		i = spaceEnd(data, nameEnd)
		if i >= len(data) || data[i] != ':' {
			return 0, errBadJSON
		}
		valueStart, end, typed, read := spaceEnd(data, i+1), 0, false, true
		if f, known := table.byName[string(name)]; known {
			if end, typed, read, err = f.set(data, valueStart, v, shared); err != nil {
				return 0, fmt.Errorf("%s: %w", name, err)
			}
		} else if end, ok = endOfValue(data, valueStart); !ok {
			return 0, errBadJSON
		}
		if !read {
			return decodeAgain(data, start, v)
		}
		if !typed {
			value, err := compacted(data[valueStart:end])
			if err != nil {
				return 0, fmt.Errorf("%s: %w", name, err)
			}
			kept = append(kept, keptMember{keptName, value})
		}
		if i, err = afterElement(data, end, '}'); err != nil {
			return 0, err
		}
	}
	if i >= len(data) {
		return 0, errBadJSON
	}
	if len(kept) > 0 {
		*table.unknown(v.Addr().Interface()) = joinMembers(kept)
	}
	return i + 1, nil
}

// decodeAgain decodes the object that starts at data[start] into v with
// v's own UnmarshalJSON (through json.Unmarshal, which checks the text
// first), for a value the readers do not take.
func decodeAgain(data []byte, start int, v reflect.Value) (int, error) {
	end, ok := endOfValue(data, start)
	if !ok {
		return 0, errBadJSON
	}
	return end, json.Unmarshal(data[start:end], v.Addr().Interface())
}

// set decodes the value that starts at data[i] into f's field of v and
// returns the offset just after it. typed=false, with the field left zero,
// means the member stays raw: a null or a zero value. read=false means the
// value is in a form the readers do not take.
func (f *structField) set(data []byte, i int, v reflect.Value, shared *sharedValues) (end int, typed, read bool, err error) {
	field := v.FieldByIndex(f.index)
	field.SetZero() // a repeated member replaces, never merges
	if i < len(data) && data[i] == 'n' {
		// A null stays raw.
		end, ok := endOfValue(data, i)
		if !ok {
			return 0, false, false, errBadJSON
		}
		return end, false, true, nil
	}
	if f.read == nil {
		return 0, false, false, nil
	}
	if end, read, err = f.read(data, i, field, shared); err != nil || !read {
		return 0, false, read, err
	}
	if f.isZero(field) {
		field.SetZero()
		return end, false, true, nil
	}
	return end, true, true, nil
}

// memberName returns a member's name from its quoted text, and the text to
// keep it raw as: the same text when it is plain, else the name as
// encoding/json writes it.
func memberName(quoted []byte) (name, keptAs []byte, err error) {
	if raw := quoted[1 : len(quoted)-1]; isPlain(raw) {
		return raw, quoted, nil
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return nil, nil, err
	}
	keptAs, _ = json.Marshal(s) // a string always encodes
	return []byte(s), keptAs, nil
}

// compacted returns value, checked to be valid JSON, with no space between
// its tokens, as json.Compact writes it: servers send it so, and then it is
// value itself, not a copy.
func compacted(value []byte) ([]byte, error) {
	if !hasSpace(value) && json.Valid(value) {
		return value, nil
	}
	var buf bytes.Buffer
	err := json.Compact(&buf, value)
	return buf.Bytes(), err
}

// joinMembers returns the members kept raw as one JSON object, in a slice
// exactly as long as it needs to be: it may be cached for long.
func joinMembers(kept []keptMember) []byte {
	size := 1 + len(kept) // the braces and the commas between members
	for _, m := range kept {
		size += len(m.name) + 1 + len(m.value)
	}
	out := make([]byte, 0, size)
	for i, m := range kept {
		out = append(out, "{,"[min(i, 1)]) // the brace, then commas
		out = append(append(append(out, m.name...), ':'), m.value...)
	}
	return append(out, '}')
}

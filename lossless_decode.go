// lossless_decode.go decodes the typed kinds (lossless.go) in one pass over
// their text. decodeStruct walks an object's members once; each member's
// value is read where it stands by a reader chosen for its field's type when
// the type was first seen (fastReaderFor, lossless_readers.go): a nested
// typed struct is walked by decodeStruct itself; a string, integer, time,
// or list or map of strings is read straight from the text. No level hands
// its text to another decoder that would scan it again, so each byte of a
// pod is read about once. Through each struct's UnmarshalJSON,
// encoding/json would scan every nested level again, and set up its
// reflection anew for every small value: BenchmarkDecode measures the
// difference (a third of the time and of the allocations per pod).
//
// The readers take only the plain forms a server writes: a string of
// valid UTF-8 with no escapes, an integer with no fraction or exponent,
// a time in canonical RFC 3339 with a Z. Any other form (an escape, a
// float, a time with an offset, a null inside a list) goes to encoding/json
// as before, which is also the reference: TestFastReadersDecodeAsEncodingJSON
// and FuzzFastReaders decode the same text both ways and compare.
//
// client-go counterpart: none (sigs.k8s.io/json, a fork of encoding/json,
// decodes client-go's typed structs, by reflection at each level).
//
// Tutorial: 004 §3.2 (decoding objects on the informer's hot path).

package informer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// fastReads switches the readers on. Tests switch them off to decode the
// same text the reference way, through encoding/json, and compare.
var fastReads = true

// decodeKeeping decodes the JSON object data into the struct obj points to,
// following the rules at the top of lossless.go. A null is no object: it is
// an error here (a member whose value is null never gets this far; it is
// kept raw).
func decodeKeeping(data []byte, obj lossless) error {
	v := reflect.ValueOf(obj).Elem()
	end, err := decodeStruct(data, spaceEnd(data, 0), v)
	if err == nil {
		err = trailing(data, end)
	}
	if errors.Is(err, errBadJSON) {
		return fmt.Errorf("a %s must be a JSON object: %w", v.Type().Name(), err)
	}
	return err
}

// keptMember is a member kept raw: its name as JSON text and its compact
// value, both usually slices of the text being decoded.
type keptMember struct{ name, value []byte }

// decodeStruct decodes the JSON object that starts at data[i] into v, a
// typed struct, and returns the offset just after the object.
func decodeStruct(data []byte, i int, v reflect.Value) (int, error) {
	if i >= len(data) || data[i] != '{' {
		return 0, errBadJSON
	}
	v.SetZero() // this also clears the members kept before
	table := fieldsOf(v.Type())
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
		start, end, typed := spaceEnd(data, i+1), 0, false
		if k, known := table.byName[string(name)]; known {
			if end, typed, err = table.fields[k].set(data, start, v); err != nil {
				return 0, err
			}
		} else if end, ok = endOfValue(data, start); !ok {
			return 0, errBadJSON
		}
		if !typed {
			value, err := compacted(data[start:end])
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
		*v.Addr().Interface().(lossless).kept() = joinMembers(kept)
	}
	return i + 1, nil
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
	return []byte(s), quote(s), nil
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
func joinMembers(kept []keptMember) unknownFields {
	size := 1 + len(kept) // the braces and the commas between members
	for _, m := range kept {
		size += len(m.name) + 1 + len(m.value)
	}
	out := make(unknownFields, 0, size)
	for i, m := range kept {
		out = append(out, "{,"[min(i, 1)]) // the brace, then commas
		out = append(append(append(out, m.name...), ':'), m.value...)
	}
	return append(out, '}')
}

// set decodes the value that starts at data[i] into f's field of v and
// returns the offset just after it. It reports false, with the field left
// zero, when the member must stay raw instead: a null, a zero value, or a
// time written in another form.
func (f *jsonField) set(data []byte, i int, v reflect.Value) (end int, typed bool, err error) {
	field := v.FieldByIndex(f.index)
	field.SetZero() // a repeated member replaces, never merges
	read := false
	if fastReads && f.read != nil && i < len(data) && data[i] != 'n' { // a null stays raw
		if end, read, err = f.read(data, i, field); err != nil {
			return 0, false, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	if !read { // the reference way
		field.SetZero()
		var ok bool
		if end, ok = endOfValue(data, i); !ok {
			return 0, false, errBadJSON
		}
		if typed, err := f.setSlowly(data[i:end], field); err != nil || !typed {
			return end, false, err
		}
	}
	if f.isZero(field) {
		field.SetZero()
		return end, false, nil
	}
	return end, true, nil
}

// setSlowly decodes value into field with encoding/json (a typed struct
// through its UnmarshalJSON). It reports false, with the field zero, for a
// null and for a time that would not be written back as value.
func (f *jsonField) setSlowly(value []byte, field reflect.Value) (typed bool, err error) {
	if string(value) == "null" {
		return false, nil
	}
	if f.plainElems && hasNull(value) {
		return false, fmt.Errorf("%s: a null inside a list or map of plain values would come back as \"\"", f.name)
	}
	if err := json.Unmarshal(value, field.Addr().Interface()); err != nil {
		return false, fmt.Errorf("%s: %w", f.name, err)
	}
	if f.isTime && !readsBack(field, value) {
		field.SetZero()
		return false, nil
	}
	return true, nil
}

// hasNull reports whether the JSON text holds a null outside its strings.
func hasNull(value []byte) bool {
	inString, escaped := false, false
	for _, c := range value {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == 'n':
			return true
		}
	}
	return false
}

// readsBack reports whether a time field encodes back to value, the JSON
// text it was decoded from (e.g. "+00:00" would come back as "Z").
func readsBack(field reflect.Value, value []byte) bool {
	again, err := json.Marshal(field.Interface())
	return err == nil && bytes.Equal(again, value)
}

// lossless_decode.go decodes the typed kinds (lossless.go) in one pass over
// their text. decodeStruct walks an object's members once; each member's
// value is read where it stands by a reader chosen for its field's type when
// the type was first seen (fastReaderFor): a nested typed struct is walked
// by decodeStruct itself, a string, number, time or list or map of strings
// is read straight from the text. No level hands its text to another
// decoder that would scan it again, so each byte of a pod is read about
// once. encoding/json, through each struct's UnmarshalJSON, re-scans every
// nested level, and its reflection is set up anew for every small value:
// BenchmarkDecode measures the difference (about 3× fewer nanoseconds and
// allocations per pod).
//
// The readers take only the plain forms a server writes: a string of
// printable ASCII with no escapes, an integer with no fraction or exponent,
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
	"time"
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
		if i = spaceEnd(data, end); i < len(data) && data[i] == ',' {
			i = spaceEnd(data, i+1)
			if i < len(data) && data[i] == '}' {
				return 0, errBadJSON // a comma before the end
			}
		} else if i >= len(data) || data[i] != '}' {
			return 0, errBadJSON
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
	if raw := quoted[1 : len(quoted)-1]; isPlain(raw) && bytes.IndexAny(raw, "<>&") < 0 {
		return raw, quoted, nil // no escapes: as is (json.Marshal would write <>& as \u003c...)
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
	if bytes.IndexAny(value, " \t\r\n") < 0 && json.Valid(value) {
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

// A fastReader reads the value that starts at data[i] into field, and
// returns the offset just after it. It reports read=false, having perhaps
// half-filled field, when the value is not in a form it reads; the caller
// then decodes it with encoding/json. An error means the text is broken.
type fastReader func(data []byte, i int, field reflect.Value) (end int, read bool, err error)

// fastReaderFor returns the reader for a field of type t, or nil when t is
// left to encoding/json. A type with its own UnmarshalJSON or
// UnmarshalText (other than the typed structs and time.Time, which are
// read as their UnmarshalJSON would) is always left to it.
func fastReaderFor(t reflect.Type) fastReader {
	switch {
	case t == timeType:
		return readTime
	case reflect.PointerTo(t).Implements(losslessType) && t.Kind() == reflect.Struct:
		return readStruct
	case t.Kind() == reflect.Slice && reflect.PointerTo(t.Elem()).Implements(losslessType) && t.Elem().Kind() == reflect.Struct:
		return readStructs
	case t.Kind() == reflect.Pointer:
		if elem := fastReaderFor(t.Elem()); elem != nil {
			return readPointer(elem)
		}
		return nil
	case t == reflect.TypeFor[map[string]string]():
		return readStringMap
	case t == reflect.TypeFor[[]string]():
		return readStrings
	case reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType):
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return readString
	case reflect.Bool:
		return readBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return readInt
	}
	return nil
}

// readStruct reads a typed struct.
func readStruct(data []byte, i int, field reflect.Value) (int, bool, error) {
	end, err := decodeStruct(data, i, field)
	return end, err == nil, err
}

// readStructs reads a list of typed structs; [] is an empty list, not nil,
// as encoding/json makes it.
func readStructs(data []byte, i int, field reflect.Value) (int, bool, error) {
	if data[i] != '[' {
		return 0, false, nil
	}
	field.Set(reflect.MakeSlice(field.Type(), 0, 0))
	i = spaceEnd(data, i+1)
	for n := 0; i < len(data) && data[i] != ']'; n++ {
		field.Grow(1)
		field.SetLen(n + 1)
		end, err := decodeStruct(data, i, field.Index(n))
		if err != nil {
			return 0, false, err
		}
		if i, err = afterElement(data, end, ']'); err != nil {
			return 0, false, err
		}
	}
	if i >= len(data) {
		return 0, false, errBadJSON
	}
	return i + 1, true, nil
}

// afterElement steps past the comma after an element of a list or map that
// ends at i, to the next element or the closing bracket.
func afterElement(data []byte, i int, closing byte) (int, error) {
	i = spaceEnd(data, i)
	switch {
	case i < len(data) && data[i] == ',':
		if i = spaceEnd(data, i+1); i < len(data) && data[i] != closing {
			return i, nil
		}
	case i < len(data) && data[i] == closing:
		return i, nil
	}
	return 0, errBadJSON
}

// readPointer reads a pointer's target with elem.
func readPointer(elem fastReader) fastReader {
	return func(data []byte, i int, field reflect.Value) (int, bool, error) {
		target := reflect.New(field.Type().Elem())
		end, read, err := elem(data, i, target.Elem())
		if read && err == nil {
			field.Set(target)
		}
		return end, read, err
	}
}

// plainString returns the text of the JSON string that starts at data[i]
// when it is plain: printable ASCII, no escapes. It reports false for any
// other string (or no string), which encoding/json then reads.
func plainString(data []byte, i int) (text []byte, end int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(data); j++ {
		if data[j] == '"' {
			return data[i+1 : j], j + 1, true
		}
		if data[j] < 0x20 || data[j] > 0x7e || data[j] == '\\' {
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// isPlain reports whether text is printable ASCII with no quote or
// backslash: a JSON string's contents that mean exactly these bytes.
func isPlain(text []byte) bool {
	for _, c := range text {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

func readString(data []byte, i int, field reflect.Value) (int, bool, error) {
	text, end, ok := plainString(data, i)
	if ok {
		field.SetString(string(text))
	}
	return end, ok, nil
}

func readBool(data []byte, i int, field reflect.Value) (int, bool, error) {
	end, ok := endOfValue(data, i)
	if !ok {
		return 0, false, nil
	}
	switch string(data[i:end]) {
	case "true":
		field.SetBool(true)
	case "false":
		field.SetBool(false)
	default:
		return 0, false, nil
	}
	return end, true, nil
}

// readInt reads an integer written as JSON writes one (-?(0|[1-9][0-9]*))
// with up to 18 digits, which cannot overflow an int64; the field's own
// range is checked too.
func readInt(data []byte, i int, field reflect.Value) (int, bool, error) {
	end, ok := endOfValue(data, i)
	if !ok {
		return 0, false, nil
	}
	digits := data[i:end]
	negative := len(digits) > 0 && digits[0] == '-'
	if negative {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false, nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false, nil
		}
		n = n*10 + int64(c-'0')
	}
	if negative {
		n = -n
	}
	if field.OverflowInt(n) {
		return 0, false, nil
	}
	field.SetInt(n)
	return end, true, nil
}

// readTime reads a time in UTC written as time.Time writes it (RFC 3339
// with as many fractional digits as it needs and a Z), which then also
// reads back as written; encoding/json reads the other forms.
func readTime(data []byte, i int, field reflect.Value) (int, bool, error) {
	text, end, ok := plainString(data, i)
	if !ok || len(text) == 0 || text[len(text)-1] != 'Z' {
		return 0, false, nil
	}
	t, err := time.Parse(time.RFC3339, string(text))
	var again [len(time.RFC3339Nano)]byte
	if err != nil || !bytes.Equal(t.AppendFormat(again[:0], time.RFC3339Nano), text) {
		return 0, false, nil
	}
	*field.Addr().Interface().(*time.Time) = t
	return end, true, nil
}

// readStringMap reads an object of plain strings (labels, annotations).
func readStringMap(data []byte, i int, field reflect.Value) (int, bool, error) {
	if data[i] != '{' {
		return 0, false, nil
	}
	m := map[string]string{}
	for i = spaceEnd(data, i+1); i < len(data) && data[i] != '}'; {
		key, end, ok := plainString(data, i)
		if !ok {
			return 0, false, nil
		}
		if i = spaceEnd(data, end); i >= len(data) || data[i] != ':' {
			return 0, false, nil
		}
		value, end, ok := plainString(data, spaceEnd(data, i+1))
		if !ok {
			return 0, false, nil
		}
		m[string(key)] = string(value)
		var err error
		if i, err = afterElement(data, end, '}'); err != nil {
			return 0, false, nil
		}
	}
	if i >= len(data) {
		return 0, false, nil
	}
	field.Set(reflect.ValueOf(m))
	return i + 1, true, nil
}

// readStrings reads a list of plain strings (command, args, finalizers).
func readStrings(data []byte, i int, field reflect.Value) (int, bool, error) {
	if data[i] != '[' {
		return 0, false, nil
	}
	list := []string{}
	for i = spaceEnd(data, i+1); i < len(data) && data[i] != ']'; {
		text, end, ok := plainString(data, i)
		if !ok {
			return 0, false, nil
		}
		list = append(list, string(text))
		var err error
		if i, err = afterElement(data, end, ']'); err != nil {
			return 0, false, nil
		}
	}
	if i >= len(data) {
		return 0, false, nil
	}
	field.Set(reflect.ValueOf(list))
	return i + 1, true, nil
}

// readers.go holds the readers structs.go uses: one per kind of field (a
// string, a bool, an integer, a time, labels, a list of strings, a pointer,
// a nested typed struct or a list of them), each reading its value straight
// from the text where it stands. Each takes only the plain forms a server
// writes and declines the rest, which the struct's own UnmarshalJSON then
// reads (see structs.go).
//
// client-go counterpart: none (sigs.k8s.io/json reads client-go's typed
// structs by reflection, value by value).
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"time"
)

// A fastReader reads the value that starts at data[i] into field, and
// returns the offset just after it. It reports read=false, having perhaps
// half-filled field, when the value is not in a form it reads; the caller
// then decodes the struct around it again, by its UnmarshalJSON. An error
// means the text is broken. Strings come from shared (see shared.go).
type fastReader func(data []byte, i int, field reflect.Value, shared *sharedValues) (end int, read bool, err error)

var (
	timeType            = reflect.TypeFor[time.Time]()
	isZeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// readerFor returns the reader for a field of type t, or nil when the
// readers do not know t. A type with its own UnmarshalJSON or
// UnmarshalText (other than the typed structs unknown knows and time.Time,
// which are read as their UnmarshalJSON would) is never read here.
func readerFor(t reflect.Type, unknown unknownOf) fastReader {
	keeps := func(t reflect.Type) bool {
		return t.Kind() == reflect.Struct && unknown != nil && unknown(reflect.New(t).Interface()) != nil
	}
	switch {
	case t == timeType:
		return readTime
	case keeps(t):
		return readStruct(unknown)
	case t.Kind() == reflect.Slice && keeps(t.Elem()):
		return readStructs(unknown)
	case t.Kind() == reflect.Pointer:
		if elem := readerFor(t.Elem(), unknown); elem != nil {
			return readPointer(elem)
		}
		return nil
	case t == reflect.TypeFor[map[string]string]():
		return orUnmarshal(readStringMap)
	case t == reflect.TypeFor[[]string]():
		return orUnmarshal(readStrings)
	case reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType):
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return orUnmarshal(readString)
	case reflect.Bool:
		return readBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return readInt
	}
	return nil
}

// readStruct reads a typed struct.
func readStruct(unknown unknownOf) fastReader {
	return func(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
		end, err := decodeStruct(data, i, field, unknown, shared)
		return end, err == nil, err
	}
}

// readStructs reads a list of typed structs; [] is an empty list, not nil,
// as encoding/json makes it.
func readStructs(unknown unknownOf) fastReader {
	return func(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
		if data[i] != '[' {
			return 0, false, nil
		}
		field.Set(reflect.MakeSlice(field.Type(), 0, 0))
		i = spaceEnd(data, i+1)
		for n := 0; i < len(data) && data[i] != ']'; n++ {
			field.Grow(1)
			field.SetLen(n + 1)
			end, err := decodeStruct(data, i, field.Index(n), unknown, shared)
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
}

// orUnmarshal returns read, with the strings it declines (escapes, bad
// UTF-8: annotations holding JSON, for one) decoded by encoding/json, as
// the struct's UnmarshalJSON would decode them, the level around them
// staying on the fast path. A null inside a list or map is left to the
// struct's UnmarshalJSON, which refuses it.
func orUnmarshal(read fastReader) fastReader {
	return func(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
		if end, ok, err := read(data, i, field, shared); ok || err != nil {
			return end, ok, err
		}
		end, ok := endOfValue(data, i)
		if !ok || holdsNull(data[i:end]) {
			return 0, false, nil
		}
		field.SetZero()
		return end, true, json.Unmarshal(data[i:end], field.Addr().Interface())
	}
}

// holdsNull reports whether the JSON text has a null outside its strings
// (or a string that does not end).
func holdsNull(text []byte) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			end, ok := endOfString(text, i)
			if !ok {
				return true
			}
			i = end - 1
		case 'n':
			return true
		}
	}
	return false
}

// readPointer reads a pointer's target with elem.
func readPointer(elem fastReader) fastReader {
	return func(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
		target := reflect.New(field.Type().Elem())
		end, read, err := elem(data, i, target.Elem(), shared)
		if read && err == nil {
			field.Set(target)
		}
		return end, read, err
	}
}

// readString reads a plain string (see plainString).
func readString(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
	text, end, ok := plainString(data, i)
	if ok {
		field.SetString(shared.text(text))
	}
	return end, ok, nil
}

// readBool reads true or false.
func readBool(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
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
func readInt(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
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
func readTime(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
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
func readStringMap(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
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
		m[shared.text(key)] = shared.text(value)
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
func readStrings(data []byte, i int, field reflect.Value, shared *sharedValues) (int, bool, error) {
	if data[i] != '[' {
		return 0, false, nil
	}
	list := []string{}
	for i = spaceEnd(data, i+1); i < len(data) && data[i] != ']'; {
		text, end, ok := plainString(data, i)
		if !ok {
			return 0, false, nil
		}
		list = append(list, shared.text(text))
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

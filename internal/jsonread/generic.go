// generic.go decodes the generic objects (the root's *Unstructured, whose
// map Layout.Content names) of lists and watch events in one pass over their text, into exactly the values
// encoding/json gives with UseNumber: map[string]any, []any, string,
// json.Number, bool and nil, an empty map or list where the text has one,
// the last of two equal keys. Strings and numbers come from the decoder's
// sharedValues, so equal ones are allocated once (keys included).
// encoding/json reads every value twice on this path (its Decoder scans
// ahead for the value's end, then decodes it) and boxes each string anew.
// TestDecodeMatchesEncodingJSONOnSavedObjects and
// FuzzDecodeMatchesEncodingJSON check it against encoding/json.
//
// client-go counterpart: unstructured.UnstructuredJSONScheme in
// k8s.io/apimachinery/pkg/apis/meta/v1/unstructured (decodeToUnstructured:
// k8s.io/apimachinery/pkg/util/json.Unmarshal, that is sigs.k8s.io/json,
// which makes integers int64 and other numbers float64; ours stay
// json.Number, as Unstructured.UnmarshalJSON keeps them).
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

import (
	"encoding/json"
	"errors"
)

// maxDepth is how deeply values may nest, as in encoding/json: deeper text
// is an error there too.
const maxDepth = 10000

var errTooDeep = errors.New("JSON nested too deeply")

// readObject reads the JSON object (or null) that starts at data[i].
func (d *Decoder) readObject(data []byte, i, depth int) (map[string]any, int, error) {
	if i < len(data) && data[i] == 'n' {
		v, end, err := d.readAny(data, i, depth)
		if err == nil && v != nil {
			err = errBadJSON
		}
		return nil, end, err
	}
	if i >= len(data) || data[i] != '{' {
		return nil, 0, errBadJSON
	}
	if depth++; depth > maxDepth {
		return nil, 0, errTooDeep
	}
	m := map[string]any{}
	for i = spaceEnd(data, i+1); i < len(data) && data[i] != '}'; {
		key, end, err := d.readString(data, i)
		if err != nil {
			return nil, 0, err
		}
		if i = spaceEnd(data, end); i >= len(data) || data[i] != ':' {
			return nil, 0, errBadJSON
		}
		value, end, err := d.readAny(data, spaceEnd(data, i+1), depth)
		if err != nil {
			return nil, 0, err
		}
		m[key.(string)] = value
		if i, err = afterElement(data, end, '}'); err != nil {
			return nil, 0, err
		}
	}
	if i >= len(data) {
		return nil, 0, errBadJSON
	}
	return m, i + 1, nil
}

// readAny reads the JSON value that starts at data[i].
func (d *Decoder) readAny(data []byte, i, depth int) (any, int, error) {
	if i >= len(data) {
		return nil, 0, errBadJSON
	}
	switch data[i] {
	case '{':
		return d.readObject(data, i, depth)
	case '[':
		return d.readList(data, i, depth)
	case '"':
		return d.readString(data, i)
	}
	end, ok := endOfValue(data, i)
	if !ok {
		return nil, 0, errBadJSON
	}
	switch literal := data[i:end]; string(literal) {
	case "true":
		return true, end, nil
	case "false":
		return false, end, nil
	case "null":
		return nil, end, nil
	default:
		if !isJSONNumber(literal) {
			return nil, 0, errBadJSON
		}
		return d.shared.num(literal), end, nil
	}
}

// readList reads the JSON array that starts at data[i]; [] is an empty
// list, not nil.
func (d *Decoder) readList(data []byte, i, depth int) ([]any, int, error) {
	if depth++; depth > maxDepth {
		return nil, 0, errTooDeep
	}
	list := []any{}
	for i = spaceEnd(data, i+1); i < len(data) && data[i] != ']'; {
		value, end, err := d.readAny(data, i, depth)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, value)
		if i, err = afterElement(data, end, ']'); err != nil {
			return nil, 0, err
		}
	}
	if i >= len(data) {
		return nil, 0, errBadJSON
	}
	return list, i + 1, nil
}

// readString reads the JSON string that starts at data[i], as a string in
// an any. A plain one (plainString) is taken as it is; one with escapes or
// bad UTF-8 goes through encoding/json, which unescapes it and replaces bad
// UTF-8 as it always does.
func (d *Decoder) readString(data []byte, i int) (any, int, error) {
	if text, end, ok := plainString(data, i); ok {
		return d.shared.str(text), end, nil
	}
	end, ok := endOfString(data, i)
	if i >= len(data) || data[i] != '"' || !ok {
		return nil, 0, errBadJSON
	}
	var s string
	if err := json.Unmarshal(data[i:end], &s); err != nil {
		return nil, 0, err
	}
	return s, end, nil
}

// isJSONNumber reports whether text is a number as JSON writes one:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(text []byte) bool {
	i := 0
	digits := func() bool {
		start := i
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(text) && text[i] == '-' {
		i++
	}
	if i < len(text) && text[i] == '0' {
		i++
	} else if !digits() {
		return false
	}
	if i < len(text) && text[i] == '.' {
		if i++; !digits() {
			return false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		if i++; i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(text)
}

// rawjson.go writes JSON a message holds as bytes (a RawExtension's, a
// FieldsV1's: managedFields) into the JSON being written, as encoding/json
// writes the output of a MarshalJSON method: checked to be JSON, compacted,
// and with <, >, &, U+2028 and U+2029 escaped. What a server sends is
// compact and plain already, and is copied as it is after one pass that
// checks both (scanRawJSON, fuzzed against json.Valid).
//
// client-go counterpart: encoding/json's handling of Marshaler output
// (compact with HTML escaping), as the apiserver's JSON encoder applies it.
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// appendRawJSON appends raw, which must be JSON, compacted and with <, >,
// &, U+2028 and U+2029 escaped, as encoding/json writes the output of a
// MarshalJSON method. Text that is compact and has none of them (what a
// server sends) is appended as it is.
func appendRawJSON(dst, raw []byte) ([]byte, error) {
	valid, plain := scanRawJSON(raw)
	switch {
	case !valid:
		return dst, errors.New("protobuf: embedded bytes are not JSON (CBOR and nested protobuf are not supported)")
	case plain:
		return append(dst, raw...), nil
	}
	var compact, escaped bytes.Buffer
	_ = json.Compact(&compact, raw) // valid: it cannot fail
	json.HTMLEscape(&escaped, compact.Bytes())
	return append(dst, escaped.Bytes()...), nil
}

// scanRawJSON reports, in one pass, whether raw is one JSON value (as
// json.Valid says: FuzzScanRawJSON compares them), and whether it is
// plain: no space outside its strings, nothing HTML escaping would change.
func scanRawJSON(raw []byte) (valid, plain bool) {
	s := rawScanner{b: raw, plain: true}
	s.space()
	if !s.value(0) {
		return false, false
	}
	s.space()
	return s.i == len(s.b), s.plain
}

// rawScanner reads JSON text for scanRawJSON.
type rawScanner struct {
	b     []byte
	i     int
	plain bool
}

// space skips spaces, which make the text not plain.
func (s *rawScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.plain = false
			s.i++
		default:
			return
		}
	}
}

// value reads one value at nesting depth.
func (s *rawScanner) value(depth int) bool {
	if s.i >= len(s.b) || depth > 10000 {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.container(depth, '}', true)
	case c == '[':
		return s.container(depth, ']', false)
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// container reads an object (members) or an array, its opening byte first.
func (s *rawScanner) container(depth int, closing byte, members bool) bool {
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return true
	}
	for {
		if members {
			if s.i >= len(s.b) || s.b[s.i] != '"' || !s.str() {
				return false
			}
			s.space()
			if s.i >= len(s.b) || s.b[s.i] != ':' {
				return false
			}
			s.i++
			s.space()
		}
		if !s.value(depth + 1) {
			return false
		}
		s.space()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.space()
		case closing:
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string, its quote first.
func (s *rawScanner) str() bool {
	for s.i++; s.i < len(s.b); {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
					return false
				}
				s.i += 6
			default:
				return false
			}
		case c == '<' || c == '>' || c == '&':
			s.plain = false
			s.i++
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == '\u2028' || r == '\u2029' || r == utf8.RuneError && size == 1 {
				s.plain = false // escaped, or replaced, by encoding/json
			}
			s.i += size
		}
	}
	return false
}

// isHex4 reports whether b is four hexadecimal digits.
func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *rawScanner) number() bool {
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.b) && s.b[s.i] == '0' {
		s.i++
	} else if !s.digits() {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (s *rawScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// scan.go holds the few steps every reader of the package takes over JSON
// text: skip spaces, find where a string or a whole value ends (valueScan,
// which goes on across reads of a response body), and take a plain string
// as it is. They check the JSON only as far as they must: the decoders that
// then read the value check the rest, so no byte is checked twice. Bad
// input gives an error, never a panic.
//
// client-go counterpart: framer.NewJSONFramedReader in
// k8s.io/apimachinery/pkg/util/framer (the JSON serializer's framer: a
// json.Decoder decodes each frame into a json.RawMessage, which scans it
// twice) and the scanner of encoding/json.
//
// Tutorial: none; this package is there for speed only (see doc.go). The
// tutorial's Reflector reads each event with json.NewDecoder(resp.Body):
// this is that decoder's framing, in one pass.

package jsonread

import (
	"errors"
	"unicode/utf8"
)

var errBadJSON = errors.New("malformed JSON")

// trailing checks that only spaces follow offset i.
func trailing(data []byte, i int) error {
	if spaceEnd(data, i) != len(data) {
		return errBadJSON
	}
	return nil
}

// spaceEnd returns the offset of the first byte at or after i that is not
// a JSON space.
func spaceEnd(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// endOfString returns the offset just after the string that starts at i.
func endOfString(data []byte, i int) (int, bool) {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// endOfValue returns the offset just after the value that starts at i: a
// string, an object or array (brackets counted, strings skipped), or a
// literal (up to the next delimiter or the end of data).
func endOfValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	var s valueScan
	n, done := s.scan(data[i:])
	if !done && s.literal {
		n, done = len(data)-i, true
	}
	return i + n, done && n > 0
}

// afterElement steps from the end of an element of an object or list (a
// member, or an item), at i, past the comma after it to the next element,
// or to the closing bracket. A comma with no element after it is an error.
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

// valueScan finds where one JSON value ends by counting brackets outside
// its strings. It can stop at the end of the bytes read so far and go on
// from there when more arrive, so a value split across reads is scanned
// once, not again from its start after each read. It does not check the
// JSON, but it stops at the first byte that cannot be in it, or a bracket
// that does not match, as encoding/json's scanner would: a broken stream
// then fails at once instead of waiting for more.
type valueScan struct {
	n        int    // how many bytes of the value it has looked at
	depth    int    // brackets open
	braces   uint64 // bit k: the bracket open at depth k+1 is a '{' (depths up to 64 are checked)
	inString bool   // inside a string; escaped: just after its backslash
	escaped  bool
	literal  bool // a number, true, false or null: it ends at a delimiter
}

// scan goes on over value, the bytes of the value from its first one, and
// returns the value's length once it has seen where it ends (or where it
// breaks: the decoder that reads it then says what is wrong).
func (s *valueScan) scan(value []byte) (length int, done bool) {
	if s.n == 0 && len(value) > 0 {
		s.literal = value[0] != '{' && value[0] != '[' && value[0] != '"'
	}
	for ; s.n < len(value); s.n++ {
		c := value[s.n]
		switch {
		case s.escaped:
			s.escaped = false
		case s.inString:
			if c == '\\' {
				s.escaped = true
			} else if c == '"' {
				s.inString = false
				if s.depth == 0 {
					return s.n + 1, true
				}
			}
		case s.literal && isDelimiter(c):
			return s.n, true
		case c == '"':
			s.inString = true
		case c == '{' || c == '[':
			if s.depth++; s.depth <= 64 && c == '{' {
				s.braces |= 1 << (s.depth - 1)
			} else if s.depth <= 64 {
				s.braces &^= 1 << (s.depth - 1)
			}
		case c == '}' || c == ']':
			if s.depth <= 64 && s.depth > 0 && (s.braces>>(s.depth-1)&1 == 1) != (c == '}') {
				return s.n + 1, true // a bracket that does not match
			}
			if s.depth--; s.depth <= 0 {
				return s.n + 1, true
			}
		case !canBeInJSON(c):
			return s.n + 1, true
		}
	}
	return 0, false
}

// canBeInJSON reports whether c may appear outside a JSON string (other
// than brackets and quotes): a space, a separator, or part of a literal.
func canBeInJSON(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '-', '+', '.', 'e', 'E', 't', 'r', 'u', 'f', 'a', 'l', 's', 'n':
		return true
	}
	return c >= '0' && c <= '9'
}

// plainString returns the text of the JSON string that starts at data[i]
// when it is plain: no escapes, no control characters, valid UTF-8 (Chinese
// text included). encoding/json gives exactly these bytes for such a
// string. It reports false for any other string (or no string), which
// encoding/json then reads: it unescapes, and replaces bad UTF-8.
func plainString(data []byte, i int) (text []byte, end int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	ascii := true
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			text = data[i+1 : j]
			return text, j + 1, ascii || utf8.Valid(text)
		case c < 0x20 || c == '\\':
			return nil, 0, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, 0, false
}

// isPlain reports whether text is printable ASCII with no quote,
// backslash or <>&: a JSON string's contents that mean exactly these bytes,
// and that json.Marshal writes back unchanged (it escapes <>& as \u003c...).
func isPlain(text []byte) bool {
	for _, c := range text {
		if c < 0x20 || c > 0x7e || c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// hasSpace reports whether text holds a JSON space (perhaps in a string).
func hasSpace(text []byte) bool {
	for _, c := range text {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '{', '[', '"':
		return true
	}
	return false
}

// lossless_scan.go walks the members of a JSON object and the elements of a
// JSON array in one pass over the text, for lossless.go: each typed level
// reads its own members once, and hands each nested object's text straight
// to that object's UnmarshalJSON, so no level is scanned again by the
// levels above it (encoding/json would re-scan it at every level).
// encoding/json hands UnmarshalJSON only valid JSON; for anything else the
// walk ends in an error, never a panic. The values it hands on are checked
// where they land (json.Unmarshal, json.Compact, or the next level).
//
// client-go counterpart: none (sigs.k8s.io/json, a fork of encoding/json,
// decodes client-go's typed structs).
//
// Tutorial: 004 §3.2 (decoding objects on the informer's hot path).

package informer

import (
	"errors"
)

var errBadJSON = errors.New("malformed JSON")

// trailing checks that only spaces follow offset i.
func trailing(data []byte, i int) error {
	if spaceEnd(data, i) != len(data) {
		return errBadJSON
	}
	return nil
}

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
// literal (up to the next delimiter).
func endOfValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return endOfString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				end, ok := endOfString(data, i)
				if !ok {
					return 0, false
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1, true
				}
			}
		}
		return 0, false
	}
	start := i
	for i < len(data) && !isDelimiter(data[i]) {
		i++
	}
	return i, i > start
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '{', '[', '"':
		return true
	}
	return false
}

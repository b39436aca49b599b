// ownjson.go writes the types whose Go form writes JSON of its own
// (schema.OwnJSON): metav1.Time ("2026-12-04T15:00:00Z", whole seconds;
// the zero time is null), MicroTime (with microseconds), Duration
// ("1m30s"), resource.Quantity ("100m"), intstr.IntOrString (a number or a
// string), and runtime.RawExtension and metav1.FieldsV1, whose bytes are
// JSON already and are written compacted and escaped, as encoding/json
// writes what a MarshalJSON method returns.
//
// client-go counterparts: the MarshalJSON and Unmarshal methods of
// metav1.Time (time.go, time_proto.go), MicroTime, Duration,
// resource.Quantity, intstr.IntOrString, runtime.RawExtension and
// metav1.FieldsV1 in k8s.io/apimachinery v0.37.2.
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// The messages of the types with JSON of their own.
const (
	timeMessage      = schema.Time
	microTimeMessage = schema.MicroTime
)

// rfc3339Micro is MicroTime's JSON layout (metav1.RFC3339Micro).
const rfc3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// ownFields reads the fields of a message with JSON of its own by their
// .proto names, calling each for every field the schema knows.
func ownFields(p *msgPlan, b []byte, each func(name string, f field)) error {
	for len(b) > 0 {
		f, rest, err := nextField(b)
		if err != nil {
			return err
		}
		b = rest
		if i := p.index(f.num); i >= 0 && f.wt == wireTypeOf(p.fields[i].Type) {
			each(p.fields[i].Name, f)
		}
	}
	return nil
}

// timeOf is the time a Time or MicroTime message holds, as
// generated.pb.go's Unmarshal sets it: none for empty bytes, whole seconds
// for a Time (its nanos are not read), microseconds for a MicroTime.
func timeOf(p *msgPlan, b []byte, micro bool) (time.Time, error) {
	if len(b) == 0 {
		return time.Time{}, nil
	}
	var seconds, nanos int64
	err := ownFields(p, b, func(name string, f field) {
		switch name {
		case "seconds":
			seconds = int64(f.u)
		case "nanos":
			nanos = int64(int32(f.u))
		}
	})
	if !micro {
		nanos = 0
	}
	nanos -= nanos % 1000
	return time.Unix(seconds, nanos).UTC(), err
}

// appendOwnJSON appends the JSON of message p, a type with JSON of its own,
// from its values (the last one counts; none is the zero value).
func appendOwnJSON(dst []byte, p *msgPlan, values []occurrence) ([]byte, error) {
	var b []byte
	present := len(values) > 0
	if present {
		b = values[len(values)-1].f.b
	}
	switch p.msg.Name {
	case schema.Time, schema.MicroTime:
		micro := p.msg.Name == schema.MicroTime
		t, err := timeOf(p, b, micro)
		if err != nil || t.IsZero() {
			return append(dst, "null"...), err
		}
		dst = append(dst, '"')
		if micro {
			dst = t.AppendFormat(dst, rfc3339Micro)
		} else {
			dst = t.AppendFormat(dst, time.RFC3339)
		}
		return append(dst, '"'), nil
	case schema.Duration:
		var d int64
		err := ownFields(p, b, func(name string, f field) { d = int64(f.u) })
		dst = append(dst, '"')
		dst = append(dst, time.Duration(d).String()...)
		return append(dst, '"'), err
	case schema.Quantity:
		s, err := quantityText(p, b)
		if err != nil {
			return dst, err
		}
		return appendString(dst, s), nil
	case schema.IntOrString:
		var kind, intVal int64
		var strVal []byte
		err := ownFields(p, b, func(name string, f field) {
			switch name {
			case "type":
				kind = int64(f.u)
			case "intVal":
				intVal = int64(int32(f.u))
			case "strVal":
				strVal = f.b
			}
		})
		switch {
		case err != nil:
			return dst, err
		case kind == 0:
			return strconv.AppendInt(dst, intVal, 10), nil
		case kind == 1:
			return appendString(dst, strVal), nil
		}
		return dst, fmt.Errorf("protobuf: an IntOrString of type %d", kind)
	case schema.RawExtension, schema.FieldsV1:
		var raw []byte
		given := false
		err := ownFields(p, b, func(name string, f field) {
			raw = f.b
			given = true
		})
		switch {
		case err != nil:
			return dst, err
		case !given || len(raw) == 0 && p.msg.Name == schema.FieldsV1:
			return append(dst, "null"...), nil
		}
		return appendRawJSON(dst, raw)
	}
	return dst, fmt.Errorf("protobuf: no JSON form for %s", p.msg.Name)
}

// quantityText is the text of a Quantity message: its string, as a server
// writes it (canonical), or "0" when none is given. An empty string is an
// error, as for resource.ParseQuantity.
func quantityText(p *msgPlan, b []byte) ([]byte, error) {
	s := []byte("0")
	err := ownFields(p, b, func(name string, f field) {
		s = f.b
	})
	if err == nil && len(s) == 0 {
		err = errors.New("protobuf: a Quantity with an empty string")
	}
	return s, err
}

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

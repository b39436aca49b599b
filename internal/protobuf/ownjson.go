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
	if !json.Valid(raw) {
		return dst, errors.New("protobuf: embedded bytes are not JSON (CBOR and nested protobuf are not supported)")
	}
	if plainJSON(raw) {
		return append(dst, raw...), nil
	}
	var compact, escaped bytes.Buffer
	_ = json.Compact(&compact, raw) // valid: it cannot fail
	json.HTMLEscape(&escaped, compact.Bytes())
	return append(dst, escaped.Bytes()...), nil
}

// plainJSON reports whether valid JSON text has no space outside its
// strings and nothing HTML escaping would change.
func plainJSON(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xe2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xa8 || raw[i+2] == 0xa9):
			return false // U+2028, U+2029
		case inString && c == '\\':
			i++ // the escaped byte cannot end the string
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return true
}

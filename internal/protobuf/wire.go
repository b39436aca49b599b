// wire.go reads protobuf's wire format: varints, and fields as tag, wire
// type and value. A message is a run of fields; a field is its number and
// wire type (one varint, number<<3 | type), then a varint (type 0), 8 bytes
// (type 1), a length and that many bytes (type 2: strings, bytes, nested
// messages, packed lists), or 4 bytes (type 5). Every read checks its
// bounds: bad input is an error, never a panic (FuzzDecode).
//
// client-go counterpart: the generated Unmarshal methods of k8s.io/api
// (generated.pb.go), which inline these loops for every message.
// Tutorial: none.

package protobuf

import (
	"errors"
	"fmt"
	"math"
)

// The wire types Kubernetes messages use.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// errTruncated is the error of a message that ends inside a field.
var errTruncated = errors.New("protobuf: unexpected end of data")

// field is one field as it sits on the wire: its number, wire type, and
// either an integer (varint, fixed64, fixed32) or bytes (a slice of the
// message being read, not a copy).
type field struct {
	num int
	wt  int
	u   uint64
	b   []byte
}

// uvarint reads the varint at the start of b and its length; n <= 0 if it
// is malformed or cut short.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			if i == 9 && b[i] > 1 {
				return 0, -1 // more than 64 bits
			}
			return v, i + 1
		}
	}
	return 0, -1
}

// nextField reads the field at the start of b and returns it with the rest.
func nextField(b []byte) (field, []byte, error) {
	tag, n := uvarint(b)
	if n <= 0 {
		return field{}, nil, errTruncated
	}
	b = b[n:]
	num := tag >> 3
	if num == 0 || num > math.MaxInt32 {
		return field{}, nil, fmt.Errorf("protobuf: bad field number %d", num)
	}
	f := field{num: int(num), wt: int(tag & 7)}
	switch f.wt {
	case wireVarint:
		if f.u, n = uvarint(b); n <= 0 {
			return f, nil, fmt.Errorf("protobuf: field %d: malformed varint", f.num)
		}
		return f, b[n:], nil
	case wireFixed64, wireFixed32:
		size := 8
		if f.wt == wireFixed32 {
			size = 4
		}
		if len(b) < size {
			return f, nil, errTruncated
		}
		f.u = fixed(b[:size])
		return f, b[size:], nil
	case wireBytes:
		l, n := uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return f, nil, fmt.Errorf("protobuf: field %d: bad length", f.num)
		}
		f.b = b[n : n+int(l)]
		return f, b[n+int(l):], nil
	}
	return f, nil, fmt.Errorf("protobuf: field %d: unsupported wire type %d", f.num, f.wt)
}

// fixed reads a little-endian integer of len(b) bytes.
func fixed(b []byte) uint64 {
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	return u
}

// wireTypeOf is the wire type of one value of the scalar type typ, or of a
// message (wireBytes).
func wireTypeOf(typ string) int {
	switch typ {
	case "bool", "int32", "int64", "uint32", "uint64":
		return wireVarint
	case "double":
		return wireFixed64
	case "float":
		return wireFixed32
	}
	return wireBytes
}

// unpack splits a packed list of varints or fixed-size numbers (one field of
// wire type 2 holding many values of wire type wt) into fields, calling
// each for every value.
func unpack(f field, wt int, each func(field) error) error {
	for p := f.b; len(p) > 0; {
		v := field{num: f.num, wt: wt}
		var n int
		switch wt {
		case wireVarint:
			if v.u, n = uvarint(p); n <= 0 {
				return fmt.Errorf("protobuf: field %d: malformed packed varint", f.num)
			}
		default:
			if n = 8; wt == wireFixed32 {
				n = 4
			}
			if len(p) < n {
				return errTruncated
			}
			v.u = fixed(p[:n])
		}
		p = p[n:]
		if err := each(v); err != nil {
			return err
		}
	}
	return nil
}

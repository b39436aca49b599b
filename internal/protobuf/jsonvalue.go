// jsonvalue.go writes the scalars of a message as encoding/json writes the
// Go values generated.pb.go makes of them: strings (escaped as encoding/json
// escapes them by default, <, > and & included), bytes (base64), booleans,
// integers and floats.
//
// client-go counterpart: encoding/json's encoders of string, []byte, bool,
// int and float values.
// Tutorial: none.

package protobuf

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// appendScalar appends a scalar of type typ as encoding/json writes the Go
// value generated.pb.go makes of it.
func appendScalar(dst []byte, typ string, v field) ([]byte, error) {
	switch typ {
	case "string":
		return appendString(dst, v.b), nil
	case "bytes":
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v.b)
		return append(dst, '"'), nil
	case "bool":
		return strconv.AppendBool(dst, v.u != 0), nil
	case "int32":
		return strconv.AppendInt(dst, int64(int32(v.u)), 10), nil
	case "int64":
		return strconv.AppendInt(dst, int64(v.u), 10), nil
	case "uint32":
		return strconv.AppendUint(dst, uint64(uint32(v.u)), 10), nil
	case "uint64":
		return strconv.AppendUint(dst, v.u, 10), nil
	case "double":
		return appendFloat(dst, math.Float64frombits(v.u), 64)
	case "float":
		return appendFloat(dst, float64(math.Float32frombits(uint32(v.u))), 32)
	}
	return dst, fmt.Errorf("protobuf: unknown scalar type %q", typ)
}

// appendFloat writes a float as encoding/json does: the shortest form that
// reads back, with an exponent only for very small or large values.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, fmt.Errorf("protobuf: unsupported value %v (JSON has no such number)", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// "1e-07" is written "1e-7", as encoding/json writes it.
		if n := len(dst) - start; n >= 4 && dst[len(dst)-4] == 'e' && dst[len(dst)-3] == '-' && dst[len(dst)-2] == '0' {
			dst[len(dst)-2] = dst[len(dst)-1]
			dst = dst[:len(dst)-1]
		}
	}
	return dst, nil
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does by
// default: ", \ and control characters escaped, and also <, > and & (HTML
// escaping), U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

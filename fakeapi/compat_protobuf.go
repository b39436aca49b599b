// compat_protobuf.go (compatibility layer): request bodies in Kubernetes
// protobuf, decoded to the JSON a client sending JSON would have sent for the
// same object.
//
// client-go's typed clientset and kubectl's create commands send their
// objects as Content-Type application/vnd.kubernetes.protobuf: the four
// bytes "k8s\x00", then a runtime.Unknown message whose typeMeta names the
// apiVersion and kind and whose raw field holds the object's own message
// (a Pod, a ConfigMap, a DeleteOptions...). The messages are those of the
// real .proto files (compat_protoschema.go). Decoding gives the map encoding/json
// would give for the Go object the client built: the same field names, the
// same fields left out, and the types whose JSON is special: Time and
// MicroTime (RFC 3339 strings, seconds or microseconds), Duration ("1m0s"),
// Quantity ("100m"), IntOrString (a number or a string), RawExtension and
// FieldsV1 (embedded JSON), bytes (base64), maps and repeated fields.
//
// Refused, with 400 and a Status naming the reason: a body without the
// magic, a malformed message, and a field number the schema does not know.
// (The real server skips unknown field numbers; this fake refuses them
// rather than drop data silently.) Answers are always JSON, which client-go
// accepts whatever it prefers.
// client-go counterparts: k8s.io/apimachinery/pkg/runtime/serializer/protobuf
// (the envelope) and the generated Unmarshal methods of k8s.io/api.
// Tutorial: none.

package fakeapi

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// protobufMediaType is Kubernetes' protobuf Content-Type.
const protobufMediaType = "application/vnd.kubernetes.protobuf"

// protobufMagic starts every Kubernetes protobuf body.
var protobufMagic = []byte("k8s\x00")

// maxProtoDepth bounds the nesting of messages, so a hostile body cannot
// recurse without end.
const maxProtoDepth = 64

// Message names of the types whose JSON form is special (schema.OwnJSON),
// and of DeleteOptions.
const (
	pbTime          = schema.Time
	pbMicroTime     = schema.MicroTime
	pbDuration      = schema.Duration
	pbFieldsV1      = schema.FieldsV1
	pbDeleteOptions = schema.MetaPackage + "DeleteOptions"
	pbQuantity      = schema.Quantity
	pbIntOrString   = schema.IntOrString
	pbRawExtension  = schema.RawExtension
)

// decodeProtobuf decodes a protobuf body whose envelope must name kind in
// apiVersion (or, for an object, any served kind: checkBody then refuses a
// mismatch in the same words as for JSON). It returns the object as JSON.
func decodeProtobuf(raw []byte, ri *resourceInfo, kind string) (map[string]any, *APIError) {
	bad := func(err error) *APIError {
		return errBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v", kind, err))
	}
	if !bytes.HasPrefix(raw, protobufMagic) {
		return nil, bad(fmt.Errorf("provided data does not appear to be a protobuf message, expected prefix %v", protobufMagic))
	}
	var apiVersion, gotKind string
	var object []byte
	for b := raw[len(protobufMagic):]; len(b) > 0; {
		wf, rest, err := nextWireField(b)
		if err != nil {
			return nil, bad(err)
		}
		b = rest
		switch {
		case wf.num == 1 && wf.wt == 2: // typeMeta
			tm, err := decodeMessage(protoSchema()["k8s.io.apimachinery.pkg.runtime.TypeMeta"], wf.b, 1)
			if err != nil {
				return nil, bad(err)
			}
			apiVersion, _ = tm["apiVersion"].(string)
			gotKind, _ = tm["kind"].(string)
		case wf.num == 2 && wf.wt == 2: // raw
			object = wf.b
		case (wf.num == 3 || wf.num == 4) && wf.wt == 2: // contentEncoding, contentType
			if wf.num == 3 && len(wf.b) > 0 {
				return nil, bad(fmt.Errorf("contentEncoding %q is not supported", wf.b))
			}
		default:
			return nil, bad(fmt.Errorf("field number %d of the runtime.Unknown envelope is not in the schema", wf.num))
		}
	}
	msg := ""
	switch {
	case kind == "DeleteOptions" && gotKind == "DeleteOptions":
		msg = pbDeleteOptions
	case kind != "DeleteOptions":
		for _, c := range catalog {
			if c.kind == gotKind && c.apiVersion() == apiVersion {
				msg = protoMessageName(c)
			}
		}
	}
	if msg == "" {
		return nil, bad(fmt.Errorf("the envelope names kind %q in version %q", gotKind, apiVersion))
	}
	obj, err := decodeMessage(protoSchema()[msg], object, 1)
	if err != nil {
		return nil, bad(err)
	}
	if apiVersion != "" {
		obj["apiVersion"] = apiVersion
	}
	if gotKind != "" {
		obj["kind"] = gotKind
	}
	return obj, nil
}

// wireField is one field as it sits on the wire: its number, wire type,
// and either an integer (varint, fixed32, fixed64) or bytes.
type wireField struct {
	num int
	wt  int
	u   uint64
	b   []byte
}

// nextWireField reads the field at the start of b and returns the rest.
func nextWireField(b []byte) (wireField, []byte, error) {
	tag, n := uvarint(b)
	if n <= 0 {
		return wireField{}, nil, errors.New("malformed field tag")
	}
	b = b[n:]
	wf := wireField{num: int(tag >> 3), wt: int(tag & 7)}
	if tag>>3 == 0 || tag>>3 > math.MaxInt32 {
		return wf, nil, fmt.Errorf("bad field number %d", tag>>3)
	}
	switch wf.wt {
	case 0:
		if wf.u, n = uvarint(b); n <= 0 {
			return wf, nil, fmt.Errorf("field %d: malformed varint", wf.num)
		}
		return wf, b[n:], nil
	case 1, 5:
		size := 8
		if wf.wt == 5 {
			size = 4
		}
		if len(b) < size {
			return wf, nil, fmt.Errorf("field %d: unexpected end of data", wf.num)
		}
		for i := size - 1; i >= 0; i-- {
			wf.u = wf.u<<8 | uint64(b[i])
		}
		return wf, b[size:], nil
	case 2:
		l, n := uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return wf, nil, fmt.Errorf("field %d: bad length", wf.num)
		}
		wf.b = b[n : n+int(l)]
		return wf, b[n+int(l):], nil
	}
	return wf, nil, fmt.Errorf("field %d: unsupported wire type %d", wf.num, wf.wt)
}

// uvarint reads a varint; n <= 0 if it is malformed or cut short.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			if i == 9 && b[i] > 1 {
				return 0, -1
			}
			return v, i + 1
		}
	}
	return 0, -1
}

// protoMessageName is the .proto name of ri's message, such as
// "k8s.io.api.core.v1.Pod" or "k8s.io.api.apps.v1.Deployment".
func protoMessageName(ri *resourceInfo) string {
	return schema.MessageOf(ri.Group, ri.Version, ri.kind)
}

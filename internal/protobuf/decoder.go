// decoder.go holds the Decoder: it reads a response body as it arrives and
// decodes an object (Decode), a list item by item (DecodeList), or a watch
// stream one event at a time (DecodeEvent), each object straight into the
// caller's Go value (typed.go), never holding a whole list in memory.
//
// client-go counterpart: k8s.io/apimachinery/pkg/runtime/serializer/protobuf
// (Serializer.Decode for objects and lists, RawSerializer and
// LengthDelimitedFramer for watch streams), k8s.io/client-go/rest/watch
// (Decoder.Decode: the event, then its object).
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// MediaType is the media type of Kubernetes protobuf.
const MediaType = "application/vnd.kubernetes.protobuf"

// magic starts every Kubernetes protobuf object and list.
var magic = []byte("k8s\x00")

const (
	// readSize is how much the decoder asks the body for at a time.
	readSize = 32 << 10
	// maxFrame bounds one watch event: a bad length cannot make the decoder
	// wait for, or allocate, gigabytes.
	maxFrame = 64 << 20
)

// The envelope messages, by their .proto names.
const (
	unknownMessage    = "k8s.io.apimachinery.pkg.runtime.Unknown"
	typeMetaMessage   = "k8s.io.apimachinery.pkg.runtime.TypeMeta"
	watchEventMessage = schema.MetaPackage + "WatchEvent"
)

// Layout tells a Decoder where the caller's objects keep what no Go field
// of theirs holds. Its function must answer by the type of its argument
// alone (the answer is cached per type) and must not keep it.
type Layout struct {
	// Unknown returns, for a pointer to a struct, the field where the
	// struct keeps the members its fields do not model, as one raw JSON
	// object; nil when it keeps none (encoding/json then decodes it from
	// its JSON text).
	Unknown func(structPtr any) *[]byte
}

// A Decoder reads the Kubernetes protobuf of one response body (an object,
// a list, or the frames of a watch) and decodes the objects in it. Not
// safe for concurrent use.
type Decoder struct {
	r      io.Reader
	layout Layout
	buf    []byte // read and not yet used: buf[start:]
	start  int
	err    error // what the body's Read returned last, once not nil
	used   int   // bytes used so far, to check the length of a list
	w      writer
	shared sharedStrings // the strings of the objects made so far
	// last is the type of the last object decoded, and its message.
	last struct {
		typeMetaBytes string
		tm            typeMeta
		plan          *msgPlan
	}
}

// NewDecoder returns a decoder over r.
func NewDecoder(r io.Reader, layout Layout) *Decoder {
	return &Decoder{r: r, layout: layout}
}

// fill reads until n bytes are buffered, or the body ends; it reports
// whether they are.
func (d *Decoder) fill(n int) bool {
	for len(d.buf)-d.start < n {
		if d.err != nil {
			return false
		}
		if d.start > 0 {
			d.buf = d.buf[:copy(d.buf, d.buf[d.start:])]
			d.start = 0
		}
		// Grown as the bytes come, never to a length the data only
		// claims: a bad length must not allocate gigabytes.
		if cap(d.buf)-len(d.buf) < readSize/2 {
			d.buf = slices.Grow(d.buf, max(readSize, cap(d.buf))) // at least double
		}
		m, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+m]
		d.err = err
	}
	return true
}

// endErr is the error of a body that ended, or failed, before n more bytes
// came: io.EOF at a boundary (nothing of the next value read), else
// io.ErrUnexpectedEOF; a failure of the body itself comes back as it is.
func (d *Decoder) endErr(atBoundary bool) error {
	switch {
	case d.err != io.EOF:
		return d.err
	case atBoundary && d.start == len(d.buf):
		return io.EOF
	}
	return io.ErrUnexpectedEOF
}

// take uses the next n bytes; they are valid until the next read.
func (d *Decoder) take(n int) ([]byte, error) {
	if !d.fill(n) {
		return nil, d.endErr(false)
	}
	b := d.buf[d.start : d.start+n]
	d.start += n
	d.used += n
	return b, nil
}

// varint uses the next varint; at a boundary, the end of the body is io.EOF.
func (d *Decoder) varint(atBoundary bool) (uint64, error) {
	d.fill(10) // fewer at the end of the body
	v, n := uvarint(d.buf[d.start:])
	if n <= 0 {
		if len(d.buf)-d.start >= 10 || d.err == nil {
			return 0, errors.New("protobuf: malformed varint")
		}
		return 0, d.endErr(atBoundary)
	}
	d.start += n
	d.used += n
	return v, nil
}

// Decode reads the body, one object, and decodes it into target (a *Status
// for an error's body).
func (d *Decoder) Decode(target any) error {
	for d.fill(len(d.buf) - d.start + 1) { // until the body ends
	}
	if d.err != io.EOF {
		return d.err
	}
	data := d.buf[d.start:]
	d.start = len(d.buf)
	return d.decodeObject(data, target)
}

// decodeObject decodes an object given whole: the magic, then a
// runtime.Unknown naming its message.
func (d *Decoder) decodeObject(data []byte, target any) error {
	rest, ok := bytes.CutPrefix(data, magic)
	if !ok {
		return fmt.Errorf("protobuf: the data does not start with %q", magic)
	}
	var typeMetaBytes, raw []byte
	err := ownFields(plans()[unknownMessage], rest, func(name string, f field) {
		switch name {
		case "typeMeta":
			typeMetaBytes = f.b
		case "raw":
			raw = f.b
		}
	})
	if err != nil {
		return err
	}
	// A watch brings object after object of one kind: its type is read once.
	if d.last.plan == nil || string(typeMetaBytes) != d.last.typeMetaBytes {
		tm := readTypeMeta(typeMetaBytes)
		p, err := planOf(messageFor(tm))
		if err != nil {
			return err
		}
		d.last.typeMetaBytes, d.last.tm, d.last.plan = string(typeMetaBytes), tm, p
	}
	tm := d.last.tm
	return d.decodeInto(target, d.last.plan, raw, &tm)
}

// readTypeMeta reads a runtime.TypeMeta.
func readTypeMeta(b []byte) typeMeta {
	var tm typeMeta
	_ = ownFields(plans()[typeMetaMessage], b, func(name string, f field) {
		switch name {
		case "apiVersion":
			tm.apiVersion = string(f.b)
		case "kind":
			tm.kind = string(f.b)
		}
	})
	return tm
}

// messageFor is the message of an object of the given kind and apiVersion
// ("v1", "apps/v1"). The kinds of metav1 (Status, DeleteOptions...) are
// served in every group version, as the apiserver registers them there.
func messageFor(tm typeMeta) string {
	group, version, found := strings.Cut(tm.apiVersion, "/")
	if !found {
		group, version = "", group
	}
	name := schema.MessageOf(group, version, tm.kind)
	if plans()[name] == nil && plans()[schema.MetaPackage+tm.kind] != nil {
		return schema.MetaPackage + tm.kind
	}
	return name
}

// decodeInto decodes message bytes b of p into target: a typed struct that
// keeps its unmodelled members by decodeStruct, anything else through its
// JSON text and encoding/json. tm, when given, is the object's own type.
func (d *Decoder) decodeInto(target any, p *msgPlan, b []byte, tm *typeMeta) error {
	values := [1]occurrence{{f: field{b: b}}}
	v := reflect.ValueOf(target)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct && keepsUnknown(v.Elem().Type(), d.layout.Unknown) {
		tp := typedPlanOf(v.Elem().Type(), p, d.layout.Unknown)
		return d.decodeStruct(tp, values[:], v.Elem(), tm, 0)
	}
	w := &d.w
	defer func() { w.raw = w.raw[:0] }()
	w.raw = append(w.raw[:0], '{')
	if tm != nil {
		for _, m := range [2][2]string{{"kind", tm.kind}, {"apiVersion", tm.apiVersion}} {
			if m[1] != "" {
				w.raw = appendKey(w.raw, m[0])
				w.raw = appendString(w.raw, []byte(m[1]))
			}
		}
	}
	var err error
	if w.raw, err = w.appendMembers(w.raw, p, values[:], 0); err != nil {
		return err
	}
	w.raw = append(w.raw, '}')
	dec := json.NewDecoder(bytes.NewReader(w.raw))
	dec.UseNumber() // as the JSON decoders of generic objects do
	return dec.Decode(target)
}

// ObjectJSON returns the JSON a server writes for the object that data, a
// whole protobuf object (the magic, then a runtime.Unknown), holds: its
// kind and apiVersion, then its members as encoding/json writes the Go
// struct generated.pb.go would decode. It is the reference the typed
// decoding follows, and what a wire panel shows.
func ObjectJSON(data []byte) ([]byte, error) {
	var out json.RawMessage
	err := NewDecoder(bytes.NewReader(data), Layout{}).decodeObject(data, &out)
	return out, err
}

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
	"encoding/binary"
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
		if free := cap(d.buf) - len(d.buf); free < readSize/2 || free < n-len(d.buf) {
			d.buf = slices.Grow(d.buf, max(readSize, n-len(d.buf), cap(d.buf)))
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
	var tm typeMeta
	var raw []byte
	up := plans()[unknownMessage]
	err := ownFields(up, rest, func(name string, f field) {
		switch name {
		case "typeMeta":
			tm = readTypeMeta(f.b)
		case "raw":
			raw = f.b
		}
	})
	if err != nil {
		return err
	}
	p, err := planOf(messageFor(tm))
	if err != nil {
		return err
	}
	return d.decodeInto(target, p, raw, &tm)
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

// DecodeList reads a list (the magic, then a runtime.Unknown holding, for
// example, a v1 PodList) as it arrives, each item straight into its Go
// value: the body is never held whole. member is called with the name of
// each member of the list, as its JSON would have them: "kind" and
// "apiVersion" (the envelope's), "metadata", "items"; for "items" its
// answer is ignored (a caller may start its list again), and newItem then
// gives the value to decode each item into; for any other member it gives
// where to decode the value (a *string for the first two), or nil to skip it.
func (d *Decoder) DecodeList(member func(name string) any, newItem func() any) error {
	start, err := d.take(len(magic))
	if err != nil {
		return err
	}
	if !bytes.Equal(start, magic) {
		return fmt.Errorf("protobuf: the data does not start with %q", magic)
	}
	up := plans()[unknownMessage]
	var tm *typeMeta
	for {
		tag, err := d.varint(true)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name, n, err := d.bytesField(up, tag)
		if err != nil {
			return err
		}
		switch name {
		case "typeMeta":
			b, err := d.take(n)
			if err != nil {
				return err
			}
			tm = &typeMeta{}
			*tm = readTypeMeta(b)
			for _, m := range [2][2]string{{"kind", tm.kind}, {"apiVersion", tm.apiVersion}} {
				if s, ok := member(m[0]).(*string); ok {
					*s = m[1]
				}
			}
		case "raw":
			if tm == nil {
				return errors.New("protobuf: a list's raw bytes came before its typeMeta")
			}
			if err := d.decodeListBody(*tm, n, member, newItem); err != nil {
				return err
			}
		default: // contentEncoding, contentType: a list of ours has none
			if _, err := d.take(n); err != nil {
				return err
			}
		}
	}
}

// bytesField reads the length of the field tag starts, which must be of
// wire type 2, and returns its name in p.
func (d *Decoder) bytesField(p *msgPlan, tag uint64) (name string, n int, err error) {
	if tag&7 != wireBytes {
		return "", 0, fmt.Errorf("protobuf: %s field %d has wire type %d", p.msg.Name, tag>>3, tag&7)
	}
	l, err := d.varint(false)
	if err != nil {
		return "", 0, err
	}
	if l > maxFrame<<4 {
		return "", 0, fmt.Errorf("protobuf: a field of %d bytes", l)
	}
	if i := p.index(int(min(tag>>3, 1<<31))); i >= 0 {
		name = p.fields[i].Name
	}
	return name, int(l), nil
}

// decodeListBody reads the n bytes of a list message of type tm: its
// metadata, then each item.
func (d *Decoder) decodeListBody(tm typeMeta, n int, member func(string) any, newItem func() any) error {
	lp, err := planOf(messageFor(tm))
	if err != nil {
		return err
	}
	end := d.used + n
	itemsSeen := false
	for d.used < end {
		tag, err := d.varint(false)
		if err != nil {
			return err
		}
		name, l, err := d.bytesField(lp, tag)
		if err != nil {
			return err
		}
		if d.used+l > end {
			return errors.New("protobuf: a list's field runs past its end")
		}
		b, err := d.take(l)
		if err != nil {
			return err
		}
		i := lp.index(int(tag >> 3))
		switch {
		case name == "items" && lp.subs[i] != nil:
			if !itemsSeen {
				member("items")
				itemsSeen = true
			}
			if err := d.decodeInto(newItem(), lp.subs[i], b, nil); err != nil {
				return fmt.Errorf("protobuf: list item: %w", err)
			}
		case name == "metadata" && lp.subs[i] != nil:
			if target := member("metadata"); target != nil {
				if err := d.decodeInto(target, lp.subs[i], b, nil); err != nil {
					return err
				}
			}
		}
	}
	if d.used != end {
		return errors.New("protobuf: a list's last field runs past its end")
	}
	return nil
}

// DecodeEvent reads the next watch event of the body (a 4-byte big-endian
// length, then a metav1.WatchEvent) and returns its type and its object,
// decoded into newObject(type): the value to decode the object of an event
// of that type into, or nil for a type that does not exist (an error). At
// the end of the body between events it returns io.EOF; a failure of the
// body comes back as it is; any other error means the event was broken.
func (d *Decoder) DecodeEvent(newObject func(eventType string) any) (eventType string, object any, err error) {
	if !d.fill(4) {
		return "", nil, d.endErr(true)
	}
	head, _ := d.take(4)
	n := binary.BigEndian.Uint32(head)
	if n > maxFrame {
		return "", nil, fmt.Errorf("protobuf: a watch event of %d bytes", n)
	}
	frame, err := d.take(int(n))
	if err != nil {
		return "", nil, err
	}
	var raw []byte
	hasObject := false
	ep := plans()[watchEventMessage]
	err = ownFields(ep, frame, func(name string, f field) {
		switch name {
		case "type":
			eventType = string(f.b)
		case "object":
			hasObject = true
			_ = ownFields(plans()[schema.RawExtension], f.b, func(name string, f field) { raw = f.b })
		}
	})
	if err != nil {
		return "", nil, err
	}
	object = newObject(eventType)
	if object == nil {
		return "", nil, fmt.Errorf("protobuf: a watch event of unknown type %q", eventType)
	}
	if !hasObject || raw == nil {
		return "", nil, errors.New("protobuf: a watch event without an object")
	}
	return eventType, object, d.decodeObject(raw, object)
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

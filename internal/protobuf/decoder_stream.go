// decoder_stream.go reads a list and a watch stream as they arrive: a list
// item by item, each item straight into its Go value, so that the body is
// never held whole (DecodeList); a watch one frame at a time, each a
// metav1.WatchEvent whose object holds an object's protobuf (DecodeEvent).
//
// client-go counterpart: runtime/serializer/protobuf (Serializer.Decode of
// a list; RawSerializer and LengthDelimitedFramer for a watch) and
// k8s.io/client-go/rest/watch (Decoder.Decode).
// Tutorial: none.

package protobuf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

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

// decode.go turns the JSON a server sends into objects: the items of a list
// and the events of a watch stream, each decoded as it arrives. The decoder
// reads the body in large blocks, finds where each item or event ends
// (valueScan, scan.go), then decodes it from those bytes in one pass: a
// typed object by decodeStruct (lossless_decode.go), a generic one by
// readAny (decode_generic.go); a list's own members here, a watch event's
// envelope in watch.go (decodeEvent). So each byte is read twice, once to
// frame it and once to decode it. encoding/json reads it three to five
// times on the same path (json.Decoder frames a value with its scanner,
// scans it again to hand it to each UnmarshalJSON, and json.Unmarshal
// checks it once more); BenchmarkDecode measures what that saves.
//
// client-go counterpart: the JSON serializer of
// k8s.io/apimachinery/pkg/runtime/serializer/json (Serializer.Decode), the
// framing of k8s.io/apimachinery/pkg/runtime/serializer/streaming, and
// k8s.io/client-go/rest/watch (Decoder.Decode, which decodes the envelope
// first and the object from its raw bytes after).
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming).

package informer

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
)

// readSize is how much the decoder asks the body for at a time.
const readSize = 32 << 10

// decoder reads the JSON values of one response body (a list, or the
// events of a watch) and decodes the objects in them.
type decoder struct {
	r      io.Reader
	buf    []byte // read and not yet used: buf[start:]
	start  int
	err    error         // what the body's Read returned last, once not nil
	shared *sharedValues // nil unless the objects are *Unstructured
}

// newDecoder returns a decoder over r for objects made by newObject.
// Generic objects keep numbers as json.Number, exactly as
// Unstructured.UnmarshalJSON does, and share their equal values (see
// sharedValues); typed objects decode as json.Unmarshal would decode them.
func newDecoder(r io.Reader, newObject func() Object) *decoder {
	d := &decoder{r: r}
	if _, ok := newObject().(*Unstructured); ok {
		d.shared = newSharedValues()
	}
	return d
}

// next returns the text of the next JSON value in the body, valid until the
// next call. At the end of the body it returns io.EOF before a value and
// io.ErrUnexpectedEOF inside one; any other error of the body comes back as
// it is (watch_end.go tells a normal end from a failure by it).
func (d *decoder) next() ([]byte, error) {
	var s valueScan
	for {
		d.start = spaceEnd(d.buf, d.start)
		if rest := d.buf[d.start:]; len(rest) > 0 {
			n, done := s.scan(rest)
			if !done && d.err == io.EOF && s.literal {
				n, done = len(rest), true // a literal ends with the body
			}
			if done {
				d.start += n
				if n == 0 {
					return nil, errBadJSON // a delimiter where a value should start
				}
				return rest[:n], nil
			}
		}
		if d.err != nil {
			if d.err == io.EOF && d.start < len(d.buf) {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, d.err
		}
		d.read()
	}
}

// read appends what the body gives to buf, first moving the unused bytes to
// the front (or growing buf when a value fills it).
func (d *decoder) read() {
	if d.start > 0 {
		d.buf = d.buf[:copy(d.buf, d.buf[d.start:])]
		d.start = 0
	}
	if cap(d.buf)-len(d.buf) < readSize/2 {
		d.buf = slices.Grow(d.buf, max(readSize, cap(d.buf))) // at least double
	}
	n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
	d.buf = d.buf[:len(d.buf)+n]
	d.err = err
}

// peek returns the next byte that is not a space, without using it.
func (d *decoder) peek() (byte, error) {
	for {
		if d.start = spaceEnd(d.buf, d.start); d.start < len(d.buf) {
			return d.buf[d.start], nil
		}
		if d.err != nil {
			if d.err == io.EOF {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, d.err
		}
		d.read()
	}
}

// expect uses the next byte that is not a space, which must be c.
func (d *decoder) expect(c byte, what string) error {
	got, err := d.peek()
	if err == nil && got != c {
		err = fmt.Errorf("%s: want %q, found %q", what, c, got)
	}
	d.start++
	return err
}

// more reports whether another member or element follows in the object or
// list being read, using the comma before it or the closing bracket after
// the last one. first is true before the first.
func (d *decoder) more(closing byte, first bool) (bool, error) {
	c, err := d.peek()
	switch {
	case err != nil:
		return false, err
	case c == closing:
		d.start++
		return false, nil
	case first:
		return true, nil
	case c == ',':
		d.start++
		return true, nil
	}
	return false, fmt.Errorf("want ',' or %q, found %q: %w", closing, c, errBadJSON)
}

// decodeObject decodes one object from its bytes, as json.Unmarshal does.
func decodeObject(raw json.RawMessage, newObject func() Object) (Object, error) {
	obj := newObject()
	if err := json.Unmarshal(raw, obj); err != nil {
		return nil, err
	}
	return withoutTypeMeta(obj), nil
}

// withoutTypeMeta returns obj, having dropped the kind and apiVersion of a
// typed object, so that objects from lists and from watches look the same
// (client-go's typed decoders do this too).
func withoutTypeMeta(obj Object) Object {
	if p, ok := obj.(*Pod); ok {
		p.TypeMeta = TypeMeta{}
	}
	return obj
}

// decodeAt decodes the JSON value that starts at data[i] into target (a
// typed struct or an *Unstructured) and returns the offset after it.
func (d *decoder) decodeAt(data []byte, i int, target any) (int, error) {
	if u, ok := target.(*Unstructured); ok {
		m, end, err := d.readObject(data, i, 0)
		u.Object = m
		return end, err
	}
	if t, ok := target.(lossless); ok && fastReads {
		return decodeStruct(data, i, reflect.ValueOf(t).Elem())
	}
	end, ok := endOfValue(data, i)
	if !ok {
		return 0, errBadJSON
	}
	return end, json.Unmarshal(data[i:end], target)
}

// decodeList decodes a list as it arrives, each item straight into its Go
// type: the body is never held whole, and no item is decoded twice (first
// as raw JSON, then as an object). This is most of the cost of an initial
// sync (see BenchmarkInformer). The fields may come in any order.
func decodeList(d *decoder, newObject func() Object) (*ObjectList, error) {
	list := &ObjectList{}
	if err := d.expect('{', "a list must be a JSON object"); err != nil {
		return nil, err
	}
	for first := true; ; first = false {
		more, err := d.more('}', first)
		if !more || err != nil {
			return list, err
		}
		name, err := d.memberName()
		if err != nil {
			return nil, err
		}
		if name == "items" {
			list.Items, err = d.decodeItems(newObject)
		} else if value, err2 := d.next(); err2 != nil {
			err = err2
		} else {
			switch name {
			case "kind":
				err = json.Unmarshal(value, &list.Kind)
			case "apiVersion":
				err = json.Unmarshal(value, &list.APIVersion)
			case "metadata":
				err = json.Unmarshal(value, &list.ListMeta)
			default:
				if !json.Valid(value) {
					err = fmt.Errorf("%s: %w", name, errBadJSON)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// memberName reads the name of the next member of an object and the colon
// after it.
func (d *decoder) memberName() (string, error) {
	quoted, err := d.next()
	if err != nil {
		return "", err
	}
	if quoted[0] != '"' {
		return "", fmt.Errorf("a member name must be a string: %w", errBadJSON)
	}
	name, _, err := memberName(quoted)
	if err != nil {
		return "", err
	}
	return string(name), d.expect(':', "after a member name")
}

// decodeItems decodes the array of a list's items, one item at a time.
func (d *decoder) decodeItems(newObject func() Object) ([]Object, error) {
	if c, err := d.peek(); err != nil || c == 'n' { // "items": null is an empty list
		value, err := d.next()
		if err == nil && string(value) != "null" {
			err = fmt.Errorf("items must be an array, not %s", value)
		}
		return nil, err
	}
	if err := d.expect('[', "items must be an array"); err != nil {
		return nil, err
	}
	var items []Object
	for first := true; ; first = false {
		more, err := d.more(']', first)
		if !more || err != nil {
			return items, err
		}
		value, err := d.next()
		if err != nil {
			return nil, err
		}
		obj := newObject()
		end, err := d.decodeAt(value, 0, obj)
		if err == nil {
			err = trailing(value, end)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", len(items), err)
		}
		items = append(items, withoutTypeMeta(obj))
	}
}

// decode.go turns the JSON a server sends into objects: the items of a list
// and the events of a watch stream, each decoded as it arrives. The decoder
// reads the body in large blocks, finds where each item or event ends
// (valueScan, lossless_scan.go), then decodes it from those bytes in one
// pass: a typed object by decodeStruct (lossless_decode.go), a generic one by
// readAny (decode_generic.go), the event's envelope around it here. So each
// byte is read twice, once to frame it and once to decode it; encoding/json
// reads it three to five times on the same path (json.Decoder frames a
// value with its scanner, re-scans it for each UnmarshalJSON, and checks it
// again in json.Unmarshal). BenchmarkDecode measures what that saves.
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
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// readSize is how much the decoder asks the body for at a time.
const readSize = 32 << 10

// decoder reads the JSON values of one response body (a list, or the
// events of a watch) and decodes the objects in them.
type decoder struct {
	r         io.Reader
	buf       []byte // read and not yet used: buf[start:]
	start     int
	err       error // what the body's Read returned last, once not nil
	newObject func() Object
	shared    *sharedValues // nil unless the objects are *Unstructured
}

// newDecoder returns a decoder over r for objects made by newObject.
// Generic objects keep numbers as json.Number, exactly as
// Unstructured.UnmarshalJSON does, and share their equal values (see
// sharedValues); typed objects decode as json.Unmarshal would decode them.
func newDecoder(r io.Reader, newObject func() Object) *decoder {
	d := &decoder{r: r, newObject: newObject}
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
		d.buf = append(d.buf, make([]byte, max(readSize, cap(d.buf)))...)[:len(d.buf)]
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

// decodeEvent reads the next watch event of a stream: one JSON object
// {"type": ..., "object": ...}. An error that says the stream ended (see
// isProbableEOF) comes back as it is; any other error means the event was
// broken.
//
// Servers send "type" first. The object is then decoded where it stands in
// the event's text, into its Go value (a *Status for ERROR); should it
// come first, it is decoded once the type is known. Field names match as
// encoding/json matches them (case aside); a field given twice is refused,
// as nothing would say which one the server meant.
func decodeEvent(d *decoder, newObject func() Object) (WatchEvent, error) {
	data, err := d.next()
	if err != nil {
		return WatchEvent{}, err
	}
	if data[0] != '{' {
		return WatchEvent{}, fmt.Errorf("a watch event must be a JSON object, not %.20s", data)
	}
	var (
		ev                WatchEvent
		haveType, haveObj bool
		objStart          = -1 // where the object starts, when it came before the type
	)
	i := spaceEnd(data, 1)
	for first := true; i < len(data) && data[i] != '}'; first = false {
		if !first {
			if data[i] != ',' {
				return WatchEvent{}, errBadJSON
			}
			i = spaceEnd(data, i+1)
		}
		nameEnd, ok := endOfString(data, i)
		if data[i] != '"' || !ok {
			return WatchEvent{}, errBadJSON
		}
		name, _, err := memberName(data[i:nameEnd])
		if err != nil {
			return WatchEvent{}, err
		}
		if i = spaceEnd(data, nameEnd); i >= len(data) || data[i] != ':' {
			return WatchEvent{}, errBadJSON
		}
		start, end := spaceEnd(data, i+1), 0
		switch key := string(name); {
		case strings.EqualFold(key, "type") && !haveType:
			haveType = true
			if end, ok = endOfValue(data, start); ok {
				err = json.Unmarshal(data[start:end], &ev.Type)
			}
		case strings.EqualFold(key, "object") && !haveObj:
			haveObj = true
			if target := eventTarget(ev.Type, newObject); haveType && target != nil {
				ev.Object = target
				end, err = d.decodeAt(data, start, target)
				ok = true
			} else {
				objStart = start
				end, ok = endOfValue(data, start)
			}
		case strings.EqualFold(key, "type"), strings.EqualFold(key, "object"):
			return WatchEvent{}, fmt.Errorf("a watch event has two %q fields", key)
		default:
			if end, ok = endOfValue(data, start); ok && !json.Valid(data[start:end]) {
				ok = false
			}
		}
		if err != nil {
			return WatchEvent{}, err
		}
		if !ok {
			return WatchEvent{}, errBadJSON
		}
		i = spaceEnd(data, end)
	}
	if i >= len(data) {
		return WatchEvent{}, errBadJSON
	}
	if ev.Object == nil { // the object came first, or none came
		target := eventTarget(ev.Type, newObject)
		if target == nil {
			return WatchEvent{}, errors.New("unknown watch event type " + string(ev.Type))
		}
		if objStart < 0 {
			if err := json.Unmarshal(nil, target); err != nil { // as encoding/json: no object is an error
				return WatchEvent{}, err
			}
		} else if _, err := d.decodeAt(data, objStart, target); err != nil {
			return WatchEvent{}, err
		}
		ev.Object = target
	}
	if obj, ok := ev.Object.(Object); ok {
		ev.Object = withoutTypeMeta(obj)
		if ev.Type != WatchBookmark && obj.GetName() == "" {
			// Without a name the object has no key: caching it would put
			// garbage under "" (an "object": null decodes to an empty Pod).
			return WatchEvent{}, errors.New("the object of a " + string(ev.Type) + " event has no metadata.name")
		}
	}
	return ev, nil
}

// eventTarget returns a new value for the object of an event of type t: a
// *Status for ERROR, the watched kind for the others, nil for a type that
// does not exist.
func eventTarget(t WatchEventType, newObject func() Object) any {
	switch t {
	case WatchAdded, WatchModified, WatchDeleted, WatchBookmark:
		return newObject()
	case WatchError:
		return &Status{}
	}
	return nil
}

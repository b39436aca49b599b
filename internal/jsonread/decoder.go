// decoder.go holds the Decoder: it reads a response body in large blocks,
// finds where each item or event ends (valueScan, scan.go), then decodes it
// from those bytes in one pass: a typed struct by decodeStruct (structs.go),
// a generic object by readObject (generic.go), anything else by
// encoding/json. A list's own members are read here (DecodeList), a watch
// event's envelope in event.go (DecodeEvent). So each byte is read twice,
// once to frame it and once to decode it. encoding/json reads it three to
// five times on the same path (json.Decoder frames a value with its
// scanner, scans it again to hand it to each UnmarshalJSON, and
// json.Unmarshal checks it once more).
//
// client-go counterpart: the JSON serializer of
// k8s.io/apimachinery/pkg/runtime/serializer/json (Serializer.Decode) and
// the framing of k8s.io/apimachinery/pkg/runtime/serializer/streaming.
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
)

// readSize is how much the decoder asks the body for at a time.
const readSize = 32 << 10

// Layout tells a Decoder where the caller's objects keep what no Go field
// of theirs holds. Each function must answer by the type of obj alone (the
// answer is cached per type) and must not keep obj. A nil function answers
// nil for every object.
type Layout struct {
	// Content returns the map a generic object keeps its whole JSON object
	// in (the root's Unstructured.Object), or nil for any other object.
	Content func(obj any) *map[string]any
	// Unknown returns, for a pointer to a struct, the field where the
	// struct keeps the members its fields do not model, as one raw JSON
	// object; nil when it keeps none (encoding/json then decodes it).
	Unknown func(structPtr any) *[]byte
}

// A Decoder reads the JSON values of one response body (a list, or the
// events of a watch) and decodes the objects in them. Not safe for
// concurrent use.
type Decoder struct {
	r      io.Reader
	layout Layout
	buf    []byte // read and not yet used: buf[start:]
	start  int
	err    error         // what the body's Read returned last, once not nil
	shared *sharedValues // made for the first object
	// shareTyped: a typed struct's strings are shared too (decodeItem)
	shareTyped bool
}

// NewDecoder returns a decoder over r. Generic objects keep numbers as
// json.Number, as json.Decoder with UseNumber does; typed objects decode as
// json.Unmarshal would decode them. Generic objects share their equal
// values, and so do typed ones in a list (see sharedValues, decodeItem).
func NewDecoder(r io.Reader, layout Layout) *Decoder {
	return &Decoder{r: r, layout: layout}
}

// Decode reads the next JSON value of the body into target, as
// json.Decoder.Decode does. At the end of the body it returns io.EOF.
func (d *Decoder) Decode(target any) error {
	value, err := d.next()
	if err != nil {
		return err
	}
	end, err := d.decodeAt(value, 0, target)
	if err == nil {
		err = trailing(value, end)
	}
	return err
}

// next returns the text of the next JSON value in the body, valid until the
// next call. At the end of the body it returns io.EOF before a value and
// io.ErrUnexpectedEOF inside one; any other error of the body comes back as
// it is (the root's transport.go tells a normal end from a failure by it).
func (d *Decoder) next() ([]byte, error) {
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
func (d *Decoder) read() {
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
func (d *Decoder) peek() (byte, error) {
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
func (d *Decoder) expect(c byte, what string) error {
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
func (d *Decoder) more(closing byte, first bool) (bool, error) {
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

// decodeItem decodes a list's item as decodeAt does, a typed struct's
// strings shared too. A list brings thousands of objects at once, and most
// of a cache: sharing makes a typed Pod hold 8% less and take half the
// allocations. A watch event brings one, whose new values (a name, a uid, a
// version) cost a look-up and a place in the table each; there sharing a
// typed struct's strings cost more than it saved (20.8 → 22.7 µs of CPU
// per event in docs/measured-numbers' side-by-side harness, 10k pods), so
// events share only generic values.
func (d *Decoder) decodeItem(data []byte, target any) (int, error) {
	d.shareTyped = true
	defer func() { d.shareTyped = false }()
	return d.decodeAt(data, 0, target)
}

// decodeAt decodes the JSON value that starts at data[i] into target and
// returns the offset after it: a generic object by readObject, a typed
// struct that keeps its unknown members by decodeStruct, anything else by
// encoding/json.
func (d *Decoder) decodeAt(data []byte, i int, target any) (int, error) {
	if d.shared == nil {
		d.shared = newSharedValues()
	}
	if d.layout.Content != nil {
		if m := d.layout.Content(target); m != nil {
			obj, end, err := d.readObject(data, i, 0)
			*m = obj
			return end, err
		}
	}
	if d.layout.Unknown != nil && d.layout.Unknown(target) != nil {
		var shared *sharedValues // nil shares nothing
		if d.shareTyped {
			shared = d.shared
		}
		return decodeStruct(data, i, reflect.ValueOf(target).Elem(), d.layout.Unknown, shared)
	}
	end, ok := endOfValue(data, i)
	if !ok {
		return 0, errBadJSON
	}
	return end, json.Unmarshal(data[i:end], target)
}

// DecodeList reads a list, {"kind": ..., "metadata": ..., "items": [...]},
// as it arrives, each item straight into its Go value: the body is never
// held whole, and no item is decoded twice (first as raw JSON, then as an
// object). The members may come in any order. member is called with the
// name of each member before it is read: for "items" its answer is ignored
// (a caller may start its list again), and newItem then gives the value to
// decode each item into; for any other member it gives where json.Unmarshal
// should decode the value, or nil to only check that it is JSON.
// "items": null is an empty list.
func (d *Decoder) DecodeList(member func(name string) any, newItem func() any) error {
	if err := d.expect('{', "a list must be a JSON object"); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := d.more('}', first)
		if !more || err != nil {
			return err
		}
		name, err := d.memberName()
		if err != nil {
			return err
		}
		if name == "items" {
			member(name)
			err = d.decodeItems(newItem)
		} else if value, err2 := d.next(); err2 != nil {
			err = err2
		} else if target := member(name); target != nil {
			err = json.Unmarshal(value, target)
		} else if !json.Valid(value) {
			err = fmt.Errorf("%s: %w", name, errBadJSON)
		}
		if err != nil {
			return err
		}
	}
}

// memberName reads the name of the next member of an object and the colon
// after it.
func (d *Decoder) memberName() (string, error) {
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
func (d *Decoder) decodeItems(newItem func() any) error {
	if c, err := d.peek(); err != nil || c == 'n' { // "items": null is an empty list
		value, err := d.next()
		if err == nil && string(value) != "null" {
			err = fmt.Errorf("items must be an array, not %s", value)
		}
		return err
	}
	if err := d.expect('[', "items must be an array"); err != nil {
		return err
	}
	for n, first := 0, true; ; n, first = n+1, false {
		more, err := d.more(']', first)
		if !more || err != nil {
			return err
		}
		value, err := d.next()
		if err != nil {
			return err
		}
		end, err := d.decodeItem(value, newItem())
		if err == nil {
			err = trailing(value, end)
		}
		if err != nil {
			return fmt.Errorf("item %d: %w", n, err)
		}
	}
}

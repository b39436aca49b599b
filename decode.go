// decode.go turns the JSON a server sends into objects: the items of a list
// and the events of a watch stream, each decoded as it arrives, straight into
// its Go value. encoding/json reads a value's bytes twice (the Decoder scans
// ahead to find where the value ends, then fills the Go value from them);
// these paths read them exactly that often, with no copy in between.
// BenchmarkDecode measures what that saves against the obvious code.
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
	"strings"
)

// decoder is a json.Decoder for the objects of one resource. For generic
// objects it keeps numbers as json.Number, exactly as
// Unstructured.UnmarshalJSON does, and makes the objects share their equal
// values (see sharedValues); typed objects decode as json.Unmarshal would
// decode them.
type decoder struct {
	*json.Decoder
	shared *sharedValues // nil unless the objects are *Unstructured
}

// newDecoder returns a decoder over r for objects made by newObject.
func newDecoder(r io.Reader, newObject func() Object) *decoder {
	d := &decoder{Decoder: json.NewDecoder(r)}
	if _, ok := newObject().(*Unstructured); ok {
		d.UseNumber()
		d.shared = newSharedValues()
	}
	return d
}

// decodeInto decodes the next value into v, a pointer.
//
// A generic object is filled through its map: d.Decode(u) would make the
// decoder scan the value once more to skip it, copy its bytes and hand them
// to u.UnmarshalJSON, whose own Decoder scans them twice again. Decoding
// into &u.Object gives the same map (d uses numbers as UnmarshalJSON does)
// for half the reading and no copy.
func (d *decoder) decodeInto(v any) error {
	u, ok := v.(*Unstructured)
	if !ok {
		return d.Decode(v)
	}
	if err := d.Decode(&u.Object); err != nil {
		return err
	}
	if d.shared != nil {
		d.shared.shareIn(u.Object)
	}
	return nil
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

// decodeList decodes a list as it arrives, each item straight into its Go
// type: the body is never held whole, and no item is decoded twice (first
// as raw JSON, then as an object). This is most of the cost of an initial
// sync (see BenchmarkInformer). The fields may come in any order.
func decodeList(dec *decoder, newObject func() Object) (*ObjectList, error) {
	list := &ObjectList{}
	if err := expectDelim(dec.Decoder, '{', "a list"); err != nil {
		return nil, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "kind":
			err = dec.Decode(&list.Kind)
		case "apiVersion":
			err = dec.Decode(&list.APIVersion)
		case "metadata":
			err = dec.Decode(&list.ListMeta)
		case "items":
			list.Items, err = decodeItems(dec, newObject)
		default:
			err = skipValue(dec.Decoder)
		}
		if err != nil {
			return nil, err
		}
	}
	return list, nil
}

// decodeItems decodes the array of a list's items, one item at a time.
func decodeItems(dec *decoder, newObject func() Object) ([]Object, error) {
	tok, err := dec.Token()
	if err != nil || tok == nil { // "items": null is an empty list
		return nil, err
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("items must be an array, not %v", tok)
	}
	var items []Object
	for dec.More() {
		obj := newObject()
		if err := dec.decodeInto(obj); err != nil {
			return nil, fmt.Errorf("item %d: %w", len(items), err)
		}
		items = append(items, withoutTypeMeta(obj))
	}
	_, err = dec.Token() // the closing ']'
	return items, err
}

// expectDelim reads the next token of dec and fails unless it is want.
func expectDelim(dec *json.Decoder, want json.Delim, what string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("%s must be a JSON object, not %v", what, tok)
	}
	return nil
}

// skipValue reads past the next value of dec.
func skipValue(dec *json.Decoder) error {
	var ignored json.RawMessage
	return dec.Decode(&ignored)
}

// decodeEvent reads the next watch event of a stream: one JSON object
// {"type": ..., "object": ...}. An error that says the stream ended (see
// isProbableEOF) comes back as it is; any other error means the event was
// broken.
//
// Servers send "type" first. The object then goes straight into its Go
// value (a *Status for ERROR), read as it arrives like a list item, instead
// of being kept as raw JSON and decoded again; that halves the reading of
// every event. Should the object come first, it is kept raw and decoded
// once the type is known. Field names match as encoding/json matches them
// (case aside); a field given twice is refused, as nothing would say which
// one the server meant.
func decodeEvent(dec *decoder, newObject func() Object) (WatchEvent, error) {
	if err := expectDelim(dec.Decoder, '{', "a watch event"); err != nil {
		return WatchEvent{}, err
	}
	var (
		ev       WatchEvent
		haveType bool
		haveObj  bool            // the "object" field was read, into ev.Object or raw
		raw      json.RawMessage // the object, when it came before the type
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return WatchEvent{}, err
		}
		key, _ := tok.(string) // a key of an object is always a string
		switch {
		case strings.EqualFold(key, "type") && !haveType:
			haveType = true
			err = dec.Decode(&ev.Type)
		case strings.EqualFold(key, "object") && !haveObj:
			haveObj = true
			if target := eventTarget(ev.Type, newObject); haveType && target != nil {
				ev.Object, err = target, dec.decodeInto(target)
			} else {
				err = dec.Decode(&raw)
			}
		case strings.EqualFold(key, "type"), strings.EqualFold(key, "object"):
			return WatchEvent{}, fmt.Errorf("a watch event has two %q fields", key)
		default:
			err = skipValue(dec.Decoder)
		}
		if err != nil {
			return WatchEvent{}, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return WatchEvent{}, err
	}
	if ev.Object == nil { // the object came first, or none came
		target := eventTarget(ev.Type, newObject)
		if target == nil {
			return WatchEvent{}, errors.New("unknown watch event type " + string(ev.Type))
		}
		if err := json.Unmarshal(raw, target); err != nil {
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

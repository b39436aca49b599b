// event.go reads the events of a watch stream, one JSON object
// {"type": ..., "object": ...} at a time, as they arrive, without ever
// reading the whole body. The object is decoded where it stands in the
// event's text, straight into its Go value.
//
// client-go counterpart: k8s.io/client-go/rest/watch (Decoder.Decode, which
// decodes the envelope first and the object from its raw bytes after) over
// the framing of k8s.io/apimachinery/pkg/runtime/serializer/streaming.
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// DecodeEvent reads the next watch event of the body and returns its type
// and its object, decoded into newObject(type): the value to decode the
// object of an event of that type into, or nil for a type that does not
// exist (an error). An error that says the body ended (io.EOF, or the
// body's own error) comes back as it is; any other error means the event
// was broken.
//
// Servers send "type" first. The object is then decoded where it stands in
// the event's text; should it come first, it is decoded once the type is
// known. Member names match as encoding/json matches them (case aside); a
// member given twice is refused, as nothing would say which one the server
// meant. An event without an object decodes "null" into it, as
// json.Unmarshal would.
func (d *Decoder) DecodeEvent(newObject func(eventType string) any) (eventType string, object any, err error) {
	data, err := d.next()
	if err != nil {
		return "", nil, err
	}
	if data[0] != '{' {
		return "", nil, fmt.Errorf("a watch event must be a JSON object, not %.20s", data)
	}
	var (
		haveType, haveObj bool
		objStart          = -1 // where the object starts, when it came before the type
	)
	i := spaceEnd(data, 1)
	for i < len(data) && data[i] != '}' {
		nameEnd, ok := endOfString(data, i)
		if data[i] != '"' || !ok {
			return "", nil, errBadJSON
		}
		name, _, err := memberName(data[i:nameEnd])
		if err != nil {
			return "", nil, err
		}
		if i = spaceEnd(data, nameEnd); i >= len(data) || data[i] != ':' {
			return "", nil, errBadJSON
		}
		start, end := spaceEnd(data, i+1), 0
		switch key := string(name); {
		case strings.EqualFold(key, "type") && !haveType:
			haveType = true
			if end, ok = endOfValue(data, start); ok {
				err = json.Unmarshal(data[start:end], &eventType)
			}
		case strings.EqualFold(key, "object") && !haveObj:
			haveObj = true
			if target := newObject(eventType); haveType && target != nil {
				object = target
				end, err = d.decodeAt(data, start, target)
				ok = true
			} else {
				objStart = start
				end, ok = endOfValue(data, start)
			}
		case strings.EqualFold(key, "type"), strings.EqualFold(key, "object"):
			return "", nil, fmt.Errorf("a watch event has two %q fields", key)
		default:
			if end, ok = endOfValue(data, start); ok && !json.Valid(data[start:end]) {
				ok = false
			}
		}
		if err != nil {
			return "", nil, err
		}
		if !ok {
			return "", nil, errBadJSON
		}
		if i, err = afterElement(data, end, '}'); err != nil {
			return "", nil, err
		}
	}
	if i != len(data)-1 { // the event's closing brace ends its text
		return "", nil, errBadJSON
	}
	if object == nil { // the object came first, or none came
		if object = newObject(eventType); object == nil {
			return "", nil, errors.New("unknown watch event type " + eventType)
		}
		if objStart < 0 {
			if err := json.Unmarshal(nil, object); err != nil { // as encoding/json: no object is an error
				return "", nil, err
			}
		} else if _, err := d.decodeAt(data, objStart, object); err != nil {
			return "", nil, err
		}
	}
	return eventType, object, nil
}

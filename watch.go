// watch.go holds the watch side of the protocol: WatchEvent, the Watcher interface, and
// the decoder that turns a chunked HTTP body into events one at a time, as they arrive.
// client-go counterpart: apimachinery pkg/watch (Interface, Event, StreamWatcher), JSON framing.
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming), 000 §4.1 (event type → cache operation).

package informer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
)

// WatchEventType is the type of a watch event, as the server spells it.
type WatchEventType string

// The watch event types (client-go's watch.Added, watch.Modified, ...).
const (
	WatchAdded    WatchEventType = "ADDED"
	WatchModified WatchEventType = "MODIFIED"
	WatchDeleted  WatchEventType = "DELETED"
	WatchBookmark WatchEventType = "BOOKMARK" // only a resource version: "you are up to here"
	WatchError    WatchEventType = "ERROR"    // a *Status; the watch is over
)

// InitialEventsAnnotationKey marks the bookmark that ends a streaming list's initial events.
const InitialEventsAnnotationKey = "k8s.io/initial-events-end"

// WatchEvent is one event of a watch.
type WatchEvent struct {
	Type   WatchEventType
	Object any // the object after the change (before it, for DELETED); a *Status for ERROR
}

// Watcher is a running watch, client-go's watch.Interface: events arrive on ResultChan,
// which is closed when the server ends the stream or Stop is called.
type Watcher interface {
	Stop() // ends the watch and releases its connection; safe to call twice, from any goroutine
	ResultChan() <-chan WatchEvent
}

// streamWatcher decodes a watch response body into events.
type streamWatcher struct {
	result chan WatchEvent
	done   chan struct{} // closed by Stop
	stop   func()        // closes done, ends the request and closes the body; once
}

// newStreamWatcher starts decoding body; cancel ends its HTTP request.
func newStreamWatcher(body io.ReadCloser, newObject func() Object, cancel context.CancelFunc) *streamWatcher {
	done := make(chan struct{})
	sw := &streamWatcher{result: make(chan WatchEvent), done: done,
		stop: sync.OnceFunc(func() { close(done); cancel(); body.Close() })}
	go sw.receive(newBodyDecoder(body), newObject)
	return sw
}

// Stop ends the watch; the receive goroutine then closes ResultChan.
func (sw *streamWatcher) Stop() { sw.stop() }

// ResultChan returns the events.
func (sw *streamWatcher) ResultChan() <-chan WatchEvent { return sw.result }

// receive sends one event at a time until the stream ends or Stop is called. A read error
// that endsWatchNormally just closes the channel; as in client-go any other, and a broken
// event, becomes an ERROR event. After Stop nothing more is sent.
func (sw *streamWatcher) receive(dec bodyDecoder, newObject func() Object) {
	defer close(sw.result)
	defer sw.Stop()
	for {
		ev, err := decodeEvent(dec, newObject)
		if err != nil {
			if !sw.stopped() && !endsWatchNormally(err) {
				if !errors.Is(err, context.Canceled) { // the caller is stopping: nothing went wrong
					slog.Error("watch: bad event", "err", err)
				}
				sw.send(WatchEvent{Type: WatchError, Object: &Status{Status: "Failure", Code: http.StatusInternalServerError,
					Reason: StatusReasonInternalError, Message: "unable to decode an event from the watch stream: " + err.Error()}})
			}
			return
		}
		if !sw.send(ev) || ev.Type == WatchError {
			return
		}
	}
}

func (sw *streamWatcher) stopped() bool {
	select {
	case <-sw.done:
		return true
	default:
		return false
	}
}

// send delivers ev unless the watch is stopped first.
func (sw *streamWatcher) send(ev WatchEvent) bool {
	select {
	case sw.result <- ev:
		return true
	case <-sw.done:
		return false
	}
}

// bodyDecoder reads a list body, or a watch body one event at a time. DecodeList fills
// list, each item into an object newObject makes; DecodeEvent decodes the next {"type",
// "object"}, the object into the value newObject returns for its type (nil: an unknown
// type, an error).
type bodyDecoder interface {
	DecodeList(list *ObjectList, newObject func() Object) error
	DecodeEvent(newObject func(eventType string) any) (eventType string, object any, err error)
}

// newBodyDecoder returns the decoder of a list or watch body: encoding/json here;
// layers_wire.go sets lossless.go's, which decodes the same objects faster.
var newBodyDecoder = func(body io.Reader) bodyDecoder { return jsonDecoder{json.NewDecoder(body)} }

// jsonDecoder is bodyDecoder on encoding/json.
type jsonDecoder struct{ dec *json.Decoder }

func (d jsonDecoder) DecodeList(list *ObjectList, newObject func() Object) error {
	var members map[string]json.RawMessage
	if err := d.dec.Decode(&members); err != nil {
		return err
	}
	var items []json.RawMessage
	for name, target := range map[string]any{"kind": &list.Kind, "apiVersion": &list.APIVersion, "metadata": &list.ListMeta, "items": &items} {
		if raw, ok := members[name]; ok {
			if err := json.Unmarshal(raw, target); err != nil {
				return err
			}
		}
	}
	for _, raw := range items {
		obj := newObject()
		list.Items = append(list.Items, obj)
		if err := json.Unmarshal(raw, obj); err != nil {
			return err
		}
	}
	return nil
}

func (d jsonDecoder) DecodeEvent(newObject func(eventType string) any) (string, any, error) {
	var ev struct {
		Type   string
		Object json.RawMessage
	}
	if err := d.dec.Decode(&ev); err != nil {
		return "", nil, err
	}
	obj := newObject(ev.Type)
	if obj == nil {
		return "", nil, fmt.Errorf("a watch event of unknown type %q", ev.Type)
	}
	return ev.Type, obj, json.Unmarshal(ev.Object, obj)
}

// decodeEvent reads the next event of a stream, its object decoded into its Go value (a
// *Status for ERROR). A read error comes back as it is.
func decodeEvent(dec bodyDecoder, newObject func() Object) (WatchEvent, error) {
	typ, obj, err := dec.DecodeEvent(func(t string) any {
		switch WatchEventType(t) {
		case WatchAdded, WatchModified, WatchDeleted, WatchBookmark:
			return newObject()
		case WatchError:
			return &Status{}
		}
		return nil // no such type
	})
	if err != nil {
		return WatchEvent{}, err
	}
	ev := WatchEvent{Type: WatchEventType(typ), Object: obj}
	if obj, ok := obj.(Object); ok {
		ev.Object = withoutTypeMeta(obj)
		if ev.Type != WatchBookmark && obj.GetName() == "" {
			// Without a name it has no key ("object": null decodes to an empty Pod).
			return WatchEvent{}, errors.New("the object of a " + string(ev.Type) + " event has no metadata.name")
		}
	}
	return ev, nil
}

// endsWatchNormally reports whether err, met reading a watch body, is the normal end of
// the watch (the Reflector re-watches), not a broken stream (an ERROR event: it relists).
// Here the plain end of a body; layers_wire.go sets transport.go's rules for resets,
// GOAWAY and timeouts.
var endsWatchNormally = func(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

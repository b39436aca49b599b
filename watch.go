// watch.go holds the watch side of the protocol: WatchEvent, the Watcher
// interface, and the stream watcher that turns a chunked HTTP body into
// events one at a time, as they arrive; and the decoding of list and watch
// bodies, which restclient.go calls.
//
// client-go counterpart: apimachinery pkg/watch (Interface, Event,
// EventType, StreamWatcher) and the JSON framing of
// runtime/serializer/streaming; rest's Request.Watch.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP streaming), 000 §4.1 (event
// type → cache operation).

package informer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// WatchEventType is the type of a watch event, as the server spells it.
type WatchEventType string

// The watch event types (client-go: watch.Added, watch.Modified, ...).
const (
	// WatchAdded: an object was created; the event carries it.
	WatchAdded WatchEventType = "ADDED"
	// WatchModified: an object changed; the event carries its new state.
	WatchModified WatchEventType = "MODIFIED"
	// WatchDeleted: an object was deleted; the event carries its last state.
	WatchDeleted WatchEventType = "DELETED"
	// WatchBookmark: no change; the event's object carries only a resource
	// version, saying "you are up to here". Sent to clients that ask with
	// allowWatchBookmarks, so a quiet watch's version stays recent.
	WatchBookmark WatchEventType = "BOOKMARK"
	// WatchError: the watch failed; the event carries a *Status (a 410
	// Expired, say), and nothing follows it.
	WatchError WatchEventType = "ERROR"
)

// Reading 2: the streaming list (client-go 1.35+).

// InitialEventsAnnotationKey is the annotation, set to "true", of the
// bookmark that ends a streaming list's initial events
// (reflector_watchlist.go).
const InitialEventsAnnotationKey = "k8s.io/initial-events-end"

// End of reading 2.

// WatchEvent is one event of a watch: its Type, and its Object, the object
// after the change (its last state, for DELETED), or a *Status for ERROR.
type WatchEvent struct {
	Type   WatchEventType
	Object any
}

// Watcher is a running watch, client-go's watch.Interface: events arrive on
// ResultChan, which is closed when the server ends the stream or Stop is
// called.
type Watcher interface {
	// Stop ends the watch and releases its connection. It is safe to call
	// twice, and from any goroutine.
	Stop()
	ResultChan() <-chan WatchEvent
}

// emptyWatch is a watch that has already ended: its channel is closed.
type emptyWatch chan WatchEvent

// newEmptyWatch returns an emptyWatch (client-go's watch.NewEmptyWatch).
func newEmptyWatch() emptyWatch {
	c := make(emptyWatch)
	close(c)
	return c
}

// Stop implements Watcher: there is nothing to stop.
func (emptyWatch) Stop() {}

// ResultChan implements Watcher: a closed channel.
func (w emptyWatch) ResultChan() <-chan WatchEvent { return w }

// streamWatcher is a Watcher reading a watch response's body: a goroutine
// (receive) decodes one event at a time and sends it on result.
type streamWatcher struct {
	// result carries the events; receive closes it when it returns.
	result chan WatchEvent
	// done is closed by Stop; after it, receive sends nothing more.
	done chan struct{}
	// stop closes done, cancels the HTTP request and closes the body, once.
	stop func()
}

// newStreamWatcher starts decoding a watch answer's body into objects
// newObject makes. cancel ends the watch's HTTP request.
func newStreamWatcher(resp *http.Response, newObject func() Object, cancel context.CancelFunc) *streamWatcher {
	body := resp.Body
	done := make(chan struct{})
	sw := &streamWatcher{
		result: make(chan WatchEvent),
		done:   done,
		stop: sync.OnceFunc(func() {
			close(done)
			cancel()
			body.Close()
		}),
	}
	go sw.receive(newBodyDecoder(resp), newObject)
	return sw
}

// Stop ends the watch; the receive goroutine then closes ResultChan.
func (sw *streamWatcher) Stop() {
	sw.stop()
}

func (sw *streamWatcher) ResultChan() <-chan WatchEvent {
	return sw.result
}

// receive sends one event at a time until the stream ends or Stop is called.
// A read error that endsWatchNormally just closes the channel (the Reflector
// re-watches from the last version it saw). Any other read error, and an
// event that cannot be decoded, becomes an ERROR event, so the Reflector
// relists. After Stop nothing more is sent.
func (sw *streamWatcher) receive(dec bodyDecoder, newObject func() Object) {
	defer close(sw.result)
	defer sw.Stop()
	for {
		ev, err := decodeEvent(dec, newObject)
		if err != nil {
			if !sw.stopped() && !endsWatchNormally(err) {
				sw.sendDecodeError(err)
			}
			return
		}
		if !sw.send(ev) || ev.Type == WatchError {
			return
		}
	}
}

// sendDecodeError sends the ERROR event of a stream that broke: a 500, as
// client-go's StreamWatcher reports it.
func (sw *streamWatcher) sendDecodeError(err error) {
	if !errors.Is(err, context.Canceled) { // the caller is stopping: nothing went wrong
		slog.Error("watch: bad event", "err", err)
	}
	sw.send(WatchEvent{Type: WatchError, Object: &Status{
		Status:  "Failure",
		Code:    http.StatusInternalServerError,
		Reason:  StatusReasonInternalError,
		Message: "unable to decode an event from the watch stream: " + err.Error(),
	}})
}

func (sw *streamWatcher) stopped() bool {
	select {
	case <-sw.done:
		return true
	default:
		return false
	}
}

// send delivers ev, unless the watch is stopped first; it reports which.
func (sw *streamWatcher) send(ev WatchEvent) bool {
	select {
	case sw.result <- ev:
		return true
	case <-sw.done:
		return false
	}
}

// endsWatchNormally reports whether err, met reading a watch body, is the
// normal end of the watch (the Reflector re-watches from the last version
// it saw, no relist) rather than a broken stream (an ERROR event with code
// 500: the Reflector ends the cycle and relists). The rules are client-go
// v0.37.2's: apimachinery's StreamWatcher.receive ends quietly on io.EOF,
// io.ErrUnexpectedEOF and whatever utilnet.IsProbableEOF or
// utilnet.IsTimeout accepts (parity case D4).
//
// On the wire: a server that ends the response (EOF), drops the connection
// mid-event (unexpected EOF) or resets it, an HTTP/2 server that sent
// GOAWAY before closing the connection (a graceful shutdown, as in a
// rolling restart), and a read deadline all re-watch. An HTTP/2 connection
// closed because the server stopped answering pings ("http2: client
// connection lost"), a cancelled context and a body read after Close are
// errors. The difference is visible to every handler: a relist turns a
// delete and re-create into one update, and replays every object.
func endsWatchNormally(err error) bool {
	return isProbableEOF(err) || isTimeout(err)
}

// probableEOFMessages are the texts by which utilnet.IsProbableEOF
// recognises a connection that ended, for errors net/http does not export.
// The second and third are matched as substrings, the last one also
// ignoring case; the first must be the whole message.
var probableEOFMessages = struct {
	brokenRequest, goAway, reset, closedConn string
}{
	brokenRequest: "http: can't write HTTP request on broken connection",
	goAway:        "http2: server sent GOAWAY and closed the connection",
	reset:         "connection reset by peer",
	closedConn:    "use of closed network connection",
}

// isProbableEOF follows utilnet.IsProbableEOF: it looks through one
// *url.Error (what net/http's client wraps errors in), then accepts io.EOF and
// io.ErrUnexpectedEOF themselves (not errors that wrap them) and the
// messages above.
func isProbableEOF(err error) bool {
	if err == nil {
		return false
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return true
	}
	m := probableEOFMessages
	msg := err.Error()
	return msg == m.brokenRequest ||
		strings.Contains(msg, m.goAway) ||
		strings.Contains(msg, m.reset) ||
		strings.Contains(strings.ToLower(msg), m.closedConn)
}

// isTimeout follows utilnet.IsTimeout: any error in the chain that is a
// net.Error reporting Timeout(). That includes a read deadline
// (os.ErrDeadlineExceeded), http.Client's Timeout, and
// context.DeadlineExceeded.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// bodyDecoder reads a list body, or a watch body one event at a time.
type bodyDecoder interface {
	DecodeList(list *ObjectList, newObject func() Object) error
	// DecodeEvent decodes the next event, {"type": ..., "object": ...}, its
	// object into the value newObject returns for the event's type (nil: a
	// type it does not know, which is an error).
	DecodeEvent(newObject func(eventType string) any) (eventType string, object any, err error)
}

func newBodyDecoder(resp *http.Response) bodyDecoder {
	// Reading 3: protobuf (restclient_content.go); JSON decoded in one pass (lossless.go).
	if isProtobuf(resp.Header) {
		return newProtobufBodyDecoder(resp.Body)
	}
	if decodeInOnePass {
		return newFastBodyDecoder(resp.Body)
	}
	// End of reading 3.
	return jsonDecoder{json.NewDecoder(resp.Body)}
}

// jsonDecoder is a bodyDecoder on encoding/json.
type jsonDecoder struct {
	dec *json.Decoder
}

// DecodeList implements bodyDecoder: the list's members, then each item.
// Member names must match exactly, as in client-go's decoder (encoding/json
// alone would also take "Items" for "items": TestDecodeListMemberNamesAreExact).
func (d jsonDecoder) DecodeList(list *ObjectList, newObject func() Object) error {
	var members map[string]json.RawMessage
	if err := d.dec.Decode(&members); err != nil {
		return err
	}
	var items []json.RawMessage
	targets := map[string]any{
		"kind":       &list.Kind,
		"apiVersion": &list.APIVersion,
		"metadata":   &list.ListMeta,
		"items":      &items,
	}
	for name, target := range targets {
		raw, ok := members[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, target); err != nil {
			return err
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

// DecodeEvent implements bodyDecoder: the event's type first, then its
// object into the value newObject gives for that type.
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

// decodeEvent reads the next event of a stream, its object decoded into its
// Go value: newObject's for the object events, a *Status for ERROR. A read
// error comes back as it is, for receive to judge.
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
	if o, ok := obj.(Object); ok {
		ev.Object = withoutTypeMeta(o)
		// Without a name it has no key ("object": null decodes to an empty Pod).
		if ev.Type != WatchBookmark && o.GetName() == "" {
			return WatchEvent{}, fmt.Errorf(
				"the object of a %s event has no metadata.name", ev.Type)
		}
	}
	return ev, nil
}

// decodeList decodes a list body, each item into a new object. A list's
// items carry no kind: as in client-go, a typed object keeps none
// (TestDecodeListMemberNamesAreExact), and a generic one gets the list's
// kind, without "List".
func decodeList(dec bodyDecoder, newObject func() Object) (*ObjectList, error) {
	list := &ObjectList{}
	if err := dec.DecodeList(list, newObject); err != nil {
		return nil, err
	}
	// Reading 3: a generic object (unstructured.go) takes its kind from the list.
	kind := strings.TrimSuffix(list.Kind, "List")
	for _, obj := range list.Items {
		if u, ok := obj.(*Unstructured); ok {
			u.setTypeIfUnset(kind, list.APIVersion)
		}
	}
	// End of reading 3.
	for i, obj := range list.Items {
		list.Items[i] = withoutTypeMeta(obj)
	}
	return list, nil
}

// withoutTypeMeta drops a typed object's kind and apiVersion, so that
// objects from lists and from watches look the same: client-go's typed
// decoders leave them empty too.
func withoutTypeMeta(obj Object) Object {
	if p, ok := obj.(*Pod); ok {
		p.TypeMeta = TypeMeta{}
	}
	return obj
}

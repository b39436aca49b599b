// restclient_content.go is content negotiation as client-go does it
// (TestProtobufAnswersDecodeAsJSON): which
// wire format a request asks for, and how an answer is read. A typed object
// (a *Pod) is asked for in Kubernetes protobuf first, as client-go's typed
// clientset asks for every built-in kind; a generic object (an
// *Unstructured, custom resources and the dynamic client) in JSON. Every
// answer is read by its own Content-Type, so a server that answers JSON
// anyway is read as JSON; one that refuses with 406 Not Acceptable is asked
// again for JSON, and from then on. RESTConfig.ContentType "application/json"
// asks for JSON everywhere, the first reading's wire.
//
// The protobuf itself is decoded and encoded by internal/protobuf, into and
// from exactly the objects the JSON of the same answer gives (lossless.go).
//
// client-go counterpart: rest.Config.ContentType; gentype.PrefersProtobuf
// and rest.Request.UseProtobufAsDefaultIfPreferred (protobuf first, JSON as
// the fallback in the same Accept header); rest.Request.transformResponse
// and newStreamWatcher (an answer decoded by its Content-Type); the dynamic
// client's ConfigFor (JSON). client-go has no 406 fallback for protobuf;
// ours is modelled on its 415 fallback for CBOR
// (requestClientContentConfigProvider.UnsupportedMediaType).
//
// Tutorial: none; the tutorial's wire is JSON, which stays the first reading.
//
// Reading 3: the real wire (protobuf for the built-in kinds, as client-go asks).

package informer

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"

	"github.com/learn-k8s/informer/internal/protobuf"
)

// The media types of the two wire formats.
const (
	// ContentTypeJSON is JSON; set as RESTConfig.ContentType it is the only
	// format asked for.
	ContentTypeJSON = "application/json"
	// ContentTypeProtobuf is Kubernetes protobuf, for the built-in kinds.
	ContentTypeProtobuf = protobuf.MediaType
	// acceptProtobuf asks for protobuf, or JSON when the server has no
	// protobuf for the kind (rest.Request.UseProtobufAsDefault, v0.37.2).
	acceptProtobuf = ContentTypeProtobuf + "," + ContentTypeJSON
)

// acceptFor is the Accept header of a request whose answer decodes into the
// objects newObject makes: protobuf first for a typed kind, unless the
// config or a 406 said JSON; JSON for anything else.
func (c *RESTClient) acceptFor(newObject func() Object) string {
	if !c.prefersProtobuf(newObject) {
		return ContentTypeJSON
	}
	return acceptProtobuf
}

// prefersProtobuf reports whether objects of newObject's type are asked for,
// and written, in protobuf: the typed Pod, as client-go's typed clientset
// asks for every built-in kind; not an *Unstructured, which the server's
// JSON fills whole, as client-go's dynamic client reads only JSON.
func (c *RESTClient) prefersProtobuf(newObject func() Object) bool {
	if c.contentType == ContentTypeJSON || c.notAcceptable.Load() || newObject == nil {
		return false
	}
	_, typed := newObject().(*Pod)
	return typed
}

// isProtobuf reports whether an answer is in Kubernetes protobuf, by its
// Content-Type (a watch's adds ";stream=watch").
func isProtobuf(h http.Header) bool {
	mediaType, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mediaType == ContentTypeProtobuf
}

// notAcceptable reports whether resp refuses a protobuf-first request with
// 406 Not Acceptable: the caller then asks again for JSON, and remembers it.
func (c *RESTClient) notAcceptableFor(accept string, resp *http.Response) bool {
	if resp.StatusCode != http.StatusNotAcceptable || accept == ContentTypeJSON {
		return false
	}
	c.notAcceptable.Store(true)
	return true
}

// encodeBody encodes obj for a write: in protobuf for a typed kind (as
// client-go's typed clients send it), unless it holds a member protobuf
// cannot carry, which only JSON sends without loss; else in JSON.
func (c *RESTClient) encodeBody(obj Object, newObject func() Object) (data []byte, contentType string, err error) {
	if data, err = json.Marshal(obj); err != nil || !c.prefersProtobuf(newObject) {
		return data, ContentTypeJSON, err
	}
	pb, err := protobuf.Encode(data)
	if errors.Is(err, protobuf.ErrNotInSchema) {
		return data, ContentTypeJSON, nil
	}
	return pb, ContentTypeProtobuf, err
}

// decodeAnswer decodes one object of an answer, by its Content-Type, into
// obj (a typed or generic object, or a *Status).
func decodeAnswer(h http.Header, raw []byte, obj any) error {
	if isProtobuf(h) {
		return decodeProtobufObject(raw, obj)
	}
	return json.Unmarshal(raw, obj)
}

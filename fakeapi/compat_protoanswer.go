// compat_protoanswer.go (compatibility layer): answers in Kubernetes
// protobuf, to a client that asks for it first, as client-go's typed
// clients do (Accept: application/vnd.kubernetes.protobuf,application/json)
// and as the real server answers them: an object, a list, a Status (an
// error), each as the magic "k8s\x00" and a runtime.Unknown (Content-Type
// application/vnd.kubernetes.protobuf); a watch as frames, each a 4-byte
// big-endian length and a metav1.WatchEvent whose object holds the
// object's own protobuf body (Content-Type
// application/vnd.kubernetes.protobuf;stream=watch).
//
// Every kind this server serves is a built-in one, with a message in the
// .proto files, so every one is answered in protobuf when asked. A client
// that asks for JSON first, or for another form (as=Table...), gets JSON.
// TestProtobufAnswersLikeRealServer sends fakeapi the requests whose real
// answers are saved in testdata/protobuf/server and compares the bytes.
// Counterparts: the apiserver's content negotiation
// (k8s.io/apiserver/pkg/endpoints/handlers/negotiation) and its protobuf
// serializer and watch framing. Tutorial: none.

package fakeapi

import (
	"encoding/binary"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// protobufWatchMediaType is a protobuf watch stream's Content-Type.
const protobufWatchMediaType = protobufMediaType + ";stream=watch"

// inProtobuf reports whether w answers in protobuf: the client asked for
// it first (statusWriter, server.go).
func inProtobuf(w http.ResponseWriter) bool {
	sw, ok := w.(*statusWriter)
	return ok && sw.protobuf
}

// asksForProtobuf reports whether the first form in r's Accept header that
// this server makes is plain Kubernetes protobuf (without as=).
func asksForProtobuf(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		switch {
		case err != nil:
		case mt == protobufMediaType && params["as"] == "":
			return true
		case mt == "application/json" || mt == "application/*" || mt == "*/*":
			return false // JSON, in one form or another (negotiate chooses)
		}
	}
	return false
}

// writeProtobuf answers with a protobuf body.
func writeProtobuf(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", protobufMediaType)
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(code)
	_, _ = w.Write(body) // a client that went away is not our error
}

// writeProtobufObject answers with one object of ri.
func writeProtobufObject(w http.ResponseWriter, code int, ri *resourceInfo, body map[string]any) {
	msg, err := protoBodyMessage(body)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errInternal(err).status())
		return
	}
	writeProtobuf(w, code, protoEnvelope(ri.apiVersion(), ri.kind, msg))
}

// writeProtobufStatus answers with a Status.
func writeProtobufStatus(w http.ResponseWriter, code int, st statusBody) {
	body, err := protoStatus(st)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errInternal(err).status())
		return
	}
	writeProtobuf(w, code, body)
}

// writeProtobufList answers with list l of ri: its metadata, then each
// item's message (kept with the object, as its JSON is).
func writeProtobufList(w http.ResponseWriter, ri *resourceInfo, l *listBody) {
	listMsg := protoSchema()[protoMessageName(ri)+"List"]
	meta, err := encodeProtoMessage(protoSchema()[pbListMeta], l.Metadata, 0)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errInternal(err).status())
		return
	}
	raw := protoBytes(nil, protoNumberIn(listMsg, "metadata"), meta)
	items := protoNumberIn(listMsg, "items")
	for _, o := range l.objs {
		msg, err := o.protobuf()
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, errInternal(err).status())
			return
		}
		raw = protoBytes(raw, items, msg)
	}
	writeProtobuf(w, http.StatusOK, protoEnvelope(l.APIVersion, l.Kind, raw))
}

// protoNumberIn is the number of field name of message m.
func protoNumberIn(m *protoMessage, name string) int { return protoNumber(m.Name, name) }

// protoWatchFrame is one watch event in protobuf: the length, then a
// metav1.WatchEvent of its type and its object's protobuf body.
func protoWatchFrame(typ string, object []byte) []byte {
	raw := protoBytes(nil, protoNumber(pbRawExtension, "raw"), object)
	ev := protoBytes(nil, protoNumber(pbWatchEvent, "type"), []byte(typ))
	ev = protoBytes(ev, protoNumber(pbWatchEvent, "object"), raw)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...)
}

// errInternal is the 500 of an object this server cannot encode.
func errInternal(err error) *APIError {
	return &APIError{Code: http.StatusInternalServerError, Reason: "InternalError", Message: err.Error()}
}

// sendProtobuf writes one watch event in protobuf: a stored object (its
// message made once for every watcher), a bookmark's or a DELETED event's
// object (a map), or an ERROR's Status.
func (e *eventWriter) sendProtobuf(typ string, obj any) error {
	var body []byte
	var err error
	switch obj := obj.(type) {
	case *object:
		var msg []byte
		if msg, err = obj.protobuf(); err == nil {
			body = protoEnvelope(e.ri.apiVersion(), e.ri.kind, msg)
		}
	case map[string]any:
		var msg []byte
		if msg, err = protoBodyMessage(obj); err == nil {
			body = protoEnvelope(e.ri.apiVersion(), e.ri.kind, msg)
		}
	case statusBody:
		body, err = protoStatus(obj)
	default:
		err = fmt.Errorf("fakeapi: no protobuf form for a %T", obj)
	}
	if err == nil {
		_, err = e.rw.Write(protoWatchFrame(typ, body))
	}
	return err
}

// eventObject is what sendObject hands to send: the stored object itself
// for protobuf (its message is kept), else its body.
func (e *eventWriter) eventObject(o *object) any {
	if e.as == nil && inProtobuf(e.rw) {
		return o
	}
	return o.body
}

// watchMediaType is the Content-Type of a watch in the form asked for.
func watchMediaType(w http.ResponseWriter, as *rendering) string {
	if as == nil && inProtobuf(w) {
		return protobufWatchMediaType
	}
	return "application/json"
}

// writeStatus answers with a Status, in protobuf if the client asked for it.
func writeStatus(w http.ResponseWriter, code int, st statusBody) {
	if inProtobuf(w) {
		writeProtobufStatus(w, code, st)
		return
	}
	writeJSON(w, code, st)
}

// writeListAs answers with list l of ri in the form asked for: a Table or
// metadata only (as), or protobuf.
func writeListAs(w http.ResponseWriter, ri *resourceInfo, as *rendering, l *listBody) {
	if as != nil {
		writeJSON(w, http.StatusOK, as.list(ri, l))
		return
	}
	writeProtobufList(w, ri, l)
}

// protoBodyMessage is the message of an object (a stored one, a bookmark's,
// a list, a Status), by its kind and apiVersion, which its envelope carries.
func protoBodyMessage(body map[string]any) ([]byte, error) {
	kind, _ := body["kind"].(string)
	apiVersion, _ := body["apiVersion"].(string)
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", group
	}
	m := protoSchema()[schema.MessageOf(group, version, kind)]
	if m == nil { // metav1's kinds (Status...) are served in every group version
		m = protoSchema()[schema.MetaPackage+kind]
	}
	if m == nil {
		return nil, fmt.Errorf("fakeapi: no protobuf message for kind %q in %q", kind, apiVersion)
	}
	return encodeProtoMessage(m, body, 0)
}

// compat_handlers.go (compatibility layer): every resource request but a
// list or a watch (routes.go sends those to list.go and watch.go): get,
// create, update, patch, delete and delete of a collection, and the /status
// and /scale subresources; reading a request's body (JSON or protobuf,
// within the 3 MiB limit) and answering with one object in the form asked.
//
// client-go counterparts: the apiserver's REST handlers
// (k8s.io/apiserver/pkg/endpoints/handlers: get.go, create.go, update.go,
// patch.go, delete.go); on the client side, client-go's rest.Request.
// Tutorial: none.

package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	pathpkg "path"
	"strings"
)

// errNoRoute is the real server's 404 for a path it does not serve; an
// object's unknown subresource gets it with empty details.
func errNoRoute(path string) *APIError {
	e := errPathNotFound()
	if parent, sub := pathpkg.Split(strings.TrimSuffix(path, "/")); sub != "" {
		if rt, ok := parseRoute(parent); ok && rt.name != "" {
			e.Causes, e.emptyDetails = nil, true
		}
	}
	return e
}

// serveObject answers every resource request but a list or watch (routes.go
// sends those to list.go and watch.go): a get, and the writes.
func (s *Server) serveObject(w http.ResponseWriter, r *http.Request, rt route) {
	// A bad includeObject is refused before anything is written.
	if _, e := negotiate(r); e != nil {
		writeError(w, e)
		return
	}
	req := writeRequest{ri: rt.ri, ns: rt.ns, name: rt.name, subresource: rt.sub, put: r.Method == http.MethodPut}
	// A write's options are checked before its body or object, as on the
	// real server: a bad fieldValidation or dryRun changes nothing. A
	// delete's options may come in its body (compat_delete.go).
	if kind := writeOptionsKind[r.Method]; kind != "" && kind != "DeleteOptions" && (rt.name != "" || r.Method == http.MethodPost) {
		var e *APIError
		if req.dryRun, e = parseWriteOptions(r.URL.Query(), kind); e != nil {
			writeError(w, e)
			return
		}
	}
	switch {
	case rt.sub == "scale":
		s.writes.Add(1)
		s.serveScale(w, r, req)
	case rt.name == "" && r.Method == http.MethodPost && (rt.ns != "" || !rt.ri.namespaced):
		s.writes.Add(1)
		body, e := decodeBody(w, r, rt.ri)
		if e == nil {
			var o *object
			if o, e = s.st.create(req, body); e == nil {
				s.writeObject(w, r, rt.ri, http.StatusCreated, o.body)
				return
			}
		}
		writeError(w, e)
	case rt.name == "" && r.Method == http.MethodDelete && rt.ri.Resource != Namespaces:
		s.writes.Add(1)
		s.serveDeleteCollection(w, r, rt)
	case rt.name != "" && r.Method == http.MethodGet:
		s.gets.Add(1)
		if o := s.st.get(rt.ri, objectKey(rt.ns, rt.name)); o != nil {
			s.writeObject(w, r, rt.ri, http.StatusOK, o.body)
			return
		}
		writeError(w, errNotFound(rt.ri, rt.name))
	case rt.name != "" && r.Method == http.MethodPut:
		s.writes.Add(1)
		body, e := decodeBody(w, r, rt.ri)
		if e == nil {
			var o *object
			var created bool
			if o, created, e = s.st.modify(req, func(map[string]any) (map[string]any, *APIError) { return body, nil }); e == nil {
				code := http.StatusOK
				if created {
					code = http.StatusCreated
				}
				s.writeObject(w, r, req.ri, code, o.body)
				return
			}
		}
		writeError(w, e)
	case rt.name != "" && r.Method == http.MethodPatch:
		s.writes.Add(1)
		s.servePatch(w, r, req)
	case rt.name != "" && r.Method == http.MethodDelete && rt.sub == "":
		s.writes.Add(1)
		s.serveDelete(w, r, req)
	default:
		writeError(w, errMethodNotAllowed())
	}
}

// writeOptionsKind names the options type of each write method.
var writeOptionsKind = map[string]string{
	http.MethodPost: "CreateOptions", http.MethodPut: "UpdateOptions",
	http.MethodPatch: "PatchOptions", http.MethodDelete: "DeleteOptions",
}

// writeObject answers with one object of ri, in the form the client asked
// for (as the real server does for gets and writes alike: a write is done
// before its answer can be refused).
func (s *Server) writeObject(w http.ResponseWriter, r *http.Request, ri *resourceInfo, code int, body map[string]any) {
	rd, _ := negotiate(r) // checked by serveResource
	if e := rd.refuses(ri, false); e != nil {
		writeError(w, e)
		return
	}
	if rd == nil && inProtobuf(w) {
		writeProtobufObject(w, code, ri, body) // compat_protoanswer.go
		return
	}
	writeJSON(w, code, rd.object(ri, body, true))
}

// servePatch applies a patch to the stored object: a JSON patch
// (RFC 6902, compat_jsonpatch.go), a JSON merge patch (RFC 7386) or a strategic
// merge patch (compat_patch.go).
func (s *Server) servePatch(w http.ResponseWriter, r *http.Request, req writeRequest) {
	apply, e := s.patcher(w, r, req)
	if e != nil {
		writeError(w, e)
		return
	}
	o, _, e := s.st.modify(req, apply)
	if e != nil {
		writeError(w, e)
		return
	}
	s.writeObject(w, r, req.ri, http.StatusOK, o.body)
}

// errPatchType is the real server's answer to a patch of a type it does
// not take. Server-side apply (application/apply-patch+yaml) gets it too:
// fakeapi answers it as a server without the feature would (the docs say so).
func errPatchType() *APIError {
	return &APIError{Code: http.StatusUnsupportedMediaType, Reason: "UnsupportedMediaType",
		Message: "415: Unsupported Media Type", emptyDetails: true}
}

// patcher reads r's patch and returns the function that applies it.
func (s *Server) patcher(w http.ResponseWriter, r *http.Request, req writeRequest) (func(target map[string]any) (map[string]any, *APIError), *APIError) {
	ct := mediaType(r)
	switch ct {
	case "application/json-patch+json":
		raw, e := readBody(r)
		if e != nil {
			return nil, e
		}
		ops, e := parseJSONPatch(raw)
		if e != nil {
			return nil, e
		}
		return func(target map[string]any) (map[string]any, *APIError) { return ops.apply(target) }, nil
	case "application/merge-patch+json", "application/strategic-merge-patch+json":
		patch, e := decodeBody(w, r, req.ri)
		if e != nil {
			return nil, e
		}
		apply := mergePatchOf(req.ri)
		if ct == "application/strategic-merge-patch+json" {
			apply = strategicMergePatch(req.ri) // compat_patch.go: the schema's patch strategies
		}
		return func(target map[string]any) (map[string]any, *APIError) {
			return apply(target, deepCopy(patch).(map[string]any))
		}, nil
	}
	return nil, errPatchType()
}

// decodeBody reads a JSON object from the request body. Numbers are kept
// exactly as sent (json.Number), so nothing a client stores is rounded.
func decodeBody(w http.ResponseWriter, r *http.Request, ri *resourceInfo) (map[string]any, *APIError) {
	ct := mediaType(r)
	if ct != "" && ct != "application/json" && ct != protobufMediaType && !strings.HasSuffix(ct, "+json") {
		return nil, errUnsupportedMedia(ct, "application/json, "+protobufMediaType)
	}
	raw, e := readBody(r)
	if e != nil {
		return nil, e
	}
	if ct == protobufMediaType { // compat_protobuf.go
		body, e := decodeProtobuf(raw, ri, ri.kind)
		if e != nil {
			return nil, e
		}
		return canonNumbers(body).(map[string]any), nil
	}
	body, e := decodeObject(raw)
	if e != nil {
		e.Message = fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s", ri.kind, e.Message)
		return nil, e
	}
	if e := checkFields(w, r, ri, raw, body); e != nil { // compat_fieldvalidation.go
		return nil, e
	}
	return body, nil
}

// decodeObject parses raw as one JSON object.
func decodeObject(raw []byte) (map[string]any, *APIError) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil || body == nil || dec.More() {
		msg := "the request body is not a JSON object"
		if err != nil {
			msg = "couldn't get version/kind; json parse error: " + err.Error()
		}
		return nil, errBadRequest(msg)
	}
	return canonNumbers(body).(map[string]any), nil
}

// canonNumbers turns every integral JSON number into an int64, the form
// defaults and the server's own fields use, so equal values compare equal
// (a PUT that changes nothing stays a no-op). Other numbers stay exactly
// as sent.
func canonNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = canonNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = canonNumbers(x)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
	}
	return v
}

// readBody reads a request body within the 3 MiB limit.
func readBody(r *http.Request) ([]byte, *APIError) {
	b, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, &APIError{Code: http.StatusRequestEntityTooLarge, Reason: "RequestEntityTooLarge",
			Message: "Request entity too large: limit is 3145728"}
	}
	if err != nil {
		return nil, errBadRequest("reading the request body: " + err.Error())
	}
	return b, nil
}

// mediaType is the Content-Type of r without parameters.
func mediaType(r *http.Request) string {
	ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
	return strings.TrimSpace(ct)
}

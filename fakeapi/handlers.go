// handlers.go: the REST verbs: list, watch, get, create, update, patch, delete.
//
// Paths follow the real server: /api/v1/{resource} (cluster-scoped kinds and
// all-namespace lists), /api/v1/namespaces/{ns}/{resource}[/{name}], and the
// same under /apis/{group}/{version}/ for group kinds.
// client-go counterparts: the apiserver's REST handlers
// (k8s.io/apiserver/pkg/endpoints/handlers: get.go, create.go, update.go,
// patch.go, delete.go); on the client side, client-go's rest.Request builds
// these URLs. Tutorial: 000 §2.5.

package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// route is what a resource URL names.
type route struct {
	ri   *resourceInfo
	ns   string // "" for cluster-scoped kinds and all-namespace lists
	name string // "" for the collection
}

// parseRoute maps a URL path to a resource, namespace and name.
func parseRoute(path string) (route, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var group, version string
	var rest []string
	switch {
	case len(segs) >= 3 && segs[0] == "api":
		version, rest = segs[1], segs[2:]
	case len(segs) >= 4 && segs[0] == "apis":
		group, version, rest = segs[1], segs[2], segs[3:]
	default:
		return route{}, false
	}
	var rt route
	if len(rest) >= 3 && rest[0] == "namespaces" {
		rt.ns, rest = rest[1], rest[2:]
	}
	if len(rest) > 2 || rest[0] == "" {
		return route{}, false // subresources are not served
	}
	rt.ri = lookup(Resource{group, version, rest[0]})
	if len(rest) == 2 {
		rt.name = rest[1]
	}
	switch {
	case rt.ri == nil:
		return route{}, false
	case !rt.ri.namespaced && rt.ns != "":
		return route{}, false
	case rt.ri.namespaced && rt.ns == "" && rt.name != "":
		return route{}, false
	}
	return rt, true
}

// serveResource answers a request for a resource or an object.
func (s *Server) serveResource(w http.ResponseWriter, r *http.Request) {
	rt, ok := parseRoute(r.URL.Path)
	if !ok {
		writeError(w, errPathNotFound())
		return
	}
	// A bad includeObject is refused before anything is written.
	if _, e := negotiate(r); e != nil {
		writeError(w, e)
		return
	}
	req := writeRequest{ri: rt.ri, ns: rt.ns, name: rt.name}
	// A write's options are checked before its body or object, as on the
	// real server: a bad fieldValidation or dryRun changes nothing.
	if kind := writeOptionsKind[r.Method]; kind != "" && (rt.name != "" || r.Method == http.MethodPost) {
		var e *APIError
		if req.dryRun, e = parseWriteOptions(r.URL.Query(), kind); e != nil {
			writeError(w, e)
			return
		}
	}
	switch {
	case rt.name == "" && r.Method == http.MethodGet:
		s.serveListOrWatch(w, r, rt)
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
			if o, e = s.st.modify(req, func(map[string]any) (map[string]any, *APIError) { return body, nil }); e == nil {
				s.writeObject(w, r, req.ri, http.StatusOK, o.body)
				return
			}
		}
		writeError(w, e)
	case rt.name != "" && r.Method == http.MethodPatch:
		s.writes.Add(1)
		s.servePatch(w, r, req)
	case rt.name != "" && r.Method == http.MethodDelete:
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

// serveListOrWatch answers GET on a collection.
func (s *Server) serveListOrWatch(w http.ResponseWriter, r *http.Request, rt route) {
	o, e := parseListOptions(rt.ri, r.URL.Query())
	if e != nil {
		writeError(w, e)
		return
	}
	o.as, _ = negotiate(r) // checked by serveResource
	// A watch's events are single objects; a list is a list. (The real
	// server accepts a watch asked for as a list and then sends no events.)
	if e := o.as.refuses(rt.ri, !o.watch); e != nil {
		writeError(w, e)
		return
	}
	if o.watch {
		s.watches.Add(1)
		s.serveWatch(w, r, rt.ri, rt.ns, o)
		return
	}
	s.lists.Add(1)
	list, e := s.list(r, rt.ri, rt.ns, o)
	if e != nil {
		writeError(w, e)
		return
	}
	if o.as != nil {
		writeJSON(w, http.StatusOK, o.as.list(rt.ri, list))
		return
	}
	writeList(w, list)
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
	writeJSON(w, code, rd.object(ri, body, true))
}

// servePatch applies a merge patch or a strategic merge patch (patch.go)
// to the stored object.
func (s *Server) servePatch(w http.ResponseWriter, r *http.Request, req writeRequest) {
	var apply patchFunc
	switch mediaType(r) {
	case "application/merge-patch+json":
		apply = mergePatchOf(req.ri)
	case "application/strategic-merge-patch+json":
		apply = strategicMergePatch(req.ri)
	default:
		writeError(w, errUnsupportedMedia(mediaType(r), "application/merge-patch+json, application/strategic-merge-patch+json"))
		return
	}
	patch, e := decodeBody(w, r, req.ri)
	if e != nil {
		writeError(w, e)
		return
	}
	o, e := s.st.modify(req, func(old map[string]any) (map[string]any, *APIError) {
		return apply(old, patch)
	})
	if e != nil {
		writeError(w, e)
		return
	}
	s.writeObject(w, r, req.ri, http.StatusOK, o.body)
}

// serveDelete deletes one object; the body may carry DeleteOptions with
// preconditions. Pods answer with the deleted object, other kinds with a
// Success Status, as on the real server.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request, req writeRequest) {
	raw, e := readBody(r)
	if e == nil && mediaType(r) == protobufMediaType && len(raw) > 0 { // protobuf.go
		var opts map[string]any
		if opts, e = decodeProtobuf(raw, req.ri, "DeleteOptions"); e == nil {
			raw, _ = json.Marshal(opts)
		}
	}
	if e != nil {
		writeError(w, e)
		return
	}
	var opts struct {
		Preconditions struct {
			ResourceVersion string `json:"resourceVersion"`
			UID             string `json:"uid"`
		} `json:"preconditions"`
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &opts); err != nil {
			writeError(w, errBadRequest("invalid DeleteOptions: "+err.Error()))
			return
		}
	}
	o, e := s.st.remove(req, opts.Preconditions.ResourceVersion, opts.Preconditions.UID)
	if e != nil {
		writeError(w, e)
		return
	}
	if req.ri.returnDeleted {
		s.writeObject(w, r, req.ri, http.StatusOK, o.body)
		return
	}
	uid, _ := metadata(o.body)["uid"].(string)
	writeJSON(w, http.StatusOK, statusBody{Kind: "Status", APIVersion: "v1", Metadata: map[string]any{}, Status: "Success",
		Details: &statusDetails{Name: o.name, Group: req.ri.Group, Kind: req.ri.Resource.Resource, UID: uid}})
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
	if ct == protobufMediaType { // protobuf.go
		return decodeProtobuf(raw, ri, ri.kind)
	}
	body, e := decodeObject(raw)
	if e != nil {
		e.Message = fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s", ri.kind, e.Message)
		return nil, e
	}
	if e := checkFields(w, r, ri, raw, body); e != nil { // fieldvalidation.go
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
	return body, nil
}

// compat_negotiate.go (compatibility layer): content negotiation: which form
// of an answer the client asked for in its Accept header.
//
// A client may ask for an object or list in another form than its own, by
// naming the form in the media type's parameters (as=, g=, v=). This server
// makes three of them, as the real one does:
//   - as=Table (compat_table.go): server-side printing, asked for by `kubectl get`;
//   - as=PartialObjectMetadataList, for a list, and as=PartialObjectMetadata,
//     for one object and each watch event: the object's metadata alone.
//
// The metadata forms are what client-go's metadata client and metadata
// informers ask for (controllers such as the garbage collector, which need an
// object's owners and finalizers but never its spec). Their lists are small:
// one pod's metadata is a tenth of the pod. A list asked for as a single
// object, or an object asked for as a list, is refused with 406, as the real
// server refuses it, even when plain JSON is also acceptable.
// Counterparts: the apiserver's content negotiation and response
// transformation (k8s.io/apiserver/pkg/endpoints/handlers/response.go), and
// metav1.PartialObjectMetadata/PartialObjectMetadataList; on the client,
// k8s.io/client-go/metadata and metadatainformer. Tutorial: none.

package fakeapi

import (
	"cmp"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// The forms a client can ask for with as=.
const (
	asTable        = "Table"
	asMetadata     = "PartialObjectMetadata"
	asMetadataList = "PartialObjectMetadataList"
)

// rendering is the form a client asked for; nil means the object's own form,
// plain JSON.
type rendering struct {
	as         string // asTable, asMetadata or asMetadataList
	apiVersion string // "meta.k8s.io/v1" or "meta.k8s.io/v1beta1"
	include    string // a Table row's object: "None", "Metadata" or "Object"
}

// negotiate reads the Accept header in order; the first media type this
// server can produce wins: one of the forms above, or plain JSON (nil).
// Types it cannot produce (protobuf, YAML, other as= forms) are passed over;
// if none is left, plain JSON is served, as this fake always has.
func negotiate(r *http.Request) (*rendering, *APIError) {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || (mt != "application/json" && mt != "application/*" && mt != "*/*") {
			continue
		}
		as, v := params["as"], params["v"]
		switch {
		case as == "":
			return nil, nil
		case as != asTable && as != asMetadata && as != asMetadataList,
			params["g"] != "meta.k8s.io", v != "v1" && v != "v1beta1":
			continue
		}
		rd := &rendering{as: as, apiVersion: "meta.k8s.io/" + v}
		if as == asTable {
			rd.include = "Metadata"
			switch inc := r.URL.Query().Get("includeObject"); inc {
			case "":
			case "None", "Metadata", "Object":
				rd.include = inc
			default:
				return nil, errBadRequest(fmt.Sprintf("Unable to convert to Table as requested: includeObject: Invalid value: %q: must be 'Metadata', 'Object', 'None', or empty", inc))
			}
		}
		return rd, nil
	}
	return nil, nil
}

// acceptedForm is the form a list (or, for watch, each event of a watch)
// of ri is answered in: a watch's events are single objects, a list is a
// list. (The real server accepts a watch asked for as a list and then sends
// no events.)
func acceptedForm(r *http.Request, ri *resourceInfo, watch bool) (*rendering, *APIError) {
	rd, e := negotiate(r)
	if e == nil {
		e = rd.refuses(ri, !watch)
	}
	return rd, e
}

// refuses is the 406 for asking a list (isList) of ri as a single object's
// form, or a single object as a list's form; nil when the form fits.
// The message names the real server's internal Go type, e.g. *core.Pod.
func (rd *rendering) refuses(ri *resourceInfo, isList bool) *APIError {
	if rd == nil || rd.as == asTable || isList == (rd.as == asMetadataList) {
		return nil
	}
	group, _, _ := strings.Cut(ri.Group, ".")
	goType := "*" + cmp.Or(group, "core") + "." + ri.kind
	if isList {
		return errNotAcceptable("you requested " + rd.as + ", but the requested object is a list (" + goType + "List)")
	}
	return errNotAcceptable("you requested " + rd.as + ", but the requested object is not a list (" + goType + ")")
}

// list is list l of ri in the asked form; the form fits (see refuses).
func (rd *rendering) list(ri *resourceInfo, l *listBody) any {
	if rd.as == asTable {
		return rd.listTable(ri, l)
	}
	items := make([]partialObject, 0, len(l.objs))
	for _, o := range l.objs {
		items = append(items, rd.partial(o.body))
	}
	return metadataList{Kind: asMetadataList, APIVersion: rd.apiVersion, Metadata: l.Metadata, Items: items}
}

// object is one object of ri (or a watch bookmark) in the asked form; the
// form fits (see refuses). withColumns is for a Table: false for every watch
// event but the first. nil asks for plain JSON: body itself.
func (rd *rendering) object(ri *resourceInfo, body map[string]any, withColumns bool) any {
	switch {
	case rd == nil:
		return body
	case rd.as == asTable:
		return rd.objectTable(ri, body, withColumns)
	}
	return rd.partial(body)
}

// metadataList is a PartialObjectMetadataList, its fields in the real
// server's order: the list's own metadata (resourceVersion, continue,
// remainingItemCount), then each item's metadata.
type metadataList struct {
	Kind       string          `json:"kind"`
	APIVersion string          `json:"apiVersion"`
	Metadata   map[string]any  `json:"metadata"`
	Items      []partialObject `json:"items"`
}

// partialObject is a PartialObjectMetadata: an object's metadata alone.
type partialObject struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Metadata   map[string]any `json:"metadata"`
}

// partial is body's metadata as a PartialObjectMetadata. body is only
// read: it may be a stored object, whose metadata map is shared, not copied.
func (rd *rendering) partial(body map[string]any) partialObject {
	meta := obj(body["metadata"])
	if meta == nil {
		meta = map[string]any{}
	}
	return partialObject{Kind: asMetadata, APIVersion: rd.apiVersion, Metadata: meta}
}

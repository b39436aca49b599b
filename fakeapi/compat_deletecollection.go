// compat_deletecollection.go (compatibility layer): DELETE on a collection
// deletes every object its label and field selectors match.
//
// The options are a list's (labelSelector, fieldSelector) plus a delete's
// (DeleteOptions in the body or the query, compat_delete.go); each matching object
// is deleted as a single delete would delete it (a pod gracefully, dry runs
// storing nothing), and the answer is the list of the objects as they were
// before. Namespaces have no collection delete (405), as on the real server.
// client-go counterparts: the apiserver's DeleteCollection handler and the
// generic registry Store.DeleteCollection; client-go's DeleteCollection.
// Tutorial: none.

package fakeapi

import (
	"net/http"
	"strconv"
)

// serveDeleteCollection answers DELETE on a collection.
func (s *Server) serveDeleteCollection(w http.ResponseWriter, r *http.Request, rt route) {
	q := r.URL.Query()
	lo, e := parseListQuery(rt.ri, q)
	if e != nil {
		writeError(w, e)
		return
	}
	raw, e := readDeleteOptions(r, rt.ri)
	if e != nil {
		writeError(w, e)
		return
	}
	opts, e := parseDeleteOptions(raw, q)
	if e != nil {
		writeError(w, e)
		return
	}
	s.st.mu.Lock()
	objs, _ := s.st.snapshotLocked(rt.ri, rt.ns, s.st.rv)
	rv := s.st.rv
	var matched []*object
	for _, o := range objs {
		if lo.filter.matches(o) {
			matched = append(matched, o)
		}
	}
	for _, o := range matched {
		req := writeRequest{ri: rt.ri, ns: o.ns, name: o.name, dryRun: opts.dryRun()}
		if _, _, e := s.st.removeLocked(req, opts); e != nil && e.Code != http.StatusNotFound {
			s.st.mu.Unlock()
			writeError(w, e)
			return
		}
	}
	s.st.mu.Unlock()
	list := &listBody{Kind: rt.ri.kind + "List", APIVersion: rt.ri.apiVersion(),
		Metadata: map[string]any{"resourceVersion": strconv.FormatUint(rv, 10)}}
	for _, o := range matched {
		b, err := o.itemJSON()
		if err != nil {
			writeError(w, &APIError{Code: http.StatusInternalServerError, Reason: "InternalError", Message: err.Error()})
			return
		}
		list.Items = append(list.Items, b)
	}
	writeList(w, list)
}

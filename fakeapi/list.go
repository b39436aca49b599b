// list.go: list requests: query options, resource version semantics, paging.
//
// resourceVersion "" reads the newest state, "0" any state (the fake always
// serves the newest), "N" a state at least as new as N (NotOlderThan, the
// default) or exactly N (Exact, rebuilt from the history; 410 once it is
// compacted). A version the server has not reached yet is waited for briefly,
// then answered 504, as the real watch cache does. Pages are cut with limit
// and continue; a continue token names the list's version and the last key,
// and one the history no longer reaches is 410 Expired. Selectors and the
// real server's rules on combined options are one call into the
// compatibility layer (compat_listoptions.go).
// client-go counterparts: metav1.ListOptions, the apiserver's list handler
// and etcd3 paging. Reading path: step 4. Tutorial: 004 §2.5, §4.1.

package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// listOptions are the query parameters of a list or watch.
type listOptions struct {
	watch          bool
	rv             uint64 // its value
	rvMatch        string // "", "NotOlderThan" or "Exact"
	limit          int
	cont           string
	filter         filter // label and field selectors (compat_selector.go)
	allowBookmarks bool
	timeout        time.Duration
	sendInitial    *bool      // nil when not given
	as             *rendering // from the Accept header; nil = plain JSON
}

// parseListOptions reads the options of a list or watch: its query, then
// the form of answer its Accept header asks for.
func parseListOptions(r *http.Request, ri *resourceInfo) (listOptions, *APIError) {
	o, e := parseListQuery(ri, r.URL.Query())
	if e == nil {
		o.as, e = acceptedForm(r, ri, o.watch) // compat_negotiate.go: a Table, or metadata only
	}
	return o, e
}

// parseListQuery reads and checks the query of a list or watch; a bad value
// is 400 BadRequest, as on the real server.
func parseListQuery(ri *resourceInfo, q url.Values) (listOptions, *APIError) {
	var o listOptions
	var err error
	bad := func(name string) *APIError {
		return errBadRequest(fmt.Sprintf("invalid value %q for query parameter %s", q.Get(name), name))
	}
	if o.watch, err = parseBool(q.Get("watch")); err != nil {
		return o, bad("watch")
	}
	if o.allowBookmarks, err = parseBool(q.Get("allowWatchBookmarks")); err != nil {
		return o, bad("allowWatchBookmarks")
	}
	if q.Has("sendInitialEvents") {
		b, err := parseBool(q.Get("sendInitialEvents"))
		if err != nil {
			return o, bad("sendInitialEvents")
		}
		o.sendInitial = &b
	}
	if v := q.Get("resourceVersion"); v != "" {
		if o.rv, err = strconv.ParseUint(v, 10, 64); err != nil {
			return o, errBadRequest(fmt.Sprintf("invalid resource version: %q", v))
		}
	}
	o.rvMatch = q.Get("resourceVersionMatch")
	if v := q.Get("limit"); v != "" {
		if o.limit, err = strconv.Atoi(v); err != nil || o.limit < 0 {
			return o, bad("limit")
		}
	}
	if v := q.Get("timeoutSeconds"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return o, bad("timeoutSeconds")
		}
		o.timeout = time.Duration(n) * time.Second
	}
	o.cont = q.Get("continue")
	// compat_listoptions.go: the selectors, and the combinations of options
	// the real server refuses (422), in its words.
	return o, o.parseSelectorsAndCheck(ri, q)
}

// parseBool reads a query flag: "", "0", "false" are false; "1", "true" true.
func parseBool(v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	return strconv.ParseBool(v)
}

// continueToken is what a continue string carries; clients treat it as opaque.
type continueToken struct {
	RV    uint64 `json:"rv"`    // the list's version; 0 = read the newest (after a 410)
	Start string `json:"start"` // the key of the last object already returned
}

func (t continueToken) String() string {
	b, _ := json.Marshal(t)
	return base64.RawURLEncoding.EncodeToString(b)
}

func parseContinue(s string) (continueToken, *APIError) {
	var t continueToken
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil {
		return t, errBadRequest("invalid continue token: continue key is not valid: " + err.Error())
	}
	return t, nil
}

// list answers one page of ri in ns ("" = all) for o, or an error.
func (s *Server) list(r *http.Request, ri *resourceInfo, ns string, o listOptions) (*listBody, *APIError) {
	var tok continueToken
	exact := o.rvMatch == "Exact"
	if o.cont != "" {
		var e *APIError
		if tok, e = parseContinue(o.cont); e != nil {
			return nil, e
		}
		if o.rv > 0 { // "0" is let through, as by the real server
			return nil, errBadRequest("specifying resource version is not allowed when using continue")
		}
		exact = tok.RV != 0
	}
	at := tok.RV
	if o.cont == "" {
		at = o.rv
	}
	// A version not reached yet (or a forged token naming one) is waited
	// for, never answered as if the server were already there.
	if at > 0 && !s.waitForVersion(r, at) {
		return nil, errTooLargeRV(at, s.st.current())
	}
	s.st.mu.Lock()
	if !exact || at == 0 {
		at = s.st.rv
	}
	objs, ok := s.st.snapshotLocked(ri, ns, at)
	s.st.mu.Unlock()
	if !ok && o.cont != "" {
		e := errGone("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
		e.Continue = continueToken{Start: tok.Start}.String()
		return nil, e
	}
	if !ok {
		return nil, errGone("The resourceVersion for the provided list is too old.")
	}
	items := []json.RawMessage{}
	var page []*object
	remaining := 0
	last := ""
	// objs is sorted by key: a page starts right after the last key returned.
	first := sort.Search(len(objs), func(i int) bool { return objs[i].key > tok.Start })
	for i, obj := range objs[first:] {
		if !o.filter.matches(obj) {
			continue
		}
		if o.limit > 0 && len(items) == o.limit {
			// The page is full and obj is left over. Without selectors every
			// object from here on is left (remainingItemCount); with them,
			// all that matters is that one is.
			remaining = len(objs) - first - i
			break
		}
		raw, err := obj.itemJSON()
		if err != nil {
			return nil, &APIError{Code: http.StatusInternalServerError, Reason: "InternalError", Message: err.Error()}
		}
		items = append(items, raw)
		page = append(page, obj)
		last = obj.key
	}
	meta := map[string]any{"resourceVersion": strconv.FormatUint(at, 10)}
	if remaining > 0 {
		meta["continue"] = continueToken{RV: at, Start: last}.String()
		if len(o.filter.labels) == 0 && len(o.filter.fields) == 0 {
			meta["remainingItemCount"] = remaining
		}
	}
	return &listBody{Kind: ri.kind + "List", APIVersion: ri.apiVersion(), Metadata: meta, Items: items, objs: page}, nil
}

// listBody is a typed list, its fields in the real server's order. Its
// items are already encoded; writeList sends it. objs are the same items,
// stored, for another form (compat_negotiate.go).
type listBody struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Metadata   map[string]any `json:"metadata"`
	Items      []json.RawMessage
	objs       []*object
}

// writeList answers with l. The items are written one after another, as
// they are kept (object.itemJSON), rather than encoded again, checked and
// gathered into one buffer: a list of 100k pods is over 100 MB of JSON.
func writeList(w http.ResponseWriter, l *listBody) {
	head, err := json.Marshal(struct {
		Kind       string         `json:"kind"`
		APIVersion string         `json:"apiVersion"`
		Metadata   map[string]any `json:"metadata"`
	}{l.Kind, l.APIVersion, l.Metadata})
	if err != nil {
		writeError(w, &APIError{Code: http.StatusInternalServerError, Reason: "InternalError", Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) {
		if err == nil { // after an error (the client went away) write nothing more
			_, err = w.Write(b)
		}
	}
	// head is {"kind":...,"metadata":{...}}: the items go before its last brace.
	write(head[:len(head)-1])
	write([]byte(`,"items":[`))
	for i, item := range l.Items {
		if i > 0 {
			write([]byte(","))
		}
		write(item)
	}
	write([]byte("]}\n"))
}

// listItem is obj as an item of a typed list: without kind and apiVersion.
func listItem(body map[string]any) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		if k != "kind" && k != "apiVersion" {
			out[k] = v
		}
	}
	return out
}

// waitForVersion waits, at most Options.VersionWait, for the store to reach rv.
func (s *Server) waitForVersion(r *http.Request, rv uint64) bool {
	t := time.NewTimer(s.opts.VersionWait)
	defer t.Stop()
	return s.st.waitFor(rv, t.C, r.Context().Done())
}

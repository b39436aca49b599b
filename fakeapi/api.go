// api.go: the Go methods tests use to read and write objects directly.
//
// A direct write has the same effect as the HTTP verb, and sends the same
// watch events; it fails with the same *APIError. Objects go in as anything
// encoding/json can encode and come out as decoded JSON (map[string]any), so
// a test sees exactly what a client on the wire would.
// client-go counterpart: the typed clients' Create/Update/Delete/Get/List
// (k8s.io/client-go/kubernetes), here without HTTP. Tutorial: 004 §2.5.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Create stores a new object of r in namespace and returns it as stored.
// For every method here, namespace is ignored for cluster-scoped kinds, and
// "" means the object's own metadata.namespace, else "default".
//
// The direct methods seed and change state for a test, as if written to
// the server's storage: an object gets the defaults an HTTP write would
// give it (compat_defaults.go) but is otherwise stored as given (its status too;
// the namespace need not exist), without validation, and Delete removes
// at once (one DELETED event; a pod is stamped with a deletionTimestamp).
func (s *Server) Create(r Resource, namespace string, obj any) (map[string]any, error) {
	ri, body, err := prepare(r, namespace, obj)
	if err != nil {
		return nil, err
	}
	o, e := s.st.create(writeRequest{ri: ri, ns: bodyScope(ri, namespace, body), raw: true}, body)
	return result(o, e)
}

// Update replaces an object of r. If obj carries metadata.resourceVersion,
// it must be the stored one (else 409 Conflict); without it the update is
// unconditional.
func (s *Server) Update(r Resource, namespace string, obj any) (map[string]any, error) {
	ri, body, err := prepare(r, namespace, obj)
	if err != nil {
		return nil, err
	}
	name, _ := metadata(body)["name"].(string)
	req := writeRequest{ri: ri, ns: bodyScope(ri, namespace, body), name: name, raw: true}
	o, _, e := s.st.modify(req, func(map[string]any) (map[string]any, *APIError) { return body, nil })
	return result(o, e)
}

// Delete deletes an object of r at once (see Create).
func (s *Server) Delete(r Resource, namespace, name string) error {
	ri := lookup(r)
	if ri == nil {
		return fmt.Errorf("fakeapi: unknown resource %v", r)
	}
	return s.st.removeRaw(writeRequest{ri: ri, ns: scope(ri, namespace), name: name, raw: true})
}

// Get returns an object of r, or a 404 *APIError.
func (s *Server) Get(r Resource, namespace, name string) (map[string]any, error) {
	ri := lookup(r)
	if ri == nil {
		return nil, fmt.Errorf("fakeapi: unknown resource %v", r)
	}
	o := s.st.get(ri, objectKey(scope(ri, namespace), name))
	if o == nil {
		return nil, errNotFound(ri, name)
	}
	return result(o, nil)
}

// List returns the objects of r in namespace ("" = all), sorted by
// namespace and name, and the resource version they are at.
func (s *Server) List(r Resource, namespace string) (items []map[string]any, resourceVersion string) {
	ri := lookup(r)
	if ri == nil || !ri.namespaced {
		namespace = ""
	}
	s.st.mu.Lock()
	objs, _ := s.st.snapshotLocked(ri, namespace, s.st.rv) // "" = every namespace
	rv := s.st.rv
	s.st.mu.Unlock()
	items = []map[string]any{}
	for _, o := range objs {
		m, _ := result(o, nil)
		items = append(items, m)
	}
	return items, strconv.FormatUint(rv, 10)
}

// ResourceVersion returns the current global resource version.
func (s *Server) ResourceVersion() string {
	return strconv.FormatUint(s.st.current(), 10)
}

// scope is the namespace an object of ri lives in: none if cluster-scoped,
// "default" if the caller named none (as kubectl does).
func scope(ri *resourceInfo, namespace string) string {
	if ri == nil || !ri.namespaced {
		return ""
	}
	if namespace == "" {
		return "default"
	}
	return namespace
}

// bodyScope is scope for a write: a namespaced object that names its own
// namespace is written there when the caller passes "".
func bodyScope(ri *resourceInfo, namespace string, body map[string]any) string {
	if ns, _ := metadata(body)["namespace"].(string); namespace == "" && ri.namespaced && ns != "" {
		return ns
	}
	return scope(ri, namespace)
}

// prepare turns obj into a fresh JSON map, as if it had come over the wire.
func prepare(r Resource, namespace string, obj any) (*resourceInfo, map[string]any, error) {
	ri := lookup(r)
	if ri == nil {
		return nil, nil, fmt.Errorf("fakeapi: unknown resource %v", r)
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, nil, fmt.Errorf("fakeapi: encoding the object: %w", err)
	}
	body, e := decodeObject(raw)
	if e != nil {
		return nil, nil, e
	}
	return ri, body, nil
}

// result converts a stored object to a caller-owned map, or returns e.
func result(o *object, e *APIError) (map[string]any, error) {
	if e != nil {
		return nil, e
	}
	raw, err := json.Marshal(o.body)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

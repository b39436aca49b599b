// writes.go: create, update (and patch) and delete, as the real server does them.
//
// The server owns metadata.uid, resourceVersion, creationTimestamp and
// generation; everything else a client sends is kept as it is. A rejected
// write changes nothing. client-go counterpart: the apiserver's generic
// registry (k8s.io/apiserver/pkg/registry/generic/registry.Store) and its
// BeforeCreate/BeforeUpdate checks.
// Tutorial: 000 §2.5 (optimistic concurrency: resourceVersion and 409).

package fakeapi

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"time"
)

// writeRequest is one write, already decoded: the resource, the namespace of
// the URL, and the object (or, for delete, the name and preconditions).
type writeRequest struct {
	ri     *resourceInfo
	ns     string
	name   string
	dryRun bool // check everything, answer as if written, store nothing (options.go)
}

// checkBody validates the kind, apiVersion, namespace and name of a body
// sent to w, filling in what the URL implies, as the real server does.
func (w writeRequest) checkBody(body map[string]any, creating bool) *APIError {
	ri := w.ri
	if e := typesErr(ri, body); e != nil {
		return e
	}
	if k, _ := body["kind"].(string); k != "" && k != ri.kind {
		return errBadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", k, ri.kind))
	}
	if v, _ := body["apiVersion"].(string); v != "" && v != ri.apiVersion() {
		return errBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", v, ri.apiVersion()))
	}
	body["kind"], body["apiVersion"] = ri.kind, ri.apiVersion()
	meta := metadata(body)
	ns, _ := meta["namespace"].(string)
	switch {
	case !ri.namespaced:
		delete(meta, "namespace")
	case ns == "":
		meta["namespace"] = w.ns
	case ns != w.ns:
		return errBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	name, _ := meta["name"].(string)
	if !creating && name != w.name { // checked first, as the real update handler does
		return errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, w.name))
	}
	if gen, _ := meta["generateName"].(string); creating && name == "" && gen != "" {
		name = gen + randomSuffix()
		meta["name"] = name
	}
	if name == "" {
		return errInvalid(ri.kind, ri.Group, "", "metadata.name", "FieldValueRequired", "Required value: name or generateName is required")
	}
	if !validName(name) {
		return errInvalid(ri.kind, ri.Group, name, "metadata.name", "FieldValueInvalid",
			fmt.Sprintf("Invalid value: %q: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", name))
	}
	labels, _ := meta["labels"].(map[string]any)
	for k, v := range labels {
		if err := keyErr(k); err != nil {
			return errInvalid(ri.kind, ri.Group, name, "metadata.labels", "FieldValueInvalid", "Invalid value: "+err.Error())
		}
		if v := v.(string); v != "" && !validLabelName(v) {
			return errInvalid(ri.kind, ri.Group, name, "metadata.labels", "FieldValueInvalid",
				fmt.Sprintf("Invalid value: %q: a label value %s", v, labelRule))
		}
	}
	return nil
}

// typesErr rejects a body whose kind, apiVersion or metadata fields have
// the wrong JSON type: the real server cannot decode it into its typed
// object and answers 400 BadRequest. A stored object therefore always has
// string names and string-to-string labels and annotations.
func typesErr(ri *resourceInfo, body map[string]any) *APIError {
	bad := func(field, want string) *APIError {
		return errBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: json: cannot unmarshal into Go value of type %s (field %s)",
			ri.kind, ri.Version, ri.kind, want, field))
	}
	for _, f := range []string{"kind", "apiVersion"} {
		if _, ok := body[f].(string); body[f] != nil && !ok {
			return bad(f, "string")
		}
	}
	if body["metadata"] == nil {
		return nil
	}
	meta, ok := body["metadata"].(map[string]any)
	if !ok {
		return bad("metadata", "v1.ObjectMeta")
	}
	for _, f := range []string{"name", "namespace", "generateName", "resourceVersion", "uid"} {
		if _, ok := meta[f].(string); meta[f] != nil && !ok {
			return bad("metadata."+f, "string")
		}
	}
	for _, f := range []string{"labels", "annotations"} {
		if meta[f] == nil {
			continue
		}
		m, ok := meta[f].(map[string]any)
		if !ok {
			return bad("metadata."+f, "map[string]string")
		}
		for _, v := range m {
			if _, ok := v.(string); !ok {
				return bad("metadata."+f, "string")
			}
		}
	}
	return nil
}

// create stores a new object. body is owned by the store from now on.
func (s *store) create(w writeRequest, body map[string]any) (*object, *APIError) {
	if e := w.checkBody(body, true); e != nil {
		return nil, e
	}
	meta := metadata(body)
	name, _ := meta["name"].(string)
	key := objectKey(w.ns, name)
	if !w.ri.namespaced {
		key = name
	}
	meta["uid"] = newUID()
	meta["creationTimestamp"] = time.Now().UTC().Format(time.RFC3339)
	delete(meta, "deletionTimestamp")
	if w.ri.hasGeneration(body) {
		meta["generation"] = int64(1)
	}
	if phase := initialPhase[w.ri.Resource]; phase != "" && body["status"] == nil {
		body["status"] = map[string]any{"phase": phase}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.objects[w.ri][key] != nil {
		return nil, errAlreadyExists(w.ri, name)
	}
	if w.dryRun { // a dry-run object has no version: it was never stored
		o := newObject(body, 0)
		delete(meta, "resourceVersion")
		return o, nil
	}
	s.rv++
	o := newObject(body, s.rv)
	s.commitLocked(&event{typ: "ADDED", res: w.ri, rv: s.rv, obj: o})
	return o, nil
}

// modify replaces the object w names with change(copy of it). change may
// fail; the body it returns is checked like an update's body. If the result
// carries a resourceVersion other than the stored one, the write is refused
// with 409 Conflict; if it equals the stored object, nothing is written and
// no event is sent (as the real server skips no-op updates).
func (s *store) modify(w writeRequest, change func(old map[string]any) (map[string]any, *APIError)) (*object, *APIError) {
	key := objectKey(w.ns, w.name)
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.objects[w.ri][key]
	if old == nil {
		return nil, errNotFound(w.ri, w.name)
	}
	body, e := change(deepCopy(old.body).(map[string]any))
	if e != nil {
		return nil, e
	}
	if e := w.checkBody(body, false); e != nil {
		return nil, e
	}
	meta := metadata(body)
	if rv, _ := meta["resourceVersion"].(string); rv != "" && rv != strconv.FormatUint(old.rv, 10) {
		return nil, errConflict(w.ri, w.name, staleObject)
	}
	oldMeta := metadata(old.body)
	for _, f := range []string{"uid", "creationTimestamp", "generation", "resourceVersion", "deletionTimestamp"} {
		if v, ok := oldMeta[f]; ok {
			meta[f] = v
		} else {
			delete(meta, f)
		}
	}
	if w.ri.hasGeneration(body) {
		gen, _ := oldMeta["generation"].(int64)
		if !reflect.DeepEqual(body["spec"], old.body["spec"]) || gen == 0 {
			meta["generation"] = gen + 1
		}
	}
	if reflect.DeepEqual(body, old.body) {
		return old, nil
	}
	if w.dryRun { // answered with the stored version, as the real server does
		return newObject(body, old.rv), nil
	}
	s.rv++
	o := newObject(body, s.rv)
	s.commitLocked(&event{typ: "MODIFIED", res: w.ri, rv: s.rv, obj: o, prev: old})
	return o, nil
}

// remove deletes the object w names. Optional preconditions on its
// resourceVersion and uid are checked first. It returns the object's last
// state, stamped with the version of the deletion.
func (s *store) remove(w writeRequest, preRV, preUID string) (*object, *APIError) {
	key := objectKey(w.ns, w.name)
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.objects[w.ri][key]
	if old == nil {
		return nil, errNotFound(w.ri, w.name)
	}
	oldMeta := metadata(old.body)
	if uid, _ := oldMeta["uid"].(string); preUID != "" && preUID != uid {
		return nil, errPrecondition(w.ri, w.name, "UID", preUID, uid)
	}
	if cur := strconv.FormatUint(old.rv, 10); preRV != "" && preRV != cur {
		return nil, errPrecondition(w.ri, w.name, "ResourceVersion", preRV, cur)
	}
	body := deepCopy(old.body).(map[string]any)
	if w.ri.Resource == Pods { // a pod is deleted gracefully, so the real server stamps it
		meta := metadata(body)
		meta["deletionTimestamp"] = time.Now().UTC().Format(time.RFC3339)
		meta["deletionGracePeriodSeconds"] = int64(0)
	}
	if w.dryRun {
		return newObject(body, old.rv), nil
	}
	s.rv++
	o := newObject(body, s.rv)
	s.commitLocked(&event{typ: "DELETED", res: w.ri, rv: s.rv, obj: o, prev: old})
	return o, nil
}

// newObject stamps body with version rv and indexes its metadata.
func newObject(body map[string]any, rv uint64) *object {
	meta := metadata(body)
	meta["resourceVersion"] = strconv.FormatUint(rv, 10)
	o := &object{rv: rv, body: body, labels: map[string]string{},
		json:     sync.OnceValues(func() ([]byte, error) { return json.Marshal(body) }),
		itemJSON: sync.OnceValues(func() ([]byte, error) { return json.Marshal(listItem(body)) }),
	}
	o.name, _ = meta["name"].(string)
	o.ns, _ = meta["namespace"].(string)
	o.key = objectKey(o.ns, o.name)
	if labels, ok := meta["labels"].(map[string]any); ok {
		for k, v := range labels {
			o.labels[k], _ = v.(string)
		}
	}
	return o
}

// metadata returns body's metadata map, creating it if missing or malformed.
func metadata(body map[string]any) map[string]any {
	m, ok := body["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		body["metadata"] = m
	}
	return m
}

// deepCopy copies a decoded JSON value, so a stored body is never shared
// with code that may change it.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}

// newUID returns a random RFC 4122 version-4 UUID, the form of a real uid.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// randomSuffix is the 5 characters the real server appends to generateName.
func randomSuffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

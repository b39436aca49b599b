// compat_writes.go (compatibility layer): create and update (and patch),
// as the real server does them, down to store.putLocked (store.go), where
// every stored write becomes a new version and a watch event.
//
// A write is checked in the real server's order: the body's kind,
// apiVersion, namespace and name (400), the namespace it goes into (404,
// 403: compat_namespaces.go), the resourceVersion it was based on (409),
// then the kind's defaults and rules (compat_strategy.go) and validation
// (422, every error at once). The server owns metadata.uid,
// resourceVersion, creationTimestamp, generation and deletionTimestamp;
// everything else a client sends is kept. A rejected write or a dry run
// changes nothing. client-go counterpart: the apiserver's generic registry
// (k8s.io/apiserver/pkg/registry/generic/registry.Store) and its
// BeforeCreate/BeforeUpdate checks.
// Tutorial: 004 §2.5 and 000 §3.3 (optimistic concurrency: a write based
// on a stale resourceVersion is refused with 409 Conflict).

package fakeapi

import (
	"net/http"
	"reflect"
	"strconv"
	"time"
)

// writeRequest is one write, already decoded: the resource, the namespace of
// the URL, and the object (or, for delete, the name and preconditions).
type writeRequest struct {
	ri          *resourceInfo
	ns          string
	name        string
	subresource string // "" or "status" (compat_subresources.go)
	put         bool   // a PUT, which may create (strategy.createOnUpdate)
	dryRun      bool   // check everything, answer as if written, store nothing (compat_options.go)
	raw         bool   // a direct write of the Go API (api.go): stored as given
}

// create stores a new object. body is owned by the store from now on.
func (s *store) create(w writeRequest, body map[string]any) (*object, *APIError) {
	if e := w.checkBody(body, true); e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.createLocked(w, body)
}

// createLocked is create, for a body already checked, and for a PUT that
// creates. It refuses a new object in a missing or Terminating namespace,
// then prepares and validates it as its kind's strategy says.
func (s *store) createLocked(w writeRequest, body map[string]any) (*object, *APIError) {
	meta := metadata(body)
	name, _ := meta["name"].(string)
	key := objectKey(w.ns, name)
	if !w.ri.namespaced {
		key = name
	}
	if w.raw {
		if st := strategyOf(w.ri); st.defaults != nil {
			st.defaults(body)
		}
		if w.ri.Resource == Services {
			s.allocateServiceLocked(body)
		}
		if phase := initialPhase[w.ri.Resource]; phase != "" && body["status"] == nil {
			body["status"] = map[string]any{"phase": phase}
		}
		if w.ri.hasGeneration(body) {
			meta["generation"] = int64(1)
		} else {
			delete(meta, "generation")
		}
	} else {
		if e := s.admitCreateLocked(w.ri, w.ns, name); e != nil {
			return nil, e
		}
		if e := prepareCreate(w.ri, body); e != nil {
			return nil, e
		}
		if w.ri.Resource == Services {
			s.allocateServiceLocked(body)
		}
		if rv, _ := meta["resourceVersion"].(string); rv != "" { // found by the storage, as a 500
			return nil, &APIError{Code: http.StatusInternalServerError, Message: "resourceVersion should not be set on objects to be created"}
		}
	}
	if s.objects[w.ri][key] != nil {
		return nil, errAlreadyExists(w.ri, name)
	}
	meta["uid"] = newUID()
	meta["creationTimestamp"] = time.Now().UTC().Format(time.RFC3339)
	delete(meta, "deletionTimestamp")
	delete(meta, "deletionGracePeriodSeconds")
	if w.dryRun { // a dry-run object has no version: it was never stored
		o := newObject(body, 0)
		delete(meta, "resourceVersion")
		return o, nil
	}
	o := s.putLocked("ADDED", w.ri, body, nil)
	s.observeLocked("ADDED", w.ri, o, nil)
	return o, nil
}

// prepareCreate applies ri's defaults and create rules to a new object and
// validates it.
func prepareCreate(ri *resourceInfo, body map[string]any) *APIError {
	st := strategyOf(ri)
	meta := metadata(body)
	if st.defaults != nil {
		st.defaults(body)
	}
	if st.prepareCreate != nil {
		st.prepareCreate(body)
	}
	if st.newStatus != nil {
		body["status"] = st.newStatus(body)
	}
	if st.generation {
		meta["generation"] = int64(1)
	}
	errs := validateObjectMeta(ri, st, meta, true)
	if st.validate != nil {
		errs = append(errs, st.validate(body)...)
	}
	if len(errs) > 0 {
		name, _ := meta["name"].(string)
		return errs.invalid(ri.kind, ri.Group, name)
	}
	return nil
}

// modify replaces the object w names with change(copy of it). change may
// fail; the body it returns is checked like an update's body. If the result
// carries a resourceVersion other than the stored one, the write is refused
// with 409 Conflict; if it equals the stored object, nothing is written and
// no event is sent (as the real server skips no-op updates). A PUT
// (w.put) to a missing object of a kind that allows it creates the object
// (created is then true); change gets nil.
func (s *store) modify(w writeRequest, change func(old map[string]any) (map[string]any, *APIError)) (o *object, created bool, e *APIError) {
	key := objectKey(w.ns, w.name)
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.objects[w.ri][key]
	if old == nil {
		if !w.put || w.raw || w.subresource != "" || !strategyOf(w.ri).createOnUpdate {
			return nil, false, errNotFound(w.ri, w.name)
		}
		body, e := change(nil)
		if e == nil {
			e = w.checkBody(body, false)
		}
		if e != nil {
			return nil, false, e
		}
		o, e := s.createLocked(w, body)
		return o, e == nil, e
	}
	body, e := change(deepCopy(old.body).(map[string]any))
	if e != nil {
		return nil, false, e
	}
	if e := w.checkBody(body, false); e != nil {
		return nil, false, e
	}
	meta := metadata(body)
	if rv, _ := meta["resourceVersion"].(string); rv != "" && rv != strconv.FormatUint(old.rv, 10) {
		return nil, false, errConflict(w.ri, w.name, staleObject)
	}
	if w.raw {
		if st := strategyOf(w.ri); st.defaults != nil {
			st.defaults(body)
		}
		keepServerFields(meta, metadata(old.body), true)
		if w.ri.hasGeneration(body) {
			gen, _ := toInt(metadata(old.body)["generation"])
			if !reflect.DeepEqual(body["spec"], old.body["spec"]) || gen == 0 {
				meta["generation"] = gen + 1
			}
		}
	} else if e := prepareUpdate(w, body, old.body); e != nil {
		return nil, false, e
	}
	if !w.raw && w.ri.Resource == Services && w.subresource == "" {
		s.allocateServiceLocked(body) // what the update still lacks, as on create
	}
	if reflect.DeepEqual(body, old.body) {
		return old, false, nil
	}
	if !w.raw && deletesOnUpdate(old, body) {
		s.deleteLocked(w, old)
		return newObject(body, old.rv), false, nil
	}
	return s.updateLocked(w, old, body), false, nil
}

// keepServerFields copies the fields the server owns from the stored
// metadata old to meta. raw (a direct write) keeps uid and generation too.
func keepServerFields(meta, old map[string]any, raw bool) {
	fields := []string{"creationTimestamp", "resourceVersion", "deletionTimestamp"}
	if raw {
		fields = append(fields, "uid", "generation", "deletionGracePeriodSeconds")
	}
	for _, f := range fields {
		if v, ok := old[f]; ok {
			meta[f] = v
		} else {
			delete(meta, f)
		}
	}
	if meta["uid"] == nil || meta["uid"] == "" {
		meta["uid"] = old["uid"]
	}
	if old["deletionGracePeriodSeconds"] != nil && meta["deletionGracePeriodSeconds"] == nil {
		meta["deletionGracePeriodSeconds"] = old["deletionGracePeriodSeconds"]
	}
}

// prepareUpdate applies the kind's defaults and update rules to body, the
// new state of the stored object old, and validates it. An update of the
// object keeps the stored status; an update of /status keeps all but it.
func prepareUpdate(w writeRequest, body, old map[string]any) *APIError {
	st := strategyOf(w.ri)
	meta, oldMeta := metadata(body), metadata(old)
	if st.defaults != nil {
		st.defaults(body)
	}
	keepServerFields(meta, oldMeta, false)
	if gen, ok := oldMeta["generation"]; ok {
		meta["generation"] = gen
	} else {
		delete(meta, "generation")
	}
	switch {
	case w.subresource == "status":
		keepSpec(w.ri, body, old)
	case st.hasStatus:
		if status, ok := old["status"]; ok {
			body["status"] = deepCopy(status)
		} else {
			delete(body, "status")
		}
	}
	if st.prepareUpdate != nil && w.subresource == "" {
		st.prepareUpdate(body, old)
	}
	errs := validateObjectMeta(w.ri, st, meta, false)
	errs = append(errs, validateMetaUpdate(meta, oldMeta)...)
	if w.subresource == "status" && st.validateStatus != nil {
		errs = append(errs, st.validateStatus(body)...)
	}
	if w.subresource == "" {
		if st.validate != nil {
			errs = append(errs, st.validate(body)...)
		}
		if st.validateUpdate != nil {
			errs = append(errs, st.validateUpdate(body, old)...)
		}
	}
	if len(errs) > 0 {
		return errs.invalid(w.ri.kind, w.ri.Group, w.name)
	}
	if gen, _ := toInt(oldMeta["generation"]); st.generation && specChanged(body, old) {
		meta["generation"] = gen + 1
	}
	return nil
}

// updateLocked stores body as the new state of old (MODIFIED), unless the
// write is a dry run.
func (s *store) updateLocked(w writeRequest, old *object, body map[string]any) *object {
	if w.dryRun {
		return newObject(body, old.rv)
	}
	o := s.putLocked("MODIFIED", w.ri, body, old)
	s.observeLocked("MODIFIED", w.ri, o, old)
	return o
}

// deleteLocked removes old (DELETED), unless the write is a dry run, and
// returns its last state.
func (s *store) deleteLocked(w writeRequest, old *object) *object {
	if w.dryRun {
		return old
	}
	o := s.putLocked("DELETED", w.ri, deepCopy(old.body).(map[string]any), old)
	s.observeLocked("DELETED", w.ri, o, old)
	return o
}

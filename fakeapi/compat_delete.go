// compat_delete.go (compatibility layer): deleting an object, with
// DeleteOptions, as the real server does.
//
// The options come from the request body when there is one (the query is
// then ignored, as by the real handler), else from the query. They are
// checked before anything else: a bad propagationPolicy or dryRun is 422
// and deletes nothing. Preconditions on uid and resourceVersion must hold
// (409). A pod is deleted gracefully: it is first stamped with a
// deletionTimestamp (watchers see MODIFIED); an unscheduled pod is then
// deleted at once (DELETED), a pod bound to a node waits for its kubelet,
// which fakeapi does not have (see the docs): a second delete with
// gracePeriodSeconds=0 ends it. Orphan and Foreground propagation add a
// finalizer that the garbage collector removes (compat_gc_collector.go).
// client-go counterparts: metav1.DeleteOptions; the apiserver's delete
// handler (k8s.io/apiserver/pkg/endpoints/handlers/delete.go), rest.BeforeDelete
// and the generic registry Store.Delete. Tutorial: none.

package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// deleteOptions are the DeleteOptions of one delete.
type deleteOptions struct {
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *struct {
		UID             *string `json:"uid,omitempty"`
		ResourceVersion *string `json:"resourceVersion,omitempty"`
	} `json:"preconditions,omitempty"`
	OrphanDependents  *bool    `json:"orphanDependents,omitempty"`
	PropagationPolicy *string  `json:"propagationPolicy,omitempty"`
	DryRun            []string `json:"dryRun,omitempty"`
	Kind              string   `json:"kind,omitempty"`
	APIVersion        string   `json:"apiVersion,omitempty"`
}

// parseDeleteOptions reads the options of a delete from raw (the body) or,
// if it is empty, from q, and validates them.
func parseDeleteOptions(raw []byte, q url.Values) (deleteOptions, *APIError) {
	var o deleteOptions
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &o); err != nil {
			return o, errBadRequest(deleteDecodeError(raw, err))
		}
		if o.Kind != "" && o.Kind != "DeleteOptions" {
			return o, errBadRequest(fmt.Sprintf("no kind %q is registered for version %q in scheme \"pkg/runtime/scheme.go:111\"", o.Kind, o.APIVersion))
		}
	} else {
		if v := q.Get("gracePeriodSeconds"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return o, errBadRequest(fmt.Sprintf("strconv.ParseInt: parsing %q: invalid syntax", v))
			}
			o.GracePeriodSeconds = &n
		}
		if q.Has("propagationPolicy") {
			v := q.Get("propagationPolicy")
			o.PropagationPolicy = &v
		}
		if v := q.Get("orphanDependents"); v != "" {
			b := v == "true"
			o.OrphanDependents = &b
		}
		o.DryRun = q["dryRun"]
	}
	var errs fieldErrors
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		errs = append(errs, invalid("propagationPolicy", *o.PropagationPolicy, "orphanDependents and deletionPropagation cannot be both set"))
	}
	if p := o.PropagationPolicy; p != nil && *p != "Foreground" && *p != "Background" && *p != "Orphan" {
		errs = append(errs, notSupported("propagationPolicy", *p, "Foreground", "Background", "Orphan", "nil"))
	}
	for _, v := range o.DryRun {
		if v != "All" {
			errs = append(errs, notSupportedList("dryRun", o.DryRun, "All"))
			break
		}
	}
	if len(errs) > 0 {
		return o, errs.invalid("DeleteOptions", "meta.k8s.io", "")
	}
	return o, nil
}

// readDeleteOptions reads a delete's body as JSON; kubectl and client-go
// may send it as protobuf (compat_protobuf.go).
func readDeleteOptions(r *http.Request, ri *resourceInfo) ([]byte, *APIError) {
	raw, e := readBody(r)
	if e == nil && mediaType(r) == protobufMediaType && len(raw) > 0 {
		var opts map[string]any
		if opts, e = decodeProtobuf(raw, ri, "DeleteOptions"); e == nil {
			raw, _ = json.Marshal(opts)
		}
	}
	return raw, e
}

// deleteDecodeError words a body that is not DeleteOptions JSON.
func deleteDecodeError(raw []byte, err error) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "couldn't get version/kind; json parse error: " + err.Error()
	}
	return err.Error()
}

// dryRun reports whether o asks for a dry run.
func (o deleteOptions) dryRun() bool { return len(o.DryRun) > 0 }

// serveDelete deletes one object. Pods and namespaces (returnDeleted)
// answer with the object, other kinds with a Success Status, unless the
// object is not gone yet (a finalizer or a grace period holds it): then the
// answer is the object as it now is.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request, req writeRequest) {
	raw, e := readDeleteOptions(r, req.ri)
	if e != nil {
		writeError(w, e)
		return
	}
	opts, e := parseDeleteOptions(raw, r.URL.Query())
	if e != nil {
		writeError(w, e)
		return
	}
	req.dryRun = opts.dryRun()
	o, gone, e := s.st.remove(req, opts)
	if e != nil {
		writeError(w, e)
		return
	}
	code := http.StatusOK
	if !gone && opts.OrphanDependents != nil && !*opts.OrphanDependents {
		code = http.StatusAccepted
	}
	if req.ri.returnDeleted || !gone {
		s.writeObject(w, r, req.ri, code, o.body)
		return
	}
	writeStatus(w, code, successStatus(req.ri, o))
}

// successStatus is the Status a delete answers for a kind that does not
// return the deleted object.
func successStatus(ri *resourceInfo, o *object) statusBody {
	uid, _ := metadata(o.body)["uid"].(string)
	return statusBody{Kind: "Status", APIVersion: "v1", Metadata: map[string]any{}, Status: "Success",
		Details: &statusDetails{Name: o.name, Group: ri.Group, Kind: ri.Resource.Resource, UID: uid}}
}

// remove deletes the object w names, as opts say. It returns the object
// as it is after the request and whether it is gone.
func (s *store) remove(w writeRequest, opts deleteOptions) (*object, bool, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.removeLocked(w, opts)
}

func (s *store) removeLocked(w writeRequest, opts deleteOptions) (*object, bool, *APIError) {
	key := objectKey(w.ns, w.name)
	old := s.objects[w.ri][key]
	if old == nil {
		return nil, false, errNotFound(w.ri, w.name)
	}
	if e := checkPreconditions(w.ri, old, opts); e != nil {
		return nil, false, e
	}
	if w.ri.Resource == Namespaces {
		return s.deleteNamespaceLocked(w, old)
	}
	if g := opts.GracePeriodSeconds; g != nil && *g < 0 {
		one := int64(1) // a negative grace period means one second
		opts.GracePeriodSeconds = &one
	}
	body := deepCopy(old.body).(map[string]any)
	meta := metadata(body)
	now := time.Now().UTC()
	if _, deleting := meta["deletionTimestamp"]; deleting {
		return s.removeAgainLocked(w, old, body, opts, now)
	}
	period, graceful := gracePeriod(w.ri, body, opts)
	fins, changed := gcFinalizers(finalizers(meta), opts)
	if changed {
		meta["finalizers"] = toAnyList(fins)
	}
	if graceful {
		meta["deletionTimestamp"] = now.Add(time.Duration(period) * time.Second).Format(time.RFC3339)
		meta["deletionGracePeriodSeconds"] = period
		if gen, ok := toInt(meta["generation"]); ok && gen > 0 {
			meta["generation"] = gen + 1
		}
	} else if len(fins) > 0 {
		meta["deletionTimestamp"] = now.Format(time.RFC3339)
		meta["deletionGracePeriodSeconds"] = int64(0)
		if gen, ok := toInt(meta["generation"]); ok && gen > 0 {
			meta["generation"] = gen + 1
		}
	}
	if !graceful && len(fins) == 0 {
		return s.deleteLocked(w, old), true, nil
	}
	o := s.updateLocked(w, old, body)
	if len(fins) > 0 || period > 0 {
		return o, false, nil // the garbage collector acts on its finalizers when the write is done
	}
	return s.deleteLocked(w, o), true, nil
}

// removeAgainLocked is a delete of an object already being deleted: it
// may only shorten the grace period; with no grace period left, or none
// set, the object goes now (unless a finalizer holds it).
func (s *store) removeAgainLocked(w writeRequest, old *object, body map[string]any, opts deleteOptions, now time.Time) (*object, bool, *APIError) {
	meta := metadata(body)
	grace, ok := toInt(meta["deletionGracePeriodSeconds"])
	switch {
	case !ok || grace == 0:
		if len(finalizers(meta)) > 0 {
			return old, false, nil
		}
		return s.deleteLocked(w, old), true, nil
	case opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds >= grace:
		return old, false, nil // pending: nothing changes
	}
	period := *opts.GracePeriodSeconds
	ts, _ := time.Parse(time.RFC3339, meta["deletionTimestamp"].(string))
	ts = ts.Add(time.Duration(period-grace) * time.Second)
	if ts.Before(now) {
		ts = now
		if period != 0 {
			period = 1
		}
	}
	meta["deletionTimestamp"] = ts.Format(time.RFC3339)
	meta["deletionGracePeriodSeconds"] = period
	o := s.updateLocked(w, old, body)
	if period > 0 || len(finalizers(meta)) > 0 {
		return o, false, nil
	}
	return s.deleteLocked(w, o), true, nil
}

// removeRaw is the direct Delete of the Go API: the object goes at once,
// a pod stamped as a graceful delete would leave it.
func (s *store) removeRaw(w writeRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.collectGarbageLocked()
	old := s.objects[w.ri][objectKey(w.ns, w.name)]
	if old == nil {
		return errNotFound(w.ri, w.name)
	}
	if w.ri.Resource == Pods {
		body := deepCopy(old.body).(map[string]any)
		meta := metadata(body)
		meta["deletionTimestamp"] = time.Now().UTC().Format(time.RFC3339)
		meta["deletionGracePeriodSeconds"] = int64(0)
		old = newObject(body, old.rv)
	}
	s.deleteLocked(w, old)
	return nil
}

// checkPreconditions checks the uid and resourceVersion preconditions of
// opts against the stored object, as the real server words it.
func checkPreconditions(ri *resourceInfo, old *object, opts deleteOptions) *APIError {
	pre := opts.Preconditions
	if pre == nil {
		return nil
	}
	uid, _ := metadata(old.body)["uid"].(string)
	if pre.UID != nil && *pre.UID != uid {
		return errPrecondition(ri, old.name, fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *pre.UID, uid))
	}
	if rv := strconv.FormatUint(old.rv, 10); pre.ResourceVersion != nil && *pre.ResourceVersion != rv {
		return errPrecondition(ri, old.name, fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *pre.ResourceVersion, rv))
	}
	return nil
}

// gracePeriod is the grace period a delete gives the object, and whether
// its kind is deleted gracefully at all (of the served kinds only pods
// are): a pod's own terminationGracePeriodSeconds by default, 0 if it is
// not bound to a node or has finished, at least 1 if negative.
func gracePeriod(ri *resourceInfo, body map[string]any, opts deleteOptions) (int64, bool) {
	if ri.Resource != Pods {
		return 0, false
	}
	spec, _ := body["spec"].(map[string]any)
	var period int64
	if opts.GracePeriodSeconds != nil {
		period = *opts.GracePeriodSeconds
	} else if p, ok := toInt(spec["terminationGracePeriodSeconds"]); ok {
		period = p
	}
	status, _ := body["status"].(map[string]any)
	if node, _ := spec["nodeName"].(string); node == "" || status["phase"] == "Failed" || status["phase"] == "Succeeded" {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period, true
}

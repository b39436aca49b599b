// compat_subresources.go (compatibility layer): /status and /scale, the parts
// of an object with their own endpoints.
//
// A kind with a status (pods, services, namespaces, nodes, and the apps
// kinds) serves GET, PUT and PATCH on {object}/status: the object comes
// back whole, but a write there changes only its status (metadata and spec
// stay as stored), while a write of the object itself keeps the stored
// status. Deployments, replica sets and stateful sets serve {object}/scale:
// an autoscaling/v1 Scale whose spec.replicas is the object's.
// client-go counterparts: the status and scale REST storages of the
// apiserver (k8s.io/kubernetes/pkg/registry/*/storage: StatusREST,
// ScaleREST); client-go's UpdateStatus and GetScale/UpdateScale.
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"net/http"
)

// keepSpec prepares body, a write of ri's /status, as the real status
// strategies do: everything but metadata and status is the stored
// object's (old); metadata is the request's, except that a deployment
// keeps its labels and a pod its ownerReferences and qosClass.
func keepSpec(ri *resourceInfo, body, old map[string]any) {
	for k := range body {
		if _, ok := old[k]; !ok && k != "metadata" && k != "status" {
			delete(body, k)
		}
	}
	for k, v := range old {
		if k != "metadata" && k != "status" {
			body[k] = deepCopy(v)
		}
	}
	meta, oldMeta := metadata(body), metadata(old)
	keep := func(f string) {
		if v, ok := oldMeta[f]; ok {
			meta[f] = deepCopy(v)
		} else {
			delete(meta, f)
		}
	}
	switch ri.Resource {
	case Deployments:
		keep("labels")
	case Pods:
		keep("ownerReferences")
		status := child(body, "status")
		if oldStatus, _ := old["status"].(map[string]any); status["qosClass"] == nil && oldStatus["qosClass"] != nil {
			status["qosClass"] = oldStatus["qosClass"]
		}
	}
}

// scaleInfo describes the Scale a /scale request reads and writes.
var scaleInfo = &resourceInfo{Resource: Resource{"autoscaling", "v1", "scale"}, kind: "Scale", singular: "scale"}

// serveScale answers GET, PUT and PATCH on an object's /scale.
func (s *Server) serveScale(w http.ResponseWriter, r *http.Request, req writeRequest) {
	if r.Method == http.MethodGet {
		o := s.st.get(req.ri, objectKey(req.ns, req.name))
		if o == nil {
			writeError(w, errNotFound(req.ri, req.name))
			return
		}
		writeJSON(w, http.StatusOK, scaleOf(o.body))
		return
	}
	var patch func(target map[string]any) (map[string]any, *APIError)
	switch r.Method {
	case http.MethodPut:
		body, e := decodeBody(w, r, scaleInfo)
		if e != nil {
			writeError(w, e)
			return
		}
		patch = func(map[string]any) (map[string]any, *APIError) { return body, nil }
	case http.MethodPatch:
		apply, e := s.patcher(w, r, req)
		if e != nil {
			writeError(w, e)
			return
		}
		patch = apply
	default:
		writeError(w, errMethodNotAllowed())
		return
	}
	o, _, e := s.st.modify(req, func(old map[string]any) (map[string]any, *APIError) {
		scale, e := patch(scaleOf(old))
		if e != nil {
			return nil, e
		}
		return applyScale(req.ri, old, scale)
	})
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, scaleOf(o.body))
}

// scaleOf is the Scale of a deployment, replica set or stateful set.
func scaleOf(obj map[string]any) map[string]any {
	meta := metadata(obj)
	spec, _ := obj["spec"].(map[string]any)
	status, _ := obj["status"].(map[string]any)
	sm := map[string]any{}
	for _, f := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if v, ok := meta[f]; ok {
			sm[f] = v
		}
	}
	replicas, _ := toInt(spec["replicas"])
	current, _ := toInt(status["replicas"])
	st := map[string]any{"replicas": current}
	if sel, _ := spec["selector"].(map[string]any); len(sel) > 0 {
		st["selector"] = selectorString(sel) // kubectl's form (compat_printers_apps.go), the real server's too
	}
	return map[string]any{"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": sm,
		"spec": map[string]any{"replicas": replicas}, "status": st}
}

// applyScale writes the replicas of scale into a copy of the object old,
// as the real server does: the Scale's resourceVersion is the object's.
func applyScale(ri *resourceInfo, old, scale map[string]any) (map[string]any, *APIError) {
	name, _ := metadata(old)["name"].(string)
	spec, _ := scale["spec"].(map[string]any)
	replicas, ok := toInt(spec["replicas"])
	if !ok && spec["replicas"] != nil {
		return nil, errBadRequest(fmt.Sprintf("Scale in version \"v1\" cannot be handled as a Scale: json: cannot unmarshal %v into Go value of type int32", spec["replicas"]))
	}
	if replicas < 0 {
		return nil, fieldErrors{invalid("spec.replicas", replicas, "must be greater than or equal to 0")}.invalid("Scale", "autoscaling", name)
	}
	body := deepCopy(old).(map[string]any)
	body["spec"].(map[string]any)["replicas"] = replicas
	rv, _ := metadata(scale)["resourceVersion"].(string)
	metadata(body)["resourceVersion"] = rv
	return body, nil
}

// subresourceAllowed reports whether ri serves sub ("status" or "scale").
func subresourceAllowed(ri *resourceInfo, sub string) bool {
	st := strategyOf(ri)
	return sub == "status" && st.hasStatus || sub == "scale" && st.scale
}

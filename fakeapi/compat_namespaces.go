// compat_namespaces.go (compatibility layer): namespaces' life: the four a
// cluster starts with, no new content in a missing or Terminating namespace,
// and a namespace's delete.
//
// Deleting a namespace marks it Terminating (watchers see MODIFIED); while
// it is, nothing new may be created in it (403). The namespace controller
// (compat_namespace_controller.go) then empties it and removes it.
// client-go counterparts: the NamespaceLifecycle admission plugin
// (k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle), the namespace
// registry (k8s.io/kubernetes/pkg/registry/core/namespace) and the namespace
// controller (k8s.io/kubernetes/pkg/controller/namespace). Tutorial: none.

package fakeapi

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// systemNamespaces are the namespaces a new cluster has; they may not be deleted.
var systemNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// namespaceInfo is the catalog entry of namespaces.
var namespaceInfo = lookup(Namespaces)

// seedNamespaces stores the system namespaces as part of the initial state.
func (s *store) seedNamespaces() {
	objs := map[string]*object{}
	for _, name := range systemNamespaces {
		body := map[string]any{"kind": "Namespace", "apiVersion": "v1",
			"metadata": map[string]any{"name": name, "uid": newUID(),
				"creationTimestamp": time.Now().UTC().Format(time.RFC3339),
				"labels":            map[string]any{"kubernetes.io/metadata.name": name}},
			"spec":   map[string]any{"finalizers": []any{"kubernetes"}},
			"status": map[string]any{"phase": "Active"}}
		objs[name] = newObject(body, s.rv)
	}
	s.objects[namespaceInfo] = objs
}

// admitCreateLocked refuses a new object of ri in namespace ns if ns does
// not exist (404) or is being deleted (403), as the NamespaceLifecycle
// admission plugin does before any validation.
func (s *store) admitCreateLocked(ri *resourceInfo, ns, name string) *APIError {
	if !ri.namespaced {
		return nil
	}
	n := s.objects[namespaceInfo][ns]
	if n == nil {
		return errNotFound(namespaceInfo, ns)
	}
	if status, _ := n.body["status"].(map[string]any); status["phase"] != "Terminating" {
		return nil
	}
	e := errForbidden(ri, name, fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", ns))
	e.Causes = []StatusCause{{Reason: "NamespaceTerminating", Message: fmt.Sprintf("namespace %s is being terminated", ns), Field: "metadata.namespace"}}
	return e
}

// errForbidden is the real server's 403 about object name of ri.
func errForbidden(ri *resourceInfo, name, why string) *APIError {
	return &APIError{Code: http.StatusForbidden, Reason: "Forbidden",
		Message: fmt.Sprintf("%s %q is forbidden: %s", ri.String(), name, why),
		Name:    name, Group: ri.Group, Kind: ri.Resource.Resource}
}

// deleteNamespaceLocked deletes a namespace: the first delete marks it
// Terminating and starts the namespace controller; a later one deletes
// it if no finalizer in its spec is left.
func (s *store) deleteNamespaceLocked(w writeRequest, old *object) (*object, bool, *APIError) {
	if slices.Contains(systemNamespaces, old.name) {
		return nil, false, errForbidden(w.ri, old.name, "this namespace may not be deleted")
	}
	meta := metadata(old.body)
	if meta["deletionTimestamp"] != nil {
		if spec, _ := old.body["spec"].(map[string]any); len(stringList(spec["finalizers"])) > 0 {
			return old, false, nil
		}
		return s.deleteLocked(w, old), true, nil
	}
	body := deepCopy(old.body).(map[string]any)
	metadata(body)["deletionTimestamp"] = time.Now().UTC().Format(time.RFC3339)
	status, _ := body["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		body["status"] = status
	}
	status["phase"] = "Terminating"
	o := s.updateLocked(w, old, body)
	if !w.dryRun {
		s.startNamespaceController(old.name, meta["uid"])
	}
	return o, false, nil
}

// stringList reads a JSON list of strings.
func stringList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

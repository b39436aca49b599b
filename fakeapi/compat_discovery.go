// compat_discovery.go (compatibility layer): the documents that tell kubectl
// what the server serves.
//
// /version, /api, /api/v1, /apis, /apis/{group} and /apis/{group}/{version}
// answer with the legacy (non-aggregated) discovery documents, which every
// client falls back to. /healthz, /readyz and /livez answer "ok".
// client-go counterpart: k8s.io/client-go/discovery (the client side) and the
// apiserver's discovery handlers. Tutorial: none.

package fakeapi

import (
	"net/http"
	"slices"
	"strings"
)

// verbs are the verbs every served resource supports; all but namespaces
// also deletecollection (compat_deletecollection.go), as on the real server.
var verbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

// subresourceVerbs are the verbs of /status and /scale (compat_subresources.go).
var subresourceVerbs = []string{"get", "patch", "update"}

// serveNonResource answers what is not a resource: the debug endpoints
// (faults_debug.go), discovery and health, and the OpenAPI documents
// (compat_openapi.go). It reports false for a resource path.
func (s *Server) serveNonResource(w http.ResponseWriter, r *http.Request) bool {
	return s.serveDebug(w, r) || s.serveDiscovery(w, r) || s.serveOpenAPI(w, r)
}

// serveDiscovery answers discovery and health paths; it reports false for
// any other path.
func (s *Server) serveDiscovery(w http.ResponseWriter, r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch path {
	case "/healthz", "/readyz", "/livez":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok"))
		return true
	case "/version":
		writeJSON(w, http.StatusOK, map[string]any{
			"major": "1", "minor": "37", "gitVersion": "v1.37.2-fakeapi", "gitCommit": "fakeapi",
			"gitTreeState": "clean", "buildDate": "2026-12-02T00:00:00Z", "goVersion": "go1.26",
			"compiler": "gc", "platform": "linux/amd64",
		})
		return true
	case "/api":
		writeJSON(w, http.StatusOK, map[string]any{
			"kind": "APIVersions", "versions": []string{"v1"},
			"serverAddressByClientCIDRs": []any{map[string]any{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}},
		})
		return true
	case "/apis":
		var groups []any
		for _, gv := range groupVersions() {
			if gv[0] != "" {
				groups = append(groups, apiGroup(gv[0], gv[1]))
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
		return true
	}
	for _, gv := range groupVersions() {
		prefix := "/api/" + gv[1]
		if gv[0] != "" {
			prefix = "/apis/" + gv[0] + "/" + gv[1]
			if path == "/apis/"+gv[0] {
				g := apiGroup(gv[0], gv[1])
				g["kind"], g["apiVersion"] = "APIGroup", "v1"
				writeJSON(w, http.StatusOK, g)
				return true
			}
		}
		if path == prefix {
			writeJSON(w, http.StatusOK, resourceList(gv[0], gv[1]))
			return true
		}
	}
	return false
}

// apiGroup is the discovery entry of a group with one version.
func apiGroup(group, version string) map[string]any {
	gv := map[string]any{"groupVersion": group + "/" + version, "version": version}
	return map[string]any{"name": group, "versions": []any{gv}, "preferredVersion": gv}
}

// resourceList is the APIResourceList of one group/version.
func resourceList(group, version string) map[string]any {
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	var resources []any
	for _, ri := range catalog {
		if ri.Group != group || ri.Version != version {
			continue
		}
		v := verbs
		if ri.Resource == Namespaces {
			v = slices.DeleteFunc(slices.Clone(verbs), func(s string) bool { return s == "deletecollection" })
		}
		res := map[string]any{
			"name": ri.Resource.Resource, "singularName": ri.singular, "namespaced": ri.namespaced,
			"kind": ri.kind, "verbs": v,
		}
		if len(ri.shortNames) > 0 {
			res["shortNames"] = ri.shortNames
		}
		switch ri.Resource.Resource { // what `kubectl get all` shows
		case "pods", "services", "deployments", "replicasets", "statefulsets", "daemonsets":
			res["categories"] = []string{"all"}
		}
		resources = append(resources, res)
		for _, sub := range []string{"scale", "status"} {
			if !subresourceAllowed(ri, sub) {
				continue
			}
			s := map[string]any{"name": ri.Resource.Resource + "/" + sub, "singularName": "", "namespaced": ri.namespaced,
				"kind": ri.kind, "verbs": subresourceVerbs}
			if sub == "scale" {
				s["kind"], s["group"], s["version"] = "Scale", "autoscaling", "v1"
			}
			resources = append(resources, s)
		}
	}
	return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}
}

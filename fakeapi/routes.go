// routes.go: the kinds the server knows, where they live in a URL, and the
// one place a request for them is sent on: a GET of a collection is a list
// or a watch (list.go, watch.go); anything else goes to the compatibility
// layer (serveObject in compat_handlers.go).
//
// Paths follow the real server: /api/v1/{resource} (cluster-scoped kinds and
// all-namespace lists), /api/v1/namespaces/{ns}/{resource}[/{name}], and the
// same under /apis/{group}/{version}/ for group kinds. The server stores
// every kind the same way (as JSON maps); the catalog only says where a kind
// is served, what it is called, and whether it lives in a namespace.
// client-go counterparts: the RESTMapper and metav1.APIResource; on the
// client side, rest.Request builds these URLs. Reading path: step 2.
// Tutorial: 004 §2.5 (a list and a watch: GETs of one collection's URL).

package fakeapi

import (
	"net/http"
	"strings"
)

// Resource names a collection of objects on the server, as it appears in a
// URL: /api/{Version}/{Resource} for the core group (Group == ""), or
// /apis/{Group}/{Version}/{Resource}.
type Resource struct {
	Group    string // "" for the core group
	Version  string // "v1"
	Resource string // lower-case plural, e.g. "pods"
}

// String renders r as "pods" or "deployments.apps", as kubectl does.
func (r Resource) String() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// The resources tests use most. Every one is served over HTTP too.
var (
	Pods        = Resource{"", "v1", "pods"}
	ConfigMaps  = Resource{"", "v1", "configmaps"}
	Secrets     = Resource{"", "v1", "secrets"}
	Services    = Resource{"", "v1", "services"}
	Namespaces  = Resource{"", "v1", "namespaces"}
	Nodes       = Resource{"", "v1", "nodes"}
	Deployments = Resource{"apps", "v1", "deployments"}
)

// resourceInfo is everything the server knows about one resource.
type resourceInfo struct {
	Resource
	kind       string   // "Pod"
	singular   string   // "pod"
	namespaced bool     // lives under /namespaces/{ns}/
	shortNames []string // kubectl's abbreviations
	// returnDeleted: DELETE answers with the deleted object (as the real
	// server does for pods) instead of a Success Status.
	returnDeleted bool
}

// apiVersion is the value of the "apiVersion" field of this kind's objects.
func (ri *resourceInfo) apiVersion() string {
	if ri.Group == "" {
		return ri.Version
	}
	return ri.Group + "/" + ri.Version
}

// catalog lists every served resource, in discovery order.
var catalog = []*resourceInfo{
	{Resource: Pods, kind: "Pod", singular: "pod", namespaced: true, shortNames: []string{"po"}, returnDeleted: true},
	{Resource: ConfigMaps, kind: "ConfigMap", singular: "configmap", namespaced: true, shortNames: []string{"cm"}},
	{Resource: Secrets, kind: "Secret", singular: "secret", namespaced: true},
	{Resource: Services, kind: "Service", singular: "service", namespaced: true, shortNames: []string{"svc"}, returnDeleted: true},
	{Resource: Resource{"", "v1", "serviceaccounts"}, kind: "ServiceAccount", singular: "serviceaccount", namespaced: true, shortNames: []string{"sa"}},
	{Resource: Resource{"", "v1", "events"}, kind: "Event", singular: "event", namespaced: true, shortNames: []string{"ev"}},
	{Resource: Namespaces, kind: "Namespace", singular: "namespace", shortNames: []string{"ns"}, returnDeleted: true},
	{Resource: Nodes, kind: "Node", singular: "node", shortNames: []string{"no"}},
	{Resource: Deployments, kind: "Deployment", singular: "deployment", namespaced: true, shortNames: []string{"deploy"}},
	{Resource: Resource{"apps", "v1", "replicasets"}, kind: "ReplicaSet", singular: "replicaset", namespaced: true, shortNames: []string{"rs"}},
	{Resource: Resource{"apps", "v1", "statefulsets"}, kind: "StatefulSet", singular: "statefulset", namespaced: true, shortNames: []string{"sts"}},
	{Resource: Resource{"apps", "v1", "daemonsets"}, kind: "DaemonSet", singular: "daemonset", namespaced: true, shortNames: []string{"ds"}},
}

// lookup finds a served resource, or nil.
func lookup(r Resource) *resourceInfo {
	for _, ri := range catalog {
		if ri.Resource == r {
			return ri
		}
	}
	return nil
}

// objectKey is the storage key of an object: "namespace/name", or "name"
// for cluster-scoped kinds. Keys sort the way the real server lists.
func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// route is what a resource URL names.
type route struct {
	ri   *resourceInfo
	ns   string // "" for cluster-scoped kinds and all-namespace lists
	name string // "" for the collection
	sub  string // "status" or "scale" (compat_subresources.go), else ""
}

// parseRoute maps a URL path to a resource, namespace and name.
func parseRoute(path string) (route, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var group, version string
	var rest []string
	switch {
	case len(segs) >= 3 && segs[0] == "api":
		version, rest = segs[1], segs[2:]
	case len(segs) >= 4 && segs[0] == "apis":
		group, version, rest = segs[1], segs[2], segs[3:]
	default:
		return route{}, false
	}
	var rt route
	switch {
	case len(rest) == 3 && rest[0] == "namespaces" && lookup(Resource{group, version, rest[2]}) == nil:
		// a namespace's own subresource: /api/v1/namespaces/{name}/status
	case len(rest) >= 3 && rest[0] == "namespaces":
		rt.ns, rest = rest[1], rest[2:]
	}
	if len(rest) > 3 || rest[0] == "" {
		return route{}, false
	}
	rt.ri = lookup(Resource{group, version, rest[0]})
	if len(rest) >= 2 {
		rt.name = rest[1]
	}
	if len(rest) == 3 {
		rt.sub = rest[2]
	}
	switch {
	case rt.ri == nil:
		return route{}, false
	case rt.sub != "" && !subresourceAllowed(rt.ri, rt.sub):
		return route{}, false
	case !rt.ri.namespaced && rt.ns != "":
		return route{}, false
	case rt.ri.namespaced && rt.ns == "" && rt.name != "":
		return route{}, false
	}
	return rt, true
}

// serveResource answers a request for a resource or an object: a list or a
// watch here, everything else in the compatibility layer.
func (s *Server) serveResource(w http.ResponseWriter, r *http.Request) {
	rt, ok := parseRoute(r.URL.Path)
	if !ok {
		writeError(w, errNoRoute(r.URL.Path)) // compat_handlers.go: the real server's 404s
		return
	}
	if rt.name == "" && r.Method == http.MethodGet {
		s.serveListOrWatch(w, r, rt)
		return
	}
	s.serveObject(w, r, rt) // compat_handlers.go: get, create, update, patch, delete
}

// serveListOrWatch answers GET on a collection.
func (s *Server) serveListOrWatch(w http.ResponseWriter, r *http.Request, rt route) {
	o, e := parseListOptions(r, rt.ri)
	if e != nil {
		writeError(w, e)
		return
	}
	if o.watch {
		s.watches.Add(1)
		s.serveWatch(w, r, rt.ri, rt.ns, o)
		return
	}
	s.lists.Add(1)
	list, e := s.list(r, rt.ri, rt.ns, o)
	if e != nil {
		writeError(w, e)
		return
	}
	if o.as != nil || inProtobuf(w) { // compat_protoanswer.go: a Table, metadata only, protobuf
		writeListAs(w, rt.ri, o.as, list)
		return
	}
	writeList(w, list)
}

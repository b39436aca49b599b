// resources.go: the kinds the fake API server knows, and where they live.
//
// The server stores every kind the same way (as JSON maps); this table only
// says where a kind is served, what it is called, and whether it lives in a
// namespace. client-go counterpart: the RESTMapper and the discovery
// documents (k8s.io/apimachinery/pkg/apis/meta/v1.APIResource).
// Tutorial: 000 §2.5 (the API server's paths and verbs).

package fakeapi

import "strings"

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

// hasGeneration reports whether objects of this kind carry
// metadata.generation. The real server sets it on kinds with a spec.
func (ri *resourceInfo) hasGeneration(body map[string]any) bool {
	_, ok := body["spec"]
	return ok
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

// initialPhase is the status.phase the real server gives a new object that
// has no status: a namespace is Active at once, and a pod stays Pending on
// a cluster without a scheduler or kubelet.
var initialPhase = map[Resource]string{Pods: "Pending", Namespaces: "Active"}

// lookup finds a served resource, or nil.
func lookup(r Resource) *resourceInfo {
	for _, ri := range catalog {
		if ri.Resource == r {
			return ri
		}
	}
	return nil
}

// groupVersions lists the group/versions of the catalog, core group first,
// each once, in catalog order: ("", "v1"), ("apps", "v1").
func groupVersions() [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, ri := range catalog {
		k := ri.Group + "/" + ri.Version
		if !seen[k] {
			seen[k] = true
			out = append(out, [2]string{ri.Group, ri.Version})
		}
	}
	return out
}

// objectKey is the storage key of an object: "namespace/name", or "name"
// for cluster-scoped kinds. Keys sort the way the real server lists.
func objectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// validName reports whether name is a DNS-1123 subdomain, the rule the real
// server applies to most object names.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

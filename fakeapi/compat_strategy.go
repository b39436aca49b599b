// compat_strategy.go (compatibility layer): what the real server does
// differently per kind on a write.
//
// Every write runs the same steps (compat_writes.go); a kind's strategy fills in
// its part: defaults, the status a new object starts with, what an update
// of the object keeps (its status) and what a /status update keeps (all
// but the status), its validation, whether metadata.generation counts spec
// changes, and whether a PUT to a missing object creates it. The values
// are those of a real kube-apiserver v1.37.2 (testdata/writes).
// client-go counterparts: the apiserver's RESTCreateStrategy and
// RESTUpdateStrategy (k8s.io/apiserver/pkg/registry/rest) and each kind's
// strategy in k8s.io/kubernetes/pkg/registry. Tutorial: none.

package fakeapi

import "reflect"

// strategy is one kind's part in a write. Nil functions do nothing.
type strategy struct {
	// newStatus returns the status a new object starts with; nil keeps
	// what the client sent (as for nodes and kinds without a status).
	newStatus func(body map[string]any) any
	// hasStatus: the kind has a /status subresource, so an update of the
	// object keeps the stored status.
	hasStatus      bool
	generation     bool // metadata.generation counts changes of everything but metadata and status
	createOnUpdate bool // PUT to a missing object creates it
	scale          bool // the kind has a /scale subresource
	nameRule       func(name string) []string
	defaults       func(body map[string]any)
	prepareCreate  func(body map[string]any)
	prepareUpdate  func(body, old map[string]any)
	validate       func(body map[string]any) fieldErrors
	validateUpdate func(body, old map[string]any) fieldErrors
	validateStatus func(body map[string]any) fieldErrors // a write of /status
}

// strategyOf returns ri's strategy; a kind without one behaves like a
// config map: no status, no generation.
func strategyOf(ri *resourceInfo) *strategy {
	if st := strategies[ri.Resource]; st != nil {
		return st
	}
	return &strategy{}
}

// emptyStatus is the newStatus of kinds whose status starts empty.
func emptyStatus(map[string]any) any { return map[string]any{} }

// fixedStatus returns a newStatus giving a copy of status.
func fixedStatus(status map[string]any) func(map[string]any) any {
	return func(map[string]any) any { return deepCopy(status) }
}

var strategies = map[Resource]*strategy{
	Pods: {hasStatus: true, generation: true, newStatus: podStatus, defaults: podDefaults,
		validate: validatePod, validateUpdate: validatePodUpdate},
	ConfigMaps: {validate: validateConfigMap, validateUpdate: validateImmutableData},
	Secrets: {defaults: secretDefaults, prepareCreate: foldStringData, validate: validateSecret,
		prepareUpdate: func(body, _ map[string]any) { foldStringData(body) }, validateUpdate: validateSecretUpdate},
	Services: {hasStatus: true, createOnUpdate: true, newStatus: fixedStatus(map[string]any{"loadBalancer": map[string]any{}}),
		nameRule: dns1123Label, defaults: serviceDefaults, prepareUpdate: keepServiceAllocations,
		validate: validateService, validateUpdate: validateServiceUpdate, validateStatus: validateServiceStatus},
	{Group: "", Version: "v1", Resource: "events"}: {createOnUpdate: true},
	Namespaces: {hasStatus: true, newStatus: fixedStatus(map[string]any{"phase": "Active"}), nameRule: dns1123Label,
		defaults: namespaceDefaults, prepareCreate: namespaceFinalizer, prepareUpdate: keepNamespaceFinalizers, validateStatus: validateNamespaceStatus},
	Nodes: {hasStatus: true, defaults: nodeDefaults, prepareCreate: nodeTaint},
	Deployments: {hasStatus: true, generation: true, scale: true, newStatus: emptyStatus,
		defaults: deploymentDefaults, validate: validateWorkload, validateUpdate: validateWorkloadUpdate},
	{Group: "apps", Version: "v1", Resource: "replicasets"}: {hasStatus: true, generation: true, scale: true,
		newStatus: fixedStatus(map[string]any{"replicas": int64(0)}), defaults: replicaSetDefaults, validate: validateWorkload, validateUpdate: validateWorkloadUpdate},
	{Group: "apps", Version: "v1", Resource: "statefulsets"}: {hasStatus: true, generation: true, scale: true,
		newStatus: fixedStatus(map[string]any{"replicas": int64(0), "availableReplicas": int64(0)}), defaults: statefulSetDefaults, validate: validateWorkload, validateUpdate: validateWorkloadUpdate},
	{Group: "apps", Version: "v1", Resource: "daemonsets"}: {hasStatus: true, generation: true,
		newStatus: fixedStatus(map[string]any{"currentNumberScheduled": int64(0), "numberMisscheduled": int64(0), "desiredNumberScheduled": int64(0), "numberReady": int64(0)}),
		defaults:  daemonSetDefaults, validate: validateWorkload, validateUpdate: validateWorkloadUpdate,
		prepareCreate: func(body map[string]any) { child(metadata(body), "annotations")[templateGeneration] = "1" },
		prepareUpdate: bumpTemplateGeneration},
}

// specChanged reports whether anything but metadata and status differs,
// which is what bumps metadata.generation.
func specChanged(body, old map[string]any) bool {
	for k, v := range body {
		if k != "metadata" && k != "status" && !reflect.DeepEqual(v, old[k]) {
			return true
		}
	}
	for k := range old {
		if _, ok := body[k]; !ok && k != "metadata" && k != "status" {
			return true
		}
	}
	return false
}

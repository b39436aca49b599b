// writes_namespace_test.go: the namespace scenarios of realwrites_test.go:
// names and defaults of a new namespace, writes into a missing one, and a
// namespace's delete (Terminating, its objects deleted by the namespace
// controller, held by a pod that waits for its kubelet, then gone).

package fakeapi

// nsFields are the fields that tell a namespace's state.
var nsFields = []string{"kind", "metadata.name", "metadata.labels", "metadata.deletionTimestamp", "metadata.finalizers", "spec", "status"}

const (
	nsPath  = "/api/v1/namespaces/{ns}"
	nsWatch = "/api/v1/namespaces?fieldSelector=metadata.name%3D{ns}"
)

var namespaceScenarios = []wscenario{
	{name: "ns-create", steps: []wstep{
		{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"Bad_Name"}}`, same: true},
		{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"a.b"}}`, same: true},
		{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{}}`, same: true},
		{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"{ns}"}}`, same: true},
		{method: "POST", path: "/api/v1/namespaces", body: `{"metadata":{"name":"{ns}-x","namespace":"other","labels":{"team":"a"}},"spec":{"finalizers":["example.com/x"]},"status":{"phase":"Terminating"}}`, cmp: nsFields},
		{method: "GET", path: nsPath, cmp: nsFields},
		{method: "POST", path: "/api/v1/namespaces/{ns}-missing/configmaps", body: cmC, same: true},
		{method: "POST", path: "/api/v1/namespaces/{ns}-missing/pods", body: podP, same: true},
		{method: "PUT", path: "/api/v1/namespaces/{ns}-missing/configmaps/c", body: cmC, same: true},
		{method: "GET", path: "/api/v1/namespaces/{ns}-missing/configmaps/c"},
		{method: "GET", path: "/api/v1/namespaces/{ns}-missing/configmaps", cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "PUT", path: nsPath, body: `{"metadata":{"name":"{ns}","labels":{"kubernetes.io/metadata.name":"other"}}}`, cmp: nsFields},
		{method: "PATCH", path: nsPath, ctype: "application/merge-patch+json", body: `{"metadata":{"labels":null}}`, cmp: nsFields},
	}},
	{name: "ns-delete", steps: []wstep{
		{method: "POST", path: cmsNS, body: cmC},
		{method: "POST", path: podsNS, body: podBound},
		{method: "WATCH", path: cmsNS},
		{method: "WATCH", path: podsNS},
		{method: "WATCH", path: nsWatch},
		{method: "DELETE", path: nsPath, cmp: nsFields},
		// kube-controller-manager's namespace controller, which fakeapi runs itself:
		{method: "DELETE", path: cmsNS + "/c", realOnly: true},
		{method: "DELETE", path: podsNS + "/b", realOnly: true},
		{method: "GET", path: nsPath, cmp: nsFields},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"d"}}`, same: true},
		{method: "POST", path: podsNS, body: podP, same: true},
		// what the controller did (fakeapi: once its delay is over)
		{method: "EVENTS", path: cmsNS, cmp: []string{"metadata.name", "data"}},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "PATCH", path: podsNS + "/b", ctype: "application/merge-patch+json", body: `{"metadata":{"labels":{"k":"w"}}}`, cmp: []string{"metadata.labels", "metadata.deletionGracePeriodSeconds"}},
		{method: "DELETE", path: nsPath, cmp: nsFields},
		{method: "GET", path: nsPath, cmp: nsFields},
		// the kubelet, which neither has, ends the pod:
		{method: "DELETE", path: podsNS + "/b?gracePeriodSeconds=0", cmp: deleted},
		// the namespace controller again, with nothing left in the namespace:
		{method: "PUT", path: nsPath + "/finalize", body: `{"metadata":{"name":"{ns}"},"spec":{"finalizers":[]}}`, realOnly: true},
		{method: "DELETE", path: nsPath, realOnly: true},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "EVENTS", path: nsWatch, cmp: nsFields},
		{method: "GET", path: nsPath},
		{method: "GET", path: cmsNS + "/c"},
	}},
}

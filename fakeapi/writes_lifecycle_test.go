// writes_lifecycle_test.go: the scenarios of realwrites_test.go about what
// a cluster keeps across writes: a service's allocated cluster IP and node
// ports across a PUT that leaves them out, and a deleted namespace, which
// stays Terminating while the namespace controller empties it and is gone
// after (on the real server the controller's part is played by the
// realOnly steps; fakeapi runs it itself, compat_namespace_controller.go).

package fakeapi

const svcsPath = "/api/v1/namespaces/{ns}/services"

// svcFields are the fields of a service that an update may change or keep.
var svcFields = []string{"kind", "metadata.name", "metadata.generation", "spec", "status"}

var lifecycleScenarios = []wscenario{
	{name: "svc-put", steps: []wstep{
		{method: "POST", path: svcsPath, body: `{"metadata":{"name":"s1"},"spec":{"selector":{"app":"a"},"ports":[{"port":80}]}}`, cmp: svcFields},
		// a PUT without spec.clusterIP(s), ipFamilies and ipFamilyPolicy keeps what was allocated
		{method: "PUT", path: svcsPath + "/s1", body: `{"metadata":{"name":"s1"},"spec":{"selector":{"app":"b"},"ports":[{"port":80}]}}`, cmp: svcFields},
		// the same address as at create: the list by field selector finds it
		{method: "GET", path: svcsPath + "?fieldSelector=spec.clusterIP%3D{ip:s1}", cmp: itemNames},
		{method: "PUT", path: svcsPath + "/s1", body: `{"metadata":{"name":"s1"},"spec":{"selector":{"app":"b"},"ports":[{"port":80}],"clusterIP":"","clusterIPs":[]}}`, cmp: svcFields},
		{method: "GET", path: svcsPath + "?fieldSelector=spec.clusterIP%3D{ip:s1}", cmp: itemNames},
		{method: "PUT", path: svcsPath + "/s1", body: `{"metadata":{"name":"s1"},"spec":{"selector":{"app":"b"},"ports":[{"port":80}],"clusterIP":"10.0.0.251"}}`, same: true},
		{method: "PUT", path: svcsPath + "/s1", body: `{"metadata":{"name":"s1"},"spec":{"selector":{"app":"b"},"ports":[{"port":80}],"clusterIP":"None"}}`, same: true},
		{method: "GET", path: svcsPath + "/s1", cmp: svcFields},
		// a NodePort service keeps its node port too (random: compared by TestServicePutKeepsAllocations)
		{method: "POST", path: svcsPath, body: `{"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"name":"http","port":80}]}}`, cmp: []string{"spec.type", "spec.clusterIPs", "spec.ports.*.port"}},
		{method: "PUT", path: svcsPath + "/np", body: `{"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"name":"http","port":80}]}}`, cmp: []string{"spec.type", "spec.clusterIPs", "spec.ports.*.port"}},
		{method: "GET", path: svcsPath + "?fieldSelector=spec.clusterIP%3D{ip:np}", cmp: itemNames},
		// a PUT that changes the type to ExternalName lets the address go
		{method: "PUT", path: svcsPath + "/s1", body: `{"metadata":{"name":"s1"},"spec":{"type":"ExternalName","externalName":"example.com"}}`, cmp: svcFields},
	}},
	{name: "ns-terminating", steps: []wstep{
		{method: "POST", path: cmsNS, body: cmC},
		{method: "WATCH", path: cmsNS},
		{method: "WATCH", path: nsWatch},
		{method: "DELETE", path: nsPath, cmp: nsFields},
		// until the namespace controller has emptied it, the namespace is
		// Terminating, and nothing new may be created in it
		{method: "GET", path: nsPath, cmp: nsFields},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"d"}}`, same: true},
		{method: "PUT", path: svcsPath + "/s", body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`, same: true},
		{method: "PUT", path: cmsNS + "/c", body: `{"metadata":{"name":"c"},"data":{"k":"w"}}`, cmp: []string{"metadata.name", "data"}},
		{method: "GET", path: "/api/v1/namespaces?fieldSelector=status.phase%3DTerminating,metadata.name%3D{ns}", cmp: itemNames},
		// kube-controller-manager's namespace controller, which fakeapi runs itself:
		{method: "DELETE", path: cmsNS + "/c", realOnly: true},
		{method: "PUT", path: nsPath + "/finalize", body: `{"metadata":{"name":"{ns}"},"spec":{"finalizers":[]}}`, realOnly: true},
		{method: "EVENTS", path: cmsNS, cmp: []string{"metadata.name", "data"}},
		{method: "EVENTS", path: nsWatch, cmp: nsFields},
		{method: "GET", path: nsPath},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"e"}}`, same: true},
		{method: "GET", path: cmsNS, cmp: itemNames},
	}},
}

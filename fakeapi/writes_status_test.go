// writes_status_test.go: the status scenarios of realwrites_test.go: a new
// object's status, writes of the object that do not change it, the /status
// subresource of every kind that has one, and a deployment's /scale.

package fakeapi

// statusFields are what a status write may and may not change.
var statusFields = []string{"kind", "metadata.labels", "metadata.generation", "spec", "status"}

const (
	podWithStatus = `{"metadata":{"name":"p","labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"busybox"}]},"status":{"phase":"Running","podIP":"10.1.2.3"}}`
	deploysPath   = deploysNS + "/d"
)

var statusScenarios = []wscenario{
	{name: "status-pods", steps: []wstep{
		{method: "POST", path: podsNS, body: podWithStatus, cmp: []string{"status"}},
		{method: "PUT", path: podsNS + "/p", body: `{"metadata":{"name":"p","labels":{"app":"demo","v":"2"}},"spec":{"containers":[{"name":"main","image":"busybox"}]},"status":{"phase":"Failed"}}`,
			cmp: statusFields},
		{method: "PATCH", path: podsNS + "/p", ctype: "application/merge-patch+json", body: `{"status":{"phase":"Succeeded"}}`, cmp: statusFields},
		{method: "GET", path: podsNS + "/p/status", cmp: statusFields},
		{method: "PUT", path: podsNS + "/p/status", body: `{"metadata":{"name":"p","labels":{"changed":"by-status"}},"spec":{"containers":[{"name":"main","image":"busybox:9"}]},"status":{"phase":"Running","podIP":"10.1.2.3"}}`,
			cmp: statusFields},
		{method: "PATCH", path: podsNS + "/p/status", ctype: "application/merge-patch+json", body: `{"metadata":{"labels":{"x":"y"}},"status":{"phase":"Succeeded"}}`, cmp: statusFields},
		{method: "PATCH", path: podsNS + "/p/status", ctype: "application/strategic-merge-patch+json", body: `{"status":{"hostIP":"192.168.0.1"}}`, cmp: statusFields},
		{method: "PUT", path: podsNS + "/p/status", body: `{"metadata":{"name":"p","resourceVersion":"1"},"status":{}}`, same: true},
		{method: "GET", path: podsNS + "/p", cmp: statusFields},
		{method: "PUT", path: podsNS + "/nope/status", body: `{"metadata":{"name":"nope"},"status":{}}`, same: true},
		{method: "GET", path: cmsNS + "/c/status"},
		{method: "POST", path: podsNS + "/p/status", body: `{}`, same: true},
		{method: "DELETE", path: podsNS + "/p/status", same: true},
	}},
	{name: "status-deployments", steps: []wstep{
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":` + deploySpec + `,"status":{"replicas":5,"readyReplicas":5}}`, cmp: statusFields},
		{method: "PATCH", path: deploysPath, ctype: "application/merge-patch+json", body: `{"status":{"replicas":7}}`, cmp: statusFields},
		{method: "PATCH", path: deploysPath + "/status", ctype: "application/merge-patch+json", body: `{"spec":{"replicas":9},"status":{"replicas":1,"observedGeneration":1}}`, cmp: statusFields},
		{method: "GET", path: deploysPath + "/scale"},
		{method: "PUT", path: deploysPath + "/scale", body: `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"d"},"spec":{"replicas":3}}`},
		{method: "PATCH", path: deploysPath + "/scale", ctype: "application/merge-patch+json", body: `{"spec":{"replicas":4}}`},
		{method: "PUT", path: deploysPath + "/scale", body: `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"d","resourceVersion":"1"},"spec":{"replicas":3}}`, same: true},
		{method: "PUT", path: deploysPath + "/scale", body: `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"d"},"spec":{"replicas":-1}}`, same: true},
		{method: "GET", path: deploysPath, cmp: statusFields},
		{method: "GET", path: deploysNS + "/nope/scale"},
	}},
	{name: "status-others", steps: []wstep{
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]},"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}}`, cmp: []string{"status"}},
		{method: "PATCH", path: svcsNS + "/s/status", ctype: "application/merge-patch+json", body: `{"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}}}`, cmp: []string{"status"}},
		{method: "PATCH", path: nsPath + "/status", ctype: "application/merge-patch+json", body: `{"metadata":{"labels":{"x":"y"}},"status":{"phase":"Terminating"}}`, cmp: nsFields},
		{method: "POST", path: "/api/v1/nodes", body: `{"metadata":{"name":"{ns}-node"},"status":{"capacity":{"cpu":"4"}}}`, cmp: []string{"spec", "status"}},
		{method: "PATCH", path: "/api/v1/nodes/{ns}-node/status", ctype: "application/merge-patch+json", body: `{"status":{"capacity":{"cpu":"8"}}}`, cmp: []string{"status"}},
		{method: "POST", path: "/apis/apps/v1/namespaces/{ns}/replicasets", body: `{"metadata":{"name":"rs"},"spec":` + deploySpec + `,"status":{"replicas":5}}`, cmp: []string{"status"}},
		{method: "PATCH", path: "/apis/apps/v1/namespaces/{ns}/replicasets/rs/status", ctype: "application/merge-patch+json", body: `{"status":{"replicas":2}}`, cmp: []string{"status"}},
		{method: "GET", path: "/apis/apps/v1/namespaces/{ns}/replicasets/rs/scale"},
		{method: "GET", path: secretsNS + "/x/status"},
	}},
}

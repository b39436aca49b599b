// writes_misc_test.go: the remaining scenarios of realwrites_test.go: the
// defaults the real server fills in, PUT to a missing object, delete of a
// collection, JSON patch, field selectors on lists and watches, and the
// patch types the server takes.

package fakeapi

var defaultScenarios = []wscenario{
	{name: "defaults", steps: []wstep{
		{method: "POST", path: podsNS, body: podP, cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: podsNS, body: pod("limits", `{"containers":[{"name":"main","image":"busybox:1.36","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}`),
			cmp: []string{"spec", "status"}},
		{method: "POST", path: podsNS, body: pod("latest", `{"containers":[{"name":"main","image":"busybox:latest","ports":[{"containerPort":80}]}],"initContainers":[{"name":"init","image":"busybox"}]}`),
			cmp: []string{"spec", "status"}},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"selector":{"app":"demo"},"ports":[{"port":80}]}}`, cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"name":"http","port":80,"targetPort":"http"}]}}`, cmp: []string{"spec.type", "spec.ports.0.protocol", "spec.externalTrafficPolicy", "spec.sessionAffinity"}},
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":` + deploySpec + `}`, cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"}}`, cmp: []string{"metadata", "type", "data"}},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"c"}}`, cmp: []string{"metadata", "data"}},
		{method: "POST", path: "/api/v1/namespaces/{ns}/serviceaccounts", body: `{"metadata":{"name":"sa"}}`, cmp: []string{"metadata"}},
		{method: "POST", path: "/apis/apps/v1/namespaces/{ns}/replicasets", body: `{"metadata":{"name":"rs"},"spec":` + deploySpec + `}`, cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: "/apis/apps/v1/namespaces/{ns}/statefulsets", body: `{"metadata":{"name":"ss"},"spec":` + deploySpec + `}`, cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: "/apis/apps/v1/namespaces/{ns}/daemonsets", body: `{"metadata":{"name":"ds"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"main","image":"nginx"}]}}}}`,
			cmp: []string{"metadata", "spec", "status"}},
		{method: "POST", path: "/api/v1/nodes", body: `{"metadata":{"name":"{ns}-n"}}`, cmp: []string{"metadata", "spec", "status"}},
	}},
}

var miscScenarios = []wscenario{
	{name: "put-creates", steps: []wstep{
		{method: "PUT", path: cmsNS + "/c", body: cmC},
		{method: "PUT", path: secretsNS + "/s", body: `{"metadata":{"name":"s"}}`},
		{method: "PUT", path: podsNS + "/p", body: podP},
		{method: "PUT", path: svcsNS + "/s", body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`},
		{method: "PUT", path: "/api/v1/namespaces/{ns}/serviceaccounts/sa", body: `{"metadata":{"name":"sa"}}`},
		{method: "PUT", path: "/api/v1/namespaces/{ns}/events/e", body: `{"metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"p","namespace":"{ns}"},"reason":"R","message":"m","type":"Normal"}`},
		{method: "PUT", path: "/api/v1/namespaces/{ns}-new", body: `{"metadata":{"name":"{ns}-new"}}`},
		{method: "PUT", path: "/api/v1/nodes/{ns}-n", body: `{"metadata":{"name":"{ns}-n"}}`},
		{method: "PUT", path: deploysPath, body: `{"metadata":{"name":"d"},"spec":` + deploySpec + `}`},
		{method: "PUT", path: "/apis/apps/v1/namespaces/{ns}/replicasets/rs", body: `{"metadata":{"name":"rs"},"spec":` + deploySpec + `}`},
		{method: "PUT", path: "/apis/apps/v1/namespaces/{ns}/statefulsets/ss", body: `{"metadata":{"name":"ss"},"spec":` + deploySpec + `}`},
		{method: "PUT", path: "/apis/apps/v1/namespaces/{ns}/daemonsets/ds", body: `{"metadata":{"name":"ds"},"spec":` + deploySpec + `}`},
		{method: "PUT", path: cmsNS + "/c2", body: `{"metadata":{"name":"c2","resourceVersion":"5"}}`},
		{method: "PATCH", path: cmsNS + "/c3", ctype: "application/merge-patch+json", body: `{"data":{"k":"v"}}`},
	}},
	{name: "deletecollection", steps: []wstep{
		{method: "POST", path: podsNS, body: podP},
		{method: "POST", path: podsNS, body: podQ},
		{method: "POST", path: podsNS, body: `{"metadata":{"name":"r","labels":{"app":"other"}},"spec":{"containers":[{"name":"main","image":"busybox"}]}}`},
		{method: "POST", path: cmsNS, body: cmC},
		{method: "WATCH", path: podsNS},
		{method: "DELETE", path: podsNS + "?labelSelector=app%3Dnone", cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "DELETE", path: podsNS + "?labelSelector=app%3Ddemo", cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "EVENTS", path: podsNS, cmp: []string{"metadata.name"}},
		{method: "DELETE", path: podsNS + "?fieldSelector=metadata.name%3Dr", cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "DELETE", path: cmsNS, cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "DELETE", path: podsNS + "?fieldSelector=spec.bogus%3Dx", same: true},
		{method: "DELETE", path: "/api/v1/namespaces", same: true},
		{method: "GET", path: "/api/v1", cmp: []string{"kind"}},
		{method: "GET", path: "/apis/apps/v1", cmp: []string{"kind"}},
	}},
	{name: "json-patch", steps: []wstep{
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"c","labels":{"a":"1"}},"data":{"k":"v","list":"x"}}`},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json",
			body: `[{"op":"add","path":"/data/n","value":"new"},{"op":"replace","path":"/data/k","value":"w"},{"op":"remove","path":"/metadata/labels/a"},` +
				`{"op":"copy","from":"/data/n","path":"/data/copied"},{"op":"move","from":"/data/list","path":"/data/moved"},{"op":"test","path":"/data/k","value":"w"},` +
				`{"op":"add","path":"/metadata/labels","value":{"x~1y":"z"}}]`,
			cmp: []string{"data", "metadata.labels"}},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"test","path":"/data/k","value":"other"},{"op":"replace","path":"/data/k","value":"bad"}]`, same: true},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"remove","path":"/data/missing"}]`, same: true},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"replace","path":"/data/missing","value":"x"}]`, cmp: []string{"data"}}, // adds it
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"frob","path":"/data/k"}]`, same: true},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `{"op":"add"}`, same: true},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"add","path":"/metadata/name","value":"other"}]`, same: true},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[]`, cmp: []string{"data"}},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/json-patch+json", body: `[{"op":"add","path":"/data/~0t","value":"tilde"},{"op":"test","path":"/data","value":{"copied":"new","k":"w","moved":"x","n":"new","~t":"tilde"}}]`,
			cmp: []string{"data"}},
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/foo", body: `{}`, same: true},
		// server-side apply: fakeapi answers it as a server without the feature (415, as above)
		{method: "PATCH", path: cmsNS + "/c", ctype: "application/apply-patch+yaml", body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"applied"}}`, realOnly: true},
	}},
	{name: "field-selectors", steps: []wstep{
		{method: "POST", path: podsNS, body: podP},
		{method: "POST", path: podsNS, body: `{"metadata":{"name":"b"},"spec":{"nodeName":"node-1","restartPolicy":"Never","serviceAccountName":"sa","schedulerName":"other","containers":[{"name":"main","image":"busybox"}]}}`},
		{method: "WATCH", path: podsNS + "?fieldSelector=status.phase%3DPending"},
		{method: "GET", path: podsNS + "?fieldSelector=spec.nodeName%3Dnode-1", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=spec.nodeName%3D", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=spec.restartPolicy%3DNever", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=spec.schedulerName%3Ddefault-scheduler", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=spec.serviceAccountName%3Dsa", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=status.podIP%3D", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=status.nominatedNodeName%3D,spec.hostNetwork%3Dfalse", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=metadata.namespace%3D{ns},metadata.name!%3Dp", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=spec.containers.name%3Dmain"},
		{method: "GET", path: podsNS + "?fieldSelector=status.phase%3DPending%3D", cmp: itemNames},
		{method: "GET", path: podsNS + "?fieldSelector=status.phase+in+(Pending)"},
		{method: "PATCH", path: podsNS + "/b/status", ctype: "application/merge-patch+json", body: `{"status":{"phase":"Running"}}`},
		{method: "EVENTS", path: podsNS + "?fieldSelector=status.phase%3DPending", cmp: []string{"metadata.name", "status.phase"}},
		{method: "GET", path: secretsNS + "?fieldSelector=type%3DOpaque", cmp: itemNames},
		{method: "GET", path: "/api/v1/namespaces?fieldSelector=status.phase%3DTerminating", cmp: itemNames},
		{method: "GET", path: "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse", cmp: []string{"kind"}},
		{method: "GET", path: svcsNS + "?fieldSelector=spec.clusterIP%3DNone", cmp: itemNames},
		{method: "GET", path: svcsNS + "?fieldSelector=spec.type%3DClusterIP", cmp: itemNames},
		{method: "GET", path: "/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.kind%3DPod,reason%3DX,type%3DNormal,source%3Dx,involvedObject.uid%3D", cmp: itemNames},
		{method: "GET", path: "/apis/apps/v1/namespaces/{ns}/replicasets?fieldSelector=status.replicas%3D0", cmp: itemNames},
		{method: "GET", path: deploysNS + "?fieldSelector=status.replicas%3D0"},
		{method: "GET", path: cmsNS + "?fieldSelector=data.k%3Dv"},
	}},
}

// itemNames compares the names of a list's items.
var itemNames = []string{"kind", "items.*.metadata.name"}

// writes_validation_test.go: the validation scenarios of realwrites_test.go:
// what the real server refuses (and accepts) on the kinds fakeapi serves:
// names, labels and annotations, resourceVersion on create, pods, the
// immutable pod spec, services, deployments, config maps and secrets.

package fakeapi

import "strings"

// pod returns a pod manifest named name with the given spec.
func pod(name, spec string) string {
	return `{"metadata":{"name":"` + name + `"},"spec":` + spec + `}`
}

const (
	oneContainer = `{"containers":[{"name":"main","image":"busybox"}]}`
	svcsNS       = "/api/v1/namespaces/{ns}/services"
	secretsNS    = "/api/v1/namespaces/{ns}/secrets"
	deploysNS    = "/apis/apps/v1/namespaces/{ns}/deployments"
	deploySpec   = `{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"main","image":"nginx"}]}}}`
)

var (
	mib     = 1 << 20
	bigData = `{"metadata":{"name":"big"},"data":{"k":"` + strings.Repeat("x", mib+1) + `"}}`
	fitData = `{"metadata":{"name":"fit"},"data":{"k":"` + strings.Repeat("x", mib) + `"}}`
)

var validationScenarios = []wscenario{
	{name: "valid-names", steps: []wstep{
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"Bad_Name"}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"generateName":"bad-"}}`, cmp: []string{"metadata.generateName"}},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"` + strings.Repeat("a", 254) + `"}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a.b-c"}}`, cmp: []string{"metadata.name"}},
		{method: "POST", path: podsNS, body: pod("a.b", oneContainer), cmp: []string{"metadata.name"}},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"a.b"},"spec":{"ports":[{"port":80}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"1abc"},"spec":{"ports":[{"port":80}]}}`, cmp: []string{"metadata.name"}},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"x","resourceVersion":"5"}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"y","uid":"00000000-0000-4000-8000-000000000000","creationTimestamp":"2020-01-01T00:00:00Z","generation":7,"deletionTimestamp":"2020-01-01T00:00:00Z"}}`,
			cmp: []string{"metadata.generation", "metadata.deletionTimestamp"}},
	}},
	{name: "valid-labels", steps: []wstep{
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","labels":{"bad key":"v"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","labels":{"k":"-bad"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","labels":{"k":"` + strings.Repeat("v", 64) + `"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","labels":{"Bad_Prefix/k":"v"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","annotations":{"bad key":"v"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","annotations":{"k":"` + strings.Repeat("v", 256*1024) + `"}}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a","labels":{"example.com/k":"","k.2":"V_1"},"annotations":{"example.com/any":"spaces and / are fine"}}}`,
			cmp: []string{"metadata.labels", "metadata.annotations"}},
		{method: "PUT", path: cmsNS + "/a", body: `{"metadata":{"name":"a","labels":{"bad key":"v"}}}`, same: true},
	}},
	{name: "valid-pods", steps: []wstep{
		{method: "POST", path: podsNS, body: `{"metadata":{"name":"p"}}`, same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"containers":[]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"containers":[{"name":"main"}]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"containers":[{"name":"Main","image":"busybox"}]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"containers":[{"name":"a","image":"busybox"},{"name":"a","image":"busybox"}]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"restartPolicy":"Sometimes","containers":[{"name":"main","image":"busybox"}]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", `{"containers":[{"name":"main","image":"busybox","ports":[{"containerPort":0}]}]}`), same: true},
		{method: "POST", path: podsNS, body: pod("p", oneContainer)},
		// image may change; anything else in the spec may not
		{method: "PUT", path: podsNS + "/p", body: pod("p", `{"containers":[{"name":"main","image":"busybox:2"}]}`), cmp: []string{"spec.containers"}},
		{method: "PATCH", path: podsNS + "/p", ctype: "application/merge-patch+json", body: `{"spec":{"restartPolicy":"Never"}}`, same: true},
		{method: "PATCH", path: podsNS + "/p", ctype: "application/strategic-merge-patch+json",
			body: `{"spec":{"containers":[{"name":"main","env":[{"name":"A","value":"1"}]}]}}`, same: true},
		{method: "PATCH", path: podsNS + "/p", ctype: "application/merge-patch+json", body: `{"spec":{"activeDeadlineSeconds":60}}`, cmp: []string{"spec.activeDeadlineSeconds"}},
		{method: "PATCH", path: podsNS + "/p", ctype: "application/merge-patch+json", body: `{"metadata":{"labels":{"x":"y"}}}`, cmp: []string{"metadata.labels", "metadata.generation"}},
	}},
	{name: "valid-services", steps: []wstep{
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":0}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":70000}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80,"protocol":"XTP"}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80},{"port":81}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"ports":[{"name":"a","port":80},{"name":"a","port":81}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"type":"Bogus","ports":[{"port":80}]}}`, same: true},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"s"},"spec":{"clusterIP":"None","ports":[{"port":80}]}}`,
			cmp: []string{"spec"}},
		{method: "POST", path: svcsNS, body: `{"metadata":{"name":"sel"},"spec":{"clusterIP":"None","selector":{"app":"demo"},"ports":[{"port":80}]}}`,
			cmp: []string{"spec"}},
	}},
	{name: "valid-deployments", steps: []wstep{
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":{"template":{"metadata":{"labels":{"app":"web"}},"spec":` + oneContainer + `}}}`, same: true},
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + oneContainer + `}}}`, same: true},
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[]}}}}`, same: true},
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":{"replicas":-1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + oneContainer + `}}}`, same: true},
		{method: "POST", path: deploysNS, body: `{"metadata":{"name":"d"},"spec":` + deploySpec + `}`, cmp: []string{"spec", "metadata.generation"}},
		{method: "PATCH", path: deploysNS + "/d", ctype: "application/merge-patch+json", body: `{"spec":{"selector":{"matchLabels":{"app":"other"}}}}`, same: true},
	}},
	{name: "valid-configmaps", steps: []wstep{
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a"},"data":{"bad key":"v"}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a"},"data":{"a/b":"v"}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a"},"data":{"k":"v"},"binaryData":{"k":"dg=="}}`, same: true},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"a"},"binaryData":{"k":"not base64!"}}`, same: true},
		{method: "POST", path: cmsNS, body: bigData, same: true},
		{method: "POST", path: cmsNS, body: fitData, cmp: []string{"metadata.name"}},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"ok"},"data":{".dot_key-1":"v"},"binaryData":{"b":"AAE="}}`, cmp: []string{"data", "binaryData"}},
		{method: "POST", path: cmsNS, body: `{"metadata":{"name":"im"},"data":{"k":"v"},"immutable":true}`},
		{method: "PATCH", path: cmsNS + "/im", ctype: "application/merge-patch+json", body: `{"data":{"k":"w"}}`, same: true},
	}},
	{name: "valid-secrets", steps: []wstep{
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"},"data":{"k":"not base64!"}}`, same: true},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"},"data":{"bad key":"dg=="}}`, same: true},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"},"stringData":{"bad key":"v"}}`, same: true},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"},"data":{"k":"` + strings.Repeat("eHh4", mib/3+1) + `"}}`, same: true},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"s"},"data":{"a":"YQ==","b":"Yg=="},"stringData":{"b":"beta","c":"gamma"}}`,
			cmp: []string{"data", "stringData", "type"}},
		{method: "GET", path: secretsNS + "/s", cmp: []string{"data", "stringData", "type"}},
		{method: "PUT", path: secretsNS + "/s", body: `{"metadata":{"name":"s"},"type":"Other"}`, same: true},
		{method: "POST", path: secretsNS, body: `{"metadata":{"name":"t"},"type":"kubernetes.io/tls","data":{"tls.crt":"YQ=="}}`, same: true},
	}},
}

// writes_delete_test.go: the delete and dry-run scenarios of
// realwrites_test.go: DeleteOptions in the body and in the query (dryRun,
// preconditions, propagationPolicy, gracePeriodSeconds), what watchers see
// of a pod's delete, and dryRun=All on every write.

package fakeapi

// Manifests the scenarios share.
const (
	podP     = `{"metadata":{"name":"p","labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"busybox"}]}}`
	podQ     = `{"metadata":{"name":"q","labels":{"app":"demo"}},"spec":{"containers":[{"name":"main","image":"busybox"}]}}`
	podBound = `{"metadata":{"name":"b","labels":{"app":"demo"}},"spec":{"nodeName":"node-1","containers":[{"name":"main","image":"busybox"}]}}`
	cmC      = `{"metadata":{"name":"c","labels":{"app":"demo"}},"data":{"k":"v"}}`
	podsNS   = "/api/v1/namespaces/{ns}/pods"
	cmsNS    = "/api/v1/namespaces/{ns}/configmaps"
)

// deleted are the fields that tell how an object was deleted.
var deleted = []string{"kind", "metadata.name", "metadata.deletionTimestamp", "metadata.deletionGracePeriodSeconds",
	"metadata.finalizers", "status.phase", "details"}

var deleteScenarios = []wscenario{
	{name: "delete-dryrun", steps: []wstep{
		{method: "POST", path: podsNS, body: podP},
		{method: "POST", path: cmsNS, body: cmC},
		{method: "WATCH", path: podsNS},
		{method: "DELETE", path: podsNS + "/p?dryRun=All", same: true, cmp: deleted},
		{method: "DELETE", path: podsNS + "/p", body: `{"dryRun":["All"]}`, same: true, cmp: deleted},
		{method: "DELETE", path: podsNS + "/p", body: `{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"],"gracePeriodSeconds":0}`, same: true, cmp: deleted},
		{method: "DELETE", path: cmsNS + "/c", body: `{"dryRun":["All"]}`, same: true, cmp: deleted},
		{method: "DELETE", path: podsNS + "/p", body: `{"dryRun":["Bogus"]}`, same: true},
		{method: "DELETE", path: podsNS + "/p?dryRun=Bogus", same: true},
		{method: "GET", path: podsNS + "/p", cmp: deleted},
		{method: "GET", path: cmsNS + "/c", cmp: deleted},
		{method: "DELETE", path: podsNS + "/nope?dryRun=All", same: true},
		{method: "EVENTS", path: podsNS},
		// the same, through a collection
		{method: "DELETE", path: podsNS + "?labelSelector=app%3Ddemo", body: `{"dryRun":["All"]}`, same: true, cmp: []string{"kind", "items.*.metadata.name"}},
		{method: "GET", path: podsNS + "/p", cmp: deleted},
	}},
	{name: "dryrun-writes", steps: []wstep{
		{method: "POST", path: podsNS + "?dryRun=All", body: podP, same: true, cmp: []string{"metadata", "status"}},
		{method: "GET", path: podsNS + "/p"},
		{method: "POST", path: podsNS, body: podP},
		{method: "WATCH", path: podsNS},
		{method: "PUT", path: podsNS + "/p?dryRun=All", body: `{"metadata":{"name":"p","labels":{"app":"other"}},"spec":{"containers":[{"name":"main","image":"busybox"}]}}`,
			same: true, cmp: []string{"metadata.labels", "metadata.generation", "metadata.resourceVersion"}},
		{method: "PATCH", path: podsNS + "/p?dryRun=All", ctype: "application/merge-patch+json", body: `{"metadata":{"labels":{"app":"patched"}}}`,
			same: true, cmp: []string{"metadata.labels"}},
		{method: "PATCH", path: podsNS + "/p?dryRun=All", ctype: "application/strategic-merge-patch+json", body: `{"metadata":{"labels":{"app":"patched"}}}`,
			same: true, cmp: []string{"metadata.labels"}},
		{method: "GET", path: podsNS + "/p", cmp: []string{"metadata.labels", "metadata.generation"}},
		{method: "EVENTS", path: podsNS},
	}},
	{name: "delete-preconditions", steps: []wstep{
		{method: "POST", path: cmsNS, body: cmC},
		{method: "DELETE", path: cmsNS + "/c", body: `{"preconditions":{"uid":"00000000-0000-4000-8000-000000000000"}}`, same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"preconditions":{"resourceVersion":"1"}}`, same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"preconditions":{"uid":"{uid:c}","resourceVersion":"1"}}`, same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"preconditions":{"uid":"{uid:c}","resourceVersion":"{rv:c}"}}`, cmp: deleted},
		{method: "GET", path: cmsNS + "/c"},
		{method: "POST", path: podsNS, body: podP},
		{method: "DELETE", path: podsNS + "/p", body: `{"preconditions":{"uid":"00000000-0000-4000-8000-000000000000"}}`, same: true},
		{method: "DELETE", path: podsNS + "/p", body: `{"preconditions":{"uid":"{uid:p}"}}`, cmp: deleted},
	}},
	{name: "delete-propagation", steps: []wstep{
		{method: "POST", path: cmsNS, body: cmC},
		{method: "DELETE", path: cmsNS + "/c", body: `{"propagationPolicy":"Bogus"}`, same: true},
		{method: "DELETE", path: cmsNS + "/c?propagationPolicy=Bogus", same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"propagationPolicy":"Background","orphanDependents":true}`, same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"gracePeriodSeconds":-5}`, cmp: deleted}, // deletes: -5 means 1, and a config map has no grace period
		{method: "DELETE", path: cmsNS + "/c", body: `not json`, same: true},
		{method: "DELETE", path: cmsNS + "/c", body: `{"kind":"Pod","apiVersion":"v1"}`, same: true},
		{method: "GET", path: cmsNS + "/c", cmp: deleted},
		{method: "DELETE", path: cmsNS + "/c", body: `{"propagationPolicy":"Background"}`, cmp: deleted},
		{method: "POST", path: cmsNS, body: cmC},
		{method: "DELETE", path: cmsNS + "/c?propagationPolicy=Orphan", cmp: deleted},
		{method: "POST", path: podsNS, body: podP},
		{method: "DELETE", path: podsNS + "/p", body: `{"propagationPolicy":"Foreground"}`, cmp: deleted},
	}},
	{name: "delete-pod-watch", steps: []wstep{
		{method: "POST", path: podsNS, body: podP},
		{method: "POST", path: podsNS, body: podBound},
		{method: "WATCH", path: podsNS},
		{method: "DELETE", path: podsNS + "/p", cmp: deleted},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "DELETE", path: podsNS + "/b", cmp: deleted},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "GET", path: podsNS + "/b", cmp: deleted},
		{method: "DELETE", path: podsNS + "/b", cmp: deleted},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "DELETE", path: podsNS + "/b?gracePeriodSeconds=0", cmp: deleted},
		{method: "EVENTS", path: podsNS, cmp: deleted},
		{method: "GET", path: podsNS + "/b"},
		{method: "POST", path: podsNS, body: podQ},
		{method: "DELETE", path: podsNS + "/q", body: `{"gracePeriodSeconds":5}`, cmp: deleted},
		{method: "EVENTS", path: podsNS, cmp: deleted},
	}},
}

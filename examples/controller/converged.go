// converged.go holds what "converged" means, for the story and the tests:
// the server holds, for every ReplicaSet, exactly the pods it asks for,
// named name-0, name-1, ..., and a status.replicas that says so; the
// controller's caches hold what the server holds; and then no key is queued
// or being worked on. Once the caches are current, a sync that starts later
// reads them and has nothing to write, so the controller stays quiet until
// something changes.
//
// client-go counterpart: none (it is how the demo and tests check the
// controller).
//
// Tutorial: 004 §2.3 (the cache the reconcile reads lags the server).

package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
)

// replicaSets is fakeapi's apps/v1 replicasets resource.
var replicaSets = fakeapi.Resource{Group: "apps", Version: "v1", Resource: "replicasets"}

// waitConverged waits until convergedNow holds, for within at most, calling
// each (if not nil) between two looks; it returns what is still missing,
// or "" once converged.
func waitConverged(srv *fakeapi.Server, r *running, within time.Duration, each func()) string {
	deadline := time.Now().Add(within)
	tick := time.NewTicker(2 * time.Millisecond) // polling interval, not synchronisation
	defer tick.Stop()
	for {
		ok, missing := convergedNow(srv, r)
		if ok {
			return ""
		}
		if time.Now().After(deadline) {
			return missing
		}
		if each != nil {
			each()
		}
		<-tick.C
	}
}

// convergedNow reports whether the controller r has converged on srv, and
// if not, what is missing.
func convergedNow(srv *fakeapi.Server, r *running) (bool, string) {
	if missing := serverMissing(srv); missing != "" {
		return false, missing
	}
	if !sameVersions(srv, fakeapi.Pods, r.pods.GetStore()) || !sameVersions(srv, replicaSets, r.replicaSet.GetStore()) {
		return false, "the controller's caches are behind the server"
	}
	if n := r.controller.workqueue.Len(); n > 0 || r.busy.Load() > 0 {
		return false, fmt.Sprintf("%d keys queued, %d syncs in progress", n, r.busy.Load())
	}
	return true, ""
}

// serverMissing says how the server differs from what its ReplicaSets ask
// for, or "" when it does not.
func serverMissing(srv *fakeapi.Server) string {
	items, _ := srv.List(replicaSets, "")
	for _, rs := range items {
		meta := rs["metadata"].(map[string]any)
		namespace := meta["namespace"].(string)
		name := meta["name"].(string)
		want := number(rs["spec"].(map[string]any)["replicas"])
		var names []string
		for i := range want {
			names = append(names, fmt.Sprintf("%s-%d", name, i))
		}
		have := podsOf(srv, namespace, meta["uid"].(string))
		status, _ := rs["status"].(map[string]any)
		if !slices.Equal(have, names) || status == nil || number(status["replicas"]) != want {
			return fmt.Sprintf("ReplicaSet %s/%s asks for %v; the server has pods %v and status.replicas %v",
				namespace, name, names, have, status["replicas"])
		}
	}
	return ""
}

// podsOf returns the names of the server's pods in namespace whose
// controller has the uid, sorted.
func podsOf(srv *fakeapi.Server, namespace, uid string) []string {
	items, _ := srv.List(fakeapi.Pods, namespace)
	var names []string
	for _, pod := range items {
		meta := pod["metadata"].(map[string]any)
		refs, _ := meta["ownerReferences"].([]any)
		for _, r := range refs {
			if ref := r.(map[string]any); ref["uid"] == uid && ref["controller"] == true {
				names = append(names, meta["name"].(string))
			}
		}
	}
	slices.Sort(names)
	return names
}

// number reads a JSON number of an object fakeapi returns (-1 if it is
// none).
func number(v any) int {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return -1
		}
		return int(i)
	case float64:
		return int(n)
	case int:
		return n
	}
	return -1
}

// sameVersions compares the server's objects of r with a cache, by key and
// resourceVersion.
func sameVersions(srv *fakeapi.Server, r fakeapi.Resource, cache informer.Store) bool {
	items, _ := srv.List(r, "")
	if len(items) != len(cache.ListKeys()) {
		return false
	}
	for _, item := range items {
		meta := item["metadata"].(map[string]any)
		obj, ok, _ := cache.GetByKey(meta["namespace"].(string) + "/" + meta["name"].(string))
		if !ok || obj.(informer.Object).GetResourceVersion() != meta["resourceVersion"] {
			return false
		}
	}
	return true
}

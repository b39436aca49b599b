// converged.go holds what "converged" means, for the story and the tests.
// On the server: no pod is left of a ReplicaSet gone (the garbage
// collector is done); every ReplicaSet controls exactly spec.replicas
// active pods; no active pod it controls has left its selector, and no orphan
// that its selector matches is left unadopted; its status reports those
// pods (replicas, readyReplicas, terminatingReplicas) for the generation
// it has. In the controller: the caches hold what the server holds, and
// then no key is queued or being worked on. Once the caches are current, a
// sync that starts later reads them and has nothing to write, so the
// controller stays quiet until something changes.
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
	"strings"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
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
	podsCurrent := sameVersions(srv, fakeapi.Pods, r.pods.GetStore())
	replicaSetsCurrent := sameVersions(srv, replicaSets, r.replicaSet.GetStore())
	if !podsCurrent || !replicaSetsCurrent {
		return false, inReaderLanguage("the controller's caches are behind the server", "控制器的缓存落后于服务器")
	}
	if n := r.controller.workqueue.Len(); n > 0 || r.busy.Load() > 0 {
		return false, fmt.Sprintf(inReaderLanguage("%d keys queued, %d syncs in progress", "排队的键 %d 个，进行中的同步 %d 个"), n, r.busy.Load())
	}
	return true, ""
}

// inReaderLanguage picks en or zh by the reader's language
// (walkthrough.Language): what is missing reaches a learner's failure
// message (labs/08's graders, the Steps), which reads in their language.
// The story's narrator, which says it too, speaks the same language.
func inReaderLanguage(en, zh string) string {
	if walkthrough.Language() == "zh" {
		return zh
	}
	return en
}

// serverPods returns the pods of namespace ("" for all) as fakeapi holds
// them.
func serverPods(srv *fakeapi.Server, namespace string) []*informer.Pod {
	items, _ := srv.List(fakeapi.Pods, namespace)
	pods := make([]*informer.Pod, 0, len(items))
	for _, item := range items {
		raw, _ := json.Marshal(item)
		pod := &informer.Pod{}
		if json.Unmarshal(raw, pod) == nil {
			pods = append(pods, pod)
		}
	}
	return pods
}

// serverReplicaSets returns the ReplicaSets fakeapi holds.
func serverReplicaSets(srv *fakeapi.Server) []*ReplicaSet {
	items, _ := srv.List(replicaSets, "")
	out := make([]*ReplicaSet, 0, len(items))
	for _, item := range items {
		raw, _ := json.Marshal(item)
		rs := &ReplicaSet{}
		if json.Unmarshal(raw, rs) == nil {
			out = append(out, rs)
		}
	}
	return out
}

// active is this file's own reading of an active pod (running or to run,
// not being deleted), written apart from the controller's IsPodActive so
// that a bug there cannot hide from the check. terminating is its reading
// of a pod being deleted that has not finished; ready of a Ready one.
func active(pod *informer.Pod) bool {
	return pod.DeletionTimestamp == nil && pod.Status.Phase != "Failed" && pod.Status.Phase != "Succeeded"
}

func terminating(pod *informer.Pod) bool {
	return pod.DeletionTimestamp != nil && pod.Status.Phase != "Failed" && pod.Status.Phase != "Succeeded"
}

func ready(pod *informer.Pod) bool {
	return slices.ContainsFunc(pod.Status.Conditions, func(c informer.PodCondition) bool {
		return c.Type == "Ready" && c.Status == "True"
	})
}

// activePodsOf returns the names of the active pods of pods that the
// ReplicaSet of uid controls, sorted.
func activePodsOf(pods []*informer.Pod, uid string) []string {
	var names []string
	for _, pod := range pods {
		if ref := controllerOf(&pod.ObjectMeta); ref != nil && ref.UID == uid && active(pod) {
			names = append(names, pod.Name)
		}
	}
	slices.Sort(names)
	return names
}

// serverMissing says how the server differs from what its ReplicaSets ask
// for, or "" when it does not.
func serverMissing(srv *fakeapi.Server) string {
	uids := map[string]bool{}
	for _, rs := range serverReplicaSets(srv) {
		uids[rs.UID] = true
	}
	for _, pod := range serverPods(srv, "") {
		if ref := controllerOf(&pod.ObjectMeta); ref != nil && ref.Kind == "ReplicaSet" && !uids[ref.UID] {
			return fmt.Sprintf(inReaderLanguage("pod %s/%s names ReplicaSet %s, gone: the garbage collector has yet to delete it",
				"Pod `%s/%s` 的属主 ReplicaSet `%s` 已不存在：垃圾收集器还没有删除它"),
				pod.Namespace, pod.Name, ref.Name)
		}
	}
	for _, rs := range serverReplicaSets(srv) {
		if rs.DeletionTimestamp != nil {
			continue // being deleted: the garbage collector's, not the controller's
		}
		pods := serverPods(srv, rs.Namespace)
		selector, err := rs.selector()
		if err != nil {
			return err.Error()
		}
		actives := activePodsOf(pods, rs.UID)
		var readies, terminatings int32
		var strays []string
		for _, pod := range pods {
			ref := controllerOf(&pod.ObjectMeta)
			switch {
			case ref == nil && active(pod) && selector.Matches(pod.Labels):
				strays = append(strays, fmt.Sprintf(inReaderLanguage("%s (an orphan it selects)", "`%s`（它选中的孤儿 Pod）"), pod.Name))
			case ref == nil || ref.UID != rs.UID:
			case !selector.Matches(pod.Labels):
				if active(pod) { // an inactive pod is never claimed, so never released (as in kubernetes)
					strays = append(strays, fmt.Sprintf(inReaderLanguage("%s (it controls, not selected)", "`%s`（它控制着，但选择算符不选中）"), pod.Name))
				}
			case terminating(pod):
				terminatings++
			case active(pod) && ready(pod):
				readies++
			}
		}
		st := rs.Status
		key := rs.Namespace + "/" + rs.Name
		switch {
		case len(actives) != rs.replicas():
			return fmt.Sprintf(inReaderLanguage("ReplicaSet %s asks for %d pods; it controls %d active: %v",
				"ReplicaSet `%s` 要求 %d 个 Pod；它控制着 %d 个活跃的：`%v`"), key, rs.replicas(), len(actives), actives)
		case len(strays) > 0:
			return fmt.Sprintf(inReaderLanguage("ReplicaSet %s has not claimed: %s", "ReplicaSet `%s` 还没有认领：%s"), key,
				strings.Join(strays, inReaderLanguage(", ", "、")))
		case int(st.Replicas) != len(actives) || st.ReadyReplicas != readies || st.TerminatingReplicas == nil ||
			*st.TerminatingReplicas != terminatings || st.ObservedGeneration != rs.Generation:
			return fmt.Sprintf(inReaderLanguage("ReplicaSet %s reports %s; its pods: %d active, %d ready, %d terminating, generation %d",
				"ReplicaSet `%s` 报告的状态是 `%s`；它的 Pod：活跃 %d 个、就绪 %d 个、正在终止 %d 个，`generation` 为 %d"),
				key, statusLine(st), len(actives), readies, terminatings, rs.Generation)
		}
	}
	return ""
}

// statusLine is a status as the story prints it.
func statusLine(st ReplicaSetStatus) string {
	terminating := "-"
	if st.TerminatingReplicas != nil {
		terminating = fmt.Sprint(*st.TerminatingReplicas)
	}
	return fmt.Sprintf("replicas %d, fullyLabeled %d, ready %d, available %d, terminating %s, observedGeneration %d",
		st.Replicas, st.FullyLabeledReplicas, st.ReadyReplicas, st.AvailableReplicas, terminating, st.ObservedGeneration)
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

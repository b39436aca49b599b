// handlers.go holds the controller's event handlers. They run on the
// informers' goroutines, so they only decide which ReplicaSets an event
// concerns and add their keys to the work queue; the pod handlers also
// tell the expectations what they saw (a pod of a ReplicaSet appeared, or
// began or finished being deleted). A pod with a controller reference
// concerns that ReplicaSet alone, if the cache has it with that uid; an
// orphan concerns every ReplicaSet whose selector matches its labels,
// which may want to adopt it. A pod whose labels or controller changed
// concerns its old ReplicaSet too, which lost it.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// (replica_set.go): addRS, updateRS, deleteRS, enqueueRS, enqueueRSAfter,
// addPod, updatePod, deletePod, resolveControllerRef, getPodReplicaSets;
// client-go listers/apps/v1 GetPodReplicaSets.
//
// Tutorial: 004 §2.3 (handlers feed the business logic) and §4.3 (a
// tombstone stands for a deletion the watch missed).

package main

import (
	"maps"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/listers"
)

// enqueueRS adds the key of rs to the queue: the worker reads the newest
// state from the cache when it gets the key. (kubernetes: enqueueRS.)
func (c *Controller) enqueueRS(rs *ReplicaSet) {
	c.workqueue.Add(rs.Namespace + "/" + rs.Name)
}

// enqueueRSAfter adds the key of rs to the queue once d has passed.
// (kubernetes: enqueueRSAfter.)
func (c *Controller) enqueueRSAfter(rs *ReplicaSet, d time.Duration) {
	c.workqueue.AddAfter(rs.Namespace+"/"+rs.Name, d)
}

// addRS is the ReplicaSet informer's AddFunc. (kubernetes: addRS.)
func (c *Controller) addRS(obj any) {
	if rs, ok := obj.(*ReplicaSet); ok {
		c.enqueueRS(rs)
	}
}

// updateRS is the ReplicaSet informer's UpdateFunc. Every update is
// synced, a resync's too: a ReplicaSet whose creates failed gets another
// try. A ReplicaSet deleted and made again under its name (another uid)
// arrives as one update: the old one is deleted first.
// (kubernetes: updateRS.)
func (c *Controller) updateRS(oldObj, newObj any) {
	oldRS, okOld := oldObj.(*ReplicaSet)
	curRS, okCur := newObj.(*ReplicaSet)
	if !okOld || !okCur {
		return
	}
	if curRS.UID != oldRS.UID {
		c.deleteRS(informer.DeletedFinalStateUnknown{Key: oldRS.Namespace + "/" + oldRS.Name, Obj: oldRS})
	}
	c.enqueueRS(curRS)
}

// deleteRS is the ReplicaSet informer's DeleteFunc: the ReplicaSet's
// expectations and recorded writes go (one made again under its name
// starts clean), and its key is synced to find it gone.
// (kubernetes: deleteRS.)
func (c *Controller) deleteRS(obj any) {
	if tombstone, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj // deleted while the watch was down: its last known state
	}
	rs, ok := obj.(*ReplicaSet)
	if !ok {
		c.recorder.Eventf("", EventTypeWarning, "BadObject", "not a ReplicaSet: %T", obj)
		return
	}
	key := rs.Namespace + "/" + rs.Name
	c.consistencyStore.Clear(key, rs.UID)
	c.expectations.DeleteExpectations(key)
	c.workqueue.Add(key)
}

// resolveControllerRef returns the ReplicaSet of namespace that ref names,
// if the cache has it with ref's uid; nil otherwise (another kind, a
// ReplicaSet gone, or one of the same name made again).
// (kubernetes: resolveControllerRef.)
func (c *Controller) resolveControllerRef(namespace string, ref *informer.OwnerReference) *ReplicaSet {
	if ref.Kind != "ReplicaSet" {
		return nil
	}
	rs, err := listers.NewNamespaced(c.replicaSetLister, namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return nil
	}
	return rs
}

// getPodReplicaSets returns the cached ReplicaSets of pod's namespace
// whose selector matches its labels. An empty selector matches no pod
// here, a pod without labels no ReplicaSet.
// (kubernetes: getPodReplicaSets; client-go's GetPodReplicaSets.)
func (c *Controller) getPodReplicaSets(pod *informer.Pod) []*ReplicaSet {
	if len(pod.Labels) == 0 {
		return nil
	}
	all, err := listers.NewNamespaced(c.replicaSetLister, pod.Namespace).List(nil)
	if err != nil {
		return nil
	}
	var matching []*ReplicaSet
	for _, rs := range all {
		selector, err := rs.selector()
		if err != nil || selector.Empty() || !selector.Matches(pod.Labels) {
			continue
		}
		matching = append(matching, rs)
	}
	return matching
}

// addPod is the pod informer's AddFunc: a pod of a ReplicaSet appeared
// (a creation observed), or an orphan that ReplicaSets may adopt.
// (kubernetes: addPod.)
func (c *Controller) addPod(obj any) {
	pod, ok := obj.(*informer.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		// Already being deleted (seen first after a restart or relist): a
		// deletion, not a creation.
		c.deletePod(pod)
		return
	}
	if ref := controllerOf(&pod.ObjectMeta); ref != nil {
		rs := c.resolveControllerRef(pod.Namespace, ref)
		if rs == nil {
			return
		}
		c.expectations.CreationObserved(rs.Namespace + "/" + rs.Name)
		c.enqueueRS(rs)
		return
	}
	// An orphan: no creation is observed, as no controller waits for one.
	for _, rs := range c.getPodReplicaSets(pod) {
		c.enqueueRS(rs)
	}
}

// updatePod is the pod informer's UpdateFunc. A resync's update (the same
// resourceVersion) changed nothing and is skipped. A pod marked for
// deletion counts as deleted now: the ReplicaSet replaces it without
// waiting for its grace period. A pod whose controller or labels changed
// concerns the old and the new ReplicaSets alike.
// (kubernetes: updatePod.)
func (c *Controller) updatePod(oldObj, newObj any) {
	oldPod, okOld := oldObj.(*informer.Pod)
	curPod, okCur := newObj.(*informer.Pod)
	if !okOld || !okCur || curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	labelChanged := !maps.Equal(curPod.Labels, oldPod.Labels)
	if curPod.DeletionTimestamp != nil {
		c.deletePod(curPod)
		if labelChanged {
			c.deletePod(oldPod) // its old labels may have matched another ReplicaSet
		}
		return
	}
	curRef := controllerOf(&curPod.ObjectMeta)
	oldRef := controllerOf(&oldPod.ObjectMeta)
	refChanged := !sameOwnerReference(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := c.resolveControllerRef(oldPod.Namespace, oldRef); rs != nil {
			c.enqueueRS(rs) // it lost a pod
		}
	}
	if curRef != nil {
		rs := c.resolveControllerRef(curPod.Namespace, curRef)
		if rs == nil {
			return
		}
		c.enqueueRS(rs)
		// Ready now: look again once it has been ready for minReadySeconds,
		// to count it available.
		if !IsPodReady(oldPod) && IsPodReady(curPod) && rs.Spec.MinReadySeconds > 0 {
			c.enqueueRSAfter(rs, time.Duration(rs.Spec.MinReadySeconds)*time.Second)
		}
		return
	}
	// An orphan whose labels or controller changed: the ReplicaSets that
	// match it now may want it.
	if labelChanged || refChanged {
		for _, rs := range c.getPodReplicaSets(curPod) {
			c.enqueueRS(rs)
		}
	}
}

// sameOwnerReference reports whether a and b are both nil or equal.
func sameOwnerReference(a, b *informer.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		equalPointers(a.Controller, b.Controller) && equalPointers(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

// deletePod is the pod informer's DeleteFunc, and what addPod and
// updatePod call for a pod being deleted: its ReplicaSet observes the
// deletion and syncs. obj may be a tombstone, whose pod is its last known
// state (a pod relabelled meanwhile wakes its old ReplicaSet).
// (kubernetes: deletePod.)
func (c *Controller) deletePod(obj any) {
	if tombstone, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	pod, ok := obj.(*informer.Pod)
	if !ok {
		return
	}
	ref := controllerOf(&pod.ObjectMeta)
	if ref == nil {
		return // no controller waits for an orphan
	}
	rs := c.resolveControllerRef(pod.Namespace, ref)
	if rs == nil {
		return
	}
	key := rs.Namespace + "/" + rs.Name
	c.expectations.DeletionObserved(key, podKey(pod))
	c.workqueue.Add(key)
}

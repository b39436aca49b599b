// status.go holds what a ReplicaSet reports: status computed from the pods
// a sync found (replicas, fullyLabeledReplicas, readyReplicas,
// availableReplicas, terminatingReplicas, the ReplicaFailure condition) and
// written through the /status subresource, where the server takes the
// status and keeps the stored spec. The counts are those of the pods seen
// before the sync's own creates and deletes: their events bring the key
// back, and the next sync reports them. The status is written on every
// sync that changed it, the failed ones included, before the failure is
// returned: a ReplicaSet that cannot create its pods says so.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// (replica_set_utils.go): calculateStatus, updateReplicaSetStatus (one
// retry after a fresh read, statusUpdateRetries), NewReplicaSetCondition,
// GetCondition, SetCondition, RemoveCondition; pkg/controller
// FindMinNextPodAvailabilityCheck.
//
// Tutorial: 000 §3.3 (optimistic concurrency: a write on a stale
// resourceVersion is a 409).

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"time"

	informer "github.com/learn-k8s/informer"
)

// statusUpdateRetries is how many times a failed status write is tried
// again, on a fresh read. (kubernetes: replicaset statusUpdateRetries.)
const statusUpdateRetries = 1

// replicaFailure is the condition type the controller sets while it
// fails to create or delete pods. (apps/v1: ReplicaSetReplicaFailure.)
const replicaFailure = "ReplicaFailure"

// calculateStatus computes rs's status from its active and terminating
// pods and the error of this sync's creates and deletes (nil if none).
// (kubernetes: calculateStatus.)
func calculateStatus(rs *ReplicaSet, active, terminating []*informer.Pod, manageReplicasErr error, now time.Time) ReplicaSetStatus {
	status := rs.Status
	status.Conditions = slices.Clone(rs.Status.Conditions)
	var fullyLabeled, ready, available int32
	for _, pod := range active {
		if hasAllLabels(pod.Labels, rs.Spec.Template.ObjectMeta.Labels) {
			fullyLabeled++
		}
		if IsPodReady(pod) {
			ready++
			if IsPodAvailable(pod, rs.Spec.MinReadySeconds, now) {
				available++
			}
		}
	}
	failing := getCondition(status, replicaFailure) != nil
	switch {
	case manageReplicasErr != nil && !failing:
		reason := ""
		if diff := len(active) - rs.replicas(); diff < 0 {
			reason = "FailedCreate"
		} else if diff > 0 {
			reason = "FailedDelete"
		}
		status.Conditions = append(status.Conditions, ReplicaSetCondition{Type: replicaFailure, Status: "True",
			LastTransitionTime: now.Truncate(time.Second), Reason: reason, Message: manageReplicasErr.Error()})
	case manageReplicasErr == nil && failing:
		status.Conditions = slices.DeleteFunc(status.Conditions,
			func(c ReplicaSetCondition) bool { return c.Type == replicaFailure })
	}
	status.Replicas = int32(len(active))
	status.FullyLabeledReplicas = fullyLabeled
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	n := int32(len(terminating))
	status.TerminatingReplicas = &n
	return status
}

// hasAllLabels reports whether labels holds every pair of want.
func hasAllLabels(labels, want map[string]string) bool {
	for k, v := range want {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// getCondition returns status's condition of type t, or nil.
// (kubernetes: GetCondition.)
func getCondition(status ReplicaSetStatus, t string) *ReplicaSetCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// updateReplicaSetStatus writes status as rs's status, with
// observedGeneration, the generation this sync acted on, unless rs already
// reports exactly that. rs is the sync's own copy. A failed write is tried
// once more on a fresh read of the ReplicaSet. It returns the ReplicaSet as
// the server now stores it.
// (kubernetes: updateReplicaSetStatus.)
func (c *Controller) updateReplicaSetStatus(ctx context.Context, rs *ReplicaSet, status ReplicaSetStatus) (*ReplicaSet, error) {
	old := rs.Status
	if old.Replicas == status.Replicas && old.FullyLabeledReplicas == status.FullyLabeledReplicas &&
		old.ReadyReplicas == status.ReadyReplicas && old.AvailableReplicas == status.AvailableReplicas &&
		equalPointers(old.TerminatingReplicas, status.TerminatingReplicas) &&
		rs.Generation == old.ObservedGeneration && reflect.DeepEqual(old.Conditions, status.Conditions) {
		return rs, nil // the steady state: nothing to write
	}
	// The generation acted on, not the one a retry may read: the status
	// must not claim a spec change this sync did not see.
	status.ObservedGeneration = rs.Generation
	var updateErr error
	for i := 0; ; i++ {
		rs.Status = status
		rs.TypeMeta = informer.TypeMeta{Kind: "ReplicaSet", APIVersion: "apps/v1"}
		var updated informer.Object
		updated, updateErr = c.client.UpdateStatus(ctx, replicaSetsGVR, rs)
		if updateErr == nil {
			return asReplicaSet(updated)
		}
		if i >= statusUpdateRetries {
			return nil, updateErr // the key comes back with backoff
		}
		fresh, err := c.client.Do(ctx, http.MethodGet, replicaSetsGVR, rs.Namespace, rs.Name, nil, newReplicaSet)
		if err != nil {
			return nil, err // a failed read says more than the failed write
		}
		rs = fresh.(*ReplicaSet)
	}
}

// equalPointers reports whether a and b are both nil or point to equal values.
func equalPointers[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// asReplicaSet reads a ReplicaSet the client returned as generic JSON
// (UpdateStatus answers with *informer.Unstructured for every kind but
// pods).
func asReplicaSet(obj informer.Object) (*ReplicaSet, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	rs := &ReplicaSet{}
	return rs, json.Unmarshal(raw, rs)
}

// nextAvailabilityCheck is how long until the first of pods that is ready
// but not yet available becomes available, or nil if none will.
// (kubernetes: FindMinNextPodAvailabilityCheck.)
func nextAvailabilityCheck(pods []*informer.Pod, minReadySeconds int32, now time.Time) *time.Duration {
	var next *time.Duration
	for _, pod := range pods {
		if !IsPodReady(pod) || minReadySeconds <= 0 {
			continue
		}
		since := podReadyCondition(pod).LastTransitionTime
		if since.IsZero() {
			continue
		}
		if d := since.Add(time.Duration(minReadySeconds) * time.Second).Sub(now); d > 0 && (next == nil || d < *next) {
			next = &d
		}
	}
	return next
}

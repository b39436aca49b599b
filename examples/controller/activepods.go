// activepods.go holds which pods count and which go first. A pod counts
// for its ReplicaSet while it is active: not Failed, not Succeeded, not
// being deleted. A pod being deleted is terminating until it stops; the
// ReplicaSet reports those apart and replaces them at once, without
// waiting for their grace period. On a scale-down the pods least worth
// keeping are deleted first: unscheduled before scheduled, Pending before
// Unknown before Running, not ready before ready, a lower
// pod-deletion-cost first, ready for less time before ready for longer,
// more container restarts before fewer, newer before older.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller
// (controller_utils.go): IsPodActive, IsPodTerminating, FilterActivePods,
// FilterTerminatingPods, FilterClaimedPods, ActivePodsWithRanks.Less
// (its rules 1-4 and 6-8; rule 5 ranks pods of sibling ReplicaSets under
// one Deployment on the same node, and every ReplicaSet here has none),
// podReadyTime, maxContainerRestarts; pkg/controller/replicaset
// getPodsToDelete; pkg/api/v1/pod IsPodReady and IsPodAvailable.
//
// Tutorial: 004 §2.3 (the business logic reads the cache).

package main

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	informer "github.com/learn-k8s/informer"
)

// The pod phases, as corev1's PodPhase values.
const (
	podPending   = "Pending"
	podRunning   = "Running"
	podSucceeded = "Succeeded"
	podFailed    = "Failed"
	podUnknown   = "Unknown"
)

// podDeletionCostAnnotation lets a user say which pods to delete first on
// a scale-down: the lower cost goes first. (kubernetes:
// core.PodDeletionCost; the PodDeletionCost gate is on by default.)
const podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// IsPodActive reports whether pod counts for its ReplicaSet: it has not
// finished and is not being deleted. (kubernetes: controller.IsPodActive.)
func IsPodActive(pod *informer.Pod) bool {
	return pod.Status.Phase != podSucceeded && pod.Status.Phase != podFailed && pod.DeletionTimestamp == nil
}

// IsPodTerminating reports whether pod is being deleted and has not
// finished. (kubernetes: controller.IsPodTerminating.)
func IsPodTerminating(pod *informer.Pod) bool {
	return pod.Status.Phase != podSucceeded && pod.Status.Phase != podFailed && pod.DeletionTimestamp != nil
}

// FilterActivePods returns the active pods of pods, in their order.
// (kubernetes: controller.FilterActivePods.)
func FilterActivePods(pods []*informer.Pod) []*informer.Pod {
	var active []*informer.Pod
	for _, pod := range pods {
		if IsPodActive(pod) {
			active = append(active, pod)
		}
	}
	return active
}

// FilterTerminatingPods returns the terminating pods of pods.
// (kubernetes: controller.FilterTerminatingPods.)
func FilterTerminatingPods(pods []*informer.Pod) []*informer.Pod {
	var terminating []*informer.Pod
	for _, pod := range pods {
		if IsPodTerminating(pod) {
			terminating = append(terminating, pod)
		}
	}
	return terminating
}

// FilterClaimedPods returns the pods of pods that rs controls and that its
// selector still matches. (kubernetes: controller.FilterClaimedPods.)
func FilterClaimedPods(rs *ReplicaSet, selector informer.Selector, pods []*informer.Pod) []*informer.Pod {
	var claimed []*informer.Pod
	for _, pod := range pods {
		if ref := controllerOf(&pod.ObjectMeta); ref != nil && ref.UID == rs.UID && selector.Matches(pod.Labels) {
			claimed = append(claimed, pod)
		}
	}
	return claimed
}

// podReadyCondition returns pod's Ready condition, or nil.
func podReadyCondition(pod *informer.Pod) *informer.PodCondition {
	for i, c := range pod.Status.Conditions {
		if c.Type == "Ready" {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether pod's Ready condition is True.
// (kubernetes: podutil.IsPodReady.)
func IsPodReady(pod *informer.Pod) bool {
	c := podReadyCondition(pod)
	return c != nil && c.Status == "True"
}

// IsPodAvailable reports whether pod has been ready for minReadySeconds
// at now. (kubernetes: podutil.IsPodAvailable.)
func IsPodAvailable(pod *informer.Pod, minReadySeconds int32, now time.Time) bool {
	if !IsPodReady(pod) {
		return false
	}
	since := podReadyCondition(pod).LastTransitionTime
	wait := time.Duration(minReadySeconds) * time.Second
	return minReadySeconds == 0 || (!since.IsZero() && !since.Add(wait).After(now))
}

// getPodsToDelete returns the diff pods of active to delete first: all of
// them if diff is as many, else the first diff in deletion order.
// (kubernetes: replicaset getPodsToDelete.)
func getPodsToDelete(active []*informer.Pod, diff int, now time.Time) []*informer.Pod {
	if diff < len(active) {
		active = rankForDeletion(active, now)
	}
	return active[:diff]
}

// rankedPod is a pod with what the deletion order reads of it, read once.
type rankedPod struct {
	pod                      *informer.Pod
	ready                    bool
	readySince               time.Time // zero unless ready
	cost                     int       // pod-deletion-cost; 0 if unset or unreadable
	restarts, sidecarRestart int       // the most restarts of a container, of a sidecar
}

// rankForDeletion returns a copy of pods sorted so that the pods to delete
// first come first. (kubernetes: sort.Sort(ActivePodsWithRanks).)
func rankForDeletion(pods []*informer.Pod, now time.Time) []*informer.Pod {
	ranked := make([]rankedPod, len(pods))
	for i, pod := range pods {
		r := rankedPod{pod: pod, ready: IsPodReady(pod)}
		if r.ready {
			r.readySince = podReadyCondition(pod).LastTransitionTime
		}
		if cost, err := strconv.ParseInt(pod.Annotations[podDeletionCostAnnotation], 10, 32); err == nil {
			r.cost = int(cost) // unset or not an int32: 0, as kubernetes reads it
		}
		r.restarts, r.sidecarRestart = maxContainerRestarts(pod)
		ranked[i] = r
	}
	slices.SortStableFunc(ranked, func(a, b rankedPod) int {
		switch {
		case deletesBefore(a, b, now):
			return -1
		case deletesBefore(b, a, now):
			return 1
		}
		return 0
	})
	out := make([]*informer.Pod, len(ranked))
	for i, r := range ranked {
		out[i] = r.pod
	}
	return out
}

// phaseOrder is the deletion order of the phases: Pending, Unknown,
// Running (others as Pending). (kubernetes: podPhaseToOrdinal.)
var phaseOrder = map[string]int{podPending: 0, podUnknown: 1, podRunning: 2}

// deletesBefore reports whether a should be deleted before b: the first
// rule that tells them apart decides.
// (kubernetes: ActivePodsWithRanks.Less.)
func deletesBefore(a, b rankedPod, now time.Time) bool {
	pa, pb := a.pod, b.pod
	// 1. Not yet scheduled to a node before scheduled.
	if pa.Spec.NodeName != pb.Spec.NodeName && (pa.Spec.NodeName == "" || pb.Spec.NodeName == "") {
		return pa.Spec.NodeName == ""
	}
	// 2. Pending before Unknown before Running.
	if phaseOrder[pa.Status.Phase] != phaseOrder[pb.Status.Phase] {
		return phaseOrder[pa.Status.Phase] < phaseOrder[pb.Status.Phase]
	}
	// 3. Not ready before ready.
	if a.ready != b.ready {
		return !a.ready
	}
	// 4. A lower pod-deletion-cost before a higher one.
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	// 6. Both ready: ready for less time before ready for longer, on a
	// logarithmic scale (within a power of two of each other they tie,
	// and the uid decides, so that equal pods go in no fixed order).
	if a.ready && b.ready && !a.readySince.Equal(b.readySince) {
		if a.readySince.IsZero() || b.readySince.IsZero() {
			return afterOrZero(a.readySince, b.readySince)
		}
		if d := logarithmicRankDiff(a.readySince, b.readySince, now); d != 0 {
			return d < 0
		}
		return pa.UID < pb.UID
	}
	// 7. More container restarts before fewer (then sidecars' restarts).
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if a.sidecarRestart != b.sidecarRestart {
		return a.sidecarRestart > b.sidecarRestart
	}
	// 8. Newer before older, on the same logarithmic scale.
	ca, cb := pa.CreationTimestamp, pb.CreationTimestamp
	if !ca.Equal(cb) {
		if ca.IsZero() || cb.IsZero() {
			return afterOrZero(ca, cb)
		}
		if d := logarithmicRankDiff(ca, cb, now); d != 0 {
			return d < 0
		}
		return pa.UID < pb.UID
	}
	return false
}

// afterOrZero reports whether t1 is after t2, a zero time counting as the
// latest of all. (kubernetes: afterOrZero.)
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logarithmicRankDiff compares how long ago t1 and t2 were, in powers of
// two of nanoseconds: negative when t1 is the more recent by that scale.
// (kubernetes: logarithmicRankDiff.)
func logarithmicRankDiff(t1, t2, now time.Time) int64 {
	rank := func(t time.Time) int64 {
		if d := now.Sub(t); d > 0 {
			return int64(math.Log2(float64(d)))
		}
		return -1
	}
	return rank(t1) - rank(t2)
}

// containerRestarts is what maxContainerRestarts reads of a container's
// status.
type containerRestarts struct {
	Name         string `json:"name"`
	RestartCount int    `json:"restartCount"`
}

// maxContainerRestarts returns the most restarts of any container of pod,
// and of any sidecar (an init container that restarts Always). Pod does not
// model container statuses; they are in the members it keeps, read here
// through its JSON. (kubernetes: maxContainerRestarts.)
func maxContainerRestarts(pod *informer.Pod) (regular, sidecar int) {
	raw, err := json.Marshal(pod)
	if err != nil {
		return 0, 0
	}
	var p struct {
		Spec struct {
			InitContainers []struct {
				Name          string `json:"name"`
				RestartPolicy string `json:"restartPolicy"`
			} `json:"initContainers"`
		} `json:"spec"`
		Status struct {
			ContainerStatuses     []containerRestarts `json:"containerStatuses"`
			InitContainerStatuses []containerRestarts `json:"initContainerStatuses"`
		} `json:"status"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return 0, 0
	}
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, c.RestartCount)
	}
	for _, c := range p.Status.InitContainerStatuses {
		for _, spec := range p.Spec.InitContainers {
			if spec.Name == c.Name && spec.RestartPolicy == "Always" {
				sidecar = max(sidecar, c.RestartCount)
			}
		}
	}
	return regular, sidecar
}

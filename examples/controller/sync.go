// sync.go holds the reconcile of one ReplicaSet key: count the active
// pods the ReplicaSet controls (claiming and releasing by its selector),
// create or delete the difference with spec.replicas, then write the
// status. It reads only the caches, which lag behind the controller's own
// writes; two guards keep it from acting twice on the same difference:
// expectations (expectations.go), which skip the creates and deletes until
// the events of the last ones have arrived, and the ConsistencyStore
// (consistency.go), which holds the whole sync back until the caches are
// as new as the controller's last writes.
//
// Pods are named by the server (generateName: web-x7k2p). They are
// counted, never named in advance: any active pod the ReplicaSet
// controls is as good as another, a pod replaced gets a new name, and a
// ReplicaSet deleted and made again under its name shares nothing with
// the old one.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// (replica_set.go): syncReplicaSet, manageReplicas (BurstReplicas,
// slowStartBatch, SlowStartInitialBatchSize), getPodKeys; pkg/controller
// FilterPodsByOwner, PodKey.
//
// Tutorial: 004 §2.3 (the business processor behind the informer) and
// 000 §5 (backpressure: a burst of creates starts small).

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/listers"
)

// BurstReplicas is the most pods one sync creates or deletes; the rest
// wait for the next sync, once the events of these have come.
// (kubernetes: replicaset.BurstReplicas.)
const BurstReplicas = 500

// SlowStartInitialBatchSize is the size of the first batch of creates;
// each batch that succeeds doubles the next. (kubernetes:
// controller.SlowStartInitialBatchSize.)
const SlowStartInitialBatchSize = 1

// syncReplicaSet reconciles the ReplicaSet of key. It returns an error to
// have the key retried with backoff; nil when done, or when retrying could
// not help (a bad key, a ReplicaSet that is gone, a bad selector).
// (kubernetes: ReplicaSetController.syncReplicaSet.)
func (c *Controller) syncReplicaSet(ctx context.Context, key string) error {
	namespace, name, err := informer.SplitMetaNamespaceKey(key)
	if err != nil {
		c.recorder.Eventf(key, EventTypeWarning, "BadKey", "dropped: %v", err)
		return nil // a retry would fail the same way
	}
	if err := c.consistencyStore.EnsureReady(key); err != nil {
		return err // a cache is older than our own last write: back after the backoff
	}
	rs, err := listers.NewNamespaced(c.replicaSetLister, namespace).Get(name)
	if informer.IsNotFound(err) {
		c.consistencyStore.Clear(key, "")
		c.expectations.DeleteExpectations(key)
		return nil // deleted: its pods are the garbage collector's
	}
	if err != nil {
		return err
	}

	// Read before the pods: a pod event that lowers the expectation after
	// this read is also in the pods read next.
	rsNeedsSync := c.expectations.SatisfiedExpectations(key)
	selector, err := rs.selector()
	if err != nil {
		c.recorder.Eventf(key, EventTypeWarning, "BadSelector", "%v", err)
		return nil // the server refuses such a ReplicaSet; nothing to retry
	}
	allPods, err := c.filterPodsByOwner(rs) // its own and the namespace's orphans
	if err != nil {
		return err
	}
	// The pods the cache holds are shared: copy one before changing it.
	activePods, err := c.claimPods(ctx, rs, selector, FilterActivePods(allPods))
	if err != nil {
		return err
	}
	terminatingPods := FilterClaimedPods(rs, selector, FilterTerminatingPods(allPods))

	var manageReplicasErr error
	if rsNeedsSync && rs.DeletionTimestamp == nil { // a ReplicaSet being deleted keeps what it has
		manageReplicasErr = c.manageReplicas(ctx, activePods, rs)
	}
	rs = rs.DeepCopy()
	now := c.clock.Now()
	status := calculateStatus(rs, activePods, terminatingPods, manageReplicasErr, now)
	// The status is written whether or not the creates and deletes failed.
	updated, err := c.updateReplicaSetStatus(ctx, rs, status)
	if err != nil {
		return err
	}
	c.consistencyStore.WroteAt(key, rs.UID, "replicasets.apps", updated.ResourceVersion)
	if manageReplicasErr != nil {
		return manageReplicasErr
	}
	// Pods ready but not yet available for minReadySeconds: look again when
	// the first becomes available, to report it.
	if updated.Spec.MinReadySeconds > 0 && updated.Status.ReadyReplicas != updated.Status.AvailableReplicas {
		next := time.Duration(updated.Spec.MinReadySeconds) * time.Second
		if d := nextAvailabilityCheck(activePods, updated.Spec.MinReadySeconds, c.clock.Now()); d != nil {
			next = *d
		}
		c.workqueue.AddAfter(key, next)
	}
	return nil
}

// filterPodsByOwner returns the cached pods rs controls and the pods of
// its namespace that no controller controls, through the pod cache's
// podControllerIndex. (kubernetes: controller.FilterPodsByOwner with
// includeOrphanedPods.)
func (c *Controller) filterPodsByOwner(rs *ReplicaSet) ([]*informer.Pod, error) {
	var pods []*informer.Pod
	for _, key := range []string{podControllerIndexKey(rs.Namespace, newControllerRef(rs)), podControllerIndexKey(rs.Namespace, nil)} {
		objs, err := c.podIndexer.ByIndex(podControllerIndex, key)
		if err != nil {
			return nil, err
		}
		for _, obj := range objs {
			if pod, ok := obj.(*informer.Pod); ok {
				pods = append(pods, pod)
			}
		}
	}
	return pods, nil
}

// manageReplicas creates or deletes pods until rs has spec.replicas
// active pods: at most burstReplicas in one sync; creates in batches of 1,
// 2, 4, ... that stop at the first batch with a failure; deletes all at
// once, the pods least worth keeping first. Before writing, it records
// what the pod handlers must observe before the next sync may act
// (ExpectCreations, ExpectDeletions); a write that fails is observed at
// once, since no event will come for it. It returns the first failure.
// (kubernetes: ReplicaSetController.manageReplicas.)
func (c *Controller) manageReplicas(ctx context.Context, activePods []*informer.Pod, rs *ReplicaSet) error {
	key := rs.Namespace + "/" + rs.Name
	diff := len(activePods) - rs.replicas()
	switch {
	case diff < 0:
		diff = min(-diff, c.burstReplicas)
		c.expectations.ExpectCreations(key, diff)
		c.logger.Info("Too few replicas", "replicaSet", key, "need", rs.replicas(), "creating", diff)
		successes, err := slowStartBatch(diff, SlowStartInitialBatchSize, func() error {
			err := c.podControl.CreatePods(ctx, rs, newControllerRef(rs))
			if informer.HasStatusCause(err, namespaceTerminatingCause) {
				return nil // the namespace is going: every create would fail
			}
			return err
		})
		// The creates never tried will not be observed: lower the
		// expectation by as many, so that the next sync may try them.
		for range diff - successes {
			c.expectations.CreationObserved(key)
		}
		return err
	case diff > 0:
		diff = min(diff, c.burstReplicas)
		c.logger.Info("Too many replicas", "replicaSet", key, "need", rs.replicas(), "deleting", diff)
		podsToDelete := getPodsToDelete(activePods, diff, c.clock.Now())
		// Which pods, not how many: a pod seen first marked for deletion and
		// then gone is observed once.
		c.expectations.ExpectDeletions(key, getPodKeys(podsToDelete))
		errs := make([]error, len(podsToDelete))
		var wg sync.WaitGroup
		for i, pod := range podsToDelete {
			goCatching(&wg, &errs[i], func() error {
				err := c.podControl.DeletePod(ctx, rs, pod.Name)
				if err != nil {
					c.expectations.DeletionObserved(key, podKey(pod)) // no event will come
				}
				if informer.IsNotFound(err) {
					return nil // gone already: what we wanted
				}
				return err
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err // the first: the others are likely the same
			}
		}
	}
	return nil
}

// slowStartBatch calls fn count times, in batches of initialBatchSize,
// then twice as many, and so on, each batch's calls at once; after a batch
// with a failure it stops. It returns how many calls succeeded and the
// first failure. A burst of creates that would all fail (a quota, a
// webhook) costs one request, not hundreds. (kubernetes: slowStartBatch.)
func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	remaining, successes := count, 0
	for batch := min(remaining, initialBatchSize); batch > 0; batch = min(2*batch, remaining) {
		errs := make([]error, batch)
		var wg sync.WaitGroup
		for i := range batch {
			goCatching(&wg, &errs[i], fn)
		}
		wg.Wait()
		var failed []error
		for _, err := range errs {
			if err != nil {
				failed = append(failed, err)
			}
		}
		successes += batch - len(failed)
		if len(failed) > 0 {
			return successes, failed[0]
		}
		remaining -= batch
	}
	return successes, nil
}

// goCatching runs fn in a goroutine of wg and stores what it returns in
// *err, or its panic as an error: a bug in one pod's write fails the sync,
// which is retried (syncRecovering's rule), instead of ending the program
// from a goroutine syncRecovering does not run in.
func goCatching(wg *sync.WaitGroup, err *error, fn func() error) {
	wg.Go(func() {
		defer func() {
			if r := recover(); r != nil {
				*err = fmt.Errorf("panic: %v", r)
			}
		}()
		*err = fn()
	})
}

// podKey is "namespace/name". (kubernetes: controller.PodKey.)
func podKey(pod *informer.Pod) string { return pod.Namespace + "/" + pod.Name }

// getPodKeys returns the keys of pods. (kubernetes: getPodKeys.)
func getPodKeys(pods []*informer.Pod) []string {
	keys := make([]string, 0, len(pods))
	for _, pod := range pods {
		keys = append(keys, podKey(pod))
	}
	return keys
}

// claim.go holds how a ReplicaSet claims its pods. Ownership is the
// controller reference, not the labels: a pod is the ReplicaSet's if an
// ownerReference with controller: true names the ReplicaSet's uid. The
// selector decides what changes hands. The ReplicaSet adopts an orphan its
// selector matches (it writes itself into the pod's ownerReferences), and
// releases a pod it controls that the selector no longer matches (a
// relabelled pod: it removes itself from them). A pod another controller
// controls is never touched. A ReplicaSet being deleted adopts and
// releases nothing.
//
// Before its first adoption in a sync, the ReplicaSet rechecks itself with
// a live read: its cache may not show yet that it is being deleted, and a
// pod adopted now by a ReplicaSet already gone would be deleted with it by
// the garbage collector.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller
// (controller_ref_manager.go): PodControllerRefManager.ClaimPods,
// BaseControllerRefManager.ClaimObject and CanAdopt, AdoptPod, ReleasePod,
// RecheckDeletionTimestamp; pkg/controller/replicaset claimPods.
//
// Tutorial: 004 §2.3 (the business logic reads the cache; it confirms
// with the server before an irreversible write).

package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	informer "github.com/learn-k8s/informer"
)

// claimPods returns the pods of pods that rs controls once its claims are
// made: those it controls that its selector matches, and the orphans it
// matches, adopted. It releases the pods it controls that selector no
// longer matches. An error is the first adoption or release that failed;
// the pods claimed before and after it are returned all the same.
// (kubernetes: ReplicaSetController.claimPods and ClaimPods.)
func (c *Controller) claimPods(ctx context.Context, rs *ReplicaSet, selector informer.Selector, pods []*informer.Pod) ([]*informer.Pod, error) {
	// The live read runs at most once per sync, and only if an adoption is
	// attempted. (kubernetes: BaseControllerRefManager.CanAdopt.)
	canAdopt := sync.OnceValue(func() error { return c.recheckDeletionTimestamp(ctx, rs) })
	var claimed []*informer.Pod
	var errs []error
	for _, pod := range pods {
		ok, err := c.claimPod(ctx, rs, selector, pod, canAdopt)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, pod)
		}
	}
	return claimed, aggregate(errs)
}

// aggregate is errs as one error, on one line: the error itself if there is
// one, "[first, second]" for more, nil for none; errors.Is and errors.As
// see each. (apimachinery: utilerrors.NewAggregate.)
func aggregate(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return aggregateError(errs)
}

// aggregateError is more than one error.
type aggregateError []error

func (a aggregateError) Error() string {
	msgs := make([]string, len(a))
	for i, err := range a {
		msgs[i] = err.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

func (a aggregateError) Unwrap() []error { return a }

// claimPod claims one pod for rs and reports whether rs controls it now.
// (kubernetes: BaseControllerRefManager.ClaimObject.)
func (c *Controller) claimPod(ctx context.Context, rs *ReplicaSet, selector informer.Selector, pod *informer.Pod, canAdopt func() error) (bool, error) {
	matches := selector.Matches(pod.Labels)
	if ref := controllerOf(&pod.ObjectMeta); ref != nil {
		switch {
		case ref.UID != rs.UID:
			return false, nil // another controller's
		case matches:
			return true, nil // ours, and still selected (even while rs is being deleted)
		case rs.DeletionTimestamp != nil:
			return false, nil
		}
		c.logger.Info("Releasing pod", "replicaSet", rs.Namespace+"/"+rs.Name, "pod", pod.Name)
		err := c.releasePod(ctx, rs, pod)
		if informer.IsNotFound(err) {
			return false, nil
		}
		return false, err // nil: released
	}
	// An orphan.
	if rs.DeletionTimestamp != nil || !matches || pod.DeletionTimestamp != nil || pod.Namespace != rs.Namespace {
		return false, nil
	}
	if err := canAdopt(); err != nil {
		return false, fmt.Errorf("can't adopt Pod %v/%v (%v): %w", pod.Namespace, pod.Name, pod.UID, err)
	}
	c.logger.Info("Adopting pod", "replicaSet", rs.Namespace+"/"+rs.Name, "pod", pod.Name)
	err := c.adoptPod(ctx, rs, pod)
	if informer.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// recheckDeletionTimestamp reads rs from the server (not the cache): an
// adoption may go ahead only if it is still there, the same object, and
// not being deleted. (kubernetes: RecheckDeletionTimestamp, with the
// ReplicaSet controller's uid check.)
func (c *Controller) recheckDeletionTimestamp(ctx context.Context, rs *ReplicaSet) error {
	obj, err := c.client.Do(ctx, http.MethodGet, replicaSetsGVR, rs.Namespace, rs.Name, nil, newReplicaSet)
	if err != nil {
		return fmt.Errorf("can't recheck DeletionTimestamp: %w", err)
	}
	fresh := obj.(*ReplicaSet)
	if fresh.UID != rs.UID {
		return fmt.Errorf("can't recheck DeletionTimestamp: original ReplicaSet %v/%v is gone: got uid %v, wanted %v",
			rs.Namespace, rs.Name, fresh.UID, rs.UID)
	}
	if fresh.DeletionTimestamp != nil {
		return fmt.Errorf("%v/%v has just been deleted at %v", fresh.Namespace, fresh.Name, fresh.DeletionTimestamp)
	}
	return nil
}

// adoptPod makes rs the controller of the orphan pod.
// (kubernetes: PodControllerRefManager.AdoptPod.)
func (c *Controller) adoptPod(ctx context.Context, rs *ReplicaSet, pod *informer.Pod) error {
	adopted := pod.DeepCopy() // never change the cache's copy
	adopted.OwnerReferences = append(adopted.OwnerReferences, *newControllerRef(rs))
	return c.podControl.UpdatePod(ctx, adopted)
}

// releasePod removes rs from the ownerReferences of a pod it controls. A
// pod gone meanwhile is no error, and neither is a 422 (the pod no longer
// names rs, or is another pod of the same name).
// (kubernetes: PodControllerRefManager.ReleasePod.)
func (c *Controller) releasePod(ctx context.Context, rs *ReplicaSet, pod *informer.Pod) error {
	released := pod.DeepCopy()
	released.OwnerReferences = slices.DeleteFunc(released.OwnerReferences,
		func(ref informer.OwnerReference) bool { return ref.UID == rs.UID })
	err := c.podControl.UpdatePod(ctx, released)
	if isInvalid(err) {
		return nil
	}
	return err
}

// isInvalid reports a 422 Invalid answer. (apimachinery: errors.IsInvalid.)
func isInvalid(err error) bool {
	var se *informer.StatusError
	return errors.As(err, &se) && (se.ErrStatus.Reason == "Invalid" ||
		se.ErrStatus.Reason == "" && se.ErrStatus.Code == http.StatusUnprocessableEntity)
}

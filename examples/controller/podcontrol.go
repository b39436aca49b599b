// podcontrol.go holds the controller's pod writes: create a pod from a
// ReplicaSet's template (the server names it from generateName), delete
// one, update one (to adopt or release it). Each reports what happened as
// an event of the ReplicaSet, and each pod the controller created or
// changed is passed to onWrite with its new resourceVersion, which the
// ConsistencyStore records.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller
// (controller_utils.go): RealPodControl (CreatePods, DeletePod, PatchPod,
// its OnWrite callback), GetPodFromTemplate, getPodsPrefix,
// validateControllerRef, and the event reasons FailedCreate,
// SuccessfulCreate, FailedDelete, SuccessfulDelete; metav1.NewControllerRef.
//
// Tutorial: 004 §2.3 (the business processor writes to the API server).

package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	informer "github.com/learn-k8s/informer"
)

// The event reasons of pod writes. (kubernetes: controller.FailedCreatePodReason, ...)
const (
	FailedCreatePodReason     = "FailedCreate"
	SuccessfulCreatePodReason = "SuccessfulCreate"
	FailedDeletePodReason     = "FailedDelete"
	SuccessfulDeletePodReason = "SuccessfulDelete"
)

// namespaceTerminatingCause is the cause of a create refused because the
// namespace is being deleted. (client-go: corev1.NamespaceTerminatingCause.)
const namespaceTerminatingCause = "NamespaceTerminating"

// podControl makes the controller's pod writes.
type podControl struct {
	client   *informer.RESTClient
	recorder EventRecorder
	// onWrite, if set, hears of every pod created or updated, as the server
	// stored it, with its controller reference (nil once released).
	onWrite func(pod *informer.Pod, controllerRef *informer.OwnerReference)
}

// newControllerRef is the owner reference that makes rs a pod's
// controller. (metav1.NewControllerRef.)
func newControllerRef(rs *ReplicaSet) *informer.OwnerReference {
	yes := true
	return &informer.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID,
		Controller: &yes, BlockOwnerDeletion: &yes}
}

// validateControllerRef refuses an owner reference a controller must not
// write. (kubernetes: validateControllerRef.)
func validateControllerRef(ref *informer.OwnerReference) error {
	switch {
	case ref == nil:
		return errors.New("controllerRef is nil")
	case ref.APIVersion == "":
		return errors.New("controllerRef has empty APIVersion")
	case ref.Kind == "":
		return errors.New("controllerRef has empty Kind")
	case ref.Controller == nil || !*ref.Controller:
		return errors.New("controllerRef.Controller is not set to true")
	case ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion:
		return errors.New("controllerRef.BlockOwnerDeletion is not set")
	}
	return nil
}

// GetPodFromTemplate is the pod rs's template describes, with no name but
// a generateName ("web-": the server adds five random characters), its
// labels, annotations and finalizers, a deep copy of its spec, and
// controllerRef. (kubernetes: controller.GetPodFromTemplate.)
func GetPodFromTemplate(rs *ReplicaSet, controllerRef *informer.OwnerReference) *informer.Pod {
	tmpl := rs.DeepCopy().Spec.Template // the copy shares nothing with the cache
	prefix := rs.Name + "-"
	if len(prefix) > 253 { // longer than a name may be: the name alone (getPodsPrefix)
		prefix = rs.Name
	}
	pod := &informer.Pod{
		ObjectMeta: informer.ObjectMeta{
			GenerateName: prefix,
			Namespace:    rs.Namespace,
			Labels:       tmpl.ObjectMeta.Labels,
			Annotations:  tmpl.ObjectMeta.Annotations,
			Finalizers:   tmpl.ObjectMeta.Finalizers,
		},
		Spec: tmpl.Spec,
	}
	if controllerRef != nil {
		pod.OwnerReferences = []informer.OwnerReference{*controllerRef}
	}
	return pod
}

// CreatePods creates one pod from rs's template, controlled by
// controllerRef. (kubernetes: RealPodControl.CreatePods.)
func (p podControl) CreatePods(ctx context.Context, rs *ReplicaSet, controllerRef *informer.OwnerReference) error {
	if err := validateControllerRef(controllerRef); err != nil {
		return err
	}
	pod := GetPodFromTemplate(rs, controllerRef)
	if len(pod.Labels) == 0 {
		return errors.New("unable to create pods, no labels")
	}
	key := rs.Namespace + "/" + rs.Name
	obj, err := p.client.Create(ctx, podsGVR, pod)
	if err != nil {
		if !informer.HasStatusCause(err, namespaceTerminatingCause) { // no event while the namespace goes
			p.recorder.Eventf(key, EventTypeWarning, FailedCreatePodReason, "Error creating: %v", err)
		}
		return err
	}
	created := obj.(*informer.Pod)
	if p.onWrite != nil {
		p.onWrite(created, controllerRef)
	}
	p.recorder.Eventf(key, EventTypeNormal, SuccessfulCreatePodReason, "Created pod: %v", created.Name)
	return nil
}

// DeletePod deletes the pod name of rs's namespace. A pod already gone is
// reported as the NotFound error it is, without an event.
// (kubernetes: RealPodControl.DeletePod.)
func (p podControl) DeletePod(ctx context.Context, rs *ReplicaSet, name string) error {
	_, err := p.client.Do(ctx, http.MethodDelete, podsGVR, rs.Namespace, name, nil, nil)
	key := rs.Namespace + "/" + rs.Name
	switch {
	case informer.IsNotFound(err):
		return err
	case err != nil:
		p.recorder.Eventf(key, EventTypeWarning, FailedDeletePodReason, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	p.recorder.Eventf(key, EventTypeNormal, SuccessfulDeletePodReason, "Deleted pod: %v", name)
	return nil
}

// UpdatePod writes pod, a changed copy of a cached pod, back (a PUT: a
// pod changed meanwhile is a 409 Conflict). kube-controller-manager sends
// a strategic merge patch instead (PatchPod), which merges with a change
// made meanwhile; see the chapter's table of what is simplified.
func (p podControl) UpdatePod(ctx context.Context, pod *informer.Pod) error {
	obj, err := p.client.Update(ctx, podsGVR, pod)
	if err != nil {
		return err
	}
	if updated := obj.(*informer.Pod); p.onWrite != nil {
		p.onWrite(updated, controllerOf(&updated.ObjectMeta))
	}
	return nil
}

// sync.go holds the reconcile: for one ReplicaSet key, compare the pods it
// should have with the pods the cache shows, create and delete to close the
// gap, and report status.replicas through the /status subresource. It reads
// only from the caches and may run on a cache that lags behind its own
// writes, so every write is safe to repeat: pods have fixed names
// (web-0, web-1, ...), a create that finds its pod already there and a
// delete that finds it gone are not failures, and the next event or retry
// reconciles again.
//
// client-go counterpart: the syncHandler of k8s.io/sample-controller; the
// rules of k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// (syncReplicaSet, manageReplicas, updateReplicaSetStatus) and its event
// reasons (pkg/controller: SuccessfulCreate, FailedCreate,
// SuccessfulDelete, FailedDelete). Where the real ReplicaSet controller
// differs: it names pods with generateName (web-x7k2p) and avoids creating
// twice with "expectations" of the events its writes will cause; it
// adopts and releases pods by selector; it counts ready and available pods
// too.
//
// Tutorial: 004 §2.3 (the business processor behind the informer) and
// 000 §3.3 (optimistic concurrency: RetryOnConflict on the status).

package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/listers"
	"github.com/learn-k8s/informer/retry"
)

// syncReplicaSet reconciles the ReplicaSet of key. It returns an error to
// have the key retried with backoff; nil when done, or when retrying could
// not help (a bad key, a ReplicaSet that is gone).
// (k8s.io/kubernetes ReplicaSetController: syncReplicaSet.)
func (c *Controller) syncReplicaSet(ctx context.Context, key string) error {
	namespace, name, err := informer.SplitMetaNamespaceKey(key)
	if err != nil {
		c.recorder.Eventf(key, EventTypeWarning, "BadKey", "dropped: %v", err)
		return nil // a retry would fail the same way
	}
	rs, err := listers.NewNamespaced(c.replicaSetLister, namespace).Get(name)
	if informer.IsNotFound(err) {
		return nil // deleted: its pods are the garbage collector's to delete
	}
	if err != nil {
		return err
	}

	owned, err := c.podsOwnedBy(rs)
	if err != nil {
		return err
	}
	active := 0 // pods not being deleted: what status.replicas reports
	for _, pod := range owned {
		if pod.DeletionTimestamp == nil {
			active++
		}
	}
	if rs.DeletionTimestamp == nil { // a ReplicaSet being deleted keeps what it has
		if err := c.managePods(ctx, rs, owned); err != nil {
			return err
		}
	}
	// The status counts the pods seen before this pass's writes, as the real
	// controller does: their events enqueue the key again, and the next pass
	// reports them.
	return c.updateStatus(ctx, rs, active)
}

// podsOwnedBy returns the pods in the cache whose controller is rs, through
// the pod cache's podControllerIndex.
func (c *Controller) podsOwnedBy(rs *ReplicaSet) ([]*informer.Pod, error) {
	objs, err := c.podIndexer.ByIndex(podControllerIndex, rs.Namespace+"/ReplicaSet/"+rs.Name+"/"+rs.UID)
	if err != nil {
		return nil, err
	}
	pods := make([]*informer.Pod, 0, len(objs))
	for _, obj := range objs {
		if pod, ok := obj.(*informer.Pod); ok {
			pods = append(pods, pod)
		}
	}
	// In name order, so that the deletes go in an order a reader can follow.
	slices.SortFunc(pods, func(a, b *informer.Pod) int { return strings.Compare(a.Name, b.Name) })
	return pods, nil
}

// podName is the name of rs's pod number i: "web-0", "web-1", ...
func podName(rs *ReplicaSet, i int) string { return rs.Name + "-" + strconv.Itoa(i) }

// managePods creates the pods rs should have that the cache does not show,
// and deletes the pods it owns that it should not have. It stops at the
// first failure. (k8s.io/kubernetes ReplicaSetController: manageReplicas.)
func (c *Controller) managePods(ctx context.Context, rs *ReplicaSet, owned []*informer.Pod) error {
	want := make([]string, rs.replicas())
	for i := range want {
		want[i] = podName(rs, i)
	}
	have := map[string]bool{} // every owned pod holds its name, even while it is being deleted
	for _, pod := range owned {
		have[pod.Name] = true
	}
	for _, name := range want {
		if !have[name] {
			if err := c.createPod(ctx, rs, name); err != nil {
				return err
			}
		}
	}
	for _, pod := range owned {
		if !slices.Contains(want, pod.Name) && pod.DeletionTimestamp == nil {
			if err := c.deletePod(ctx, rs, pod.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// createPod creates rs's pod name from its template, controlled by rs. A
// pod that already exists is fine if it is rs's (the cache had not shown it
// yet); someone else's is an error, retried until it goes away.
func (c *Controller) createPod(ctx context.Context, rs *ReplicaSet, name string) error {
	_, err := c.client.Create(ctx, podsGVR, newPod(rs, name))
	if informer.IsAlreadyExists(err) {
		obj, exists, _ := c.podIndexer.GetByKey(rs.Namespace + "/" + name)
		if !exists {
			return nil // made by an earlier pass: its event is on its way
		}
		if ref := controllerOf(&obj.(*informer.Pod).ObjectMeta); ref != nil && ref.UID == rs.UID {
			return nil
		}
		err = fmt.Errorf("pod %s/%s exists and is not controlled by ReplicaSet %s", rs.Namespace, name, rs.Name)
	}
	key := rs.Namespace + "/" + rs.Name
	if err != nil {
		c.recorder.Eventf(key, EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		return err
	}
	c.recorder.Eventf(key, EventTypeNormal, "SuccessfulCreate", "Created pod: %s", name)
	return nil
}

// deletePod deletes rs's pod name; one already gone is fine.
func (c *Controller) deletePod(ctx context.Context, rs *ReplicaSet, name string) error {
	_, err := c.client.Do(ctx, http.MethodDelete, podsGVR, rs.Namespace, name, nil, nil)
	if informer.IsNotFound(err) {
		return nil // deleted by an earlier pass, or by someone else
	}
	key := rs.Namespace + "/" + rs.Name
	if err != nil {
		c.recorder.Eventf(key, EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
		return err
	}
	c.recorder.Eventf(key, EventTypeNormal, "SuccessfulDelete", "Deleted pod: %s", name)
	return nil
}

// newPod is rs's pod name: its template's labels, annotations and spec, and
// an ownerReference that makes rs its controller.
// (k8s.io/kubernetes pkg/controller: GetPodFromTemplate.)
func newPod(rs *ReplicaSet, name string) *informer.Pod {
	tmpl := rs.DeepCopy().Spec.Template
	isController := true
	return &informer.Pod{
		ObjectMeta: informer.ObjectMeta{
			Name:        name,
			Namespace:   rs.Namespace,
			Labels:      tmpl.ObjectMeta.Labels,
			Annotations: tmpl.ObjectMeta.Annotations,
			OwnerReferences: []informer.OwnerReference{{
				APIVersion:         "apps/v1",
				Kind:               "ReplicaSet",
				Name:               rs.Name,
				UID:                rs.UID,
				Controller:         &isController,
				BlockOwnerDeletion: &isController,
			}},
		},
		Spec: tmpl.Spec,
	}
}

// updateStatus writes status.replicas (and observedGeneration, the spec
// generation this pass acted on) if they changed. It reads the ReplicaSet
// from the server as generic JSON, so every status member this controller
// does not know is written back as it was, sets the two, and PUTs to
// /status; on a 409 Conflict (someone wrote in between) it reads again and
// retries. (k8s.io/kubernetes ReplicaSetController: updateReplicaSetStatus.)
func (c *Controller) updateStatus(ctx context.Context, rs *ReplicaSet, replicas int) error {
	if int(rs.Status.Replicas) == replicas && rs.Status.ObservedGeneration == rs.Generation {
		return nil
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := c.client.Get(ctx, replicaSetsGVR, rs.Namespace, rs.Name)
		if informer.IsNotFound(err) {
			return nil // deleted meanwhile: nothing to report to
		}
		if err != nil {
			return err
		}
		fresh := obj.(*informer.Unstructured)
		if fresh.GetUID() != rs.UID {
			return nil // deleted and made again: the new one's events will come
		}
		status, _ := fresh.Object["status"].(map[string]any)
		if status == nil {
			status = map[string]any{}
			fresh.Object["status"] = status
		}
		status["replicas"] = replicas
		status["observedGeneration"] = rs.Generation
		_, err = c.client.UpdateStatus(ctx, replicaSetsGVR, fresh)
		return err
	})
}

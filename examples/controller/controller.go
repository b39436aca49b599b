// controller.go holds the controller's frame, the part every client-go
// controller shares: informers fill caches; their handlers only turn an
// event into a key ("namespace/name" of a ReplicaSet) and Add it to a
// rate-limiting work queue; N workers Get keys, reconcile each
// (syncReplicaSet, in sync.go), then Forget the key on success or put it
// back with AddRateLimited on failure, and always call Done.
//
// client-go counterpart: the Controller of k8s.io/sample-controller
// (NewController, enqueueFoo, handleObject, Run, runWorker,
// processNextWorkItem) and of k8s.io/kubernetes v1.37.2
// pkg/controller/replicaset (its syncHandler field, updatePod's
// controllerRef checks, the pod index by controller of
// pkg/controller.PodControllerIndex).
//
// Tutorial: 004 §2.3 (the handlers feed the business logic; here through a
// work queue) and 000 §5 (backpressure: the queue absorbs bursts, retries
// back off).

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
	"github.com/learn-k8s/informer/listers"
	"github.com/learn-k8s/informer/workqueue"
)

// podControllerIndex indexes pods by their controller: "namespace/Kind/name/uid".
// (k8s.io/kubernetes: pkg/controller.PodControllerIndex, PodControllerIndexKey.)
const podControllerIndex = "podController"

// podControllerIndexFunc is the index function of podControllerIndex.
func podControllerIndexFunc(obj any) ([]string, error) {
	pod, ok := obj.(*informer.Pod)
	if !ok {
		return nil, nil
	}
	ref := controllerOf(&pod.ObjectMeta)
	if ref == nil {
		return nil, nil
	}
	return []string{pod.Namespace + "/" + ref.Kind + "/" + ref.Name + "/" + ref.UID}, nil
}

// controllerOf returns the ownerReference marked controller, or nil.
// (client-go: metav1.GetControllerOf.)
func controllerOf(meta *informer.ObjectMeta) *informer.OwnerReference {
	for i, ref := range meta.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			return &meta.OwnerReferences[i]
		}
	}
	return nil
}

// EventRecorder is where the controller reports what it did, by reason, as
// client-go's record.EventRecorder does for the object's Events. This one
// takes the ReplicaSet's key; the program decides where the lines go.
type EventRecorder interface {
	Eventf(key, eventType, reason, messageFmt string, args ...any)
}

// The event types, as corev1.EventTypeNormal and EventTypeWarning.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// Controller keeps, for each ReplicaSet, spec.replicas pods that it owns,
// and reports status.replicas. Make one with NewController, start its
// informers, then call Run.
type Controller struct {
	client *informer.RESTClient

	replicaSetLister  listers.ResourceIndexer[*ReplicaSet]
	replicaSetsSynced informer.InformerSynced
	podIndexer        informer.Indexer // indexed by podControllerIndex
	podsSynced        informer.InformerSynced

	// workqueue holds the keys of ReplicaSets to reconcile: a key is in it
	// once however many events came, and never with two workers at once.
	workqueue workqueue.TypedRateLimitingInterface[string]
	recorder  EventRecorder

	// syncHandler reconciles one key; syncReplicaSet unless a test wraps it.
	// (k8s.io/kubernetes' ReplicaSetController has the same field, for tests.)
	syncHandler func(ctx context.Context, key string) error
}

// NewController returns a controller that reads ReplicaSets and pods from
// the two informers (the pod informer must have the podControllerIndex
// index), writes through client and reports to recorder. Its queue is
// client-go's default: per-key backoff from 5 ms, 10 retries a second
// overall, its waits on clk (nil: the real clock; tests pass a fake one).
func NewController(client *informer.RESTClient, replicaSets, pods informer.SharedIndexInformer, recorder EventRecorder, clk clock.Clock) (*Controller, error) {
	c := &Controller{
		client:            client,
		replicaSetLister:  listers.New[*ReplicaSet](replicaSets.GetIndexer(), "replicasets.apps"),
		replicaSetsSynced: replicaSets.HasSynced,
		podIndexer:        pods.GetIndexer(),
		podsSynced:        pods.HasSynced,
		workqueue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "ReplicaSets", Clock: clk}),
		recorder: recorder,
	}
	c.syncHandler = c.syncReplicaSet
	if _, err := replicaSets.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueReplicaSet,
		UpdateFunc: func(_, newObj any) { c.enqueueReplicaSet(newObj) },
		DeleteFunc: c.enqueueReplicaSet, // the sync finds it gone and stops
	}); err != nil {
		return nil, err
	}
	if _, err := pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    c.handlePod,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.handlePod,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// enqueueReplicaSet adds the key of a ReplicaSet (or of its tombstone) to
// the queue. It is all a ReplicaSet handler does: the worker reads the
// newest state from the cache when it gets the key.
// (sample-controller: enqueueFoo.)
func (c *Controller) enqueueReplicaSet(obj any) {
	key, err := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.recorder.Eventf("", EventTypeWarning, "BadObject", "cannot make a key: %v", err)
		return
	}
	c.workqueue.Add(key)
}

// updatePod enqueues the owner of a changed pod, and its former owner if
// the pod changed hands. A resync's update (same resourceVersion) changed
// nothing and is skipped.
// (k8s.io/kubernetes ReplicaSetController: updatePod.)
func (c *Controller) updatePod(oldObj, newObj any) {
	oldPod, okOld := oldObj.(*informer.Pod)
	newPod, okNew := newObj.(*informer.Pod)
	if !okOld || !okNew || oldPod.ResourceVersion == newPod.ResourceVersion {
		return
	}
	if oldRef, newRef := controllerOf(&oldPod.ObjectMeta), controllerOf(&newPod.ObjectMeta); oldRef != nil &&
		(newRef == nil || oldRef.UID != newRef.UID) {
		c.handlePod(oldPod)
	}
	c.handlePod(newPod)
}

// handlePod enqueues the ReplicaSet that controls a pod (or a pod's
// tombstone), if it is a ReplicaSet the cache knows, with the same uid.
// (sample-controller: handleObject.)
func (c *Controller) handlePod(obj any) {
	if tombstone, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj // deleted while the watch was down: its last state
	}
	pod, ok := obj.(*informer.Pod)
	if !ok {
		return
	}
	ref := controllerOf(&pod.ObjectMeta)
	if ref == nil || ref.Kind != "ReplicaSet" || ref.APIVersion != "apps/v1" {
		return // not a ReplicaSet's pod
	}
	rs, err := listers.NewNamespaced(c.replicaSetLister, pod.Namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return // its owner is gone, or the name now belongs to another ReplicaSet
	}
	c.enqueueReplicaSet(rs)
}

// Run waits for the caches to sync, then runs workers goroutines until ctx
// ends; it then shuts the queue down and returns once every worker has
// finished its item. The informers are the caller's to run.
// (sample-controller: Run.)
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.workqueue.ShutDown()
	if !informer.WaitForCacheSync(ctx, c.replicaSetsSynced, c.podsSynced) {
		return errors.New("the caches did not sync before the controller was stopped")
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { c.runWorker(ctx) })
	}
	<-ctx.Done()
	c.workqueue.ShutDown() // Get returns what is queued, then shutdown: the workers end
	wg.Wait()
	return nil
}

// runWorker processes keys until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem gets one key, reconciles it and tells the queue how
// it went. It returns false once the queue has shut down.
// (sample-controller: processNextWorkItem.)
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	// Done in a defer: even if the sync panics, the key leaves the
	// processing set, or it would never be handed out again.
	defer c.workqueue.Done(key)

	err := c.syncRecovering(ctx, key)
	switch {
	case err == nil:
		c.workqueue.Forget(key) // success: its next failure starts the backoff over
	case ctx.Err() != nil:
		// Stopping: the failure is the cancelled context; the queue is shutting down.
	default:
		c.workqueue.AddRateLimited(key) // back after 5 ms, 10 ms, 20 ms, ...
		c.recorder.Eventf(key, EventTypeWarning, "SyncFailed", "sync failed (failure %d), retrying with backoff: %v",
			c.workqueue.NumRequeues(key), err)
	}
	return true
}

// syncRecovering calls syncHandler and turns a panic into an error, so
// that a bug in one reconcile retries that key with backoff instead of
// ending the program. (controller-runtime's reconciler does the same by
// default since v0.19 (RecoverPanic); client-go's sample-controller lets
// the panic end the process, and Kubernetes restarts it.)
func (c *Controller) syncRecovering(ctx context.Context, key string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.syncHandler(ctx, key)
}

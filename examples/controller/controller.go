// controller.go holds the controller's frame, the part every client-go
// controller shares: informers fill caches; their handlers (handlers.go)
// only turn an event into a key ("namespace/name" of a ReplicaSet) and Add
// it to a rate-limiting work queue; N workers Get keys, reconcile each
// (syncReplicaSet, in sync.go), then Forget the key on success or put it
// back with AddRateLimited on failure, and always call Done.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// (replica_set.go): ReplicaSetController, NewBaseController, Run, worker,
// processNextWorkItem; pkg/controller AddPodControllerIndexer,
// PodControllerIndexKey; and the shape of k8s.io/sample-controller.
//
// Tutorial: 004 §2.3 (the handlers feed the business logic; here through a
// work queue) and 000 §5 (backpressure: the queue absorbs bursts, retries
// back off).

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
	"github.com/learn-k8s/informer/listers"
	"github.com/learn-k8s/informer/workqueue"
)

// podControllerIndex indexes pods by their controller,
// "namespace/Kind/name/uid", and the pods no controller controls by
// "namespace", so that a ReplicaSet finds its own pods and the orphans it
// may adopt without a scan. (kubernetes: pkg/controller.PodControllerIndex.)
const podControllerIndex = "podController"

// podControllerIndexKey is the podControllerIndex key of the pods of
// namespace that ref controls; of its orphans when ref is nil.
// (kubernetes: controller.PodControllerIndexKey.)
func podControllerIndexKey(namespace string, ref *informer.OwnerReference) string {
	if ref == nil {
		return namespace
	}
	return namespace + "/" + ref.Kind + "/" + ref.Name + "/" + ref.UID
}

// podControllerIndexFunc is the index function of podControllerIndex.
// (kubernetes: the indexer AddPodControllerIndexer adds.)
func podControllerIndexFunc(obj any) ([]string, error) {
	pod, ok := obj.(*informer.Pod)
	if !ok {
		return nil, nil
	}
	return []string{podControllerIndexKey(pod.Namespace, controllerOf(&pod.ObjectMeta))}, nil
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

// Config is what NewController builds a controller with.
type Config struct {
	Recorder EventRecorder // where its events go; required
	// Logger receives its log lines ("Too few replicas", ...), as klog does
	// kube-controller-manager's; nil discards them.
	Logger *slog.Logger
	// Clock times its work queue's backoffs and its status; nil is the
	// real clock (tests pass a fake one).
	Clock clock.Clock
	// MetricsProvider makes its work queue's metrics; nil is the package's
	// (workqueue.SetProvider), by default none.
	MetricsProvider workqueue.MetricsProvider
}

// Controller keeps, for each ReplicaSet, spec.replicas active pods that it
// controls, and reports them in its status. Make one with NewController,
// start its informers, then call Run.
type Controller struct {
	client     *informer.RESTClient // for the live reads (status retry, adoption recheck)
	podControl podControl           // the pod writes

	replicaSetLister  listers.ResourceIndexer[*ReplicaSet]
	replicaSetsSynced informer.InformerSynced
	podIndexer        informer.Indexer // indexed by podControllerIndex
	podsSynced        informer.InformerSynced

	// workqueue holds the keys of ReplicaSets to reconcile: a key is in it
	// once however many events came, and never with two workers at once.
	workqueue workqueue.TypedRateLimitingInterface[string]
	// expectations are the pod events each ReplicaSet's last sync waits for.
	expectations ControllerExpectationsInterface
	// consistencyStore holds a sync back while a cache is older than the
	// controller's own last write for that ReplicaSet.
	consistencyStore ConsistencyStore
	// burstReplicas is the most pods one sync creates or deletes
	// (BurstReplicas; a test lowers it).
	burstReplicas int

	recorder EventRecorder
	logger   *slog.Logger
	clock    clock.Clock

	// syncHandler reconciles one key; syncReplicaSet unless a test wraps it.
	// (kubernetes' ReplicaSetController has the same field, for tests.)
	syncHandler func(ctx context.Context, key string) error
}

// NewController returns a controller that reads ReplicaSets and pods from
// the two informers (it adds the podControllerIndex index to the pod
// informer, which must not have started), writes through client and
// reports as cfg says. Its queue is client-go's default: per-key backoff
// from 5 ms, 10 retries a second overall.
// (kubernetes: NewReplicaSetController, NewBaseController.)
func NewController(client *informer.RESTClient, replicaSets, pods informer.SharedIndexInformer, cfg Config) (*Controller, error) {
	if cfg.Recorder == nil {
		return nil, errors.New("NewController: Config.Recorder is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	if err := pods.AddIndexers(informer.Indexers{podControllerIndex: podControllerIndexFunc}); err != nil {
		return nil, err
	}
	c := &Controller{
		client:            client,
		replicaSetLister:  listers.New[*ReplicaSet](replicaSets.GetIndexer(), "replicasets.apps"),
		replicaSetsSynced: replicaSets.HasSynced,
		podIndexer:        pods.GetIndexer(),
		podsSynced:        pods.HasSynced,
		workqueue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "replicaset", Clock: cfg.Clock,
				MetricsProvider: cfg.MetricsProvider}),
		// Timed on the real clock, as in kube-controller-manager (see expectations.clock).
		expectations: newExpectations(clock.RealClock{}),
		consistencyStore: NewConsistencyStore(map[string]LastSyncRVGetter{
			"pods":             pods.GetStore(),
			"replicasets.apps": replicaSets.GetStore(),
		}),
		burstReplicas: BurstReplicas,
		recorder:      cfg.Recorder,
		logger:        cfg.Logger,
		clock:         cfg.Clock,
	}
	c.podControl = podControl{client: client, recorder: cfg.Recorder, onWrite: c.podWritten}
	c.syncHandler = c.syncReplicaSet
	if _, err := replicaSets.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    c.addRS,
		UpdateFunc: c.updateRS,
		DeleteFunc: c.deleteRS,
	}); err != nil {
		return nil, err
	}
	if _, err := pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    c.addPod,
		UpdateFunc: c.updatePod,
		DeleteFunc: c.deletePod,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// podWritten records a pod the controller created or changed in the
// ConsistencyStore, for the ReplicaSet that controls it.
// (kubernetes: the OnWrite callback of NewReplicaSetController.)
func (c *Controller) podWritten(pod *informer.Pod, controllerRef *informer.OwnerReference) {
	if controllerRef == nil {
		return
	}
	c.consistencyStore.WroteAt(pod.Namespace+"/"+controllerRef.Name, controllerRef.UID, "pods", pod.ResourceVersion)
}

// Run waits for the caches to sync, then runs workers goroutines until ctx
// ends; it then shuts the queue down and returns once every worker has
// finished its item. The informers are the caller's to run.
// (kubernetes: ReplicaSetController.Run.)
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
// (kubernetes: ReplicaSetController.worker.)
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem gets one key, reconciles it and tells the queue how
// it went. It returns false once the queue has shut down.
// (kubernetes: ReplicaSetController.processNextWorkItem.)
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
		c.recorder.Eventf(key, EventTypeWarning, "SyncFailed",
			"sync failed (failure %d), retrying with backoff: %v", c.workqueue.NumRequeues(key), err)
	}
	return true
}

// syncRecovering calls syncHandler and turns a panic into an error, so
// that a bug in one reconcile retries that key with backoff instead of
// ending the program. (controller-runtime's reconciler does the same by
// default since v0.19 (RecoverPanic); kube-controller-manager lets the
// panic end the process (utilruntime.HandleCrash), and Kubernetes
// restarts it.)
func (c *Controller) syncRecovering(ctx context.Context, key string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.syncHandler(ctx, key)
}

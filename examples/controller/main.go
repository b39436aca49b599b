// Command controller is a ReplicaSet controller built as client-go's
// controllers are: two informers (ReplicaSets and pods) whose handlers only
// enqueue "namespace/name" keys, a rate-limiting work queue
// (package workqueue), and workers that reconcile one key at a time: keep
// spec.replicas pods owned by each apps/v1 ReplicaSet, and report
// status.replicas through the /status subresource.
//
// With no flags it starts fakeapi in the same process and tells a short
// story: a ReplicaSet is created, scaled up, loses a pod while the server
// fails a request, is scaled down, and a second one joins; the controller
// converges after each step and says so, then the program exits.
//
// With -server it runs against a real API server until Ctrl-C (or -for)
// and keeps the ReplicaSets there; the project's kit/start.sh runs one
// without kube-controller-manager, so nothing else does this job. On a
// full cluster the cluster's own ReplicaSet controller already does, and
// the two would fight: use a cluster without it.
//
//	go run ./examples/controller -server https://127.0.0.1:6443 -token "$TOKEN" -ca ca.crt
//	kubectl proxy --port 8001 & go run ./examples/controller -server http://127.0.0.1:8001
//
// It speaks Chinese when the environment says the reader reads Chinese, by
// the walkthrough's rule: LANG=zh_CN.UTF-8 (or INFORMER_LANG=zh).
//
// client-go counterpart: k8s.io/sample-controller (main.go and
// controller.go), with the reconcile of k8s.io/kubernetes'
// pkg/controller/replicaset. The chapter: docs/controller.md.
//
// Tutorial: 004 §2.3 (after the informer, the business logic) and 000 §5
// (backpressure: a work queue between events and work).

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func main() {
	server := flag.String("server", "",
		"API server URL (e.g. http://127.0.0.1:8001 for kubectl proxy); empty plays the story on fakeapi")
	token := flag.String("token", "", "bearer token for -server")
	ca := flag.String("ca", "", "CA certificate file for an https -server")
	insecure := flag.Bool("insecure", false, "skip verifying the server's certificate (tests only)")
	namespace := flag.String("namespace", "", "namespace of the ReplicaSets to keep (default: all)")
	workers := flag.Int("workers", 2, "how many keys are reconciled at once")
	duration := flag.Duration("for", 0, "with -server: stop after this long (default: until Ctrl-C)")
	flag.Parse()

	n := &narrator{w: os.Stdout, zh: walkthrough.Language() == "zh"}
	var err error
	if *server == "" {
		err = playStory(n, *workers, informer.DefaultPipelineGates())
	} else {
		err = runAgainst(n, informer.RESTConfig{
			Host:            *server,
			BearerToken:     *token,
			TLSClientConfig: informer.TLSClientConfig{CAFile: *ca, Insecure: *insecure},
		}, *namespace, *workers, *duration)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "controller:", err)
		os.Exit(1)
	}
}

// running is a controller and its two informers.
type running struct {
	controller *Controller
	replicaSet informer.SharedIndexInformer
	pods       informer.SharedIndexInformer
	workers    int
	busy       atomic.Int32       // syncs in progress, counted around the controller's syncHandler
	cancel     context.CancelFunc // ends what run started
	wg         sync.WaitGroup     // what run started
}

// options are what newRunning builds with.
type options struct {
	namespace string // whose ReplicaSets and pods; informer.NamespaceAll for all
	workers   int
	gates     informer.PipelineGates
	recorder  EventRecorder
	clock     clock.Clock // nil: the real clock
}

// newRunning builds the informers and the controller on client, as o says;
// run starts them.
func newRunning(client *informer.RESTClient, o options) (*running, error) {
	replicaSetsLW := newReplicaSetListWatch(client, o.namespace)
	replicaSets := informer.NewSharedIndexInformerWithOptions(replicaSetsLW, &ReplicaSet{},
		informer.SharedIndexInformerOptions{
			Indexers:      informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
			Clock:         o.clock,
			PipelineGates: &o.gates,
		})
	podsLW := informer.NewListWatchFromClient(client, podsGVR, o.namespace, "")
	pods := informer.NewSharedIndexInformerWithOptions(podsLW, &informer.Pod{},
		informer.SharedIndexInformerOptions{
			Indexers: informer.Indexers{
				informer.NamespaceIndex: informer.MetaNamespaceIndexFunc,
				podControllerIndex:      podControllerIndexFunc,
			},
			Clock:         o.clock,
			PipelineGates: &o.gates,
		})
	c, err := NewController(client, replicaSets, pods, o.recorder, o.clock)
	if err != nil {
		return nil, err
	}
	r := &running{controller: c, replicaSet: replicaSets, pods: pods, workers: o.workers}
	sync := c.syncHandler
	c.syncHandler = func(ctx context.Context, key string) error {
		r.busy.Add(1)
		defer r.busy.Add(-1)
		return sync(ctx, key)
	}
	return r, nil
}

// run starts the informers and the controller's workers; stop ends them.
func (r *running) run() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.wg.Go(func() { r.replicaSet.Run(ctx) })
	r.wg.Go(func() { r.pods.Run(ctx) })
	// Run fails only when stopped before the caches sync: nothing to report then.
	r.wg.Go(func() { _ = r.controller.Run(ctx, r.workers) })
}

// stop cancels what run started and waits until every goroutine of it has
// ended: informers, workers, the queue's.
func (r *running) stop() {
	r.cancel()
	r.wg.Wait()
}

// runAgainst runs the controller against a real API server until Ctrl-C
// (or for d).
func runAgainst(n *narrator, cfg informer.RESTConfig, namespace string, workers int, d time.Duration) error {
	client, err := informer.NewRESTClient(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	gates := informer.DefaultPipelineGates()
	o := options{namespace: namespace, workers: workers, gates: gates, recorder: n}
	r, err := newRunning(client, o)
	if err != nil {
		return err
	}
	r.run()
	defer r.stop()
	if !informer.WaitForCacheSync(ctx, r.replicaSet.HasSynced, r.pods.HasSynced) {
		return fmt.Errorf("the caches of %s did not sync", cfg.Host)
	}
	replicaSets := len(r.replicaSet.GetStore().ListKeys())
	pods := len(r.pods.GetStore().ListKeys())
	n.say("# keeping the ReplicaSets of %s with %d workers (Ctrl-C to stop); "+
		"%d ReplicaSets, %d pods in the caches",
		"# 正在用 %[2]d 个工作协程维护 %[1]s 上的 ReplicaSet（按 Ctrl-C 停止）；"+
			"缓存里有 %[3]d 个 ReplicaSet、%[4]d 个 Pod",
		cfg.Host, workers, replicaSets, pods)
	<-ctx.Done()
	n.say("# stopped", "# 已停止")
	return nil
}

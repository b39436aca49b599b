// client.go is one measured client, run in a process of its own (the
// driver starts it as `sidebyside -client ...`): our informer or client-go
// v0.37.2's, typed or generic, against one replay server, each as its users
// build one, with one handler that counts adds and updates, a namespace
// index and no resync. It prints one line of JSON: the figures of
// measurement.
//
//   - sync: from Run until the handler has seen every pod, wall and CPU;
//   - heap per object: the live heap after a GC once synced, minus the same
//     just before Run, over n;
//   - events: from asking the server for the MODIFIED events until the
//     handler has seen the last, wall and CPU.
//
// client-go is v0.37.2 asking for JSON; its WatchListClient gate comes from
// the environment (KUBE_FEATURE_WatchListClient, set by the driver per list
// mode: its default is on). Ours runs its defaults (DefaultPipelineGates:
// the RealFIFO, as client-go) with WatchListClient set the same way, and
// asks for JSON too.
//
// client-go counterpart: none (a benchmark's client).
//
// Tutorial: none (a benchmark).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	informerscorev1 "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	informer "github.com/learn-k8s/informer"
	ourdynamic "github.com/learn-k8s/informer/dynamic"
)

// result is what one client measured.
type result struct {
	SyncMS      float64 `json:"syncMs"`
	SyncCPUMS   float64 `json:"syncCpuMs"`
	HeapPerObj  float64 `json:"heapPerObj"`
	EventsPerS  float64 `json:"eventsPerS"`
	CPUPerEvent float64 `json:"cpuUsPerEvent"`
}

// counter counts the handler's calls and wakes a waiter at a target.
type counter struct {
	n, target atomic.Int64
	wake      chan struct{}
}

func newCounter() *counter {
	c := &counter{wake: make(chan struct{}, 1)}
	c.target.Store(1 << 62)
	return c
}

func (c *counter) add() {
	if c.n.Add(1) >= c.target.Load() {
		select {
		case c.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// waitFor returns once want calls have been counted, or fails after limit.
func (c *counter) waitFor(want int64, limit time.Duration) error {
	c.target.Store(want)
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for c.n.Load() < want {
		select {
		case <-c.wake:
		case <-deadline.C:
			return fmt.Errorf("waited %v for call %d; the handler saw %d", limit, want, c.n.Load())
		}
	}
	return nil
}

// runFunc runs an informer until ctx ends (client-go's RunWithContext,
// our Run).
type runFunc func(ctx context.Context)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// newClientGo builds client-go's informer against url, as its users do:
// the generated pod informer on a clientset, or the dynamic informer.
func newClientGo(url string, generic bool, c *counter) (runFunc, error) {
	cfg := &rest.Config{Host: url, QPS: -1, ContentConfig: rest.ContentConfig{
		ContentType: "application/json", AcceptContentTypes: "application/json"}}
	indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	var inf cache.SharedIndexInformer
	if generic {
		dc, err := dynamic.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		inf = dynamicinformer.NewFilteredDynamicInformer(dc, podsGVR, metav1.NamespaceAll, 0, indexers, nil).Informer()
	} else {
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		inf = informerscorev1.NewFilteredPodInformer(cs, metav1.NamespaceAll, 0, indexers, nil)
	}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.add() },
		UpdateFunc: func(_, _ any) { c.add() },
	})
	return inf.RunWithContext, err
}

// newOurs builds our informer against url: typed through
// NewListWatchFromClient, generic through the dynamic client.
func newOurs(url string, generic, streaming bool, c *counter) (runFunc, error) {
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: url, ContentType: informer.ContentTypeJSON})
	if err != nil {
		return nil, err
	}
	gvr := informer.GroupVersionResource{Version: "v1", Resource: "pods"}
	var lw informer.ListerWatcher = informer.NewListWatchFromClient(client, gvr, informer.NamespaceAll, "")
	var example any = &informer.Pod{}
	if generic {
		pods := ourdynamic.New(client).Resource(gvr)
		lw, example = &informer.ListWatch{ListFunc: pods.List, WatchFunc: pods.Watch}, &informer.Unstructured{}
	}
	gates := informer.DefaultPipelineGates()
	gates.WatchListClient = streaming
	inf := informer.NewSharedIndexInformerWithOptions(lw, example, informer.SharedIndexInformerOptions{
		Indexers:      informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
		PipelineGates: &gates,
	})
	_, err = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.add() },
		UpdateFunc: func(_, _ any) { c.add() },
	})
	return inf.Run, err
}

// runClient measures one client and prints its result.
func runClient(side, url string, generic, streaming bool, n, events int, limit time.Duration) error {
	c := newCounter()
	var run runFunc
	var err error
	if side == "ours" {
		run, err = newOurs(url, generic, streaming, c)
	} else {
		run, err = newClientGo(url, generic, c)
	}
	if err != nil {
		return err
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start, cpu0 := time.Now(), cpuTime()
	go run(ctx)
	if err := c.waitFor(int64(n), limit); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	var r result
	r.SyncMS, r.SyncCPUMS = ms(time.Since(start)), ms(cpuTime()-cpu0)
	runtime.GC()
	runtime.ReadMemStats(&after)
	r.HeapPerObj = (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(n)

	start, cpu0 = time.Now(), cpuTime()
	resp, err := http.Get(url + "/release")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if err := c.waitFor(int64(n+events), limit); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	r.EventsPerS = float64(events) / wall.Seconds()
	r.CPUPerEvent = float64(cpu.Microseconds()) / float64(events)
	return json.NewEncoder(os.Stdout).Encode(r)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

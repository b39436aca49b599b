// Command podwatch shows a shared informer at work, one line per event.
//
// With no flags it starts fakeapi, the in-process fake API server, and plays
// a scenario a person can follow: a kubectl-style create of default/nginx-pod
// ("ADD event for default/nginx-pod"), an update, a dropped watch (resumed
// from its version, no relist), a compaction (410 → relist), a slow handler
// that does not stall the fast one, a delete. It exits when the story ends.
//
// It runs the pipeline client-go v0.37.2 runs by default (a RealFIFO with
// atomic relists and batches, and a streaming list); -pipeline=1.32 runs the
// tutorial's pipeline instead (a DeltaFIFO, list then watch).
//
// With -server it watches the pods of a real cluster until Ctrl-C:
//
//	kubectl proxy --port 8001 &
//	go run ./examples/podwatch -server http://127.0.0.1:8001
//	go run ./examples/podwatch -server https://127.0.0.1:6443 -token "$TOKEN" -ca ca.crt
//
// client-go counterpart: the informer examples of k8s.io/client-go
// (examples/workqueue) without the work queue.
//
// It tells its story in Chinese when the environment says the reader reads
// Chinese, by the walkthrough's rule (narrate.go): LANG=zh_CN.UTF-8 go run
// ./examples/podwatch.
//
// Tutorial: 004 §1 (kubectl apply → "ADD event for default/nginx-pod"),
// §2.1–2.3, §4.3; 000 §4.3 (410 → relist).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer"
)

func main() {
	server := flag.String("server", "", "API server URL (e.g. http://127.0.0.1:8001 for kubectl proxy); empty plays the fakeapi scenario")
	token := flag.String("token", "", "bearer token for -server")
	ca := flag.String("ca", "", "CA certificate file for an https -server")
	insecure := flag.Bool("insecure", false, "skip verifying the server's certificate (tests only)")
	namespace := flag.String("namespace", "", "namespace to watch (default: all)")
	duration := flag.Duration("for", 0, "with -server: stop after this long (default: until Ctrl-C)")
	resync := flag.Duration("resync", 0, "the informer's resync period (0: none); exercise 6 of docs/exercises.md sets it")
	pipeline := flag.String("pipeline", "1.37", "1.37: client-go v0.37.2's default pipeline (RealFIFO, streaming list); 1.32: the tutorial's (DeltaFIFO, list then watch)")
	flag.Parse()

	// The story speaks the reader's language, by the walkthrough's rule:
	// LANG=zh_CN.UTF-8 (or INFORMER_LANG=zh) prints it in Chinese.
	n := &narrator{w: os.Stdout, zh: readerLanguage(os.Getenv) == "zh", resync: *resync > 0}
	gates, err := pipelineGates(*pipeline)
	if err == nil && *server == "" {
		err = playScenario(gates, *resync, n)
	} else if err == nil {
		err = watchCluster(n, informer.RESTConfig{
			Host: *server, BearerToken: *token,
			TLSClientConfig: informer.TLSClientConfig{CAFile: *ca, Insecure: *insecure},
		}, *namespace, *duration, gates)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "podwatch:", err)
		os.Exit(1)
	}
}

// pipelineGates returns the feature gates of the -pipeline flag's value.
func pipelineGates(name string) (informer.PipelineGates, error) {
	switch name {
	case "1.37":
		return informer.DefaultPipelineGates(), nil
	case "1.32":
		return informer.PipelineGates132(), nil
	}
	return informer.PipelineGates{}, fmt.Errorf("-pipeline=%q: want 1.37 or 1.32", name)
}

// seen is one event a handler printed, for the scenario to wait on.
type seen struct{ typ, key string }

// printingHandler prints every event; after each it counts it, reports it
// to events (if set) and then sleeps delay (to play a slow handler).
func printingHandler(n *narrator, name string, delay time.Duration, events chan<- seen, count *atomic.Int64) informer.ResourceEventHandler {
	report := func(typ string, obj any) {
		count.Add(1)
		if events != nil {
			key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
			select {
			case events <- seen{typ, key}:
			default: // nobody is waiting (resyncs after the story's last step)
			}
		}
		time.Sleep(delay) // the slow handler's "work"
	}
	return informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			n.event(name, "ADD", obj, false)
			report("ADD", obj)
		},
		UpdateFunc: func(oldObj, newObj any) {
			same := oldObj.(informer.Object).GetResourceVersion() == newObj.(informer.Object).GetResourceVersion()
			n.event(name, "UPDATE", newObj, same)
			report("UPDATE", newObj)
		},
		DeleteFunc: func(obj any) {
			n.event(name, "DELETE", obj, false)
			report("DELETE", obj)
		},
	}
}

// watchCluster watches the pods of a real cluster until Ctrl-C (or d).
func watchCluster(n *narrator, cfg informer.RESTConfig, namespace string, d time.Duration, gates informer.PipelineGates) error {
	client, err := informer.NewRESTClient(cfg)
	if err != nil {
		return err
	}
	lw := informer.NewListWatchFromClient(client,
		informer.GroupVersionResource{Version: "v1", Resource: "pods"}, namespace, "")
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
		Indexers:      informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
		PipelineGates: &gates,
	})
	n.describePipeline(gates)
	_ = inf.SetWatchErrorHandler(func(_ *informer.Reflector, err error) {
		n.say("# list/watch failed, will retry: %v", "# list/watch 失败，稍后重试：%v", err)
	})
	if _, err := inf.AddEventHandler(printingHandler(n, "pods", 0, nil, new(atomic.Int64))); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	n.say("# watching pods on %s (Ctrl-C to stop)", "# 正在 watch %s 上的 Pod（按 Ctrl-C 停止）", cfg.Host)
	done := make(chan struct{})
	go func() { inf.Run(ctx); close(done) }()
	if informer.WaitForCacheSync(ctx, inf.HasSynced) {
		n.say("# synced: %d pods in the cache at version %s", "# 已同步：缓存里有 %d 个 Pod，资源版本 %s",
			len(inf.GetStore().ListKeys()), inf.LastSyncResourceVersion())
	}
	<-done
	n.say("# stopped", "# 已停止")
	return nil
}

// errTimeout says the scenario waited too long for an event.
var errTimeout = errors.New("timed out waiting for an event")

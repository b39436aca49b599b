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
	"strings"
	"sync"
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
	pipeline := flag.String("pipeline", "1.37", "1.37: client-go v0.37.2's default pipeline (RealFIFO, streaming list); 1.32: the tutorial's (DeltaFIFO, list then watch)")
	flag.Parse()

	gates, err := pipelineGates(*pipeline)
	if err == nil && *server == "" {
		err = playScenario(gates)
	} else if err == nil {
		err = watchCluster(informer.RESTConfig{
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

// describePipeline says which pipeline the gates select, for the first lines.
func describePipeline(g informer.PipelineGates) {
	if g.InOrderInformers {
		say("# pipeline: client-go v0.37.2's default: a RealFIFO (events in order, a relist as one ReplacedAll,")
		say("#   batches applied in one Transaction) fed by a streaming list; -pipeline=1.32 runs the tutorial's DeltaFIFO")
		return
	}
	say("# pipeline: client-go 1.32's, as the tutorial teaches it: a DeltaFIFO (one entry per key), list then watch;")
	say("#   without -pipeline it runs client-go v0.37.2's default (RealFIFO, streaming list)")
}

// printer writes the event lines; one mutex keeps lines whole.
var printMu sync.Mutex

func say(format string, args ...any) {
	printMu.Lock()
	defer printMu.Unlock()
	fmt.Printf(format+"\n", args...)
}

// eventLine prints "time  handler  TYPE event for key  version V".
func eventLine(handler, typ string, obj any, note string) {
	key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj, note = tomb.Obj, "(final state unknown: deleted while we were not watching)"
	}
	version := "?"
	if o, ok := obj.(informer.Object); ok {
		version = o.GetResourceVersion()
	}
	line := fmt.Sprintf("%s  %-4s  %-6s event for %-20s version %-4s %s",
		time.Now().Format("15:04:05.000"), handler, typ, key, version, note)
	say("%s", strings.TrimRight(line, " "))
}

// seen is one event a handler printed, for the scenario to wait on.
type seen struct{ typ, key string }

// printingHandler prints every event; after each it counts it, reports it
// to events (if set) and then sleeps delay (to play a slow handler).
func printingHandler(name string, delay time.Duration, events chan<- seen, count *atomic.Int64) informer.ResourceEventHandler {
	report := func(typ string, obj any) {
		count.Add(1)
		if events != nil {
			key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
			events <- seen{typ, key}
		}
		time.Sleep(delay) // the slow handler's "work"
	}
	return informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			eventLine(name, "ADD", obj, "")
			report("ADD", obj)
		},
		UpdateFunc: func(oldObj, newObj any) {
			note := ""
			if oldObj.(informer.Object).GetResourceVersion() == newObj.(informer.Object).GetResourceVersion() {
				note = "(unchanged: re-delivered by a relist)"
			}
			eventLine(name, "UPDATE", newObj, note)
			report("UPDATE", newObj)
		},
		DeleteFunc: func(obj any) {
			eventLine(name, "DELETE", obj, "")
			report("DELETE", obj)
		},
	}
}

// watchCluster watches the pods of a real cluster until Ctrl-C (or d).
func watchCluster(cfg informer.RESTConfig, namespace string, d time.Duration, gates informer.PipelineGates) error {
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
	describePipeline(gates)
	_ = inf.SetWatchErrorHandler(func(_ *informer.Reflector, err error) {
		say("# list/watch failed, will retry: %v", err)
	})
	if _, err := inf.AddEventHandler(printingHandler("pods", 0, nil, new(atomic.Int64))); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	say("# watching pods on %s (Ctrl-C to stop)", cfg.Host)
	done := make(chan struct{})
	go func() { inf.Run(ctx); close(done) }()
	if informer.WaitForCacheSync(ctx, inf.HasSynced) {
		say("# synced: %d pods in the cache at version %s", len(inf.GetStore().ListKeys()), inf.LastSyncResourceVersion())
	}
	<-done
	say("# stopped")
	return nil
}

// errTimeout says the scenario waited too long for an event.
var errTimeout = errors.New("timed out waiting for an event")

// example_informer_test.go holds the runnable example that `go doc` shows
// beside NewSharedIndexInformer: an informer over fakeapi printing
// "ADD event for default/nginx-pod" and what follows. Its output is checked
// by `go test`.

package informer_test

import (
	"context"
	"fmt"
	"log"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
)

func ExampleNewSharedIndexInformer() {
	server, _ := fakeapi.Start(fakeapi.Options{})
	defer server.Close()
	client, _ := informer.NewRESTClient(informer.RESTConfig{Host: server.URL()})
	pods := informer.GroupVersionResource{Version: "v1", Resource: "pods"}
	inf := informer.NewSharedIndexInformer(informer.NewListWatchFromClient(client, pods, informer.NamespaceAll, ""),
		&informer.Pod{}, 0, informer.Indexers{})

	events := make(chan string, 10)
	_, _ = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { events <- "ADD event for " + key(obj) },
		UpdateFunc: func(_, obj any) { events <- "UPDATE event for " + key(obj) },
		DeleteFunc: func(obj any) { events <- "DELETE event for " + key(obj) },
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { inf.Run(ctx); close(done) }()
	syncCtx, cancelSync := context.WithTimeout(ctx, 10*time.Second)
	defer cancelSync()
	if !informer.WaitForCacheSync(syncCtx, inf.HasSynced) {
		log.Fatal("ExampleNewSharedIndexInformer: the cache did not sync within 10s")
	}

	pod := map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "nginx-pod", "namespace": "default"},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}}}
	_, _ = server.Create(fakeapi.Pods, "default", pod) // kubectl apply
	fmt.Println(receive("the ADD event", events))
	pod["metadata"].(map[string]any)["labels"] = map[string]any{"tier": "frontend"}
	_, _ = server.Update(fakeapi.Pods, "default", pod) // kubectl label
	fmt.Println(receive("the UPDATE event", events))
	lister := informer.NewPodLister(inf.GetIndexer())
	cached, _ := lister.Pods("default").Get("nginx-pod")
	fmt.Println("cached labels:", cached.Labels)
	_ = server.Delete(fakeapi.Pods, "default", "nginx-pod") // kubectl delete
	fmt.Println(receive("the DELETE event", events))

	cancel()
	receive("Run to return after the cancel", done)
	// Output:
	// ADD event for default/nginx-pod
	// UPDATE event for default/nginx-pod
	// cached labels: map[tier:frontend]
	// DELETE event for default/nginx-pod
}

// receive returns the next value from ch. An example cannot fail its test,
// but it must not wait for ever either: if nothing comes within 10 s, it
// ends the run saying what did not come.
func receive[T any](what string, ch <-chan T) T {
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		log.Fatalf("ExampleNewSharedIndexInformer: timed out after 10s waiting for %s", what)
		panic("unreachable")
	}
}

func key(obj any) string {
	k, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	return k
}

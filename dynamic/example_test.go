// example_test.go holds the runnable example that `go doc` shows beside
// DynamicClient, run against fakeapi: a pod created, read and listed as
// the generic object. `go test` checks its output.
//
// client-go counterpart: none (an example).
//
// Tutorial: 004 §3.1 and §2.4.

package dynamic_test

import (
	"context"
	"fmt"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/dynamic"
	"github.com/learn-k8s/informer/fakeapi"
)

func ExampleDynamicClient() {
	server, _ := fakeapi.Start(fakeapi.Options{})
	defer server.Close()
	client, _ := informer.NewRESTClient(informer.RESTConfig{Host: server.URL()})
	ctx := context.Background()
	pods := dynamic.New(client).
		Resource(informer.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default")

	created, err := pods.Create(ctx, &informer.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx"}}}}})
	fmt.Println(created.GetKind(), created.GetName(), err)

	got, _ := pods.Get(ctx, "web")
	fmt.Println(got.Object["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"])

	// A dynamic informer lists and watches through the same calls.
	lw := &informer.ListWatch{ListFunc: pods.List, WatchFunc: pods.Watch}
	list, _ := lw.List(ctx, informer.ListOptions{})
	fmt.Printf("%T %s\n", list.Items[0], list.Items[0].(*informer.Unstructured).GetKind())
	// Output:
	// Pod web <nil>
	// nginx
	// *informer.Unstructured Pod
}

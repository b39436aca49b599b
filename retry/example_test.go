// example_test.go holds the runnable example that `go doc` shows beside
// RetryOnConflict, run against fakeapi: a Get → change a label → Update
// that keeps every field of the pod. `go test` checks its output.
//
// client-go counterpart: the read-modify-write of util/retry's doc comment.
//
// Tutorial: 000 §3.3 and 004 §2.5.

package retry_test

import (
	"context"
	"fmt"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/retry"
)

func ExampleRetryOnConflict() {
	server, _ := fakeapi.Start(fakeapi.Options{})
	defer server.Close()
	_, _ = server.Create(fakeapi.Pods, "default", map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx",
			"ports": []any{map[string]any{"containerPort": 80}}}}}})
	client, _ := informer.NewRESTClient(informer.RESTConfig{Host: server.URL()})
	ctx := context.Background()

	err := addLabel(ctx, client)
	stored, _ := server.Get(fakeapi.Pods, "default", "web")
	fmt.Println(err, stored["metadata"].(map[string]any)["labels"])
	fmt.Println("ports kept:", stored["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["ports"])
	// Output:
	// <nil> map[tier:front]
	// ports kept: [map[containerPort:80 protocol:TCP]]
}

// addLabel is the RetryOnConflict example of docs/chapter-map.md (both
// languages), word for word (TestDocsShowTheTestedRetryExample checks):
// ExampleRetryOnConflict runs it against fakeapi, TestRealAPIServerUpdate
// against a real kube-apiserver. It labels the pod default/web.
func addLabel(ctx context.Context, client *informer.RESTClient) error {
	pods := informer.GroupVersionResource{Version: "v1", Resource: "pods"}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := client.Get(ctx, pods, "default", "web") // read afresh on each try
		if err != nil {
			return err
		}
		pod := obj.(*informer.Pod) // every field the server sent, modeled or not
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["tier"] = "front"           // re-apply the change
		_, err = client.Update(ctx, pods, pod) // a 409 runs fn again
		return err
	})
	return err
}

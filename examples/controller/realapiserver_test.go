// realapiserver_test.go is the opt-in check that the controller works on a
// real kube-apiserver v1.37.2 as it does on fakeapi: the pods it creates
// (with a controller reference and blockOwnerDeletion) are accepted, its
// status write through /status is, a scale down deletes the extra pods, a
// deleted pod comes back, and a pod of someone else holding a wanted name
// is reported, not overwritten. It runs only when KUBE_APISERVER_URL is set
// (KUBE_TOKEN, KUBE_CACERT too), in a namespace of its own, against a
// server without kube-controller-manager (kit/start.sh starts one; see
// docs/real-cluster.md):
//
//	kit/start.sh && source .kit/run/env && go test -run RealAPIServer -v ./examples/controller
//
// The namespace stays behind, Terminating: without kube-controller-manager
// nothing empties it.
//
// client-go counterpart: none (a test against a real cluster).
//
// Tutorial: 004 §2.3 (the reconcile behind the informer).

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/retry"
)

func TestRealAPIServerController(t *testing.T) {
	host := os.Getenv("KUBE_APISERVER_URL")
	if host == "" {
		t.Skip("set KUBE_APISERVER_URL (and KUBE_TOKEN, KUBE_CACERT) to run against a real API server")
	}
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: informer.TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	walkthrough.Must(t, err)
	ctx := context.Background()
	ns := fmt.Sprintf("wq-controller-%06d", rand.IntN(1_000_000))
	namespaces := informer.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	_, err = client.Create(ctx, namespaces, &informer.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}})
	walkthrough.Must(t, err)
	t.Cleanup(func() { _, _ = client.Do(ctx, http.MethodDelete, namespaces, "", ns, nil, nil) })

	events := &eventLog{}
	r, err := newRunning(client, options{namespace: ns, workers: 2, gates: *walkthrough.Gates(), recorder: events})
	walkthrough.Must(t, err)
	r.run()
	t.Cleanup(func() { stopAndCheck(t, r) })

	rs := newReplicaSetObject("web", 3)
	rs.Namespace = ns
	obj, err := client.Create(ctx, replicaSetsGVR, rs)
	walkthrough.Must(t, err)
	uid := obj.GetUID()
	want := func(replicas int, pods ...string) {
		t.Helper()
		waitReal(t, client, ns, uid, replicas, pods)
	}
	want(3, "web-0", "web-1", "web-2")

	obj, err = client.Get(ctx, podsGVR, ns, "web-0")
	walkthrough.Must(t, err)
	ref := controllerOf(&obj.(*informer.Pod).ObjectMeta)
	if ref == nil || ref.UID != uid || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Fatalf("web-0's controller reference = %+v, want ReplicaSet web %s with blockOwnerDeletion", ref, uid)
	}

	scale(t, client, ns, "web", 1)
	want(1, "web-0")

	_, err = client.Do(ctx, http.MethodDelete, podsGVR, ns, "web-0", nil, nil)
	walkthrough.Must(t, err)
	want(1, "web-0")

	squatter := walkthrough.Pod("web-1")
	squatter.Namespace = ns
	_, err = client.Create(ctx, podsGVR, squatter)
	walkthrough.Must(t, err)
	scale(t, client, ns, "web", 2)
	walkthrough.WaitFor(t, "a FailedCreate naming the squatter", func() bool {
		return len(events.find("FailedCreate", "web-1 exists and is not controlled by ReplicaSet web")) > 0
	})
	_, err = client.Do(ctx, http.MethodDelete, podsGVR, ns, "web-1", nil, nil)
	walkthrough.Must(t, err)
	want(2, "web-0", "web-1")

	scale(t, client, ns, "web", 0) // leaves nothing behind but the ReplicaSet
	want(0)
	_, _ = client.Do(ctx, http.MethodDelete, replicaSetsGVR, ns, "web", nil, nil)
}

// scale sets spec.replicas of the ReplicaSet over HTTP: read, change,
// write, again on a 409 (the controller writes the status meanwhile).
func scale(t *testing.T, client *informer.RESTClient, ns, name string, replicas int) {
	t.Helper()
	walkthrough.Must(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := client.Get(context.Background(), replicaSetsGVR, ns, name)
		if err != nil {
			return err
		}
		u := obj.(*informer.Unstructured)
		u.Object["spec"].(map[string]any)["replicas"] = replicas
		_, err = client.Update(context.Background(), replicaSetsGVR, u)
		return err
	}))
}

// waitReal waits (30 s at most) until the server holds exactly the pods
// controlled by uid and the ReplicaSet's status.replicas is replicas.
func waitReal(t *testing.T, client *informer.RESTClient, ns, uid string, replicas int, want []string) {
	t.Helper()
	ctx := context.Background()
	var have []string
	var status any
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond) // polling a real server, not synchronisation
	defer tick.Stop()
	for ; time.Now().Before(deadline); <-tick.C {
		have = nil
		list, err := client.List(ctx, podsGVR, ns, informer.ListOptions{}, nil)
		walkthrough.Must(t, err)
		for _, item := range list.Items {
			pod := item.(*informer.Pod)
			if ref := controllerOf(&pod.ObjectMeta); ref != nil && ref.UID == uid && pod.DeletionTimestamp == nil {
				have = append(have, pod.Name)
			}
		}
		slices.Sort(have)
		obj, err := client.Get(ctx, replicaSetsGVR, ns, "web")
		walkthrough.Must(t, err)
		status = obj.(*informer.Unstructured).Object["status"].(map[string]any)["replicas"]
		if slices.Equal(have, want) && fmt.Sprint(status) == fmt.Sprint(replicas) {
			return
		}
	}
	t.Fatalf("after 30 s the server has pods %v and status.replicas %v; want %v and %d", have, status, want, replicas)
}

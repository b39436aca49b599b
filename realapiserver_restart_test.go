// realapiserver_restart_test.go is the opt-in check that an informer
// survives a real kube-apiserver restart: it watches a namespace of its
// own, the test restarts the server (etcd's data kept) with the command in
// KUBE_APISERVER_RESTART, writes again, and waits until the cache equals a
// fresh list. It runs only when KUBE_APISERVER_URL and
// KUBE_APISERVER_RESTART are set, e.g. on the kit's kube-apiserver
// (docs/real-cluster.md), whose KEEP_DATA=1 start comes back at the same
// address with etcd's data:
//
//	kit/start.sh && source .kit/run/env
//	export KUBE_APISERVER_RESTART='kit/stop.sh && KEEP_DATA=1 kit/start.sh'
//	go test -run RealAPIServerRestart -v .
//
// Tutorial: 000 §4.3 (when things go wrong). docs: the reliability chapter.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

func TestRealAPIServerRestart(t *testing.T) {
	host, restart := os.Getenv("KUBE_APISERVER_URL"), os.Getenv("KUBE_APISERVER_RESTART")
	if host == "" || restart == "" {
		t.Skip("set KUBE_APISERVER_URL (KUBE_TOKEN, KUBE_CACERT) and KUBE_APISERVER_RESTART to run against a real API server")
	}
	c, err := NewRESTClient(RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	if err != nil {
		t.Fatal(err)
	}
	ns := fmt.Sprintf("informer-restart-%d", time.Now().UnixNano())
	if _, err := send(c, http.MethodPost, "/api/v1/namespaces", "application/json",
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}); err != nil {
		t.Fatalf("creating namespace %s: %v", ns, err)
	}
	podsPath := "/api/v1/namespaces/" + ns + "/pods"
	create := func(name string) {
		t.Helper()
		if _, err := send(c, http.MethodPost, podsPath, "application/json", podJSON(ns, name, nil)); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(name string) {
		t.Helper()
		if _, err := send(c, http.MethodDelete, podsPath+"/"+name, "application/json", map[string]any{"gracePeriodSeconds": 0}); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{"a", "b", "c", "d"}
	t.Cleanup(func() {
		for _, n := range append(names, "e") {
			_, _ = send(c, http.MethodDelete, podsPath+"/"+n, "application/json", map[string]any{"gracePeriodSeconds": 0})
		}
		_, _ = send(c, http.MethodDelete, "/api/v1/namespaces/"+ns, "application/json", nil)
	})
	for _, n := range names {
		create(n)
	}

	lw := NewListWatchFromClient(c, podsResource, ns, "")
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{})
	h := &recorder{}
	_, _ = inf.AddEventHandler(h)
	runInformer(t, inf)
	create("e")
	h.waitLine(t, "add "+ns+"/e initial=false")

	say(t, "restarting the API server", "重启 API 服务器")
	start := time.Now()
	if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
		t.Fatalf("restart: %v\n%s", err, out)
	}
	say(t, "the server is back after %v", "服务器在 %v 后恢复", time.Since(start).Round(time.Millisecond))
	remove("a")
	create("a")
	remove("b")
	patch := map[string]any{"metadata": map[string]any{"labels": map[string]any{"after": "restart"}}}
	if _, err := send(c, http.MethodPatch, podsPath+"/c", "application/merge-patch+json", patch); err != nil {
		t.Fatal(err)
	}

	deadline := time.Now().Add(2 * time.Minute) // backoffs grow to 30 s while the server is down
	for {
		want, have := serverKeys(t, lw), cacheKeys(inf)
		if slices.Equal(want, have) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not converged: cache %v, server %v", have, want)
		}
		time.Sleep(100 * time.Millisecond) // polling interval
	}
	say(t, "converged %v after the restart began", "重启开始后 %v 收敛", time.Since(start).Round(time.Millisecond))
	say(t, "events: %q", "事件：%q", h.get())
}

// serverKeys is key@version of every object a fresh list returns, sorted.
func serverKeys(t *testing.T, lw ListerWatcher) []string {
	l, err := lw.List(context.Background(), ListOptions{})
	if err != nil {
		return nil
	}
	var keys []string
	for _, item := range l.Items {
		keys = append(keys, keyOf(item)+"@"+item.GetResourceVersion())
	}
	slices.Sort(keys)
	return keys
}

// cacheKeys is key@version of every object in inf's cache, sorted.
func cacheKeys(inf SharedIndexInformer) []string {
	var keys []string
	for _, item := range inf.GetStore().List() {
		keys = append(keys, keyOf(item)+"@"+versionOf(item))
	}
	slices.Sort(keys)
	return keys
}

// realapiserver_test.go is the opt-in check against a real kube-apiserver.
// It runs only when KUBE_APISERVER_URL is set (KUBE_TOKEN and KUBE_CACERT
// are used when set; through `kubectl proxy` neither is needed), e.g. on
// the kit's kube-apiserver (docs/real-cluster.md):
//
//	kit/start.sh && source .kit/run/env && go test -run RealAPIServer -v
//	KUBE_APISERVER_URL=http://127.0.0.1:8001 go test -run RealAPIServer -v
//
// In a namespace of its own it creates, updates and deletes a pod and checks
// that an informer (list+watch, and streaming-list) sees each change and
// converges to what the server holds.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"
)

// send makes one write request with the client's credentials and decodes
// the answer (or its Status error).
func send(c *RESTClient, method, path, contentType string, body any) (map[string]any, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	resp, err := c.request(context.Background(), method, path, nil, "application/json", contentType, data)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(raw, &out)
}

func TestRealAPIServer(t *testing.T) {
	host := os.Getenv("KUBE_APISERVER_URL")
	if host == "" {
		t.Skip("set KUBE_APISERVER_URL (and KUBE_TOKEN, KUBE_CACERT) to run against a real API server")
	}
	c, err := NewRESTClient(RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	if err != nil {
		t.Fatal(err)
	}
	ns := fmt.Sprintf("informer-test-%d", time.Now().UnixNano())
	if _, err := send(c, http.MethodPost, "/api/v1/namespaces", "application/json",
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}); err != nil {
		t.Fatalf("creating namespace %s: %v", ns, err)
	}
	podsPath := "/api/v1/namespaces/" + ns + "/pods"
	t.Cleanup(func() {
		// Delete the pod too: without a controller manager (as on the
		// kit's server without KCM=1) nothing empties a deleted namespace.
		_, _ = send(c, http.MethodDelete, podsPath+"/before", "application/json", map[string]any{"gracePeriodSeconds": 0})
		_, _ = send(c, http.MethodDelete, "/api/v1/namespaces/"+ns, "application/json", nil)
	})
	if _, err := send(c, http.MethodPost, podsPath, "application/json", podJSON(ns, "before", nil)); err != nil {
		t.Fatal(err)
	}

	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprintf("streamingList=%v", streaming), func(t *testing.T) {
			lw := NewListWatchFromClient(c, podsResource, ns, "")
			gates := defaultPipelineGates
			gates.WatchListClient = streaming
			inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{PipelineGates: &gates})
			h := &recorder{}
			_, _ = inf.AddEventHandler(h)
			runInformer(t, inf)
			h.waitLine(t, "add "+ns+"/before initial=true")
			say(t, "synced at version %s", "在版本 %s 同步完成", inf.LastSyncResourceVersion())

			name := fmt.Sprint("p-", streaming)
			key := ns + "/" + name
			if _, err := send(c, http.MethodPost, podsPath, "application/json", podJSON(ns, name, nil)); err != nil {
				t.Fatal(err)
			}
			h.waitLine(t, "add "+key+" initial=false")
			patch := map[string]any{"metadata": map[string]any{"labels": map[string]any{"step": "updated"}}}
			if _, err := send(c, http.MethodPatch, podsPath+"/"+name, "application/merge-patch+json", patch); err != nil {
				t.Fatal(err)
			}
			h.waitLine(t, "update "+key)
			if _, err := send(c, http.MethodDelete, podsPath+"/"+name, "application/json",
				map[string]any{"gracePeriodSeconds": 0}); err != nil {
				t.Fatal(err)
			}
			h.waitLine(t, "delete "+key)

			// Converged: the cache holds exactly what a fresh list says.
			waitFor(t, "the cache to match the server", func() bool {
				l, err := lw.List(context.Background(), ListOptions{})
				if err != nil {
					return false
				}
				var want, have []string
				for _, item := range l.Items {
					want = append(want, keyOf(item)+"@"+item.GetResourceVersion())
				}
				for _, item := range inf.GetStore().List() {
					have = append(have, keyOf(item)+"@"+versionOf(item))
				}
				slices.Sort(want)
				slices.Sort(have)
				return slices.Equal(want, have)
			})
			say(t, "events: %q", "事件：%q", h.get())
		})
	}
}

// realapiserver_test.go is the opt-in check, beside the root package's
// TestRealAPIServer, that the docs' Get → change a label → Update (addLabel,
// in example_test.go) works on a real kube-apiserver: the typed Pod
// sends back every field the server sent, so the server accepts the update
// and nothing but the label changes. It runs only when KUBE_APISERVER_URL is
// set (KUBE_TOKEN, KUBE_CACERT too); it needs default/web to be free:
//
//	kit/start.sh && source .kit/run/env && go test -run RealAPIServerUpdate -v ./retry
//
// It also checks that the docs show addLabel's code.
//
// client-go counterpart: none (a test against a real cluster).
//
// Tutorial: 000 §3.3 and 004 §2.5.

package retry_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/dynamic"
)

func TestRealAPIServerUpdate(t *testing.T) {
	host := os.Getenv("KUBE_APISERVER_URL")
	if host == "" {
		t.Skip("set KUBE_APISERVER_URL (and KUBE_TOKEN, KUBE_CACERT) to run against a real API server")
	}
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: host, BearerToken: os.Getenv("KUBE_TOKEN"),
		TLSClientConfig: informer.TLSClientConfig{CAFile: os.Getenv("KUBE_CACERT")}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pods := dynamic.New(client).
		Resource(informer.GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default")
	if _, err := pods.Get(ctx, "web"); !informer.IsNotFound(err) {
		t.Skipf("default/web must not exist (this test would change it): %v", err)
	}

	// The rich pod of testdata/real, unscheduled (so that it can be deleted
	// at once), with its ownerReferences and finalizers.
	raw, err := os.ReadFile("../testdata/real/pod-rich.request.json")
	if err != nil {
		t.Fatal(err)
	}
	rich := &informer.Unstructured{}
	if err := json.Unmarshal(raw, rich); err != nil {
		t.Fatal(err)
	}
	rich.Object["metadata"].(map[string]any)["name"] = "web"
	delete(rich.Object["spec"].(map[string]any), "nodeName")
	before, err := pods.Create(ctx, rich)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if obj, err := pods.Get(ctx, "web"); err == nil {
			delete(obj.Object["metadata"].(map[string]any), "finalizers")
			_, _ = pods.Update(ctx, obj)
		}
		_ = pods.Delete(ctx, "web")
	})

	if err := addLabel(ctx, client); err != nil {
		t.Fatalf("the docs' Get → change a label → Update: %v", err)
	}

	after, err := pods.Get(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	if got := after.GetLabels()["tier"]; got != "front" {
		t.Fatalf("label tier = %q, want front", got)
	}
	// Nothing else changed: compare with the label and what every write moves taken out.
	for _, obj := range []*informer.Unstructured{before, after} {
		meta := obj.Object["metadata"].(map[string]any)
		delete(meta["labels"].(map[string]any), "tier")
		delete(meta, "resourceVersion")
		delete(meta, "managedFields")
	}
	if !reflect.DeepEqual(before.Object, after.Object) {
		b, _ := json.Marshal(before)
		a, _ := json.Marshal(after)
		t.Fatalf("the update changed more than the label:\nbefore %s\nafter  %s", b, a)
	}
}

// TestDocsShowTheTestedRetryExample checks that docs/chapter-map.md and its
// Chinese twin show addLabel's code (comments aside, which are translated).
func TestDocsShowTheTestedRetryExample(t *testing.T) {
	code := func(text string) string {
		text = regexp.MustCompile(`//[^\n]*`).ReplaceAllString(text, "")
		return strings.Join(strings.Fields(text), " ")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\terr := retry\.RetryOnConflict.*?\n\t}\)\n`).Find(src)
	if body == nil {
		t.Fatal("addLabel's RetryOnConflict call not found in example_test.go")
	}
	for _, doc := range []string{"../docs/chapter-map.md", "../docs/chapter-map.zh-CN.md"} {
		text, err := os.ReadFile(doc)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a copy without the chapter (a course repository of the labs): nothing to compare
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(code(string(text)), code(string(body))) {
			t.Errorf("%s does not show addLabel's code:\n%s", doc, body)
		}
	}
}

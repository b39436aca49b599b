// metadata_test.go: lists, gets, writes and watch events asked for as
// PartialObjectMetadata(List), as client-go's metadata client and informers
// ask (compat_negotiate.go), decoded as plain JSON; the shapes and 406 messages are
// those of a real kube-apiserver v1.37.2.

package fakeapi

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// The Accept headers of client-go v0.37's metadata client: lists ask for
// the list form, gets and watches for the object form; protobuf first.
const (
	metadataListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	metadataAccept     = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
)

// checkPartial fails t unless got is a PartialObjectMetadata of apiVersion
// whose metadata is exactly want's (a plain JSON object of the same pod).
func checkPartial(t *testing.T, got, want map[string]any, apiVersion string) {
	t.Helper()
	if got["kind"] != "PartialObjectMetadata" || got["apiVersion"] != apiVersion || len(got) != 3 {
		t.Fatalf("got %v, want kind PartialObjectMetadata, apiVersion %s and metadata only", got, apiVersion)
	}
	if !reflect.DeepEqual(meta(got), meta(want)) {
		t.Fatalf("metadata = %v, want %v", meta(got), meta(want))
	}
}

func TestMetadataList(t *testing.T) {
	s := startServer(t, Options{})
	want := map[string]map[string]any{}
	for _, n := range []string{"a", "b", "c"} {
		want[n] = mustCreatePod(t, s, n, "app="+n)
	}
	for _, v := range []string{"v1", "v1beta1"} {
		accept := strings.ReplaceAll(metadataListAccept, "v=v1", "v="+v)
		code, got := getAccept(t, s.URL()+"/api/v1/namespaces/default/pods", accept)
		if code != http.StatusOK || got["kind"] != "PartialObjectMetadataList" || got["apiVersion"] != "meta.k8s.io/"+v {
			t.Fatalf("%s: %d %v", v, code, got)
		}
		if rv := meta(got)["resourceVersion"]; rv != s.ResourceVersion() {
			t.Errorf("%s: list resourceVersion = %v, want %s", v, rv, s.ResourceVersion())
		}
		items, _ := got["items"].([]any)
		if len(items) != 3 {
			t.Fatalf("%s: %d items, want 3", v, len(items))
		}
		for _, it := range items {
			item := it.(map[string]any)
			name, _ := meta(item)["name"].(string)
			checkPartial(t, item, want[name], "meta.k8s.io/"+v)
		}
	}
	// The stored pods are untouched: a plain GET still has the whole pod.
	_, plain := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods/a", "", "")
	if plain["kind"] != "Pod" || plain["spec"] == nil || !reflect.DeepEqual(plain, want["a"]) {
		t.Fatalf("after metadata lists, plain GET = %v, want %v", plain, want["a"])
	}
}

func TestMetadataListPaged(t *testing.T) {
	s := startServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		mustCreatePod(t, s, n, "")
	}
	var names []string
	url := s.URL() + "/api/v1/pods?limit=2"
	for page := 0; ; page++ {
		code, got := getAccept(t, url, metadataListAccept)
		if code != http.StatusOK || got["kind"] != "PartialObjectMetadataList" {
			t.Fatalf("page %d: %d %v", page, code, got)
		}
		for _, it := range got["items"].([]any) {
			names = append(names, meta(it.(map[string]any))["name"].(string))
		}
		cont, _ := meta(got)["continue"].(string)
		if page == 0 && (cont == "" || meta(got)["remainingItemCount"] != 1.0) {
			t.Fatalf("first page's metadata = %v, want a continue token and remainingItemCount 1", meta(got))
		}
		if cont == "" {
			break
		}
		url = s.URL() + "/api/v1/pods?limit=2&continue=" + cont
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "a,b,c" {
		t.Fatalf("pages held %v, want a,b,c", names)
	}
}

func TestMetadataGetAndWrite(t *testing.T) {
	s := startServer(t, Options{})
	pod := mustCreatePod(t, s, "a", "app=x")
	code, got := getAccept(t, s.URL()+"/api/v1/namespaces/default/pods/a", metadataAccept)
	if code != http.StatusOK {
		t.Fatalf("GET: %d %v", code, got)
	}
	checkPartial(t, got, pod, "meta.k8s.io/v1")

	// A write's answer takes the asked form too (the garbage collector
	// patches owner references through the metadata client).
	code, patched := callAccept(t, "PATCH", s.URL()+"/api/v1/namespaces/default/pods/a",
		"application/merge-patch+json", `{"metadata":{"labels":{"app":"y"}}}`, metadataAccept)
	if code != http.StatusOK {
		t.Fatalf("PATCH: %d %v", code, patched)
	}
	_, plain := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods/a", "", "")
	checkPartial(t, patched, plain, "meta.k8s.io/v1")
	if meta(plain)["labels"].(map[string]any)["app"] != "y" || plain["spec"] == nil {
		t.Fatalf("after PATCH, the pod is %v", plain)
	}
}

// A list asked for as one object, or one object as a list, is refused, even
// though plain JSON is acceptable too; so is a watch asked for as a list.
func TestMetadataWrongFormIsNotAcceptable(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "a", "")
	for _, c := range []struct{ path, accept, message string }{
		{"/api/v1/namespaces/default/pods", metadataAccept, "you requested PartialObjectMetadata, but the requested object is a list (*core.PodList)"},
		{"/api/v1/namespaces/default/pods/a", metadataListAccept, "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)"},
		{"/api/v1/namespaces/default/pods?watch=1", metadataListAccept, "you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)"},
		{"/apis/apps/v1/deployments", metadataAccept, "you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)"},
	} {
		code, got := getAccept(t, s.URL()+c.path, c.accept)
		if code != http.StatusNotAcceptable || got["kind"] != "Status" || got["reason"] != "NotAcceptable" || got["message"] != c.message {
			t.Errorf("GET %s: %d %v, want 406 %q", c.path, code, got, c.message)
		}
	}
}

func TestMetadataWatch(t *testing.T) {
	s := startServer(t, Options{BookmarkInterval: 20 * time.Millisecond})
	a := mustCreatePod(t, s, "a", "")
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/namespaces/default/pods?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan", nil)
	req.Header.Set("Accept", metadataAccept)
	st := openWatchRequest(t, req)
	checkPartial(t, st.expect(t, "ADDED", "a").Object, a, "meta.k8s.io/v1")

	// The end of the initial events is a bookmark in the asked form.
	ev := st.next(t, true)
	wantEnd := map[string]any{"resourceVersion": rvOf(a), "annotations": map[string]any{"k8s.io/initial-events-end": "true"}}
	if ev.Type != "BOOKMARK" || ev.Object["kind"] != "PartialObjectMetadata" || !reflect.DeepEqual(meta(ev.Object), wantEnd) {
		t.Fatalf("event = %s %v, want the initial-events-end BOOKMARK as PartialObjectMetadata", ev.Type, ev.Object)
	}
	// So is a periodic one.
	if ev = st.next(t, true); ev.Type != "BOOKMARK" || ev.Object["kind"] != "PartialObjectMetadata" || ev.Object["apiVersion"] != "meta.k8s.io/v1" {
		t.Fatalf("event = %s %v, want a periodic BOOKMARK as PartialObjectMetadata", ev.Type, ev.Object)
	}

	b := mustCreatePod(t, s, "b", "")
	checkPartial(t, st.expect(t, "ADDED", "b").Object, b, "meta.k8s.io/v1")
	code, gone := call(t, "DELETE", s.URL()+"/api/v1/namespaces/default/pods/b", "", "")
	if code != http.StatusOK {
		t.Fatalf("DELETE: %d %v", code, gone)
	}
	st.expect(t, "MODIFIED", "b") // an unscheduled pod: stamped with a deletionTimestamp, then gone
	checkPartial(t, st.expect(t, "DELETED", "b").Object, gone, "meta.k8s.io/v1")
}

// An ERROR event stays a Status: it is about the watch, not an object.
func TestMetadataWatchErrorIsAStatus(t *testing.T) {
	s := startServer(t, Options{History: 2})
	for _, n := range []string{"a", "b", "c", "d"} {
		mustCreatePod(t, s, n, "")
	}
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/namespaces/default/pods?watch=1&resourceVersion=2", nil)
	req.Header.Set("Accept", metadataAccept)
	st := openWatchRequest(t, req)
	if ev := st.next(t, true); ev.Type != "ERROR" || ev.Object["kind"] != "Status" || ev.Object["code"] != 410.0 {
		t.Fatalf("event = %s %v, want an ERROR Status 410", ev.Type, ev.Object)
	}
	st.ended(t)
}

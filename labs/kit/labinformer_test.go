// labinformer_test.go holds the graders' helpers for the informer's labs
// (1 to 6), copied into the root of every student repository as
// lab_informer_test.go: pods, a fakeapi server and a ListWatch over HTTP,
// deltas described as the graders compare them, a run loop that must stop.
//
// client-go counterpart: none (the labs' grading).
//
// Tutorial: none; it serves labs 1 to 6.

//go:build informerlab

package informer

import (
	"errors"
	"fmt"
	"testing"

	"github.com/learn-k8s/informer/fakeapi"
)

// labPod is a pod with the given metadata.
func labPod(ns, name, rv string, labels map[string]string) *Pod {
	return &Pod{ObjectMeta: ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

// labServer starts a fakeapi server that ends with the test.
func labServer(t *testing.T) *fakeapi.Server {
	t.Helper()
	s, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
	t.Cleanup(s.Close)
	return s
}

// labPodsLW lists and watches the pods of namespace on s over HTTP.
func labPodsLW(t *testing.T, s *fakeapi.Server, namespace string) *ListWatch {
	t.Helper()
	c, err := NewRESTClient(RESTConfig{Host: s.URL()})
	if err != nil {
		t.Fatalf(labPick("the REST client: %v", "REST 客户端出错：%v"), err)
	}
	return NewListWatchFromClient(c, GroupVersionResource{Version: "v1", Resource: "pods"}, namespace, "")
}

// labCreate creates (or, with update, replaces) a pod on s and returns its
// resource version; labDelete deletes one.
func labCreate(t *testing.T, s *fakeapi.Server, ns, name string, labels map[string]string, update bool) string {
	t.Helper()
	meta := map[string]any{"name": name, "namespace": ns}
	if labels != nil {
		meta["labels"] = labels
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "main", "image": "nginx"}}}}
	var got map[string]any
	var err error
	if update {
		got, err = s.Update(fakeapi.Pods, ns, obj)
	} else {
		got, err = s.Create(fakeapi.Pods, ns, obj)
	}
	if err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
	return got["metadata"].(map[string]any)["resourceVersion"].(string)
}

func labDelete(t *testing.T, s *fakeapi.Server, ns, name string) {
	t.Helper()
	if err := s.Delete(fakeapi.Pods, ns, name); err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
}

// labDescribe prints a delta the way the graders compare them:
// "Added default/a@3", "Deleted tombstone(default/a@3)".
func labDescribe(d Delta) string {
	switch o := d.Object.(type) {
	case DeletedFinalStateUnknown:
		inner := "nil"
		if p, ok := o.Obj.(*Pod); ok {
			inner = p.Namespace + "/" + p.Name + "@" + p.ResourceVersion
		}
		return fmt.Sprintf("%s tombstone(%s:%s)", d.Type, o.Key, inner)
	case *Pod:
		return fmt.Sprintf("%s %s/%s@%s", d.Type, o.Namespace, o.Name, o.ResourceVersion)
	}
	return fmt.Sprintf("%s %T", d.Type, d.Object)
}

// labExpectClosed closes q and expects its next Pop to fail with
// ErrFIFOClosed (q must be empty by then).
func labExpectClosed(t *testing.T, lab, section int, q Queue) {
	t.Helper()
	q.Close()
	var err error
	labWithin(t, lab, section, "Pop on a closed, empty queue", func() { _, err = q.Pop(func(any, bool) error { return nil }) })
	if !errors.Is(err, ErrFIFOClosed) {
		labFailf(t, lab, section, "Pop on a closed, empty queue: expected ErrFIFOClosed, got %v", "已关闭且为空的队列上 Pop：期望 ErrFIFOClosed，实际 %v", err)
	}
}

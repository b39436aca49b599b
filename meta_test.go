// meta_test.go checks meta.go and pod.go: the key functions on every kind
// of input, SplitMetaNamespaceKey, SliceToMapByKey, and that real Pod JSON
// from a kube-apiserver decodes, with deep copies that share nothing.

package informer

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"testing"
	"time"
)

func TestKeyFuncs(t *testing.T) {
	var nilPod *Pod
	clusterScoped := namedThing{name: "node-1"}
	tombstone := DeletedFinalStateUnknown{Key: "ns/gone", Obj: pod("gone", "3")}
	tests := []struct {
		name, zh string
		obj      any
		// what MetaNamespaceKeyFunc and DeletionHandlingMetaNamespaceKeyFunc return
		key, deletionKey string
		err, deletionErr bool
	}{
		{"namespaced pod", "命名空间里的 Pod", pod("a", "1"), "ns/a", "ns/a", false, false},
		{"cluster-scoped object", "集群作用域的对象", clusterScoped, "node-1", "node-1", false, false},
		{"explicit key passes through", "ExplicitKey 原样就是键", ExplicitKey("any/thing"), "any/thing", "any/thing", false, false},
		{"tombstone: only the deletion-handling func knows it", "墓碑：只有处理删除的键函数认得它", tombstone, "", "ns/gone", true, false},
		{"not an object", "不是对象", 42, "", "", true, true},
		{"Pod value (the methods are on *Pod)", "Pod 值（方法定义在 *Pod 上）", Pod{}, "", "", true, true},
		{"nil", "nil", nil, "", "", true, true},
		{"nil *Pod", "值为 nil 的 *Pod", nilPod, "", "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, err := MetaNamespaceKeyFunc(tt.obj)
			if key != tt.key || (err != nil) != tt.err {
				t.Errorf("MetaNamespaceKeyFunc = (%q, %v), want (%q, error %v)", key, err, tt.key, tt.err)
			}
			key, err = DeletionHandlingMetaNamespaceKeyFunc(tt.obj)
			if key != tt.deletionKey || (err != nil) != tt.deletionErr {
				t.Errorf("DeletionHandlingMetaNamespaceKeyFunc = (%q, %v), want (%q, error %v)",
					key, err, tt.deletionKey, tt.deletionErr)
			}
			say(t, "%s: key %q, error %v", "情形「%s」：键 %q，出错 %v", inReaderLanguage(tt.name, tt.zh), key, err != nil)
		})
	}
}

func TestSplitMetaNamespaceKey(t *testing.T) {
	tests := []struct {
		key, namespace, name string
		err                  bool
	}{
		{"ns/name", "ns", "name", false},
		{"name", "", "name", false},
		{"/name", "", "name", false},
		{"ns/", "ns", "", false},
		{"", "", "", false},
		{"a/b/c", "", "", true},
		{"//", "", "", true},
	}
	for _, tt := range tests {
		ns, name, err := SplitMetaNamespaceKey(tt.key)
		if ns != tt.namespace || name != tt.name || (err != nil) != tt.err {
			t.Errorf("SplitMetaNamespaceKey(%q) = (%q, %q, %v), want (%q, %q, error %v)",
				tt.key, ns, name, err, tt.namespace, tt.name, tt.err)
		}
		if !tt.err {
			// A key built from the parts splits back into them.
			rebuilt := tt.name
			if tt.namespace != "" {
				rebuilt = tt.namespace + "/" + tt.name
			}
			if k, _ := MetaNamespaceKeyFunc(&Pod{ObjectMeta: ObjectMeta{Namespace: ns, Name: name}}); k != rebuilt {
				t.Errorf("rebuilding %q gave %q", tt.key, k)
			}
		}
	}
}

func TestSliceToMapByKey(t *testing.T) {
	type item struct{ id, v string }
	byID := func(i item) string { return i.id }
	tests := []struct {
		name  string
		slice []item
		want  map[string]item
	}{
		{"empty", nil, map[string]item{}},
		{"distinct keys", []item{{"a", "1"}, {"b", "2"}}, map[string]item{"a": {"a", "1"}, "b": {"b", "2"}}},
		{"the later duplicate wins", []item{{"a", "1"}, {"a", "2"}}, map[string]item{"a": {"a", "2"}}},
	}
	for _, tt := range tests {
		if got := SliceToMapByKey(tt.slice, byID); !maps.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	pods := SliceToMapByKey([]*Pod{pod("a", "1"), pod("b", "1")}, func(p *Pod) string {
		key, _ := MetaNamespaceKeyFunc(p)
		return key
	})
	if pods["ns/b"].Name != "b" {
		t.Errorf("pods by key = %v", pods)
	}
}

func readPodJSON(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/pod-get.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decodeMap decodes JSON as plain maps, numbers kept exact.
func decodeMap(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// field walks nested JSON maps along path; nil if a step is missing.
func field(m map[string]any, path []string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func TestPodDeepCopyIsIndependent(t *testing.T) {
	deleted := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	orig := &Pod{
		ObjectMeta: ObjectMeta{Name: "a", Labels: map[string]string{"app": "web"},
			Annotations: map[string]string{"note": "x"}, DeletionTimestamp: &deleted},
		Spec: PodSpec{Containers: []Container{{Name: "c", Image: "nginx"}}},
	}
	cp := orig.DeepCopyObject().(*Pod)
	if !reflect.DeepEqual(orig, cp) {
		t.Fatalf("copy differs: %+v", cp)
	}
	cp.Labels["app"] = "changed"
	cp.Annotations["note"] = "changed"
	cp.Spec.Containers[0].Image = "changed"
	*cp.DeletionTimestamp = time.Time{}
	if orig.Labels["app"] != "web" || orig.Annotations["note"] != "x" ||
		orig.Spec.Containers[0].Image != "nginx" || !orig.DeletionTimestamp.Equal(deleted) {
		t.Fatalf("changing the copy changed the original: %+v", orig)
	}
	var nilPod *Pod
	if nilPod.DeepCopy() != nil {
		t.Fatal("DeepCopy of a nil *Pod is not nil")
	}
}

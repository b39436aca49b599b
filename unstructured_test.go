// unstructured_test.go tests Unstructured, the generic object: every field
// survives a round trip, DeepCopy shares nothing, and its key.
//
// client-go counterpart: k8s.io/apimachinery/pkg/apis/meta/v1/unstructured
// (unstructured_test.go).
//
// Tutorial: 004 §3.2 (the minimal metadata contract).
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUnstructuredRoundTripsEveryField(t *testing.T) {
	data := readPodJSON(t)
	var u Unstructured
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	if u.GetKind() != "Pod" || u.GetAPIVersion() != "v1" || u.GetName() != "demo" ||
		u.GetNamespace() != "default" || u.GetUID() != "023c2465-817a-4e90-8d17-b282e782edfc" ||
		u.GetResourceVersion() != "69" || u.GetLabels()["app"] != "demo" || u.GetAnnotations() != nil {
		t.Fatalf("getters: %v", u.Object["metadata"])
	}
	out, err := json.Marshal(&u)
	if err != nil {
		t.Fatal(err)
	}
	if orig, again := decodeMap(t, data), decodeMap(t, out); !reflect.DeepEqual(orig, again) {
		t.Fatalf("round trip lost or changed fields:\n%s", out)
	}
	if err := json.Unmarshal([]byte(`[1]`), &u); err == nil {
		t.Fatal("decoding a JSON array into Unstructured: no error")
	}
}

func TestUnstructuredDeepCopyIsIndependent(t *testing.T) {
	var orig Unstructured
	if err := json.Unmarshal(readPodJSON(t), &orig); err != nil {
		t.Fatal(err)
	}
	cp := orig.DeepCopyObject().(*Unstructured)
	cp.SetResourceVersion("70")
	cp.Object["metadata"].(map[string]any)["labels"].(map[string]any)["app"] = "changed"
	cp.Object["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"] = "changed"
	if orig.GetResourceVersion() != "69" || orig.GetLabels()["app"] != "demo" ||
		field(orig.Object, []string{"spec", "containers"}).([]any)[0].(map[string]any)["image"] != "busybox" {
		t.Fatal("changing the copy changed the original")
	}

	// The zero value is usable: setting a version creates the metadata.
	var empty Unstructured
	empty.SetResourceVersion("1")
	if empty.GetResourceVersion() != "1" {
		t.Fatal("SetResourceVersion on an empty Unstructured was lost")
	}
	if b, _ := json.Marshal(&Unstructured{}); string(b) != "{}" {
		t.Fatalf("empty Unstructured encodes as %s", b)
	}
	if (*Unstructured)(nil).DeepCopy() != nil {
		t.Fatal("DeepCopy of a nil *Unstructured is not nil")
	}
}

func TestUnstructuredKeys(t *testing.T) {
	var nilUnstructured *Unstructured
	if _, err := MetaNamespaceKeyFunc(nilUnstructured); err == nil {
		t.Error("a nil *Unstructured got a key")
	}
	node := &Unstructured{Object: map[string]any{"kind": "Node", "metadata": map[string]any{"name": "node-1"}}}
	if key, err := MetaNamespaceKeyFunc(node); key != "node-1" || err != nil {
		t.Errorf("cluster-scoped key = %q, %v", key, err)
	}
}

func TestReflectorDescribesAnUnstructuredByItsKind(t *testing.T) {
	deployment := &Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}
	for _, tt := range []struct {
		expectedType any
		want         string
	}{{deployment, "apps/v1, Kind=Deployment"}, {&Unstructured{}, "*informer.Unstructured"}, {&Pod{}, "*informer.Pod"}, {nil, "<unspecified>"}} {
		if got := NewReflector(&ListWatch{}, tt.expectedType, NewStore(nil)).typeDescription; got != tt.want {
			t.Errorf("describing %T: %q, want %q", tt.expectedType, got, tt.want)
		}
	}
}

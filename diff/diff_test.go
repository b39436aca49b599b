// diff_test.go holds the edge cases of Snapshots: resource versions are
// opaque, nil and plain values, and keys that cannot be computed.

package diff

import (
	"errors"
	"slices"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestSnapshotsVersionsAreOpaque(t *testing.T) {
	pod := func(rv string) *informer.Pod {
		return &informer.Pod{ObjectMeta: informer.ObjectMeta{Name: "p", ResourceVersion: rv}}
	}
	// "9" → "10" and "10" → "9" are both just "different": never ordered.
	for _, pair := range [][2]string{{"9", "10"}, {"10", "9"}, {"abc", "abd"}} {
		d := Snapshots(Snapshot{"p": pod(pair[0])}, Snapshot{"p": pod(pair[1])})
		if !slices.Equal(d.Updated, []string{"p"}) {
			t.Errorf("%q → %q: diff %+v, want p updated", pair[0], pair[1], d)
		}
	}
	// Equal versions are the same state, even if the Go values differ.
	a, b := pod("7"), pod("7")
	b.Labels = map[string]string{"x": "y"}
	if d := Snapshots(Snapshot{"p": a}, Snapshot{"p": b}); !d.Empty() {
		t.Errorf("same resource version reported as %+v", d)
	}
	walkthrough.Say(t, "Versions 9 → 10, 10 → 9 and abc → abd are all just \"updated\"; 7 and 7 are the same state.",
		"版本 9 → 10、10 → 9、abc → abd 都只是\"更新\"；7 和 7 是同一个状态。")
	walkthrough.Say(t, "Resource versions are opaque: compare them for equality only, as client-go's DeltaFIFO.Replace does.",
		"资源版本是不透明的：只比较是否相等，client-go 的 DeltaFIFO.Replace 也是这样做的。")
}

func TestSnapshotsEdgeCases(t *testing.T) {
	if d := Snapshots(nil, nil); !d.Empty() {
		t.Errorf("nil snapshots: %+v", d)
	}
	d := Snapshots(nil, Snapshot{"b": 1, "a": 2})
	if !slices.Equal(d.Added, []string{"a", "b"}) {
		t.Errorf("added from nil = %v, want sorted [a b]", d.Added)
	}
	// Values without metadata are compared by value.
	d = Snapshots(Snapshot{"x": "one", "y": "same"}, Snapshot{"x": "two", "y": "same"})
	if !slices.Equal(d.Updated, []string{"x"}) {
		t.Errorf("plain values: updated = %v, want [x]", d.Updated)
	}
	// A nil *informer.Pod has no resource version to read.
	var nilPod *informer.Pod
	d = Snapshots(Snapshot{"n": nilPod}, Snapshot{"n": &informer.Pod{}})
	if !slices.Equal(d.Updated, []string{"n"}) {
		t.Errorf("nil pod → pod: updated = %v, want [n]", d.Updated)
	}
}

func TestSnapshotFromListKeyError(t *testing.T) {
	_, err := SnapshotFromList([]any{42}, informer.MetaNamespaceKeyFunc)
	var ke informer.KeyError
	if !errors.As(err, &ke) {
		t.Fatalf("err = %v, want a KeyError for an object without metadata", err)
	}
}

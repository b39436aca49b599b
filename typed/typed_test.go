// typed_test.go holds the edge cases of the typed handlers and indexer:
// tombstones with and without their object, objects of another type
// (logged and dropped, never a panic), a filter crossed both ways, and
// typed index functions.

package typed

import (
	"fmt"
	"slices"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestHandlerTombstonesAndStrangers(t *testing.T) {
	var deleted []string
	h := typedResourceEventHandler[*informer.Pod]{ResourceEventHandlerFuncs[*informer.Pod]{
		DeleteFunc: func(d DeletedObject[*informer.Pod]) {
			s := d.GetKey() + " ns=" + d.GetNamespace() + " name=" + d.GetName()
			if d.FinalStateUnknown != nil {
				s += " (final state unknown)"
			}
			if d.OptionalObj == nil {
				s += " (no object)"
			}
			deleted = append(deleted, s)
		},
	}}
	h.OnDelete(walkthrough.Pod("plain"))
	h.OnDelete(informer.DeletedFinalStateUnknown{Key: "default/tomb", Obj: walkthrough.Pod("tomb")})
	h.OnDelete(informer.DeletedFinalStateUnknown{Key: "default/gone"})
	want := []string{
		"default/plain ns=default name=plain",
		"default/tomb ns=default name=tomb (final state unknown)",
		"default/gone ns=default name=gone (final state unknown) (no object)",
	}
	if !slices.Equal(deleted, want) {
		t.Fatalf("DeleteFunc got\n %q\nwant\n %q", deleted, want)
	}
	walkthrough.Say(t, "OnDelete of a pod, a tombstone with its object, a tombstone without: DeleteFunc saw %q",
		"OnDelete 一个 Pod、一个带对象的墓碑、一个不带对象的墓碑：DeleteFunc 收到 %q", deleted)
	walkthrough.Say(t, "client-go's DeletedObject[T].GetKey and GetObjectName (controller.go) read a tombstone's key, not its object.",
		"client-go 的 DeletedObject[T].GetKey 和 GetObjectName（controller.go）读取墓碑的键，而不是它的对象。")
	// Strangers are logged and dropped, never a panic nor a zero *Pod.
	walkthrough.QuietLogs(t)
	h.OnAdd(&informer.Unstructured{Object: map[string]any{}}, false)
	h.OnUpdate(walkthrough.Pod("a"), "not a pod")
	h.OnDelete(informer.DeletedFinalStateUnknown{Key: "k", Obj: 42})
	h.OnDelete(42)
	if len(deleted) != 3 {
		t.Fatalf("a stranger reached the handler: %q", deleted)
	}
	walkthrough.Say(t, "an Unstructured, a string, a tombstone of 42 and 42 itself were dropped: DeleteFunc still saw %d",
		"Unstructured、字符串、装着 42 的墓碑和 42 本身都被丢弃：DeleteFunc 仍然只收到 %d 个", len(deleted))
	var quiet ResourceEventHandlerFuncs[*informer.Pod] // no functions: nothing happens
	quiet.OnAdd(walkthrough.Pod("x"), true)
	quiet.OnUpdate(walkthrough.Pod("x"), walkthrough.Pod("x"))
	quiet.OnDelete(DeletedObject[*informer.Pod]{OptionalObj: walkthrough.Pod("x")})
	if (DeletedObject[*informer.Pod]{}).GetKey() != "" {
		t.Fatal("an empty DeletedObject has a key")
	}
}

func TestFilteringAndIndexer(t *testing.T) {
	var got []string
	inner := ResourceEventHandlerDetailedFuncs[*informer.Pod]{
		AddFunc:    func(p *informer.Pod, initial bool) { got = append(got, fmt.Sprintf("add %s %v", p.Name, initial)) },
		UpdateFunc: func(o, n *informer.Pod) { got = append(got, "update "+n.Name) },
		DeleteFunc: func(d DeletedObject[*informer.Pod]) { got = append(got, "delete "+d.GetName()) },
	}
	web := func(p *informer.Pod) bool { return p.Labels["app"] == "web" }
	f := FilteringResourceEventHandler[*informer.Pod]{FilterFunc: web, Handler: inner}
	other := walkthrough.Pod("x")
	other.Labels = map[string]string{"app": "db"}
	f.OnAdd(other, true)
	f.OnAdd(walkthrough.Pod("x"), true)
	f.OnUpdate(other, walkthrough.Pod("x")) // now passes: an add
	f.OnUpdate(walkthrough.Pod("x"), other) // now fails: a delete of the old state
	f.OnUpdate(walkthrough.Pod("x"), walkthrough.Pod("x"))
	want := []string{"add x true", "add x false", "delete x", "update x"}
	if !slices.Equal(got, want) {
		t.Fatalf("filtered: %q, want %q", got, want)
	}
	walkthrough.Say(t, "filter app=web; add db-x, add web-x, db→web, web→db, web→web: the typed handler saw %q",
		"过滤 app=web；add db-x、add web-x、db→web、web→db、web→web：类型化处理器收到 %q", got)

	idx := typedIndexer[*informer.Pod]{informer.NewIndexer(informer.MetaNamespaceKeyFunc, nil)}
	walkthrough.Must(t, idx.AddTypedIndexers(Indexers[*informer.Pod]{"app": func(p *informer.Pod) ([]string, error) { return []string{p.Labels["app"]}, nil }}))
	walkthrough.Must(t, idx.Add(walkthrough.Pod("a")))
	pods, err := idx.ByTypedIndex("app", "web")
	if err != nil || len(pods) != 1 || pods[0].Name != "a" {
		t.Fatalf("ByTypedIndex = %v, %v", pods, err)
	}
	if pods, err = idx.TypedIndex("app", walkthrough.Pod("z")); err != nil || len(pods) != 1 {
		t.Fatalf("TypedIndex = %v, %v", pods, err)
	}
	err = idx.Add(&informer.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "u"}}})
	if err == nil {
		t.Fatal("a typed index function accepted an object of another type")
	}
	walkthrough.Say(t, "typed indexer: ByTypedIndex(app, web) = [%s]; adding an Unstructured fails: %v",
		"类型化索引器：ByTypedIndex(app, web) = [%s]；加入 Unstructured 失败：%v", pods[0].Name, err)
	walkthrough.Say(t, "client-go's TypedFilteringResourceEventHandler.OnUpdate (controller.go) maps crossings to add and delete.",
		"client-go 的 TypedFilteringResourceEventHandler.OnUpdate（controller.go）把跨越过滤映射为 add 和 delete。")
}

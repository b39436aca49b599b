// step13_test.go is Step 13 of the walkthrough, the snapshot diff: two
// snapshots of a running informer's cache, over HTTP against fakeapi,
// compared by key and resource version, and the same answer from a
// DeltaFIFO's relist. `go test -v -run Step ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 000 §3.2.

package diff_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/diff"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestStep13SnapshotDiff(t *testing.T) {
	walkthrough.Say(t, "Step 13 — snapshot diff: added, updated, deleted by key and resource version.",
		"第 13 步 — 快照比对：按键和资源版本区分新增、更新、删除。")
	walkthrough.Say(t, "Tutorial 000 §3.2. File: diff/diff.go (and the root's fifo.go, Replace).",
		"教程 000 §3.2。文件：diff/diff.go（以及根包 fifo.go 的 Replace）。")
	srv := walkthrough.StartServer(t)
	c := walkthrough.Client(t, srv)
	ctx := context.Background()
	walkthrough.CreatePods(t, c, "keep", "change", "remove")
	inf, lw := walkthrough.Informer(t, srv, nil)
	walkthrough.Run(t, inf)

	before, err := diff.SnapshotOf(inf.GetStore(), informer.DeletionHandlingMetaNamespaceKeyFunc)
	walkthrough.Must(t, err)
	walkthrough.Say(t, "Snapshot 1 of the cache holds %d pods.", "缓存的快照 1 里有 %d 个 Pod。", len(before))

	walkthrough.Say(t, "On the server: create default/new, relabel default/change, delete default/remove.", "在服务器上：创建 default/new，改 default/change 的标签，删除 default/remove。")
	walkthrough.CreatePods(t, c, "new")
	obj, err := c.Get(ctx, walkthrough.PodsGVR, "default", "change")
	walkthrough.Must(t, err)
	changedPod := obj.(*informer.Pod)
	changedPod.Labels["tier"] = "front"
	_, err = c.Update(ctx, walkthrough.PodsGVR, changedPod)
	walkthrough.Must(t, err)
	walkthrough.Must(t, srv.Delete(fakeapi.Pods, "default", "remove"))
	walkthrough.WaitFor(t, "the cache to see the three changes", func() bool {
		_, hasNew, _ := inf.GetStore().GetByKey("default/new")
		_, hasRemoved, _ := inf.GetStore().GetByKey("default/remove")
		return hasNew && !hasRemoved && len(inf.GetStore().ListKeys()) == 3
	})
	after, err := diff.SnapshotOf(inf.GetStore(), informer.DeletionHandlingMetaNamespaceKeyFunc)
	walkthrough.Must(t, err)

	d := diff.Snapshots(before, after)
	walkthrough.Say(t, "diff.Snapshots(snapshot 1, snapshot 2) =", "diff.Snapshots(快照 1, 快照 2) =")
	walkthrough.Say(t, "  added %v, updated %v, deleted %v", "  新增 %v，更新 %v，删除 %v", d.Added, d.Updated, d.Deleted)
	want := diff.Changes{Added: []string{"default/new"}, Updated: []string{"default/change"}, Deleted: []string{"default/remove"}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("diff = %+v, want %+v", d, want)
	}
	walkthrough.Say(t, "default/keep is in neither list: its resource version did not change, so nothing happened to it.", "default/keep 不在任何一个列表里：它的资源版本没变，所以它什么都没发生。")

	walkthrough.Say(t, "A relist computes the same thing. Feed a DeltaFIFO that knows snapshot 1 the server's list:", "重新 list 算出的是同一个东西。把服务器的列表交给一个知道快照 1 的 DeltaFIFO：")
	known := informer.NewIndexer(informer.DeletionHandlingMetaNamespaceKeyFunc, informer.Indexers{})
	for _, o := range before {
		walkthrough.Must(t, known.Add(o))
	}
	fifo := informer.NewDeltaFIFOWithOptions(informer.DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	list, err := lw.List(ctx, informer.ListOptions{})
	walkthrough.Must(t, err)
	items := make([]any, len(list.Items))
	for i, o := range list.Items {
		items[i] = o
	}
	walkthrough.Must(t, fifo.Replace(items, list.ResourceVersion))
	var relist diff.Changes
	for _, deltas := range fifo.QueuedDeltas() {
		key, _ := fifo.KeyOf(deltas)
		newest := deltas.Newest()
		old, knew, _ := known.GetByKey(key)
		switch {
		case newest.Type == informer.Deleted:
			walkthrough.Say(t, "  %s: Deleted, the object wrapped in %T", "  %s：Deleted，对象包在 %T 里", key, newest.Object)
			relist.Deleted = append(relist.Deleted, key)
		case !knew:
			walkthrough.Say(t, "  %s: Replaced, unknown to the cache: the handlers get an add", "  %s：Replaced，缓存里没有：处理器收到 add", key)
			relist.Added = append(relist.Added, key)
		case diff.Changed(old, newest.Object):
			walkthrough.Say(t, "  %s: Replaced, with a new resource version: the handlers get a real update", "  %s：Replaced，资源版本变了：处理器收到真正的 update", key)
			relist.Updated = append(relist.Updated, key)
		default:
			walkthrough.Say(t, "  %s: Replaced, same resource version: only a re-delivery", "  %s：Replaced，资源版本相同：只是重新投递", key)
		}
	}
	slices.Sort(relist.Added)
	slices.Sort(relist.Updated)
	slices.Sort(relist.Deleted)
	if !reflect.DeepEqual(relist, want) {
		t.Fatalf("relist diff = %+v, want %+v", relist, want)
	}
	walkthrough.Say(t, "Same answer: the relist is a snapshot diff between the cache and the server's list.", "答案相同：重新 list 就是缓存与服务器列表之间的一次快照比对。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

// step16_test.go is Step 16 of the walkthrough, the consistency detector:
// a running informer's cache, over HTTP against fakeapi, is compared with a
// list at its own resource version; healthy, then corrupted on purpose.
// `go test -v -run Step ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 000 ch. 5 (cache consistency).

package consistencydetector_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/consistencydetector"
	"github.com/learn-k8s/informer/diff"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestStep16ConsistencyDetector(t *testing.T) {
	walkthrough.Say(t, "Step 16 — the consistency detector: list from the server, diff against the cache.", "第 16 步 — 一致性检测器：从服务器 list，与缓存比对。")
	walkthrough.Say(t, "Tutorial 000 ch. 5 (cache consistency); package consistencydetector (with diff).", "教程 000 第五章（缓存一致性）；包 consistencydetector（以及 diff）。")
	srv := walkthrough.StartServer(t)
	c := walkthrough.Client(t, srv)
	ctx := context.Background()
	walkthrough.CreatePods(t, c, "a", "b", "c")
	inf, lw := walkthrough.Informer(t, srv, nil)
	walkthrough.Run(t, inf)

	detector := consistencydetector.New(lw, inf)
	detector.Settle = 50 * time.Millisecond
	report, err := detector.Check(ctx)
	walkthrough.Must(t, err)
	walkthrough.Say(t, "A healthy cache: compared at resourceVersion %s, consistent = %v.",
		"健康的缓存：在资源版本 %s 比对，consistent = %v。", report.ResourceVersion, report.Consistent())
	if !report.Consistent() {
		t.Fatalf("healthy cache reported: %v", report.Problems)
	}

	walkthrough.Say(t, "Now corrupt the cache on purpose, behind the informer's back: drop a, invent ghost, age b.",
		"现在背着 informer 故意弄坏缓存：删掉 a，凭空造出 ghost，把 b 改旧。")
	idx := inf.GetIndexer()
	a, _, _ := idx.GetByKey("default/a")
	walkthrough.Must(t, idx.Delete(a))
	ghost := walkthrough.Pod("ghost")
	ghost.ResourceVersion = "1"
	walkthrough.Must(t, idx.Add(ghost))
	b, _, _ := idx.GetByKey("default/b")
	oldB := b.(*informer.Pod).DeepCopy()
	oldB.ResourceVersion = "1"
	walkthrough.Must(t, idx.Update(oldB))

	report, err = detector.Check(ctx)
	walkthrough.Must(t, err)
	for _, key := range report.Diff.Added {
		walkthrough.Say(t, "  %s: on the server, missing from the cache", "  %s：服务器上有，缓存里没有", key)
	}
	for _, key := range report.Diff.Deleted {
		walkthrough.Say(t, "  %s: in the cache, not on the server", "  %s：缓存里有，服务器上没有", key)
	}
	for _, key := range report.Diff.Updated {
		walkthrough.Say(t, "  %s: the cache holds an older resourceVersion than the server",
			"  %s：缓存里的资源版本比服务器上的旧", key)
	}
	want := diff.Changes{Added: []string{"default/a"}, Updated: []string{"default/b"}, Deleted: []string{"default/ghost"}}
	if !reflect.DeepEqual(report.Diff, want) || len(report.Problems) != 3 {
		t.Fatalf("report = %+v, want %+v with one problem each", report.Diff, want)
	}
	walkthrough.Say(t, "Every difference is reported. The informer cannot heal this by itself (no event will come):",
		"每一处差异都报告了。informer 自己修不好它（不会有事件来）：")
	walkthrough.Say(t, "the fix is to find the code that wrote into the cache,", "办法是找出往缓存里写的那段代码，")
	walkthrough.Say(t, "and a restart (a fresh list) in the meantime.", "在那之前先重启（重新 list 一次）。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

// step18_test.go is Step 18 of the walkthrough, generics around the
// untyped informer: over HTTP against fakeapi, a typed handler gets *Pod
// (and a typed tombstone for a missed deletion), and a typed lister gets
// and lists *Pod. `go test -v -run Step ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 004 §3.1 (generics for type-safe informers).

package typed_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/listers"
	"github.com/learn-k8s/informer/typed"
)

func TestStep18TypedHelpers(t *testing.T) {
	walkthrough.Say(t, "Step 18 — generics on top of the untyped core: client-go's typed handlers,",
		"第 18 步 — 在无类型的核心之上加泛型：client-go 的有类型事件处理器，")
	walkthrough.Say(t, "and listers for *Pod. Tutorial 004 §3.1; packages typed and listers.",
		"以及 *Pod 的 lister。教程 004 §3.1；包 typed 和 listers。")
	srv := walkthrough.StartServer(t)
	// The server is stopped on purpose below: no Reflector log lines in the story.
	walkthrough.QuietLogs(t)
	c := walkthrough.Client(t, srv)
	walkthrough.CreatePods(t, c, "web", "doomed")
	clock := testingclock.NewFakeClock(time.Now())
	inf, _ := walkthrough.Informer(t, srv, clock)

	var mu sync.Mutex
	var seen []string
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s)
	}
	saw := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(seen, s)
	}
	walkthrough.Say(t, "typed.NewSharedIndexInformer[*Pod] wraps the informer; the handler's functions take *Pod:",
		"typed.NewSharedIndexInformer[*Pod] 包住 informer；处理器的函数直接接收 *Pod：")
	walkthrough.Say(t, "no obj.(*Pod) anywhere in user code. DeleteFunc gets a typed.DeletedObject[*Pod].",
		"用户代码里不再有 obj.(*Pod)。DeleteFunc 收到的是 typed.DeletedObject[*Pod]。")
	pods := typed.NewSharedIndexInformer[*informer.Pod](inf)
	_, err := pods.AddTypedEventHandler(typed.ResourceEventHandlerFuncs[*informer.Pod]{
		AddFunc: func(p *informer.Pod) { note("add " + p.Name + " image " + p.Spec.Containers[0].Image) },
		DeleteFunc: func(d typed.DeletedObject[*informer.Pod]) {
			if d.FinalStateUnknown != nil {
				note("tombstone " + d.GetKey() + " last image " + d.OptionalObj.Spec.Containers[0].Image)
				return
			}
			note("delete " + d.GetName())
		},
	})
	walkthrough.Must(t, err)
	walkthrough.Run(t, inf)
	walkthrough.WaitFor(t, "the adds", func() bool { return saw("add web image nginx:1.27") && saw("add doomed image nginx:1.27") })
	walkthrough.Say(t, "  AddFunc read p.Spec.Containers[0].Image straight from a *Pod.", "  AddFunc 直接从 *Pod 读到了 p.Spec.Containers[0].Image。")

	walkthrough.Say(t, "A typed lister (package listers): Get returns a *Pod, List a []*Pod.", "有类型的 lister（包 listers）：Get 返回 *Pod，List 返回 []*Pod。")
	inDefault := listers.NewNamespaced(listers.New[*informer.Pod](inf.GetIndexer(), "pod"), "default")
	web, err := inDefault.Get("web")
	walkthrough.Must(t, err)
	list, err := inDefault.List(informer.SelectorFromSet(informer.Set{"app": "web"}))
	walkthrough.Must(t, err)
	walkthrough.Say(t, "  Get(\"web\") → %s/%s; List(app=web) → %d pods", "  Get(\"web\") → %s/%s；List(app=web) → %d 个 Pod", web.Namespace, web.Name, len(list))
	if web.Name != "web" || len(list) != 2 {
		t.Fatalf("lister: got %q and %d pods, want web and 2", web.Name, len(list))
	}
	if _, err := inDefault.Get("nope"); !informer.IsNotFound(err) {
		t.Fatalf("Get of a missing pod: %v, want NotFound", err)
	}

	walkthrough.Say(t, "Now a deletion the informer misses: stop the server, delete default/doomed,",
		"现在来一个 informer 错过的删除：停掉服务器，删除 default/doomed，")
	walkthrough.Say(t, "forget the history, restart.", "丢掉历史，重启。")
	walkthrough.Must(t, srv.Stop())
	walkthrough.Must(t, srv.Delete(fakeapi.Pods, "default", "doomed"))
	srv.Compact(0)
	walkthrough.Must(t, srv.Restart())
	walkthrough.WaitStepping(t, clock, "the relist's tombstone", func() bool { return saw("tombstone default/doomed last image nginx:1.27") })
	walkthrough.Say(t, "  the relist found default/doomed gone; OnDelete got a DeletedFinalStateUnknown,",
		"  重新 list 发现 default/doomed 不见了；OnDelete 收到一个 DeletedFinalStateUnknown，")
	walkthrough.Say(t, "  and the typed handler got a DeletedObject: FinalStateUnknown set,",
		"  有类型的事件处理器收到 DeletedObject：FinalStateUnknown 非空，")
	walkthrough.Say(t, "  OptionalObj the last known *Pod (maybe stale).", "  OptionalObj 是最后已知的 *Pod（可能已过时）。")
	if saw("delete doomed") {
		t.Fatal("DeleteFunc was called too: a tombstone must be delivered once")
	}
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

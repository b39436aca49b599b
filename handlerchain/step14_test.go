// step14_test.go is Step 14 of the walkthrough, handler chains: one
// registration that calls audit, a filtered handler, a panicking one and
// metrics in order, over HTTP against fakeapi; then a handler added and one
// removed while the informer runs. `go test -v -run Step ./...` runs every
// Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 004 §4.3 and 000 ch. 5 (hot upgrade).

package handlerchain_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/handlerchain"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestStep14HandlerChains(t *testing.T) {
	walkthrough.Say(t, "Step 14 — handler chains, filters, and handlers added and removed at run time.", "第 14 步 — 处理器链、过滤，以及运行中增删处理器。")
	walkthrough.Say(t, "Tutorial 004 §4.3 and 000 ch. 5 (hot upgrade).", "教程 004 §4.3 和 000 第五章（热升级）。")
	walkthrough.Say(t, "File: handlerchain/handlerchain.go (with the root's informer_handlers.go).",
		"文件：handlerchain/handlerchain.go（以及根包的 informer_handlers.go）。")
	srv := walkthrough.StartServer(t)
	c := walkthrough.Client(t, srv)
	ctx := context.Background()
	inf, _ := walkthrough.Informer(t, srv, nil)
	var log walkthrough.EventLog

	walkthrough.Say(t, "One registration holds a chain: audit, then a filtered handler for app=web only,", "一次注册里放一条链：先审计，然后一个只处理 app=web 的过滤处理器，")

	walkthrough.Say(t, "then one that panics, then metrics.", "然后一个会 panic 的，最后是指标。")
	isWeb := func(obj any) bool { p, ok := obj.(*informer.Pod); return ok && p.Labels["app"] == "web" }
	var panics atomic.Int64
	chain := handlerchain.New(
		log.Handler("audit"),
		informer.FilteringResourceEventHandler{FilterFunc: isWeb, Handler: log.Handler("web")},
		informer.ResourceEventHandlerFuncs{AddFunc: func(any) { panic("a buggy handler") }},
		log.Handler("metrics"),
	)
	chain.PanicHandler = func(i int, r any) {
		panics.Add(1)
		log.Add("handler " + strconv.Itoa(i) + " panicked (" + r.(string) + "); the chain goes on")
	}
	v1, err := inf.AddEventHandler(chain)
	walkthrough.Must(t, err)
	walkthrough.Run(t, inf)

	walkthrough.Say(t, "Create default/web (app=web) and default/batch (app=batch).", "创建 default/web（app=web）和 default/batch（app=batch）。")
	walkthrough.CreatePods(t, c, "web")
	batch := walkthrough.Pod("batch")
	batch.Labels["app"] = "batch"
	_, err = c.Create(ctx, walkthrough.PodsGVR, batch)
	walkthrough.Must(t, err)
	walkthrough.WaitFor(t, "metrics to see both pods", func() bool {
		return log.Has("metrics add default/web") && log.Has("metrics add default/batch")
	})
	const panicked = "handler 2 panicked (a buggy handler); the chain goes on"
	want := []string{
		"audit add default/web", "web add default/web", panicked, "metrics add default/web",
		"audit add default/batch", panicked, "metrics add default/batch",
	}
	for _, line := range log.All() {
		if line == panicked {
			walkthrough.Say(t, "  handler 2 panicked (a buggy handler); the chain goes on",
				"  2 号事件处理器 panic 了（有 bug 的那个）；链条继续往下走")
			continue
		}
		walkthrough.Say(t, "  %s", "  %s", line)
	}
	if got := log.All(); !slices.Equal(got, want) {
		t.Fatalf("chain calls = %q, want %q (in order, batch filtered out of web, past the panic)", got, want)
	}
	if panics.Load() != 2 {
		t.Fatalf("panics reported = %d, want 2", panics.Load())
	}

	walkthrough.Say(t, "Relabel default/web to app=api: it leaves the filter, so the filtered handler sees a delete.", "把 default/web 的标签改成 app=api：它离开了过滤条件，所以过滤处理器看到一个 delete。")
	obj, err := c.Get(ctx, walkthrough.PodsGVR, "default", "web")
	walkthrough.Must(t, err)
	relabelled := obj.(*informer.Pod)
	relabelled.Labels["app"] = "api"
	_, err = c.Update(ctx, walkthrough.PodsGVR, relabelled)
	walkthrough.Must(t, err)
	walkthrough.WaitFor(t, "metrics to see the update", func() bool { return log.Has("metrics update default/web") })
	if !log.Has("web delete default/web") || !log.Has("audit update default/web") {
		t.Fatalf("after the relabel: %q; want audit update and web delete", log.All())
	}

	walkthrough.Say(t, "Hot upgrade: while the informer runs, add a v2 handler, then remove the v1 chain.", "热升级：informer 运行中，加上 v2 处理器，再移除 v1 链。")
	v2, err := inf.AddEventHandler(log.Handler("v2"))
	walkthrough.Must(t, err)
	walkthrough.WaitFor(t, "v2's registration to sync", v2.HasSynced)
	if !log.Has("v2 add default/web") || !log.Has("v2 add default/batch") {
		t.Fatalf("v2 did not get the cache's contents as adds: %q", log.All())
	}
	walkthrough.Say(t, "  v2 got the two cached pods as adds as soon as it was added.", "  v2 一加上，就以 add 收到了缓存里的两个 Pod。")
	walkthrough.Must(t, inf.RemoveEventHandler(v1))
	walkthrough.CreatePods(t, c, "after")
	walkthrough.WaitFor(t, "v2 to see default/after", func() bool { return log.Has("v2 add default/after") })
	for _, line := range log.All() {
		if strings.HasSuffix(line, "default/after") && !strings.HasPrefix(line, "v2 ") {
			t.Fatalf("the removed chain still got %q", line)
		}
	}
	walkthrough.Say(t, "  default/after reached v2 only: the removed v1 chain is gone, and the informer never stopped.", "  default/after 只到达了 v2：移除的 v1 链已经不在了，informer 也从未停止。")
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

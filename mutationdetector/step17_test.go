// step17_test.go is Step 17 of the walkthrough, the cache mutation
// detector: over HTTP against fakeapi, a careless handler writes on a
// cached pod and a careful one on its own copy; the detector, attached
// with SetTransform, catches exactly the careless write. `go test -v -run
// Step ./...` runs every Step.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: 000 §2.3 (deep copy vs shared references).

package mutationdetector_test

import (
	"slices"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/handlerchain"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/mutationdetector"
)

func TestStep17MutationDetector(t *testing.T) {
	walkthrough.Say(t, "Step 17 — the cache mutation detector: handlers must not change cached objects.",
		"第 17 步 — 缓存修改检测器：事件处理器不得修改缓存里的对象。")
	walkthrough.Say(t, "Tutorial 000 §2.3; package mutationdetector.", "教程 000 §2.3；包 mutationdetector。")
	srv := walkthrough.StartServer(t)
	c := walkthrough.Client(t, srv)
	walkthrough.CreatePods(t, c, "web", "db")
	inf, _ := walkthrough.Informer(t, srv, nil)

	walkthrough.Say(t, "The detector records a deep copy of every object as it enters the cache (through SetTransform).", "检测器在每个对象进入缓存时（通过 SetTransform）记下它的一份深拷贝。")
	detector := mutationdetector.New("pods")
	walkthrough.Must(t, inf.SetTransform(detector.Transform(nil)))

	walkthrough.Say(t, "Two handlers want a label on default/web. The careless one writes on the cached pod;", "两个处理器都想给 default/web 加一个标签。粗心的那个直接写缓存里的 Pod；")
	walkthrough.Say(t, "the careful one calls DeepCopy first and changes only its copy.", "细心的那个先 DeepCopy，只改自己的拷贝。")
	walkthrough.Say(t, "(They share one handler chain, so they run one after the other: on two goroutines the careless", "（它们在同一条处理器链里，所以一个接一个运行：如果在两个 goroutine 上，")
	walkthrough.Say(t, "write would also be a data race, which `go test -race` reports.)", "粗心的写入还会是一次数据竞争，`go test -race` 会报出来。）")
	done := make(chan string, 4)
	careless := informer.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if p := obj.(*informer.Pod); p.Name == "web" {
			p.Labels["touched-by"] = "careless" // the bug
		}
		done <- "careless"
	}}
	careful := informer.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if p := obj.(*informer.Pod); p.Name == "web" {
			mine := p.DeepCopy()
			mine.Labels["touched-by"] = "careful" // fine: a private copy
		}
		done <- "careful"
	}}
	_, err := inf.AddEventHandler(handlerchain.New(careless, careful))
	walkthrough.Must(t, err)
	walkthrough.Run(t, inf)
	for range 4 { // two pods, two handlers
		walkthrough.Receive(t, "the handlers' adds (two pods, two handlers)", done)
	}

	found := detector.CompareObjects()
	for _, m := range found {
		walkthrough.Say(t, "  caught: %s was changed after it was cached:", "  抓到：%s 进入缓存之后被改了：", m.Key)
		walkthrough.Say(t, "    %v", "    %v", m.Changes)
	}
	if len(found) != 1 || found[0].Key != "default/web" ||
		!slices.Equal(found[0].Changes, []string{`metadata.labels.touched-by: null → "careless"`}) {
		t.Fatalf("detector found %v, want exactly the careless label on default/web", found)
	}
	cached, _, _ := inf.GetStore().GetByKey("default/web")
	walkthrough.Say(t, "The damage is real: the cache itself now says touched-by=%q, which the server never saw.", "损害是真实的：缓存本身现在写着 touched-by=%q，而服务器从未见过它。",
		cached.(*informer.Pod).Labels["touched-by"])
	walkthrough.Say(t, "Each mutation is reported once; default/db and the careful copy are not reported.", "每处修改只报告一次；default/db 和细心处理器的拷贝都没有被报告。")
	if again := detector.CompareObjects(); len(again) != 0 {
		t.Fatalf("second comparison found %v, want nothing new", again)
	}
}

func TestNarrationIsBilingual(t *testing.T) { walkthrough.CheckNarration(t, 5) }

// TestMain runs every test of the package once per informer pipeline.
func TestMain(m *testing.M) { walkthrough.Main(m) }

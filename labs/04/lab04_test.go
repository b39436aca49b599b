// lab04_test.go grades lab 4: the controller's run loop, processDeltas and
// the resync timer. Copied into the workspace root package;
// `go test -run Lab04 ./...`.
//
// client-go counterpart: controller.Run, controller.processLoop and
// processDeltas in k8s.io/client-go/tools/cache controller.go; the resync
// timer of Reflector.startResync (reflector.go).
//
// Tutorial: 004 §2.3, §4.2, §4.4.

//go:build informerlab

package informer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/learn-k8s/informer/clock"
	testingclock "github.com/learn-k8s/informer/clock/testing"
)

// lab04Heard records handler calls as lines.
type lab04Heard struct {
	mu    sync.Mutex
	lines []string
}

func (h *lab04Heard) add(format string, args ...any) {
	h.mu.Lock()
	h.lines = append(h.lines, fmt.Sprintf(format, args...))
	h.mu.Unlock()
}

func (h *lab04Heard) get() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.lines)
}

func lab04Name(obj any) string {
	switch o := obj.(type) {
	case *Pod:
		return o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
	case DeletedFinalStateUnknown:
		return "tombstone " + o.Key
	}
	return fmt.Sprintf("%T", obj)
}

func (h *lab04Heard) handler() ResourceEventHandler {
	return ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { h.add("add %s", lab04Name(obj)) },
		UpdateFunc: func(o, n any) { h.add("update %s -> %s", lab04Name(o), lab04Name(n)) },
		DeleteFunc: func(obj any) { h.add("delete %s", lab04Name(obj)) },
	}
}

// lab04Run runs a controller over a DeltaFIFO whose Process applies the
// deltas to cache with processDeltas, until the test ends.
func lab04Run(t *testing.T, lw ListerWatcher, cache Indexer, h *lab04Heard, clk clock.Clock, resync time.Duration, resyncs *int) Controller {
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: cache, EmitDeltaTypeReplaced: true})
	var mu sync.Mutex
	cfg := &Config{
		Queue: fifo, ListerWatcher: lw, ObjectType: &Pod{}, Clock: clk, FullResyncPeriod: resync,
		Process: func(obj any, initial bool) error {
			return processDeltas(h.handler(), cache, obj.(Deltas), initial)
		},
		ShouldResync: func() bool { mu.Lock(); *resyncs++; mu.Unlock(); return true },
	}
	c := New(cfg)
	labRun(t, 4, 1, "Run did not return within 5 s of its context ending (does it close the queue so that Pop returns?)",
		"context 结束 5 秒后 Run 仍未返回（它关闭队列让 Pop 返回了吗？）", c.Run)
	return c
}

func TestLab04RunLoopDeliversEveryChange(t *testing.T) {
	defer labStart(t, 4)()
	s := labServer(t)
	rvA := labCreate(t, s, "default", "a", nil, false)
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	h := &lab04Heard{}
	n := 0
	c := lab04Run(t, labPodsLW(t, s, "default"), cache, h, nil, 0, &n)
	if !labWaitFor(c.HasSynced) {
		labFailf(t, 4, 2, "HasSynced: expected true once the first list was popped and processed, still false", "HasSynced：第一次 list 的内容被 Pop 并处理后应为 true，实际仍为 false")
		return
	}
	rv1 := labCreate(t, s, "default", "b", nil, false)
	rv2 := labCreate(t, s, "default", "b", map[string]string{"x": "y"}, true)
	labDelete(t, s, "default", "a")
	if !labWaitFor(func() bool { return len(h.get()) == 4 }) {
		labFailf(t, 4, 2, "handler calls: expected 4 (the list's add, then add, update, delete), got %v", "事件处理器调用：期望 4 次（初始列表的一次 add，然后依次是 add、update、delete），实际 %v", h.get())
		return
	}
	want := []string{"add default/a@" + rvA, "add default/b@" + rv1,
		"update default/b@" + rv1 + " -> default/b@" + rv2, "delete default/a@" + s.ResourceVersion()}
	labExpect(t, 4, 3, "handler calls, in order", "事件处理器调用，按顺序", want, h.get())
	keys := cache.ListKeys()
	labExpect(t, 4, 3, "the cache after the changes", "修改之后的缓存", []string{"default/b"}, keys)
	if c.LastSyncResourceVersion() == "" {
		labFailf(t, 4, 1, "LastSyncResourceVersion after Run started: expected the Reflector's version, got \"\"", "Run 启动后的 LastSyncResourceVersion：期望 Reflector 的版本，实际为空")
	}
}

func TestLab04ProcessDeltas(t *testing.T) {
	defer labStart(t, 4)()
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	h := &lab04Heard{}
	a1, a2 := labPod("ns", "a", "1", nil), labPod("ns", "a", "2", nil)
	err := processDeltas(h.handler(), cache, Deltas{{Type: Added, Object: a1}, {Type: Updated, Object: a2}, {Type: Sync, Object: a2}}, false)
	if err != nil {
		labFailf(t, 4, 3, "processDeltas: expected no error, got %v", "processDeltas：期望没有错误，实际 %v", err)
	}
	labExpect(t, 4, 3, "Added (new key), Updated, Sync: an add, then updates with the cached object as old", "Added（新键）、Updated、Sync：一次 add，然后以缓存中的对象为旧值的 update",
		[]string{"add ns/a@1", "update ns/a@1 -> ns/a@2", "update ns/a@2 -> ns/a@2"}, h.get())
	h.lines = nil
	_ = processDeltas(h.handler(), cache, Deltas{{Type: Deleted, Object: DeletedFinalStateUnknown{Key: "ns/a", Obj: a2}}}, false)
	labExpect(t, 4, 3, "a Deleted tombstone: a delete, and the key leaves the cache", "Deleted 墓碑：一次 delete，键离开缓存", "[delete tombstone ns/a] []", fmt.Sprint(h.get(), " ", cache.ListKeys()))
	// A handler that reads the cache must find it already written.
	seen := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	var inCache []string
	look := func(obj any) { _, ok, _ := seen.Get(obj); inCache = append(inCache, fmt.Sprint(ok)) }
	lookHandler := ResourceEventHandlerFuncs{AddFunc: look, UpdateFunc: func(_, n any) { look(n) }, DeleteFunc: look}
	_ = processDeltas(lookHandler, seen, Deltas{{Type: Added, Object: a1}, {Type: Updated, Object: a2}, {Type: Deleted, Object: a2}}, false)
	labExpect(t, 4, 3, "is the object in the cache when OnAdd, OnUpdate, OnDelete run? (write the cache first, then call the handler)", "OnAdd、OnUpdate、OnDelete 运行时对象在缓存里吗？（先写缓存，再调用事件处理器）",
		[]string{"true", "true", "false"}, inCache)
}

// TestLab04ProcessLoopGoesOnAfterAFailure runs processLoop over a closed
// queue of two keys whose first fails to process: the failure is logged,
// the item dropped, and the second is still processed.
func TestLab04ProcessLoopGoesOnAfterAFailure(t *testing.T) {
	defer labStart(t, 4)()
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	var popped []string
	c := &controller{config: Config{Queue: fifo, Process: func(obj any, _ bool) error {
		name := lab04Name(obj.(Deltas).Newest().Object)
		popped = append(popped, name)
		if name == "ns/a@1" {
			return errors.New("the handler failed")
		}
		return nil
	}}}
	_ = fifo.Add(labPod("ns", "a", "1", nil))
	_ = fifo.Add(labPod("ns", "b", "1", nil))
	fifo.Close() // Pop drains what is queued, then returns ErrFIFOClosed
	done := make(chan struct{})
	go func() { c.processLoop(context.Background()); close(done) }()
	if !labWaitFor(func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}) {
		labFailf(t, 4, 2, "processLoop did not return once the closed queue was drained (stop at ErrFIFOClosed)", "关闭的队列取空之后 processLoop 没有返回（遇到 ErrFIFOClosed 应停止）")
		return
	}
	labExpect(t, 4, 2, "items processed when the first one fails (log it, drop it, go on)", "第一个条目处理失败时处理过的条目（记录日志、丢弃、继续）", []string{"ns/a@1", "ns/b@1"}, popped)
}

func TestLab04ResyncTimer(t *testing.T) {
	defer labStart(t, 4)()
	s := labServer(t)
	labCreate(t, s, "default", "a", nil, false)
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	h := &lab04Heard{}
	clock := testingclock.NewFakeClock(time.Unix(1000, 0))
	n := 0
	c := lab04Run(t, labPodsLW(t, s, "default"), cache, h, clock, 10*time.Second, &n)
	if !labWaitFor(func() bool { return c.HasSynced() && len(h.get()) == 1 }) {
		labFailf(t, 4, 2, "expected the list's add to be heard, got %v", "期望听到 list 的 add，实际 %v", h.get())
		return
	}
	if !labWaitFor(func() bool { return slices.Contains(clock.Waiters(), 10*time.Second) }) {
		labFailf(t, 4, 4, "expected a timer of FullResyncPeriod (10s) on the clock, got timers %v", "期望时钟上有一个 FullResyncPeriod（10 秒）的定时器，实际 %v", clock.Waiters())
		return
	}
	clock.Step(10 * time.Second)
	if !labWaitFor(func() bool { return len(h.get()) == 2 }) {
		labFailf(t, 4, 4, "after FullResyncPeriod: expected ShouldResync asked and a Sync update of default/a, heard %v", "经过 FullResyncPeriod 后：期望询问 ShouldResync 并听到 default/a 的 Sync update，实际 %v", h.get())
		return
	}
	labExpect(t, 4, 4, "the resync's call", "重新同步触发的调用", "update default/a@2 -> default/a@2", h.get()[1])
}

// TestLab04RandomDeltasMatchAModel feeds random Deltas to processDeltas and
// compares the handler calls and the cache with a map model.
func TestLab04RandomDeltasMatchAModel(t *testing.T) {
	defer labStart(t, 4)()
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 4))
		cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
		model := map[string]*Pod{}
		for step := range 40 {
			h := &lab04Heard{}
			var ds Deltas
			var want []string
			key := fmt.Sprint("p", rng.IntN(4))
			for i := range 1 + rng.IntN(3) {
				p := labPod("ns", key, fmt.Sprint(step*10+i), nil)
				types := []DeltaType{Added, Updated, Sync, Replaced, Deleted}
				dt := types[rng.IntN(len(types))]
				ds = append(ds, Delta{Type: dt, Object: p})
				if dt == Deleted {
					want = append(want, "delete "+lab04Name(p))
					delete(model, "ns/"+key)
					continue
				}
				if old, ok := model["ns/"+key]; ok {
					want = append(want, "update "+lab04Name(old)+" -> "+lab04Name(p))
				} else {
					want = append(want, "add "+lab04Name(p))
				}
				model["ns/"+key] = p
			}
			_ = processDeltas(h.handler(), cache, ds, false)
			if got := h.get(); !slices.Equal(got, want) {
				labFailf(t, 4, 3, "random deltas (seed %d, step %d): expected calls %v, got %v", "随机 deltas（种子 %d，第 %d 步）：期望调用 %v，实际 %v", seed, step, want, got)
				return
			}
			if len(cache.ListKeys()) != len(model) {
				labFailf(t, 4, 3, "random deltas (seed %d, step %d): expected %d cached keys, got %v", "随机 deltas（种子 %d，第 %d 步）：期望缓存有 %d 个键，实际 %v", seed, step, len(model), cache.ListKeys())
				return
			}
		}
	}
}

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
	"sync/atomic"
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
		return "tombstone(" + o.Key + ")"
	}
	return fmt.Sprintf("%T", obj)
}

func (h *lab04Heard) handler() ResourceEventHandler {
	return ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { h.add("OnAdd %s", lab04Name(obj)) },
		UpdateFunc: func(o, n any) { h.add("OnUpdate %s -> %s", lab04Name(o), lab04Name(n)) },
		DeleteFunc: func(obj any) { h.add("OnDelete %s", lab04Name(obj)) },
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
		"上下文（context）结束 5 秒后 Run 仍未返回（它关闭队列让 Pop 返回了吗？）", c.Run)
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
		labFailf(t, 4, 2, "handler calls: expected 4 (the list's add, then add, update, delete), got %v", "事件处理器调用：期望 4 次（初始列表的一次 OnAdd，然后依次是 OnAdd、OnUpdate、OnDelete），实际 %v", h.get())
		return
	}
	want := []string{"OnAdd default/a@" + rvA, "OnAdd default/b@" + rv1,
		"OnUpdate default/b@" + rv1 + " -> default/b@" + rv2, "OnDelete default/a@" + s.ResourceVersion()}
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
	labExpect(t, 4, 3, "Added (new key), Updated, Sync: an add, then updates with the cached object as old", "Added（新键）、Updated、Sync：一次 OnAdd，然后以缓存中的对象为旧值的 OnUpdate",
		[]string{"OnAdd ns/a@1", "OnUpdate ns/a@1 -> ns/a@2", "OnUpdate ns/a@2 -> ns/a@2"}, h.get())
	h.lines = nil
	_ = processDeltas(h.handler(), cache, Deltas{{Type: Deleted, Object: DeletedFinalStateUnknown{Key: "ns/a", Obj: a2}}}, false)
	labExpect(t, 4, 3, "a Deleted tombstone: a delete, and the key leaves the cache", "Deleted 墓碑：一次 delete，键离开缓存", "[OnDelete tombstone(ns/a)] []", fmt.Sprint(h.get(), " ", cache.ListKeys()))
	// A handler that reads the cache must find it already written.
	seen := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	var inCache []string
	look := func(obj any) { _, ok, _ := seen.Get(obj); inCache = append(inCache, fmt.Sprint(ok)) }
	lookHandler := ResourceEventHandlerFuncs{AddFunc: look, UpdateFunc: func(_, n any) { look(n) }, DeleteFunc: look}
	_ = processDeltas(lookHandler, seen, Deltas{{Type: Added, Object: a1}, {Type: Updated, Object: a2}, {Type: Deleted, Object: a2}}, false)
	labExpect(t, 4, 3, "is the object in the cache when OnAdd, OnUpdate, OnDelete run? (write the cache first, then call the handler)", "OnAdd、OnUpdate、OnDelete 运行时对象在缓存里吗？（先写缓存，再调用事件处理器）",
		[]string{"true", "true", "false"}, inCache)

	// isInInitialList goes to OnAdd as Pop said it.
	var initial []string
	flags := lab04Flags{add: func(obj any, first bool) { initial = append(initial, fmt.Sprint(lab04Name(obj), " ", first)) }}
	fresh := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	_ = processDeltas(flags, fresh, Deltas{{Type: Replaced, Object: labPod("ns", "x", "1", nil)}}, true)
	_ = processDeltas(flags, fresh, Deltas{{Type: Added, Object: labPod("ns", "y", "2", nil)}}, false)
	labExpect(t, 4, 3, "OnAdd's isInInitialList, as Pop said it (true for the initial list's item, then false)",
		"OnAdd 收到的 isInInitialList，与 Pop 说的一致（初始列表的条目为 true，之后为 false）",
		[]string{"ns/x@1 true", "ns/y@2 false"}, initial)

	// A write the cache refuses (an index function fails) is returned, and
	// no handler hears of it: the handlers never see what the cache lacks.
	refusing := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{"bad": func(obj any) ([]string, error) {
		if obj.(*Pod).Labels["bad"] != "" {
			return nil, errors.New("cannot index a bad pod")
		}
		return nil, nil
	}})
	h.lines = nil
	good, bad := labPod("ns", "r", "1", nil), labPod("ns", "r", "2", map[string]string{"bad": "yes"})
	err = processDeltas(h.handler(), refusing, Deltas{{Type: Added, Object: good}, {Type: Updated, Object: bad}}, false)
	labExpect(t, 4, 3, "an update the cache refuses: an error returned?, the calls heard, the cached version",
		"缓存拒绝的更新：是否返回错误、听到的调用、缓存里的版本",
		"true [OnAdd ns/r@1] 1", fmt.Sprint(err != nil, " ", h.get(), " ", lab04CachedRV(refusing, "ns/r")))
	h.lines = nil
	err = processDeltas(h.handler(), refusing, Deltas{{Type: Added, Object: labPod("ns", "s", "3", map[string]string{"bad": "yes"})}}, false)
	labExpect(t, 4, 3, "an add the cache refuses: an error, and no call", "缓存拒绝的新增：返回错误，没有调用",
		"true []", fmt.Sprint(err != nil, " ", h.get()))
}

// lab04Flags is a handler that hears OnAdd with its isInInitialList.
type lab04Flags struct {
	add func(obj any, isInInitialList bool)
}

func (f lab04Flags) OnAdd(obj any, isInInitialList bool) { f.add(obj, isInInitialList) }
func (f lab04Flags) OnUpdate(_, _ any)                   {}
func (f lab04Flags) OnDelete(any)                        {}

// lab04CachedRV is the version of the object cache holds under key, or "".
func lab04CachedRV(cache Indexer, key string) string {
	obj, ok, _ := cache.GetByKey(key)
	if !ok {
		return ""
	}
	return obj.(*Pod).ResourceVersion
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
		labFailf(t, 4, 2, "expected the list's add to be heard, got %v", "期望听到 list 带来的 OnAdd，实际 %v", h.get())
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
	labExpect(t, 4, 4, "the resync's call", "重新同步触发的调用", "OnUpdate default/a@2 -> default/a@2", h.get()[1])

	// No handler due (ShouldResync says false): the timer fires, the queue
	// is not asked to resync, nobody hears anything.
	s2 := labServer(t)
	labCreate(t, s2, "default", "a", nil, false)
	h2 := &lab04Heard{}
	clock2 := testingclock.NewFakeClock(time.Unix(1000, 0))
	var asked atomic.Int64
	cache2 := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: cache2, EmitDeltaTypeReplaced: true})
	c2 := New(&Config{Queue: fifo, ListerWatcher: labPodsLW(t, s2, "default"), ObjectType: &Pod{}, Clock: clock2, FullResyncPeriod: 10 * time.Second,
		Process:      func(obj any, initial bool) error { return processDeltas(h2.handler(), cache2, obj.(Deltas), initial) },
		ShouldResync: func() bool { asked.Add(1); return false }})
	labRun(t, 4, 1, "Run did not return within 5 s of its context ending", "上下文（context）结束 5 秒后 Run 仍未返回", c2.Run)
	if !labWaitFor(func() bool {
		return c2.HasSynced() && len(h2.get()) == 1 && slices.Contains(clock2.Waiters(), 10*time.Second)
	}) {
		labFailf(t, 4, 4, "expected the list's add and a resync timer, got %v and timers %v", "期望听到 list 带来的 OnAdd 并有一个重新同步定时器，实际 %v、%v", h2.get(), clock2.Waiters())
		return
	}
	clock2.Step(10 * time.Second)
	if !labWaitFor(func() bool { return asked.Load() > 0 }) {
		labFailf(t, 4, 4, "after FullResyncPeriod: expected ShouldResync to be asked", "经过 FullResyncPeriod 后：期望询问 ShouldResync")
		return
	}
	if !labWaitFor(func() bool { return slices.Contains(clock2.Waiters(), 10*time.Second) }) {
		labFailf(t, 4, 4, "after the timer fired: expected it set again for the next period, got timers %v", "定时器触发之后：期望它为下一个周期重新设置，实际 %v", clock2.Waiters())
		return
	}
	labExpect(t, 4, 4, "calls heard when ShouldResync says no handler is due (the queue is not resynced)",
		"ShouldResync 说没有事件处理器到期时听到的调用（队列不重新同步）", []string{"OnAdd default/a@2"}, h2.get())
}

// TestLab04RunWaitsForItsGoroutines: Run returns only once the goroutines
// it started (the Reflector, the resync timer) have ended: a Run that
// returns while the Reflector still runs leaves a goroutine behind.
func TestLab04RunWaitsForItsGoroutines(t *testing.T) {
	defer labStart(t, 4)()
	s := labServer(t)
	release := make(chan struct{})
	var inWatch atomic.Bool
	lw := labPodsLW(t, s, "default")
	slow := &ListWatch{ListFunc: lw.ListFunc, WatchFunc: func(ctx context.Context, o ListOptions) (Watcher, error) {
		inWatch.Store(true)
		<-ctx.Done()
		<-release // the Reflector's goroutine is held here after the stop
		return nil, ctx.Err()
	}}
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: cache, EmitDeltaTypeReplaced: true})
	c := New(&Config{Queue: fifo, ListerWatcher: slow, ObjectType: &Pod{}, FullResyncPeriod: time.Hour,
		Process: func(obj any, initial bool) error {
			return processDeltas(ResourceEventHandlerFuncs{}, cache, obj.(Deltas), initial)
		}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	defer func() {
		cancel()
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	if !labWaitFor(inWatch.Load) {
		labFailf(t, 4, 1, "expected the Reflector to list, then watch", "期望 Reflector 先 list，再 watch")
		return
	}
	cancel()
	select {
	case <-done:
		labFailf(t, 4, 1, "Run returned while the Reflector's goroutine was still running: it must wait for every goroutine it started",
			"Reflector 的 goroutine 还在运行，Run 就返回了：它必须等它启动的每个 goroutine 都结束")
		return
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		labFailf(t, 4, 1, "Run did not return within 5 s once the Reflector could end", "Reflector 可以结束之后 5 秒内 Run 没有返回")
	}
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
					want = append(want, "OnDelete "+lab04Name(p))
					delete(model, "ns/"+key)
					continue
				}
				if old, ok := model["ns/"+key]; ok {
					want = append(want, "OnUpdate "+lab04Name(old)+" -> "+lab04Name(p))
				} else {
					want = append(want, "OnAdd "+lab04Name(p))
				}
				model["ns/"+key] = p
			}
			_ = processDeltas(h.handler(), cache, ds, false)
			if got := h.get(); !slices.Equal(got, want) {
				labFailf(t, 4, 3, "random deltas (seed %d, step %d): expected calls %v, got %v", "随机 Delta（种子 %d，第 %d 步）：期望调用 %v，实际 %v", seed, step, want, got)
				return
			}
			if len(cache.ListKeys()) != len(model) {
				labFailf(t, 4, 3, "random deltas (seed %d, step %d): expected %d cached keys, got %v", "随机 Delta（种子 %d，第 %d 步）：期望缓存有 %d 个键，实际 %v", seed, step, len(model), cache.ListKeys())
				return
			}
		}
	}
}

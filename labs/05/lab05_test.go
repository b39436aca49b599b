// lab05_test.go grades lab 5: the SharedIndexInformer's processor, one
// buffer per handler, and handlers that join late. Copied into the
// workspace root package; `go test -run Lab05 ./...`.
//
// client-go counterpart: sharedProcessor, processorListener (add, pop, run)
// and sharedIndexInformer.AddEventHandlerWithResyncPeriod in
// k8s.io/client-go/tools/cache shared_informer.go.
//
// Tutorial: 004 §2.1, §2.3, §4.3.

//go:build informerlab

package informer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// lab05Run runs inf until the test ends and waits for it to sync.
func lab05Run(t *testing.T, inf SharedIndexInformer) bool {
	labRun(t, 5, 2, "the informer did not stop within 5 s (does pop close nextCh when addCh is closed, so that run returns?)",
		"informer 5 秒内没有停下（addCh 关闭时 `pop` 关闭 nextCh、让 `run` 返回了吗？）", inf.Run)
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	return WaitForCacheSync(sctx, inf.HasSynced)
}

// lab05Informer is a pod informer on namespace default of a new fakeapi.
func lab05Informer(t *testing.T) (SharedIndexInformer, func(name string, labels map[string]string, update bool) string, func(name string)) {
	s := labServer(t)
	inf := NewSharedIndexInformer(labPodsLW(t, s, "default"), &Pod{}, 0, Indexers{})
	return inf, func(name string, labels map[string]string, update bool) string {
			return labCreate(t, s, "default", name, labels, update)
		}, func(name string) {
			labDelete(t, s, "default", name)
		}
}

// TestLab05EveryHandlerSeesEveryEventInOrder registers two handlers, makes
// random changes, and expects both to hear exactly these, in order.
func TestLab05EveryHandlerSeesEveryEventInOrder(t *testing.T) {
	defer labStart(t, 5)()
	inf, create, del := lab05Informer(t)
	h1, h2 := &lab04Heard{}, &lab04Heard{}
	if _, err := inf.AddEventHandler(h1.handler()); err != nil {
		labFailf(t, 5, 4, "AddEventHandler before Run: expected no error, got %v", "Run 之前 AddEventHandler：期望没有错误，实际 %v", err)
		return
	}
	_, _ = inf.AddEventHandler(h2.handler())
	if !lab05Run(t, inf) {
		labFailf(t, 5, 1, "the informer did not sync within 5 s", "informer 5 秒内没有完成同步")
		return
	}
	rng := rand.New(rand.NewPCG(5, 5))
	live := map[string]string{}
	var want []string
	for step := range 60 {
		name := fmt.Sprint("p", rng.IntN(6))
		switch old, ok := live[name]; {
		case !ok:
			rv := create(name, nil, false)
			live[name] = rv
			want = append(want, "OnAdd default/"+name+"@"+rv)
		case rng.IntN(2) == 0:
			rv := create(name, map[string]string{"s": fmt.Sprint(step)}, true)
			live[name] = rv
			want = append(want, "OnUpdate default/"+name+"@"+old+" -> default/"+name+"@"+rv)
		default:
			del(name)
			delete(live, name)
			want = append(want, "OnDelete default/"+name)
		}
	}
	for i, h := range []*lab04Heard{h1, h2} {
		if !labWaitFor(func() bool { return len(h.get()) >= len(want) }) {
			labFailf(t, 5, 3, "handler %d heard %d of %d events", "事件处理器 %d 只听到 %d/%d 个事件", i+1, len(h.get()), len(want))
			return
		}
		// Order is promised per object: the DeltaFIFO pipeline hands out
		// each key's changes together. A deletion carries the server's
		// version, so only its key is compared.
		if w, g := lab05PerKey(want), lab05PerKey(h.get()); !slices.Equal(w, g) {
			labFailf(t, 5, 3, "handler %d: expected every event, in order for each object:\n%v\ngot\n%v", "事件处理器 %d：期望收到每个事件，每个对象的事件按顺序：\n%v\n实际\n%v", i+1, w, g)
			return
		}
	}
}

// lab05PerKey sorts handler lines by object, keeping each object's order,
// and drops the version of deletions.
func lab05PerKey(lines []string) []string {
	keyOf := func(l string) string {
		f := strings.Fields(l)
		k, _, _ := strings.Cut(f[1], "@")
		return k
	}
	out := slices.Clone(lines)
	for i, l := range out {
		if strings.HasPrefix(l, "OnDelete ") {
			out[i] = "OnDelete " + keyOf(l)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Compare(keyOf(a), keyOf(b)) })
	return out
}

func TestLab05SlowHandlerBlocksNobody(t *testing.T) {
	defer labStart(t, 5)()
	inf, create, _ := lab05Informer(t)
	release := make(chan struct{})
	stuck, fast := &lab04Heard{}, &lab04Heard{}
	_, _ = inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(obj any) { <-release; stuck.add("OnAdd %s", lab04Name(obj)) }})
	_, _ = inf.AddEventHandler(fast.handler())
	defer close(release)
	if !lab05Run(t, inf) {
		labFailf(t, 5, 1, "the informer did not sync within 5 s", "informer 5 秒内没有完成同步")
		return
	}
	for i := range 50 {
		create(fmt.Sprint("p", i), nil, false)
	}
	if !labWaitFor(func() bool { return len(fast.get()) == 50 }) {
		labFailf(t, 5, 2, "with one handler stuck: expected the other to hear all 50 adds, it heard %d", "一个事件处理器卡住时：期望另一个听到全部 50 个 OnAdd，实际 %d", len(fast.get()))
	}
}

func TestLab05LateHandlerGetsTheCacheAsAdds(t *testing.T) {
	defer labStart(t, 5)()
	inf, create, _ := lab05Informer(t)
	early := &lab04Heard{}
	_, _ = inf.AddEventHandler(early.handler())
	create("a", nil, false)
	create("b", nil, false)
	if !lab05Run(t, inf) || !labWaitFor(func() bool { return len(early.get()) == 2 }) {
		labFailf(t, 5, 1, "the informer did not sync, or its handler did not hear the list: %v", "informer 没有同步，或者事件处理器没有听到 list：%v", early.get())
		return
	}
	late := &lab05Marking{}
	reg, err := inf.AddEventHandler(late)
	if err != nil || reg == nil {
		labFailf(t, 5, 4, "AddEventHandler after Run: expected a registration, got %v, %v", "Run 之后 AddEventHandler：期望得到注册句柄，实际 %v、%v", reg, err)
		return
	}
	if !labWaitFor(func() bool { return len(late.get()) == 4 }) {
		labFailf(t, 5, 4, "a late handler: expected the cache's 2 objects as adds marked isInInitialList, heard %v", "后加入的事件处理器：期望以 isInInitialList 的 OnAdd 收到缓存中的 2 个对象，实际 %v", late.get())
		return
	}
	if !labWaitFor(reg.HasSynced) {
		labFailf(t, 5, 4, "the late handler's HasSynced: expected true once its initial adds were handled, still false", "后加入事件处理器的 HasSynced：处理完初始的 OnAdd 后应为 true，实际仍为 false")
	}
	rv := create("c", nil, false)
	if !labWaitFor(func() bool { return slices.Contains(late.get(), "OnAdd default/c@"+rv) }) {
		labFailf(t, 5, 4, "after joining late: expected to hear new events too (add default/c@%s), heard %v", "后加入之后：期望也能听到新事件（OnAdd default/c@%s），实际 %v", rv, late.get())
	}
}

// TestLab05LateHandlerHoldsDeltasAndSyncsLast checks, in a running
// informer, what AddEventHandlerWithResyncPeriod owes the handler that
// joins late: a nil handler is an error; the join waits while a change is
// being processed (it holds blockDeltas, as HandleDeltas does, so that no
// change slips between the listener's start and its initial adds); its
// registration has synced only once the handler has finished the last
// initial add, not when run took it; a period below minimumResyncPeriod is
// raised to it (before Run, the informer's check period shrinks to it);
// and once the informer has stopped, a handler is refused.
func TestLab05LateHandlerHoldsDeltasAndSyncsLast(t *testing.T) {
	defer labStart(t, 5)()
	inf, create, _ := lab05Informer(t)
	create("a", nil, false)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	defer func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			labFailf(t, 5, 2, "the informer did not stop within 5 s", "Informer 5 秒内没有停下")
		}
	}()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if !WaitForCacheSync(sctx, inf.HasSynced) {
		labFailf(t, 5, 4, "the informer did not sync within 5 s", "Informer 5 秒内没有同步")
		return
	}
	if reg, err := inf.AddEventHandler(nil); err == nil {
		labFailf(t, 5, 4, "AddEventHandler(nil): expected an error, got a registration %v", "AddEventHandler(nil)：期望返回错误，实际得到注册句柄 %v", reg)
	}

	// The join waits for a change being processed.
	s := inf.(*sharedIndexInformer)
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	defer unblock() // a handler left waiting in OnAdd would keep the informer from stopping
	blocking := &lab05Blocking{release: release}
	s.blockDeltas.Lock()
	joined := make(chan ResourceEventHandlerRegistration, 1)
	go func() {
		reg, _ := inf.AddEventHandlerWithResyncPeriod(blocking, 10*time.Millisecond)
		joined <- reg
	}()
	select {
	case <-joined:
		s.blockDeltas.Unlock()
		labFailf(t, 5, 4, "AddEventHandler on a running informer returned while a change was being processed (blockDeltas held): it must hold blockDeltas while it adds the listener and the cache's adds",
			"正在处理一个变化（持有 blockDeltas）时，运行中的 Informer 上的 AddEventHandler 就返回了：加入监听者、发出缓存内容的 OnAdd 期间它必须持有 blockDeltas")
		return
	case <-time.After(100 * time.Millisecond):
	}
	s.blockDeltas.Unlock()
	var reg ResourceEventHandlerRegistration
	labWithin(t, 5, 4, labPick("AddEventHandler once the change was processed", "变化处理完之后的 AddEventHandler"), func() { reg = <-joined })

	// Synced only when the handler has finished its initial add.
	if !labWaitFor(blocking.inAdd.Load) {
		labFailf(t, 5, 3, "the late handler did not get its initial add", "后加入的事件处理器没有收到它初始的 OnAdd")
		return
	}
	if reg.HasSynced() {
		labFailf(t, 5, 3, "the registration's HasSynced was true while the handler was still in OnAdd of its last initial add: count an initial add done after the handler returns",
			"事件处理器还在它最后一个初始的 OnAdd 里，注册句柄的 HasSynced 就为 true 了：要在事件处理器返回之后才把初始的 OnAdd 计为完成")
	}
	unblock()
	if !labWaitFor(reg.HasSynced) {
		labFailf(t, 5, 3, "the registration's HasSynced: expected true once the handler returned from its initial add", "注册句柄的 HasSynced：事件处理器从初始的 OnAdd 返回后应为 true")
	}

	// The periods: before Run, a period below minimumResyncPeriod is
	// raised to it, and the informer's check period shrinks to it.
	early := NewSharedIndexInformer(&ListWatch{}, &Pod{}, 30*time.Second, Indexers{}).(*sharedIndexInformer)
	ereg, err := early.AddEventHandlerWithResyncPeriod((&lab04Heard{}).handler(), 10*time.Millisecond)
	if l, ok := ereg.(*processorListener); err != nil || !ok {
		labFailf(t, 5, 4, "AddEventHandlerWithResyncPeriod before Run: expected a *processorListener, got %T, %v", "Run 之前 AddEventHandlerWithResyncPeriod：期望得到 *processorListener，实际 %T、%v", ereg, err)
	} else {
		labExpect(t, 5, 4, "before Run, a handler asking for 10ms: its resync period and the informer's check period (both raised to minimumResyncPeriod)",
			"Run 之前，要求 10ms 的事件处理器：它的重新同步周期和 Informer 的检查周期（都提高到 minimumResyncPeriod）",
			"1s 1s", l.resyncPeriod.String()+" "+early.resyncCheckPeriod.String())
	}

	// A stopped informer takes no handler.
	cancel()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		labFailf(t, 5, 2, "the informer did not stop within 5 s", "Informer 5 秒内没有停下")
		return
	}
	var late ResourceEventHandlerRegistration
	labWithin(t, 5, 4, labPick("AddEventHandler after the informer stopped", "Informer 停止之后的 AddEventHandler"), func() {
		late, err = inf.AddEventHandler((&lab04Heard{}).handler())
	})
	if err == nil {
		labFailf(t, 5, 4, "AddEventHandler after the informer stopped: expected an error, got a registration %v", "Informer 停止之后 AddEventHandler：期望返回错误，实际得到注册句柄 %v", late)
	}
}

// lab05Blocking is a handler whose OnAdd of an initial-list object waits
// until release is closed.
type lab05Blocking struct {
	release chan struct{}
	inAdd   atomic.Bool
}

func (h *lab05Blocking) OnAdd(_ any, isInInitialList bool) {
	if isInInitialList {
		h.inAdd.Store(true)
		<-h.release
	}
}
func (h *lab05Blocking) OnUpdate(_, _ any) {}
func (h *lab05Blocking) OnDelete(any)      {}

// lab05Marking records adds, with a line "initial" before each one that is
// marked isInInitialList.
type lab05Marking struct{ lab04Heard }

func (h *lab05Marking) OnAdd(obj any, isInInitialList bool) {
	if isInInitialList {
		h.add("initial")
	}
	h.add("OnAdd %s", lab04Name(obj))
}
func (h *lab05Marking) OnUpdate(_, newObj any) { h.add("OnUpdate %s", lab04Name(newObj)) }
func (h *lab05Marking) OnDelete(obj any)       { h.add("OnDelete %s", lab04Name(obj)) }

func TestLab05ListenerBufferIsUnbounded(t *testing.T) {
	defer labStart(t, 5)()
	h := &lab04Heard{}
	l := newProcessListener(h.handler(), 0, 0, time.Now(), func() bool { return true })
	popDone := make(chan struct{})
	go func() { l.pop(); close(popDone) }()
	added := make(chan struct{})
	go func() {
		for i := range 1000 {
			l.add(addNotification{newObj: labPod("ns", fmt.Sprint("p", i), "1", nil)})
		}
		close(added)
	}()
	select {
	case <-added:
	case <-time.After(5 * time.Second):
		labFailf(t, 5, 2, "add: expected 1000 adds to return with no run goroutine taking them (pop buffers without limit), they blocked", "(*processorListener).add：没有 `run` 取走时，期望 1000 次 `add` 都能返回（`pop` 无上限地缓冲），实际阻塞了")
		close(l.addCh)
		return
	}
	runDone := make(chan struct{})
	go func() { l.run(); close(runDone) }()
	if !labWaitFor(func() bool { return len(h.get()) == 1000 }) {
		labFailf(t, 5, 3, "run: expected the handler to hear 1000 adds, it heard %d", "(*processorListener).run：期望事件处理器听到 1000 个 OnAdd，实际 %d", len(h.get()))
		close(l.addCh)
		return
	}
	for i, line := range h.get() {
		if line != fmt.Sprintf("OnAdd ns/p%d@1", i) {
			labFailf(t, 5, 3, "run: expected the adds in order; call %d was %q", "(*processorListener).run：期望按顺序 OnAdd；第 %d 次是 %q", i, line)
			break
		}
	}
	close(l.addCh)
	for _, c := range []chan struct{}{popDone, runDone} {
		select {
		case <-c:
		case <-time.After(5 * time.Second):
			labFailf(t, 5, 2, "after addCh was closed: expected pop to close nextCh and both goroutines to end", "addCh 关闭之后：期望 `pop` 关闭 nextCh，两个 goroutine 都结束")
			return
		}
	}
}

// TestLab05HandlersJoinWhileEventsFlow adds five handlers while pods are
// being created: each must hear every pod exactly once, as an add of the
// cache (initial) or as a new add, and the processor's listeners must be
// read and written under its lock (go run ./labs test runs with -race).
func TestLab05HandlersJoinWhileEventsFlow(t *testing.T) {
	defer labStart(t, 5)()
	s := labServer(t)
	inf := NewSharedIndexInformer(labPodsLW(t, s, "default"), &Pod{}, 0, Indexers{})
	if !lab05Run(t, inf) {
		labFailf(t, 5, 1, "the informer did not sync within 5 s", "informer 5 秒内没有完成同步")
		return
	}
	const pods = 40
	created := make(chan error, 1)
	go func() {
		for i := range pods {
			obj := map[string]any{"apiVersion": "v1", "kind": "Pod",
				"metadata": map[string]any{"name": fmt.Sprint("p", i), "namespace": "default"},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "main", "image": "nginx"}}}}
			if _, err := s.Create(fakeapi.Pods, "default", obj); err != nil {
				created <- err
				return
			}
		}
		created <- nil
	}()
	var late []*lab04Heard
	for range 5 {
		h := &lab04Heard{}
		var err error
		labWithin(t, 5, 4, labPick("AddEventHandler while events flow", "事件流动时的 AddEventHandler"), func() { _, err = inf.AddEventHandler(h.handler()) })
		if err != nil {
			labFailf(t, 5, 4, "AddEventHandler after Run: expected no error, got %v", "Run 之后 AddEventHandler：期望没有错误，实际 %v", err)
			return
		}
		late = append(late, h)
	}
	var err error
	labWithin(t, 5, 4, labPick("creating the pods", "创建 Pod"), func() { err = <-created })
	if err != nil {
		t.Fatalf(labPick("fakeapi: %v", "fakeapi 出错：%v"), err)
	}
	for i, h := range late {
		if !labWaitFor(func() bool { return len(h.get()) >= pods }) {
			labFailf(t, 5, 4, "handler %d, added while pods were created: expected %d adds, heard %d",
				"创建 Pod 期间加入的事件处理器 %d：期望 %d 个 OnAdd，实际 %d 个", i+1, pods, len(h.get()))
			return
		}
		seen := map[string]int{}
		for _, l := range h.get() {
			name, _, _ := strings.Cut(strings.TrimPrefix(l, "OnAdd default/"), "@")
			seen[name]++
		}
		for p := range pods {
			if n := seen[fmt.Sprint("p", p)]; n != 1 {
				labFailf(t, 5, 4, "handler %d, added while pods were created: expected p%d once, heard it %d times (%v)",
					"创建 Pod 期间加入的事件处理器 %d：期望 p%d 恰好一次，实际 %d 次（%v）", i+1, p, n, h.get())
				return
			}
		}
	}
}

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

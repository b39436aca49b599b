// lab06_test.go grades lab 6: client-go 1.37's RealFIFO, its atomic
// ReplacedAll, PopBatch and the informer's handling of a ReplacedAll.
// Copied into the workspace root package; `go test -run Lab06 ./...`.
//
// client-go counterpart: RealFIFO (Pop, PopBatch, Replace, Resync) in
// k8s.io/client-go/tools/cache the_real_fifo.go and processReplacedAllInfo
// in controller.go (v0.37.2).
//
// Tutorial: 000 §2.5, §3.2, §4.2; 004 §4.4.

//go:build informerlab

package informer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func lab06Atomic(known KeyListerGetter) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, KnownObjects: known})
}

// lab06PopBatch pops one batch and describes it: "batch[...]" or "single[...]".
// It fails the test if PopBatch does not return within 5 s.
func lab06PopBatch(t *testing.T, f *RealFIFO) (string, error) {
	t.Helper()
	var out string
	var err error
	labWithin(t, 6, 3, "PopBatch", func() { out, err = lab06PopBatchNow(f) })
	return out, err
}

// lab06PopBatchNow is lab06PopBatch without the time limit.
func lab06PopBatchNow(f *RealFIFO) (string, error) {
	var out string
	err := f.PopBatch(func(ds []Delta, _ bool) error {
		var s []string
		for _, d := range ds {
			s = append(s, labDescribe(d))
		}
		out = fmt.Sprint("batch", s)
		return nil
	}, func(obj any, _ bool) error {
		var s []string
		for _, d := range obj.(Deltas) {
			s = append(s, labDescribe(d))
		}
		out = fmt.Sprint("single", s)
		return nil
	})
	return out, err
}

func TestLab06AtomicReplaceIsOneDelta(t *testing.T) {
	defer labStart(t, 6)()
	f := lab06Atomic(nil)
	_ = f.Replace([]any{labPod("ns", "a", "5", nil), labPod("ns", "b", "5", nil)}, "5")
	var got []Delta
	var err error
	labWithin(t, 6, 2, "Pop", func() { _, err = f.Pop(func(obj any, initial bool) error { got = obj.(Deltas); return nil }) })
	if err != nil || len(got) != 1 || got[0].Type != ReplacedAll {
		labFailf(t, 6, 1, "Replace with AtomicEvents, then Pop: expected one ReplacedAll delta, got %v, %v", "AtomicEvents 下 Replace 再 Pop：期望一个 ReplacedAll Delta，实际 %v、%v", got, err)
		return
	}
	info, ok := got[0].Object.(ReplacedAllInfo)
	if !ok || info.ResourceVersion != "5" || len(info.Objects) != 2 {
		labFailf(t, 6, 1, "the ReplacedAll's object: expected a ReplacedAllInfo at version 5 with 2 objects, got %#v", "ReplacedAll 的对象：期望版本 5、含 2 个对象的 ReplacedAllInfo，实际 %#v", got[0].Object)
	}
	bad := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: func(obj any) (any, error) { return nil, errors.New("no") }})
	if err := bad.Replace([]any{labPod("ns", "a", "5", nil)}, "5"); err == nil {
		labFailf(t, 6, 1, "Replace when the transformer fails: expected its error, got none", "转换函数失败时 Replace：期望返回它的错误，实际没有")
	}
	bad.Close()
	var queued any
	labWithin(t, 6, 1, "Pop", func() { queued, _ = bad.Pop(func(any, bool) error { return nil }) })
	if queued != nil {
		labFailf(t, 6, 1, "after a Replace whose transformer failed: expected nothing queued, Pop gave %v",
			"转换函数失败的 Replace 之后：期望队列为空，Pop 却得到 %v", queued)
	}
}

func TestLab06PopEveryNotificationInOrder(t *testing.T) {
	defer labStart(t, 6)()
	f := lab06Atomic(nil)
	_ = f.Add(labPod("ns", "a", "1", nil))
	_ = f.Update(labPod("ns", "a", "2", nil))
	_ = f.Delete(labPod("ns", "a", "3", nil))
	_ = f.Add(labPod("ns", "b", "4", nil))
	var got []string
	for range 4 {
		var err error
		labWithin(t, 6, 2, "Pop", func() {
			_, err = f.Pop(func(obj any, _ bool) error {
				for _, d := range obj.(Deltas) {
					got = append(got, labDescribe(d))
				}
				return nil
			})
		})
		if err != nil {
			labFailf(t, 6, 2, "Pop: expected a delta, got error %v", "Pop：期望得到一个 Delta，实际错误 %v", err)
			return
		}
	}
	labExpect(t, 6, 2, "every notification, one per Pop, in order (nothing merged)", "每次 Pop 一个通知，按顺序（不合并）", []string{"Added ns/a@1", "Updated ns/a@2", "Deleted ns/a@3", "Added ns/b@4"}, got)
	labExpectClosed(t, 6, 2, f)
}

func TestLab06PopBatchRules(t *testing.T) {
	defer labStart(t, 6)()
	f := lab06Atomic(nil)
	_ = f.Add(labPod("ns", "a", "1", nil))
	_ = f.Add(labPod("ns", "b", "2", nil))
	_ = f.Update(labPod("ns", "a", "3", nil))
	_ = f.Add(labPod("ns", "c", "4", nil))
	_ = f.Resync()
	_ = f.Add(labPod("ns", "d", "5", nil))
	var got []string
	for range 4 {
		s, err := lab06PopBatch(t, f)
		if err != nil {
			labFailf(t, 6, 3, "PopBatch: expected no error, got %v", "PopBatch：期望没有错误，实际 %v", err)
			return
		}
		got = append(got, s)
	}
	want := []string{"batch[Added ns/a@1 Added ns/b@2]", "batch[Updated ns/a@3 Added ns/c@4]", "single[SyncAll SyncAllInfo]", "single[Added ns/d@5]"}
	for i := range want {
		want[i] = fmt.Sprint(want[i])
	}
	labExpect(t, 6, 3, "batches: cut before a key already in the batch; a whole-queue delta alone; a run of one goes to processSingle", "批次：遇到批内已有的键就切开；整队列 Delta 单独出队；只有一个时交给 processSingle", lab06Fix(want), got)
}

// lab06Fix writes SyncAll deltas the way labDescribe does.
func lab06Fix(want []string) []string {
	for i, w := range want {
		if w == "single[SyncAll SyncAllInfo]" {
			want[i] = fmt.Sprint("single", []string{labDescribe(Delta{Type: SyncAll, Object: SyncAllInfo{}})})
		}
	}
	return want
}

func TestLab06Resync(t *testing.T) {
	defer labStart(t, 6)()
	f := lab06Atomic(nil)
	_ = f.Resync()
	var first DeltaType
	labWithin(t, 6, 2, "Pop", func() {
		_, _ = f.Pop(func(obj any, _ bool) error { first = obj.(Deltas)[0].Type; return nil })
	})
	labExpect(t, 6, 4, "Resync with AtomicEvents: one SyncAll delta", "AtomicEvents 下的 Resync：一个 SyncAll Delta", SyncAll, first)
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(labPod("ns", "x", "1", nil))
	_ = known.Add(labPod("ns", "y", "2", nil))
	g := NewRealFIFOWithOptions(RealFIFOOptions{KnownObjects: lab02Known{known}})
	_ = g.Update(labPod("ns", "x", "3", nil))
	_ = g.Resync()
	var got []string
	for range 2 {
		labWithin(t, 6, 2, "Pop", func() {
			_, _ = g.Pop(func(obj any, _ bool) error { got = append(got, labDescribe(obj.(Deltas)[0])); return nil })
		})
	}
	labExpect(t, 6, 4, "Resync without AtomicEvents: a Sync for each known key with nothing queued", "没有 AtomicEvents 的 Resync：为每个没有排队的已知键入队 Sync", []string{"Updated ns/x@3", "Sync ns/y@2"}, got)
}

func TestLab06ProcessReplacedAll(t *testing.T) {
	defer labStart(t, 6)()
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	_ = cache.Add(labPod("ns", "a", "1", nil))
	_ = cache.Add(labPod("ns", "b", "2", nil))
	h := &lab04Heard{}
	var sawCache []string
	spy := ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			sawCache = append(sawCache, fmt.Sprint(lab01Sorted(cache.ListKeys())))
			h.add("OnAdd %s", lab04Name(obj))
		},
		UpdateFunc: func(o, n any) { h.add("OnUpdate %s -> %s", lab04Name(o), lab04Name(n)) },
		DeleteFunc: func(obj any) {
			sawCache = append(sawCache, fmt.Sprint(lab01Sorted(cache.ListKeys())))
			h.add("OnDelete %s", lab04Name(obj))
		},
	}
	info := ReplacedAllInfo{ResourceVersion: "9", Objects: []any{labPod("ns", "b", "9", nil), labPod("ns", "c", "9", nil)}}
	if err := processReplacedAllInfo(spy, info, cache, false, DeletionHandlingMetaNamespaceKeyFunc); err != nil {
		labFailf(t, 6, 5, "processReplacedAllInfo: expected no error, got %v", "processReplacedAllInfo：期望没有错误，实际 %v", err)
	}
	labExpect(t, 6, 5, "handler calls: deletions (tombstones) first, then updates and adds in list order", "事件处理器调用：先删除（墓碑），再按列表顺序 OnUpdate 和 OnAdd",
		[]string{"OnDelete tombstone(ns/a)", "OnUpdate ns/b@2 -> ns/b@9", "OnAdd ns/c@9"}, h.get())
	labExpect(t, 6, 5, "the cache as every handler call saw it: already replaced, in one step", "每次事件处理器调用时看到的缓存：已经一步替换完成", []string{"[ns/b ns/c]", "[ns/b ns/c]"}, sawCache)
	labExpect(t, 6, 5, "the cache's version", "缓存的版本", "9", cache.LastStoreSyncResourceVersion())

	// The same through the informer's process function, as the run loop calls it.
	h.lines = nil
	_ = processDeltas(h.handler(), cache, Deltas{{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: "10",
		Objects: []any{labPod("ns", "d", "10", nil)}}}}, false)
	labExpect(t, 6, 5, "a ReplacedAll popped from the RealFIFO: processReplacedAllInfo's deletions, then adds",
		"从 RealFIFO 弹出的 ReplacedAll：processReplacedAllInfo 的删除，然后 OnAdd",
		[]string{"OnAdd ns/d@10", "OnDelete tombstone(ns/b)", "OnDelete tombstone(ns/c)"}, lab01Sorted(h.get()))
}

// TestLab06PopWaitsSyncsAfterProcessAndHoldsBack: a Pop waiting on an
// empty RealFIFO is woken by Close and returns ErrFIFOClosed; the initial
// list counts as processed only once process has returned (HasSynced is
// still false inside process of its last delta); with
// UnlockWhileProcessing the lock is let go while process runs, but held
// once two batches are queued (the queue then holds the Reflector back);
// and a ReplacedAll of the initial list tells OnAdd isInInitialList.
func TestLab06PopWaitsSyncsAfterProcessAndHoldsBack(t *testing.T) {
	defer labStart(t, 6)()
	f := lab06Atomic(nil)
	closed := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				closed <- fmt.Errorf("panic: %v", p)
			}
		}()
		_, err := f.Pop(func(any, bool) error { return nil })
		closed <- err
	}()
	if !labWaitFor(func() bool { return lab06PopsWaiting() == 1 }) {
		labFailf(t, 6, 2, "a Pop on an empty RealFIFO: expected it to wait", "空的 RealFIFO 上的 Pop：期望它等待")
		f.Close()
		return
	}
	f.Close()
	var err error
	labWithin(t, 6, 2, labPick("the waiting Pop after Close", "Close 之后等待中的 Pop"), func() { err = <-closed })
	if !errors.Is(err, ErrFIFOClosed) {
		labFailf(t, 6, 2, "a Pop waiting on an empty RealFIFO, woken by Close: expected ErrFIFOClosed, got %v (woken, waitLocked must look again: a for around cond.Wait, not an if)",
			"空的 RealFIFO 上等待的 Pop 被 Close 唤醒：期望 ErrFIFOClosed，实际 %v（被唤醒后 waitLocked 必须再看一次：cond.Wait 外面是 for，不是 if）", labShow(err))
	}

	// HasSynced only after process of the initial list's last delta.
	u := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
	_ = u.Replace([]any{labPod("ns", "a", "1", nil)}, "1")
	var during bool
	labWithin(t, 6, 2, "Pop", func() {
		_, _ = u.Pop(func(any, bool) error { during = u.HasSynced(); return nil })
	})
	labExpect(t, 6, 2, "HasSynced while process handles the initial list, then after Pop returned (counted off only once process returned)",
		"`process` 处理初始列表期间的 HasSynced，以及 Pop 返回之后的（`process` 返回之后才计数减掉）", "false true", fmt.Sprint(during, " ", u.HasSynced()))

	// The lock while processing: let go, unless two batches are queued.
	held := func(queued int) bool {
		q := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true})
		q.batchSize = 2
		for i := range queued {
			_ = q.Add(labPod("ns", fmt.Sprint("p", i), "1", nil))
		}
		var locked bool
		labWithin(t, 6, 2, "Pop", func() {
			_, _ = q.Pop(func(any, bool) error {
				if q.lock.TryLock() {
					q.lock.Unlock()
					return nil
				}
				locked = true
				return nil
			})
		})
		return locked
	}
	labExpect(t, 6, 2, "the lock held while process runs, with UnlockWhileProcessing and a batch size of 2: with 2 queued (1 left after the Pop), with 6 queued (5 left: more than two batches)",
		"UnlockWhileProcessing、批大小为 2 时，`process` 运行期间是否持有锁：排队 2 个（Pop 后剩 1 个）、排队 6 个（剩 5 个：超过两批）",
		"false true", fmt.Sprint(held(2), " ", held(6)))

	// isInInitialList reaches OnAdd through a ReplacedAll.
	var initial []string
	flags := lab04Flags{add: func(obj any, first bool) { initial = append(initial, fmt.Sprint(lab04Name(obj), " ", first)) }}
	cache := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, Indexers{})
	_ = processReplacedAllInfo(flags, ReplacedAllInfo{ResourceVersion: "1", Objects: []any{labPod("ns", "x", "1", nil)}}, cache, true,
		DeletionHandlingMetaNamespaceKeyFunc)
	labExpect(t, 6, 5, "OnAdd's isInInitialList for the initial list's ReplacedAll", "初始列表的 ReplacedAll 带给 OnAdd 的 isInInitialList",
		[]string{"ns/x@1 true"}, initial)
}

// lab06PopsWaiting counts the goroutines parked in RealFIFO.Pop on its
// condition variable, read from a dump of every goroutine's stack.
func lab06PopsWaiting() int {
	buf := make([]byte, 1<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "(*Cond).Wait") && strings.Contains(g, "(*RealFIFO).Pop") {
			n++
		}
	}
	return n
}

// TestLab06RandomBatchesMatchAModel queues random notifications and
// resyncs on a RealFIFO, pops it with PopBatch, and compares the batches
// with the ones the rules give.
func TestLab06RandomBatchesMatchAModel(t *testing.T) {
	defer labStart(t, 6)()
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 6))
		f := lab06Atomic(nil)
		var queued []Delta
		for i := range 30 {
			p := labPod("ns", fmt.Sprint("p", rng.IntN(5)), fmt.Sprint(i), nil)
			switch rng.IntN(8) {
			case 0:
				_ = f.Resync()
				queued = append(queued, Delta{Type: SyncAll, Object: SyncAllInfo{}})
			case 1, 2:
				_ = f.Delete(p)
				queued = append(queued, Delta{Type: Deleted, Object: p})
			default:
				_ = f.Update(p)
				queued = append(queued, Delta{Type: Updated, Object: p})
			}
		}
		var want, got []string
		for len(queued) > 0 {
			n := 1
			if queued[0].Type != SyncAll {
				seen := map[string]bool{lab04Name(queued[0].Object)[:5]: true}
				for n < len(queued) && queued[n].Type != SyncAll && !seen[lab04Name(queued[n].Object)[:5]] {
					seen[lab04Name(queued[n].Object)[:5]] = true
					n++
				}
			}
			var s []string
			for _, d := range queued[:n] {
				s = append(s, labDescribe(d))
			}
			kind := "batch"
			if n == 1 {
				kind = "single"
			}
			want = append(want, fmt.Sprint(kind, s))
			queued = queued[n:]
			b, err := lab06PopBatch(t, f)
			if err != nil {
				labFailf(t, 6, 3, "seed %d: PopBatch: expected no error, got %v", "种子 %d：PopBatch：期望没有错误，实际 %v", seed, err)
				return
			}
			got = append(got, b)
		}
		if !slices.Equal(want, got) {
			labFailf(t, 6, 3, "random notifications (seed %d): expected batches\n%v\ngot\n%v", "随机通知（种子 %d）：期望的批次\n%v\n实际\n%v", seed, want, got)
			return
		}
	}
}

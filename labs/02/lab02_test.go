// lab02_test.go grades lab 2: Delta and the DeltaFIFO. Copied into the
// workspace root package; `go test -run Lab02 ./...`.
//
// client-go counterpart: DeltaFIFO (queueActionLocked, dedupDeltas, Pop,
// Replace, Resync) in k8s.io/client-go/tools/cache delta_fifo.go.
//
// Tutorial: 004 §2.2, §4.4; 000 §3.1, §3.2, §4.2.

//go:build informerlab

package informer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// lab02Known is a KeyListerGetter over a Store that lists its keys sorted,
// so that the order of what Replace and Resync queue is predictable.
type lab02Known struct{ Store }

func (k lab02Known) ListKeys() []string {
	keys := k.Store.ListKeys()
	sort.Strings(keys)
	return keys
}

// lab02Pop pops one key and returns its deltas, described.
func lab02Pop(t *testing.T, f *DeltaFIFO) []string {
	t.Helper()
	var item any
	var err error
	labWithin(t, 2, 3, "Pop", func() { item, err = f.Pop(func(any, bool) error { return nil }) })
	if err != nil {
		labFailf(t, 2, 3, "Pop: expected the first queued key's Deltas, got error %v", "Pop：期望得到队首键的 Deltas，实际返回错误 %v", err)
		return nil
	}
	d, ok := item.(Deltas)
	if !ok {
		labFailf(t, 2, 3, "Pop: expected a Deltas, got %T", "Pop：期望得到 Deltas，实际是 %T", item)
		return nil
	}
	var out []string
	for _, x := range d {
		out = append(out, labDescribe(x))
	}
	return out
}

func TestLab02OneEntryPerKeyDeltasInOrder(t *testing.T) {
	defer labStart(t, 2)()
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = f.Add(labPod("ns", "a", "1", nil))
	_ = f.Add(labPod("ns", "b", "2", nil))
	_ = f.Update(labPod("ns", "a", "3", nil))
	labExpect(t, 2, 1, "the queued keys after Add a, Add b, Update a: each key once, in the order first queued", "Add a、Add b、Update a 之后排队的键：每个键一次，按首次入队的顺序", []string{"ns/a", "ns/b"}, fifoKeys(f))
	labExpect(t, 2, 3, "first Pop", "第一次 Pop", []string{"Added ns/a@1", "Updated ns/a@3"}, lab02Pop(t, f))
	labExpect(t, 2, 3, "second Pop", "第二次 Pop", []string{"Added ns/b@2"}, lab02Pop(t, f))
	_ = f.Add(labPod("ns", "a", "4", nil))
	labExpect(t, 2, 3, "a key popped and queued again starts a new entry", "键被 Pop 之后再入队，是一个新条目", []string{"Added ns/a@4"}, lab02Pop(t, f))
}

func TestLab02DedupOnlyBackToBackDeletions(t *testing.T) {
	defer labStart(t, 2)()
	known := NewStore(MetaNamespaceKeyFunc)
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: known})
	a := labPod("ns", "a", "1", nil)
	_ = known.Add(a)
	_ = f.Delete(a)
	_ = f.Delete(a)
	labExpect(t, 2, 2, "two deletions in a row are one", "连续两次删除合并为一次", []string{"Deleted ns/a@1"}, lab02Pop(t, f))
	_ = f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: a})
	_ = f.Delete(labPod("ns", "a", "2", nil))
	labExpect(t, 2, 2, "a tombstone then a real deletion: the real one, which carries the final state, is kept", "先墓碑后真实删除：保留带有最终状态的真实删除", []string{"Deleted ns/a@2"}, lab02Pop(t, f))
	_ = f.Delete(a)
	_ = f.Delete(DeletedFinalStateUnknown{Key: "ns/a", Obj: a})
	labExpect(t, 2, 2, "a real deletion then a tombstone: the real one is kept", "先真实删除后墓碑：保留真实删除", []string{"Deleted ns/a@1"}, lab02Pop(t, f))
	_ = f.Delete(a)
	_ = f.Add(a)
	_ = f.Delete(a)
	labExpect(t, 2, 2, "Delete, Add, Delete: nothing merges, deletions are only merged back to back", "Delete、Add、Delete：不合并，只合并紧挨着的删除", []string{"Deleted ns/a@1", "Added ns/a@1", "Deleted ns/a@1"}, lab02Pop(t, f))
	_ = f.Delete(labPod("ns", "unknown", "1", nil))
	labExpect(t, 2, 2, "Delete of a key neither queued nor known queues nothing", "既未排队也未知的键，Delete 不入队", []string{}, fifoKeys(f))
}

func TestLab02PopWaitsAndClose(t *testing.T) {
	defer labStart(t, 2)()
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	got := make(chan []string, 1)
	go func() {
		item, err := f.Pop(func(any, bool) error { return nil })
		d, _ := item.(Deltas)
		var out []string
		for _, x := range d {
			out = append(out, labDescribe(x))
		}
		if err != nil {
			out = append(out, labCause(err))
		}
		got <- out
	}()
	_ = f.Add(labPod("ns", "a", "1", nil))
	if !labWaitFor(func() bool { return len(got) == 1 }) {
		labFailf(t, 2, 3, "a Pop waiting on an empty queue: expected it to return once a key is added, it is still waiting", "空队列上等待的 Pop：期望有键加入后返回，实际仍在等待")
		f.Close()
		return
	}
	var popped []string
	labWithin(t, 2, 3, labPick("the waiting Pop's result", "等待中的 Pop 的结果"), func() { popped = <-got })
	labExpect(t, 2, 3, "what the waiting Pop returned", "等待中的 Pop 的返回值", []string{"Added ns/a@1"}, popped)
	perr := errors.New("handler failed")
	_ = f.Add(labPod("ns", "b", "1", nil))
	var err error
	labWithin(t, 2, 3, "Pop", func() { _, err = f.Pop(func(any, bool) error { return perr }) })
	if !errors.Is(err, perr) {
		labFailf(t, 2, 3, "Pop: expected process's error back, got %v", "Pop：期望返回 `process` 的错误，实际 %v", err)
	}
	labExpect(t, 2, 3, "keys after a failed process (not requeued)", "`process` 失败之后的键（不重新入队）", []string{}, fifoKeys(f))
	_ = f.Add(labPod("ns", "l", "1", nil))
	labWithin(t, 2, 3, "Pop", func() {
		_, _ = f.Pop(func(any, bool) error {
			if f.lock.TryLock() { // succeeds only if Pop let go of the lock before calling process
				f.lock.Unlock()
				labFailf(t, 2, 3, "Pop called process without holding the queue's lock: expected it held (the consumer's cache is written before Replace or Resync can read it)", "Pop 调用 `process` 时没有持有队列的锁：期望持有（消费者的缓存先写好，Replace 或 Resync 才能读它）")
			}
			return nil
		})
	})
	_ = f.Add(labPod("ns", "c", "1", nil))
	f.Close()
	labExpect(t, 2, 3, "Pop after Close still drains what is queued", "Close 之后 Pop 仍然先取完队列里的内容", []string{"Added ns/c@1"}, lab02Pop(t, f))
	labExpectClosed(t, 2, 3, f)
}

// TestLab02PopWokenWithNothingQueuedWaitsOn: two Pops wait on an empty
// queue and one key is added. appendLocked wakes every waiting Pop
// (Broadcast): one takes the key, the other must find the queue empty
// again and wait on, not return (with an if around cond.Wait instead of a
// for it goes on, and returns an error or panics while the queue is open).
func TestLab02PopWokenWithNothingQueuedWaitsOn(t *testing.T) {
	defer labStart(t, 2)()
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	type popped struct {
		what []string
		err  error
	}
	results := make(chan popped, 2)
	pop := func() {
		defer func() {
			if p := recover(); p != nil {
				results <- popped{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		item, err := f.Pop(func(any, bool) error { return nil })
		var what []string
		d, _ := item.(Deltas)
		for _, x := range d {
			what = append(what, labDescribe(x))
		}
		results <- popped{what, err}
	}
	go pop()
	go pop()
	if !labWaitFor(func() bool { return lab02PopsWaiting() == 2 }) {
		labFailf(t, 2, 3, "two Pops on an empty queue: expected both to wait, %d waiting", "空队列上的两个 Pop：期望两个都在等待，实际 %d 个在等待", lab02PopsWaiting())
		f.Close()
		return
	}
	_ = f.Add(labPod("ns", "a", "1", nil))
	var first popped
	labWithin(t, 2, 3, labPick("the first Pop's result after Add(a)", "Add(a) 之后第一个 Pop 的结果"), func() { first = <-results })
	labExpect(t, 2, 3, "what the first Pop returned after Add(a)", "Add(a) 之后第一个 Pop 的返回值", "[Added ns/a@1] <nil>",
		fmt.Sprint(first.what, " ", labShow(first.err)))
	select {
	case second := <-results:
		labFailf(t, 2, 3, "the other Pop, woken by Add(a) with the queue empty again and open, returned %v, %v: it must look again and wait on (a for around cond.Wait, not an if)",
			"另一个 Pop 被 Add(a) 唤醒时队列又空了、也没有关闭，它却返回了 %v、%v：它必须再看一次、继续等待（cond.Wait 外面是 for，不是 if）",
			second.what, labShow(second.err))
		f.Close()
		return
	case <-time.After(100 * time.Millisecond):
	}
	_ = f.Add(labPod("ns", "b", "1", nil))
	var second popped
	labWithin(t, 2, 3, labPick("the other Pop's result after Add(b)", "Add(b) 之后另一个 Pop 的结果"), func() { second = <-results })
	labExpect(t, 2, 3, "what the other Pop returned after Add(b)", "Add(b) 之后另一个 Pop 的返回值", "[Added ns/b@1] <nil>",
		fmt.Sprint(second.what, " ", labShow(second.err)))
	f.Close()
}

// lab02PopsWaiting counts the goroutines parked in DeltaFIFO.Pop on its
// condition variable, read from a dump of every goroutine's stack.
func lab02PopsWaiting() int {
	buf := make([]byte, 1<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "(*Cond).Wait") && strings.Contains(g, "(*DeltaFIFO).Pop") {
			n++
		}
	}
	return n
}

func TestLab02ReplaceQueuesTombstones(t *testing.T) {
	defer labStart(t, 2)()
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(labPod("ns", "x", "1", nil))
	_ = known.Add(labPod("ns", "y", "2", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: lab02Known{known}, EmitDeltaTypeReplaced: true})
	_ = f.Add(labPod("ns", "z", "3", nil))
	if err := f.Replace([]any{labPod("ns", "x", "4", nil)}, "4"); err != nil {
		labFailf(t, 2, 4, "Replace: expected no error, got %v", "Replace：期望没有错误，实际 %v", err)
	}
	labExpect(t, 2, 4, "keys after Replace([x]) with z queued and x, y known", "z 在队列中、x 和 y 已知时 Replace([x]) 之后的键", []string{"ns/z", "ns/x", "ns/y"}, fifoKeys(f))
	labExpect(t, 2, 4, "z: queued, missing from the list → a tombstone holding its last queued object", "z：在队列中但不在列表里 → 墓碑，带着它最后入队的对象", []string{"Added ns/z@3", "Deleted tombstone(ns/z:ns/z@3)"}, lab02Pop(t, f))
	labExpect(t, 2, 4, "x: listed → Replaced", "x：在列表里 → Replaced", []string{"Replaced ns/x@4"}, lab02Pop(t, f))
	labExpect(t, 2, 4, "y: known, missing, nothing queued → a tombstone holding the known object", "y：已知、不在列表里、没有排队 → 墓碑，带着已知的对象", []string{"Deleted tombstone(ns/y:ns/y@2)"}, lab02Pop(t, f))
	g := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	_ = g.Replace([]any{labPod("ns", "a", "1", nil)}, "1")
	labExpect(t, 2, 4, "without EmitDeltaTypeReplaced, Replace queues Sync", "没有 EmitDeltaTypeReplaced 时 Replace 入队 Sync", []string{"Sync ns/a@1"}, lab02Pop(t, g))
	if !g.HasSynced() {
		labFailf(t, 2, 4, "HasSynced after the first Replace's keys were all popped: expected true, got false", "首次 Replace 的键全部 Pop 之后 HasSynced：期望 true，实际 false")
	}
}

func TestLab02ResyncSkipsQueuedKeys(t *testing.T) {
	defer labStart(t, 2)()
	known := NewStore(MetaNamespaceKeyFunc)
	_ = known.Add(labPod("ns", "x", "1", nil))
	_ = known.Add(labPod("ns", "y", "2", nil))
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: lab02Known{known}})
	_ = f.Update(labPod("ns", "x", "3", nil))
	_ = f.Resync()
	labExpect(t, 2, 5, "x has a queued delta, newer than the cache: Resync leaves it alone", "x 有排队的 Delta，比缓存新：Resync 不动它", []string{"Updated ns/x@3"}, lab02Pop(t, f))
	labExpect(t, 2, 5, "y has nothing queued: Resync queues a Sync of the known object", "y 没有排队：Resync 为已知对象入队 Sync", []string{"Sync ns/y@2"}, lab02Pop(t, f))
}

// TestLab02RandomOpsMatchAModel drives a DeltaFIFO and a small model of
// client-go's DeltaFIFO with the same random Add, Update, Delete, Replace,
// Resync and Pop calls; Pop applies the deltas to the known objects as an
// informer would. After each call the queue must match the model.
func TestLab02RandomOpsMatchAModel(t *testing.T) {
	defer labStart(t, 2)()
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 2))
		known := NewStore(DeletionHandlingMetaNamespaceKeyFunc) // as the informer's cache
		f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: lab02Known{known}, EmitDeltaTypeReplaced: true})
		m := &lab02Model{items: map[string][]Delta{}, known: map[string]*Pod{}}
		var ops []string
		for step := 0; step < 120; step++ {
			p := labPod("ns", fmt.Sprint("p", rng.IntN(6)), fmt.Sprint(step), nil)
			var op string
			r := rng.IntN(20)
			var list []any
			if r >= 11 && r < 13 {
				for i := range 6 {
					if rng.IntN(2) == 0 {
						list = append(list, labPod("ns", fmt.Sprint("p", i), fmt.Sprint(step), nil))
					}
				}
			}
			if r >= 14 && len(m.order) == 0 {
				continue // nothing to Pop
			}
			var popErr error
			labWithin(t, 2, 0, lab02OpName(r, p, list), func() { popErr = lab02Apply(r, f, known, p, list, step) })
			switch {
			case r < 5:
				m.queue(p.Namespace+"/"+p.Name, Delta{Type: Added, Object: p})
			case r < 8:
				m.queue(p.Namespace+"/"+p.Name, Delta{Type: Updated, Object: p})
			case r < 11:
				m.delete(p)
			case r < 13:
				m.replace(list)
			case r < 14:
				m.resync()
			default:
				if popErr != nil {
					labFailf(t, 2, 3, "seed %d step %d: Pop on a queue with keys: expected no error, got %v", "种子 %d 第 %d 步：队列有键时 Pop：期望没有错误，实际 %v", seed, step, popErr)
					return
				}
				m.pop()
			}
			op = lab02OpName(r, p, list)
			ops = append(ops, op)
			var got string
			labWithin(t, 2, 0, labPick("reading the queue after ", "读取队列，在这之后：")+op, func() { got = lab02DescribeQueue(f) })
			if want := m.describe(); want != got {
				labFailf(t, 2, 0, "random operations (seed %d, step %d, last ops %v):\nexpected queue %s\ngot            %s",
					"随机操作（种子 %d，第 %d 步，最近的操作 %v）：\n期望的队列 %s\n实际的队列 %s", seed, step, ops[max(0, len(ops)-6):], want, got)
				return
			}
		}
	}
}

// lab02OpName names the random operation r (as TestLab02RandomOpsMatchAModel draws it).
func lab02OpName(r int, p *Pod, list []any) string {
	switch {
	case r < 5:
		return "Add " + p.Name
	case r < 8:
		return "Update " + p.Name
	case r < 11:
		return "Delete " + p.Name
	case r < 13:
		return fmt.Sprintf(labPick("Replace(%d objects)", "Replace（%d 个对象）"), len(list))
	case r < 14:
		return "Resync"
	}
	return "Pop"
}

// lab02Apply does the random operation r on f; a Pop applies the deltas
// to known, as an informer's cache would. It returns Pop's error.
func lab02Apply(r int, f *DeltaFIFO, known Store, p *Pod, list []any, step int) error {
	switch {
	case r < 5:
		_ = f.Add(p)
	case r < 8:
		_ = f.Update(p)
	case r < 11:
		_ = f.Delete(p)
	case r < 13:
		_ = f.Replace(list, fmt.Sprint(step))
	case r < 14:
		_ = f.Resync()
	default:
		_, err := f.Pop(func(item any, _ bool) error {
			for _, d := range item.(Deltas) {
				if d.Type == Deleted {
					_ = known.Delete(d.Object)
				} else {
					_ = known.Update(d.Object)
				}
			}
			return nil
		})
		return err
	}
	return nil
}

// lab02DescribeQueue prints the queue: every key in order with its deltas.
func lab02DescribeQueue(f *DeltaFIFO) string {
	s := ""
	for _, k := range fifoKeys(f) {
		d, _ := fifoDeltas(f, k)
		var ds []string
		for _, x := range d {
			ds = append(ds, labDescribe(x))
		}
		s += fmt.Sprintf("%s%v ", k, ds)
	}
	return s
}

// lab02Model is client-go's DeltaFIFO reduced to its rules.
type lab02Model struct {
	order []string
	items map[string][]Delta
	known map[string]*Pod
}

func (m *lab02Model) queue(key string, d Delta) {
	old, ok := m.items[key]
	if !ok {
		m.order = append(m.order, key)
	}
	if n := len(old); n > 0 && old[n-1].Type == Deleted && d.Type == Deleted {
		if _, tomb := old[n-1].Object.(DeletedFinalStateUnknown); tomb {
			old = append(slices.Clone(old[:n-1]), d)
		}
		m.items[key] = old
		return
	}
	m.items[key] = append(slices.Clone(old), d)
}

func (m *lab02Model) delete(p *Pod) {
	key := p.Namespace + "/" + p.Name
	_, queued := m.items[key]
	_, known := m.known[key]
	if queued || known {
		m.queue(key, Delta{Type: Deleted, Object: p})
	}
}

func (m *lab02Model) replace(list []any) {
	listed := map[string]bool{}
	for _, o := range list {
		p := o.(*Pod)
		key := p.Namespace + "/" + p.Name
		listed[key] = true
		m.queue(key, Delta{Type: Replaced, Object: p})
	}
	for _, key := range slices.Clone(m.order) {
		if listed[key] {
			continue
		}
		d := m.items[key]
		last := d[len(d)-1].Object
		if t, ok := last.(DeletedFinalStateUnknown); ok {
			last = t.Obj
		}
		m.queue(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: last}})
	}
	for _, key := range m.sortedKnown() {
		if listed[key] || len(m.items[key]) > 0 {
			continue
		}
		m.queue(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: m.known[key]}})
	}
}

func (m *lab02Model) resync() {
	for _, key := range m.sortedKnown() {
		if len(m.items[key]) == 0 {
			m.queue(key, Delta{Type: Sync, Object: m.known[key]})
		}
	}
}

func (m *lab02Model) pop() {
	key := m.order[0]
	m.order = m.order[1:]
	for _, d := range m.items[key] {
		if d.Type == Deleted {
			delete(m.known, key)
		} else {
			m.known[key] = d.Object.(*Pod)
		}
	}
	delete(m.items, key)
}

func (m *lab02Model) sortedKnown() []string {
	keys := make([]string, 0, len(m.known))
	for k := range m.known {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (m *lab02Model) describe() string {
	s := ""
	for _, k := range m.order {
		var ds []string
		for _, x := range m.items[k] {
			ds = append(ds, labDescribe(x))
		}
		s += fmt.Sprintf("%s%v ", k, ds)
	}
	return s
}

// step08_batch_test.go holds the second half of the walkthrough's Step 8:
// the run loop of client-go v0.37.2, which pops a RealFIFO with PopBatch
// (the InOrderInformersBatchProcess gate), beside the first half's Pop loop
// on a DeltaFIFO (informer_test.go).
//
// client-go counterpart: processLoop in k8s.io/client-go/tools/cache
// controller.go, and RealFIFO.PopBatch in the_real_fifo.go (v0.37.2).
//
// Tutorial: 004 §4.2 (the controller run loop).
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestStep08PopBatchLoop(t *testing.T) {
	say(t, "Step 8, the PopBatch loop: client-go v0.37.2 runs the same loop on a RealFIFO with PopBatch",
		"第 8 步，PopBatch 循环：client-go v0.37.2 在 RealFIFO 上运行同一个循环，用的是 PopBatch")
	say(t, "(feature gate InOrderInformersBatchProcess). Files: controller.go, realfifo_batch.go.",
		"（特性门控 InOrderInformersBatchProcess）。文件：controller.go、realfifo_batch.go。")
	checkLeaksAtEnd(t)
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)

	fifo := NewRealFIFOWithOptions(RealFIFOOptions{
		AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true})
	popped := make(chan string, 100)
	var hold atomic.Pointer[chan struct{}] // while set, the next single delta waits for it to close
	c := New(&Config{
		Queue:         fifo,
		ListerWatcher: podsLW(t, s, NamespaceAll),
		ObjectType:    &Pod{},
		// PopBatch hands a run of one to Process, as Deltas...
		Process: func(obj any, isInInitialList bool) error {
			popped <- "Process      " + step08Describe(obj.(Deltas))
			if ch := hold.Swap(nil); ch != nil {
				<-*ch
			}
			return nil
		},
		// ... and a longer run, no two deltas of one key, to ProcessBatch.
		ProcessBatch: func(deltas []Delta, isInInitialList bool) error {
			popped <- "ProcessBatch " + step08Describe(deltas)
			return nil
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()

	say(t, "What each PopBatch call handed out, and to which function:",
		"每次调用 PopBatch 交出了什么，交给了哪个函数：")
	var got []string
	next := func(what string) string {
		line := receive(t, what, popped)
		got = append(got, line)
		say(t, "  PopBatch #%d → %s", "  第 %d 次 PopBatch → %s", len(got), line)
		return line
	}
	next("the initial list to be popped") // one ReplacedAll, alone
	waitFor(t, "HasSynced", c.HasSynced)

	release := make(chan struct{})
	hold.Store(&release)
	createPod(t, s, "default", "c", nil)
	next("Added default/c to be popped") // Process now waits
	say(t, "While Process is busy with default/c, d and e are created; the Reflector queues both.",
		"Process 还在处理 default/c 时创建了 d 和 e；Reflector 把两者都放进队列。")
	createPod(t, s, "default", "d", nil)
	createPod(t, s, "default", "e", nil)
	waitFor(t, "d and e queued", func() bool { return c.LastSyncResourceVersion() == s.ResourceVersion() })
	close(release)
	next("d and e to be popped") // together
	deletePod(t, s, "default", "a")
	next("Deleted default/a to be popped")
	want := []string{
		"Process      [ReplacedAll default/a default/b]",
		"Process      [Added default/c]",
		"ProcessBatch [Added default/d, Added default/e]",
		"Process      [Deleted default/a]",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("PopBatch handed out:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	say(t, "A whole-queue delta (ReplacedAll) pops alone; a run of one goes to Process; d and e, queued",
		"整个队列级别的 Delta（ReplacedAll）单独弹出；只有一个的交给 Process；d 和 e 一起排着队，")
	say(t, "together, went to ProcessBatch: an informer writes them to its cache in one Transaction.",
		"就一起交给 ProcessBatch：informer 在一个 Transaction 里把它们写进缓存。")
	say(t, "Cancelling the context closes the RealFIFO; PopBatch returns ErrFIFOClosed; the loop ends.",
		"取消 context 会关闭 RealFIFO；PopBatch 返回 ErrFIFOClosed，循环结束。")
	cancel()
	receive(t, "Run to return after the cancel", done)
}

// step08Describe names popped deltas briefly: "[Added default/c]", or a
// ReplacedAll with the keys of its list.
func step08Describe(deltas []Delta) string {
	var parts []string
	for _, d := range deltas {
		switch o := d.Object.(type) {
		case ReplacedAllInfo:
			var keys []string
			for _, obj := range o.Objects {
				keys = append(keys, keyOf(obj))
			}
			slices.Sort(keys)
			parts = append(parts, string(d.Type)+" "+strings.Join(keys, " "))
		default:
			parts = append(parts, string(d.Type)+" "+keyOf(o))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

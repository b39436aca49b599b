// processor_test.go checks the fan-out to handlers on its own: a stuck
// handler delays neither the sender nor another handler, every handler sees
// its notifications in order, a removed handler gets nothing more, and
// stopping ends every goroutine.

package informer

import (
	"fmt"
	"testing"
	"time"

	"github.com/learn-k8s/informer/clock"
	testingclock "github.com/learn-k8s/informer/clock/testing"
)

func TestProcessorStuckHandlerBlocksNobody(t *testing.T) {
	checkLeaksAtEnd(t)
	p := &sharedProcessor{clock: clock.RealClock{}}
	fast := &recorder{}
	stuck := &recorder{block: make(chan struct{})}
	synced := func() bool { return true }
	p.addListener(newProcessListener(fast, 0, 0, time.Now(), synced))
	p.addListener(newProcessListener(stuck, 0, 0, time.Now(), synced))
	p.start()

	const n = 2000
	for i := range n {
		// distribute returns although one handler is stuck on its first call.
		p.distribute(addNotification{newObj: testPod("ns", fmt.Sprint(i), "1", nil)}, false)
	}
	fast.waitLine(t, fmt.Sprintf("add ns/%d initial=false", n-1))
	if got := len(stuck.get()); got != 0 {
		t.Fatalf("the stuck handler recorded %d lines", got)
	}
	close(stuck.block)
	stuck.waitLine(t, fmt.Sprintf("add ns/%d initial=false", n-1))
	for i, line := range stuck.get() {
		if want := fmt.Sprintf("add ns/%d initial=false", i); line != want {
			t.Fatalf("line %d: got %q, want %q (out of order)", i, line, want)
		}
	}
	say(t, "%d adds while one handler is stuck: the other handled all of them; once freed, the stuck one got all %d, in order.",
		"一个处理器卡住时来了 %d 个 add：另一个全部处理完；卡住的那个放开后，按顺序收到全部 %d 个。", n, n)
	say(t, "client-go's processorListener keeps an unbounded buffer per handler: nothing dropped, nobody waits.",
		"client-go 的 processorListener 给每个处理器一个无界缓冲区：什么都不丢，谁也不等谁。")
	p.stop()
}

func TestProcessorSyncNotificationsGoOnlyToDueListeners(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Unix(0, 0))
	p := &sharedProcessor{clock: clock}
	every10s, never := &recorder{}, &recorder{}
	synced := func() bool { return true }
	p.addListener(newProcessListener(every10s, 10*time.Second, 10*time.Second, clock.Now(), synced))
	p.addListener(newProcessListener(never, 0, 0, clock.Now(), synced))
	p.start()
	defer p.stop()

	clock.Step(5 * time.Second)
	if p.shouldResync() {
		t.Fatal("nobody is due after 5s")
	}
	clock.Step(5 * time.Second)
	if !p.shouldResync() {
		t.Fatal("the 10s listener is due after 10s")
	}
	pod := testPod("ns", "a", "7", nil)
	p.distribute(updateNotification{oldObj: pod, newObj: pod}, true)
	p.distribute(addNotification{newObj: testPod("ns", "b", "8", nil)}, false)
	every10s.waitLine(t, "add ns/b initial=false")
	never.waitLine(t, "add ns/b initial=false")
	if !every10s.has("update ns/a same") || never.has("update ns/a same") {
		t.Fatalf("resync went to the wrong listeners: due=%q never=%q", every10s.get(), never.get())
	}
}

func TestProcessorRemoveListener(t *testing.T) {
	p := &sharedProcessor{clock: clock.RealClock{}}
	kept, removed := &recorder{}, &recorder{}
	synced := func() bool { return true }
	p.addListener(newProcessListener(kept, 0, 0, time.Now(), synced))
	handle := p.addListener(newProcessListener(removed, 0, 0, time.Now(), synced))
	p.start()
	defer p.stop()
	p.distribute(addNotification{newObj: testPod("ns", "before", "1", nil)}, false)
	removed.waitLine(t, "add ns/before initial=false")
	if err := p.removeListener(handle); err != nil {
		t.Fatal(err)
	}
	if err := p.removeListener(handle); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	p.distribute(addNotification{newObj: testPod("ns", "after", "2", nil)}, false)
	kept.waitLine(t, "add ns/after initial=false")
	if removed.has("add ns/after initial=false") {
		t.Fatal("a removed handler was notified")
	}
	if err := p.removeListener(nil); err == nil {
		t.Fatal("a nil registration should be an error")
	}
}

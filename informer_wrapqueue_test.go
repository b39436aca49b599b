// informer_wrapqueue_test.go tests SharedIndexInformerOptions.WrapQueue over
// HTTP against fakeapi: the wrapper sees the informer's DeltaFIFO, every Pop
// goes through it, and a wrapper that holds Pop back leaves the changes
// waiting in the queue, merged by key, until it lets the consumer go.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"fmt"
	"testing"

	"github.com/learn-k8s/informer/fakeapi"
)

// gatedQueue passes every call on, but each Pop first takes a token from gate.
type gatedQueue struct {
	Queue
	gate chan struct{}
}

func (q gatedQueue) Pop(process PopProcessFunc) (any, error) {
	<-q.gate
	return q.Queue.Pop(process)
}

func (q gatedQueue) Close() {
	q.Queue.Close()
	close(q.gate) // let a waiting Pop see the closed queue
}

func TestInformerWrapQueuePacesTheConsumer(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	var fifo *DeltaFIFO
	gate := make(chan struct{})
	gates := PipelineGates132() // the DeltaFIFO, whose queued keys this test reads
	inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{}, SharedIndexInformerOptions{
		PipelineGates: &gates,
		WrapQueue: func(q Queue) Queue {
			fifo, _ = q.(*DeltaFIFO)
			return gatedQueue{Queue: q, gate: gate}
		},
	})
	rec := &recorder{}
	if _, err := inf.AddEventHandler(rec); err != nil {
		t.Fatal(err)
	}
	runInformer(t, inf) // an empty initial list: synced with no Pop
	if fifo == nil {
		t.Fatal("WrapQueue was not given the informer's *DeltaFIFO")
	}

	createPod(t, s, "default", "a", nil)
	createPod(t, s, "default", "b", nil)
	relabelPod(t, s, "default", "a", map[string]string{"v": "2"})
	waitFor(t, "two keys queued, a with two deltas", func() bool {
		d, ok := fifoDeltas(fifo, "default/a")
		return ok && len(d) == 2 && len(fifoKeys(fifo)) == 2
	})
	if len(rec.get()) != 0 {
		t.Fatalf("the handler was told %q while the consumer was held", rec.get())
	}

	// Exactly one Pop: default/a with both its deltas.
	deliver(t, "the held Pop to take its token", gate, struct{}{})
	rec.waitLine(t, "update default/a")
	if got := fifoKeys(fifo); len(got) != 1 || got[0] != "default/b" {
		t.Fatalf("after one Pop the queue holds %q, want [default/b]", got)
	}
	if rec.has("add default/b initial=false") {
		t.Fatal("default/b was handled before its Pop")
	}
	deliver(t, "the second held Pop to take its token", gate, struct{}{})
	rec.waitLine(t, "add default/b initial=false")
}

func TestInformerWrapQueueGetsTheQueueTheGatesChoose(t *testing.T) {
	s := startServer(t, fakeapi.Options{})
	got := make(chan Queue, 1)
	gates := DefaultPipelineGates()
	inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{}, SharedIndexInformerOptions{
		PipelineGates: &gates,
		WrapQueue:     func(q Queue) Queue { got <- q; return q },
	})
	runInformer(t, inf)
	q := receive(t, "WrapQueue to be called", got)
	if fmt.Sprintf("%T", q) != "*informer.RealFIFO" {
		t.Fatalf("with client-go v0.37.2's gates WrapQueue got a %T, want a *RealFIFO", q)
	}
}

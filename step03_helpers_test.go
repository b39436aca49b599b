// step03_helpers_test.go holds the helpers of TestStep03RealFIFO: the
// history both queues are fed, and a drain that processes each pop the way
// an informer does (informer.go, realfifo_batch.go) while recording what was
// popped, what the handlers heard and what the cache held.
//
// client-go counterpart: none (the walkthrough's own scaffolding).
//
// Tutorial: the walkthrough's Step03RealFIFO.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// step03Pod is a pod of namespace "ns" named name at version rv.
func step03Pod(name, rv string) *Pod {
	return &Pod{ObjectMeta: ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// step03Cache is the cache before the history: a, b, c and e at version 1.
func step03Cache() Indexer {
	c := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, nil)
	for _, name := range []string{"a", "b", "c", "e"} {
		_ = c.Add(step03Pod(name, "1"))
	}
	return c
}

// step03Short names an object briefly: "a@2", or "tombstone(e)".
func step03Short(obj any) string {
	switch o := obj.(type) {
	case *Pod:
		return o.Name + "@" + o.ResourceVersion
	case DeletedFinalStateUnknown:
		return "tombstone(" + strings.TrimPrefix(o.Key, "ns/") + ")"
	case ReplacedAllInfo:
		var names []string
		for _, x := range o.Objects {
			names = append(names, step03Short(x))
		}
		return "@" + o.ResourceVersion + " (" + strings.Join(names, " ") + ")"
	}
	return "?"
}

// step03Run is what one queue did with the history.
type step03Run struct {
	pops, heard, caches []string
}

// runStep03History feeds the history into q, then pops until it is empty,
// processing each pop into a cache (the DeltaFIFO's KnownObjects, or a
// fresh step03Cache for the RealFIFO) as an informer would. With batch, a
// RealFIFO is popped with PopBatch, as client-go v0.37.2's informer does
// (the InOrderInformersBatchProcess gate): a run goes through
// processDeltasInBatch, one delta through processDeltas.
func runStep03History(t *testing.T, q Queue, batch bool) step03Run {
	t.Helper()
	var cache Indexer
	if d, ok := q.(*DeltaFIFO); ok {
		cache = d.knownObjects.(Indexer)
	} else {
		cache = step03Cache()
	}
	must(t, q.Update(step03Pod("a", "2")))
	must(t, q.Update(step03Pod("b", "3")))
	must(t, q.Update(step03Pod("a", "4")))
	must(t, q.Delete(step03Pod("c", "5")))
	must(t, q.Replace([]any{step03Pod("a", "4"), step03Pod("b", "3"), step03Pod("d", "6")}, "7"))
	q.Close()

	var run step03Run
	handler := ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { run.heard = append(run.heard, "add "+step03Short(obj)) },
		UpdateFunc: func(o, n any) {
			run.heard = append(run.heard, "update "+step03Short(o)+"→"+step03Short(n))
		},
		DeleteFunc: func(obj any) { run.heard = append(run.heard, "delete "+step03Short(obj)) },
	}
	// record notes what one pop handed out and, after processing, the cache.
	record := func(deltas []Delta, process func() error) error {
		var parts []string
		for _, d := range deltas {
			parts = append(parts, string(d.Type)+" "+step03Short(d.Object))
		}
		line := strings.Join(parts, ", ")
		if _, isDeltaFIFO := q.(*DeltaFIFO); isDeltaFIFO {
			key, _ := DeletionHandlingMetaNamespaceKeyFunc(deltas[len(deltas)-1].Object)
			line = strings.TrimPrefix(key, "ns/") + ": " + line
		} else {
			line = strings.Replace(line, "ReplacedAll @", "ReplacedAll@", 1)
		}
		if batch {
			line = "[" + line + "]"
		}
		run.pops = append(run.pops, line)
		err := process()
		keys := cache.ListKeys()
		for i := range keys {
			keys[i] = strings.TrimPrefix(keys[i], "ns/")
		}
		slices.Sort(keys)
		run.caches = append(run.caches, strings.Join(keys, " "))
		return err
	}
	single := func(obj any, initial bool) error {
		deltas := obj.(Deltas)
		return record(deltas, func() error { return processDeltas(handler, cache, deltas, initial) })
	}
	for {
		var err error
		returnsWithin(t, "a Pop of the closed queue to return", func() {
			if batch {
				err = q.(QueueWithBatch).PopBatch(func(deltas []Delta, initial bool) error {
					return record(deltas, func() error {
						return processDeltasInBatch(handler, cache, deltas, initial)
					})
				}, single)
			} else {
				_, err = q.Pop(single)
			}
		})
		if err != nil {
			return run // ErrFIFOClosed: drained
		}
	}
}

// step03At returns s[i], or "" past its end.
func step03At(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// step03Row lays out one row of Step 3's side-by-side tables.
func step03Row(left, right string) string {
	return strings.TrimRight(fmt.Sprintf("%-44s | %s", left, right), " |")
}

// queue_pop.go holds the consumer's side of the live view's queue wrapper:
// the gate that step mode closes (one Pop or PopBatch per step, never one
// banked on an empty queue, a RealFIFO's Bookmark let through since it
// changes neither cache nor handlers), the Pops with every key they hand
// out, and the cache lines of each Pop, written into the feed before the
// first handler call of that Pop: the informer writes the cache before it
// tells the handlers, and the feed must say so in that order.
//
// client-go counterpart: none; it wraps cache.DeltaFIFO or cache.RealFIFO.
// Tutorial: 004 §4.2 (the run loop's Pop), §2.3 (cache before handlers).

package main

import (
	"fmt"
	"time"

	"github.com/learn-k8s/informer"
)

// queuedLocked reports whether anything waits; the caller holds p.mu.
func (p *pacedQueue) queuedLocked() bool {
	if f, ok := p.Queue.(*informer.DeltaFIFO); ok {
		return len(f.QueuedDeltas()) > 0
	}
	return len(p.mirror) > 0
}

// stepWorthyLocked reports whether something a step would Pop is queued:
// anything but a RealFIFO's Bookmarks, which pass the gate by themselves.
func (p *pacedQueue) stepWorthyLocked() bool {
	if f, ok := p.Queue.(*informer.DeltaFIFO); ok {
		return len(f.QueuedDeltas()) > 0
	}
	for _, d := range p.mirror {
		if d.Type != informer.Bookmark {
			return true
		}
	}
	return false
}

// bookmarkFirstLocked reports whether a RealFIFO's next delta is a
// Bookmark: the gate lets it through without a step.
func (p *pacedQueue) bookmarkFirstLocked() bool {
	return len(p.mirror) > 0 && p.mirror[0].Type == informer.Bookmark
}

// gate waits until something is queued and, in step mode, for a step. It
// reports false once the queue is closed: a stopped informer's queue is
// dropped, not drained behind a paused consumer's back. Waiting here, not
// in the queue's own Pop, is what lets step mode start at any time: a
// consumer blocked inside the queue's Pop would take the next item without
// a step.
func (p *pacedQueue) gate() bool {
	p.mu.Lock()
	for !p.closed && (!p.queuedLocked() || p.paused && p.steps == 0 && !p.bookmarkFirstLocked()) {
		p.cond.Wait()
	}
	open := !p.closed
	if open && p.paused && p.steps > 0 && !p.bookmarkFirstLocked() {
		p.steps--
	}
	p.mu.Unlock()
	p.feed.poke()
	return open
}

// Pop pops one item when the gate opens.
func (p *pacedQueue) Pop(process informer.PopProcessFunc) (any, error) {
	if !p.gate() {
		return nil, informer.ErrFIFOClosed
	}
	n := 0
	item, err := p.Queue.Pop(func(item any, isInInitialList bool) error {
		deltas, _ := item.(informer.Deltas)
		n = len(deltas)
		return p.processed("Pop", deltas, func() error { return process(item, isInInitialList) })
	})
	p.consumed(min(n, 1)) // a RealFIFO's Pop takes one delta; a DeltaFIFO's, one key
	return item, err
}

// PopBatch pops one batch (a RealFIFO's) when the gate opens. A queue
// without PopBatch pops one item, as the run loop would.
func (p *pacedQueue) PopBatch(processBatch informer.ProcessBatchFunc, processSingle informer.PopProcessFunc) error {
	bq, ok := p.Queue.(informer.QueueWithBatch)
	if !ok {
		_, err := p.Pop(processSingle)
		return err
	}
	if !p.gate() {
		return informer.ErrFIFOClosed
	}
	n := 0
	err := bq.PopBatch(func(batch []informer.Delta, isInInitialList bool) error {
		n = len(batch)
		return p.processed("PopBatch", informer.Deltas(batch), func() error { return processBatch(batch, isInInitialList) })
	}, func(item any, isInInitialList bool) error {
		n = 1
		deltas, _ := item.(informer.Deltas)
		return p.processed("Pop", deltas, func() error { return processSingle(item, isInInitialList) })
	})
	p.consumed(n)
	return err
}

// processed records a Pop with every key it hands out, runs its
// processing, and writes its cache lines into the feed: before the first
// handler call of this Pop (flushCacheFor), or when processing ends.
func (p *pacedQueue) processed(op string, deltas informer.Deltas, process func() error) error {
	p.procMu.Lock()
	defer p.procMu.Unlock()
	shown := p.countSyncAll(deltasOf(deltas))
	p.mu.Lock()
	p.pops++
	if len(deltas) == 1 && deltas[0].Type == informer.Bookmark {
		p.bookmarkPops++
	}
	at := time.Now().Format("15:04:05.000")
	p.popped = append(p.popped, popped{At: at, Op: op, Deltas: shown})
	if len(p.popped) > maxPopped {
		p.popped = append([]popped(nil), p.popped[len(p.popped)-maxPopped:]...)
	}
	p.mu.Unlock()
	var keys []string
	seen := map[string]bool{}
	for _, d := range deltas {
		if k, _ := describeObject(d.Object); k != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	e := entry{Panel: "queue", Kind: op, Keys: keys, Text: describeDeltas(deltas)}
	if n, ok := listSize(deltas); ok { // a relist: say how many objects came with it
		m := msg("poppedList", e.Text+": the list's "+n+" objects", "deltas", e.Text, "n", n)
		e.Text, e.Msg, e.Args = m.Text, m.Msg, m.Args
	}
	for _, d := range shown {
		if d.Type == string(informer.SyncAll) { // a resync: say how many objects it hands on
			n := fmt.Sprint(d.N)
			m := msg("poppedSync", e.Text+": the cache's "+n+" objects", "deltas", e.Text, "n", n)
			e.Text, e.Msg, e.Args = m.Text, m.Msg, m.Args
		}
	}
	if len(keys) == 1 {
		e.Key = keys[0]
	}
	p.cacheMu.Lock()
	p.pendingCache = cacheLinesOf(deltas)
	p.cacheMu.Unlock()
	p.feed.addEntry(e)
	err := process()
	p.flushCache()
	return err
}

// cacheLine is what a Pop does to the cache, for the feed.
type cacheLine struct {
	kind, key, rv string
	m             message
}

// cacheLinesOf lists what processing deltas does to the cache, in order
// (informer.go, realfifo_batch.go): an object is stored or deleted; a relist's ReplacedAll
// replaces the whole cache; a Bookmark or a resync's SyncAll changes nothing.
func cacheLinesOf(deltas informer.Deltas) []cacheLine {
	var lines []cacheLine
	for _, d := range deltas {
		key, rv := describeObject(d.Object)
		switch d.Type {
		case informer.Deleted:
			lines = append(lines, cacheLine{kind: "cache: deleted", key: key, rv: rv})
		case informer.ReplacedAll:
			info, _ := d.Object.(informer.ReplacedAllInfo)
			n := fmt.Sprint(len(info.Objects))
			lines = append(lines, cacheLine{kind: "cache: replaced", rv: info.ResourceVersion,
				m: msg("cacheReplaced", "the whole cache, by the list's "+n+" objects", "n", n)})
		case informer.SyncAll, informer.Bookmark:
		default:
			lines = append(lines, cacheLine{kind: "cache: stored", key: key, rv: rv})
		}
	}
	return lines
}

// flushCacheFor writes the pending cache lines into the feed if a handler
// call for key at rv is one of their effects; a handler calls it before it
// writes its own line.
func (p *pacedQueue) flushCacheFor(key, rv string) {
	p.cacheMu.Lock()
	match := false
	for _, l := range p.pendingCache {
		match = match || l.key == "" || l.key == key && l.rv == rv
	}
	p.cacheMu.Unlock()
	if match {
		p.flushCache()
	}
}

// flushCache writes the pending cache lines into the feed.
func (p *pacedQueue) flushCache() {
	p.cacheMu.Lock()
	defer p.cacheMu.Unlock()
	for _, l := range p.pendingCache {
		p.feed.addMsg("cache", l.kind, l.key, l.rv, l.m)
	}
	p.pendingCache = nil
}

// consumed drops n popped deltas from a RealFIFO's mirror.
func (p *pacedQueue) consumed(n int) {
	p.mu.Lock()
	if !p.isDeltaFIFO() {
		p.mirror = p.mirror[min(n, len(p.mirror)):]
	}
	p.mu.Unlock()
	p.feed.poke()
}

// Close closes the queue and releases a Pop waiting at the gate.
func (p *pacedQueue) Close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.Queue.Close()
}

// setPaused turns step mode on or off.
func (p *pacedQueue) setPaused(paused bool) {
	p.mu.Lock()
	p.paused, p.steps = paused, 0
	p.cond.Broadcast()
	p.mu.Unlock()
	p.feed.poke()
}

// step lets exactly one more Pop through. It refuses outside step mode, on
// an empty queue (a step banked there would let a later change through
// unseen) and while the previous step is still on its way.
func (p *pacedQueue) step() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !p.paused:
		return refuse("notPaused", "not in step mode: pause the consumer first")
	case !p.stepWorthyLocked():
		return refuse("queueEmpty", "the queue is empty: nothing to Pop")
	case p.steps > 0:
		return refuse("stepWaiting", "the previous step is still being taken")
	}
	p.steps++
	p.cond.Broadcast()
	return nil
}

// nextBatch says how many of a RealFIFO's deltas its next PopBatch takes,
// as realfifo_batch.go cuts them: a whole-queue delta alone, else a run of
// distinct keys.
func nextBatch(ds []delta) int {
	seen := map[string]bool{}
	for i, d := range ds {
		switch d.Type {
		case "ReplacedAll", "SyncAll", "Bookmark":
			return max(i, 1)
		}
		if seen[d.Key] {
			return i
		}
		seen[d.Key] = true
	}
	return len(ds)
}

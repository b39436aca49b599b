// queue.go holds the live view's queue wrapper, installed through
// SharedIndexInformerOptions.WrapQueue: it records what the Reflector writes
// into the queue (Add, Update, Delete, Replace, Bookmark) and every Pop with
// what it handed out, shows what is queued, and, in step mode, holds the
// consumer back so that each step lets exactly one Pop (or PopBatch) through.
//
// A DeltaFIFO is read through ListKeys and GetByKey. A RealFIFO has no
// method that lists its contents (client-go's has none either), so the
// wrapper keeps a mirror: the deltas it saw go in, less those it saw come
// out. With the gates the view runs it on (AtomicFIFO on), every write is
// exactly one delta, so the mirror is exact.
//
// client-go counterpart: none; it wraps cache.DeltaFIFO or cache.RealFIFO.
// Tutorial: 004 §2.2 (DeltaFIFO: items map + queue), §4.2 (the run loop's Pop).

package main

import (
	"fmt"
	"sync"

	"github.com/learn-k8s/informer"
)

// queueState is the queue panel.
type queueState struct {
	Kind   string      `json:"kind"` // the queue's Go type
	Keys   []queuedKey `json:"keys"` // a DeltaFIFO's keys, in Pop order
	Deltas []delta     `json:"deltas,omitempty"`
	Paused bool        `json:"paused"`
	Steps  int         `json:"steps"` // steps granted, not yet taken
	Pops   int64       `json:"pops"`
}

// pacedQueue wraps the informer's queue.
type pacedQueue struct {
	informer.Queue
	feed *feed
	// cache is the informer's Indexer, read after each Pop.
	cache informer.Indexer
	// bookmarkDeltas says whether the queue turns bookmarks into deltas.
	bookmarkDeltas bool

	// writeMu orders the writes, so that the mirror has the queue's order.
	writeMu sync.Mutex

	mu     sync.Mutex
	cond   sync.Cond
	paused bool
	steps  int
	closed bool
	pops   int64
	mirror []informer.Delta // a RealFIFO's deltas, oldest first
}

func newPacedQueue(q informer.Queue, f *feed, cache informer.Indexer, paused, bookmarkDeltas bool) *pacedQueue {
	p := &pacedQueue{Queue: q, feed: f, cache: cache, paused: paused, bookmarkDeltas: bookmarkDeltas}
	p.cond.L = &p.mu
	return p
}

// isDeltaFIFO reports whether the queue can be read directly.
func (p *pacedQueue) isDeltaFIFO() bool {
	_, ok := p.Queue.(*informer.DeltaFIFO)
	return ok
}

// Add records the Reflector's Add.
func (p *pacedQueue) Add(obj any) error {
	return p.write("Add", obj, informer.Delta{Type: informer.Added, Object: obj}, p.Queue.Add)
}

// Update records the Reflector's Update.
func (p *pacedQueue) Update(obj any) error {
	return p.write("Update", obj, informer.Delta{Type: informer.Updated, Object: obj}, p.Queue.Update)
}

// Delete records the Reflector's Delete.
func (p *pacedQueue) Delete(obj any) error {
	return p.write("Delete", obj, informer.Delta{Type: informer.Deleted, Object: obj}, p.Queue.Delete)
}

// Replace records a relist's Replace: the whole list at once.
func (p *pacedQueue) Replace(list []any, rv string) error {
	d := informer.Delta{Type: informer.ReplacedAll, Object: informer.ReplacedAllInfo{ResourceVersion: rv, Objects: list}}
	return p.write("Replace", informer.ReplacedAllInfo{ResourceVersion: rv, Objects: list}, d,
		func(any) error { return p.Queue.Replace(list, rv) })
}

// Resync records a resync.
func (p *pacedQueue) Resync() error {
	d := informer.Delta{Type: informer.SyncAll, Object: informer.SyncAllInfo{}}
	return p.write("Resync", nil, d, func(any) error { return p.Queue.Resync() })
}

// Bookmark hands a bookmark on to a queue that wants bookmarks (a RealFIFO);
// for any other queue it does what the Reflector would have done: nothing.
func (p *pacedQueue) Bookmark(rv string) error {
	b, ok := p.Queue.(informer.ReflectorBookmarkStore)
	if !ok {
		return nil
	}
	d := informer.Delta{Type: informer.Bookmark, Object: informer.BookmarkInfo{ResourceVersion: rv}}
	if !p.bookmarkDeltas {
		return b.Bookmark(rv)
	}
	return p.write("Bookmark", d.Object, d, func(any) error { return b.Bookmark(rv) })
}

// write records a write, then makes it: recorded after, it could follow
// the Pop of what it queued in the feed. A RealFIFO's mirror gets the delta
// the write queues.
func (p *pacedQueue) write(op string, obj any, d informer.Delta, do func(any) error) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	key, rv := describeObject(obj)
	text := ""
	if info, ok := obj.(informer.ReplacedAllInfo); ok {
		rv, text = info.ResourceVersion, fmt.Sprintf("%d objects", len(info.Objects))
	}
	p.feed.add("queue", op, key, rv, text)
	mirrored := !p.isDeltaFIFO()
	if mirrored {
		p.mu.Lock()
		p.mirror = append(p.mirror, d)
		p.mu.Unlock()
	}
	err := do(obj)
	p.mu.Lock()
	if err != nil && mirrored {
		p.mirror = p.mirror[:len(p.mirror)-1] // nothing was queued
	}
	p.cond.Broadcast() // wake a Pop waiting for something queued
	p.mu.Unlock()
	if err != nil {
		p.feed.add("queue", op+" failed", "", "", err.Error())
	}
	return err
}

// queued reports whether anything waits; the caller holds p.mu.
func (p *pacedQueue) queuedLocked() bool {
	if f, ok := p.Queue.(*informer.DeltaFIFO); ok {
		return len(f.ListKeys()) > 0
	}
	return len(p.mirror) > 0
}

// gate waits until something is queued and, in step mode, for a step.
// Waiting here, not in the queue's own Pop, is what lets step mode start at
// any time: a consumer blocked inside the queue's Pop would take the next
// item without a step.
func (p *pacedQueue) gate() {
	p.mu.Lock()
	for !p.closed && (p.paused && p.steps == 0 || !p.queuedLocked()) {
		p.cond.Wait()
	}
	if p.paused && p.steps > 0 {
		p.steps--
	}
	p.mu.Unlock()
	p.feed.poke()
}

// Pop pops one item when the gate opens.
func (p *pacedQueue) Pop(process informer.PopProcessFunc) (any, error) {
	p.gate()
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
	p.gate()
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

// processed records a Pop, runs its processing, and records where each key
// went: the cache was written before any handler was told, though the
// handlers' goroutines may already be at work (and in the feed).
func (p *pacedQueue) processed(op string, deltas informer.Deltas, process func() error) error {
	p.mu.Lock()
	p.pops++
	p.mu.Unlock()
	key := ""
	if p.isDeltaFIFO() && len(deltas) > 0 {
		key, _ = describeObject(deltas.Newest().Object)
	}
	p.feed.add("queue", op, key, "", describeDeltas(deltas))
	err := process()
	seen := map[string]bool{}
	for _, d := range deltas {
		k, _ := describeObject(d.Object)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		if obj, exists, _ := p.cache.GetByKey(k); exists {
			_, rv := describeObject(obj)
			p.feed.add("cache", "cache: stored", k, rv, "")
		} else {
			p.feed.add("cache", "cache: deleted", k, "", "")
		}
	}
	return err
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

// step lets exactly one more Pop through; false when not paused.
func (p *pacedQueue) step() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.paused {
		return false
	}
	p.steps++
	p.cond.Broadcast()
	return true
}

func (p *pacedQueue) snapshot() queueState {
	p.mu.Lock()
	s := queueState{Kind: fmt.Sprintf("%T", p.Queue), Paused: p.paused, Steps: p.steps, Pops: p.pops}
	if !p.isDeltaFIFO() {
		s.Deltas = deltasOf(p.mirror)
	}
	p.mu.Unlock()
	if f, ok := p.Queue.(*informer.DeltaFIFO); ok {
		s.Keys = queuedKeys(f)
	}
	return s
}

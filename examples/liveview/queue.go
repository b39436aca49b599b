// queue.go holds the live view's queue wrapper, installed through
// SharedIndexInformerOptions.WrapQueue: it records what the Reflector writes
// into the queue (Add, Update, Delete, Replace, Bookmark) and every Pop with
// what it handed out, shows what is queued, and, in step mode, holds the
// consumer back so that each step lets exactly one Pop (or PopBatch) through.
//
// The Pops, the gate and the cache lines are in queue_pop.go.
//
// A DeltaFIFO is read through QueuedDeltas. A RealFIFO has no
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
	Kind   string      `json:"kind"`   // the queue's Go type
	Keys   []queuedKey `json:"keys"`   // a DeltaFIFO's keys, in Pop order
	Real   bool        `json:"real"`   // a RealFIFO: Deltas holds its contents
	Deltas []delta     `json:"deltas"` // a RealFIFO's deltas, in Pop order
	Next   int         `json:"next"`   // how many deltas (RealFIFO) or keys the next Pop takes
	Paused bool        `json:"paused"`
	Steps  int         `json:"steps"` // steps granted, not yet taken
	Pops   int64       `json:"pops"`
	// BookmarkPops counts the Pops that took a RealFIFO's
	// Bookmark alone: they change neither the cache nor the handlers.
	BookmarkPops int64    `json:"bookmarkPops"`
	Popped       []popped `json:"popped"` // the last Pops, newest last: what just left the queue
}

// popped is one Pop (or PopBatch) and the deltas it handed out.
type popped struct {
	At     string  `json:"at"`
	Op     string  `json:"op"` // Pop or PopBatch
	Deltas []delta `json:"deltas"`
}

// maxPopped is how many Pops the queue panel shows.
const maxPopped = 4

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
	// procMu is held while a Pop's items are processed (the cache written,
	// the handlers handed their calls): registerLocked holds it to add a
	// handler and its tally at the same point (backlog.go).
	procMu sync.Mutex

	mu     sync.Mutex
	cond   sync.Cond
	paused bool
	steps  int
	closed bool
	pops   int64
	// bookmarkPops counts the Pops of a Bookmark alone.
	bookmarkPops int64
	mirror       []informer.Delta // a RealFIFO's deltas, oldest first
	popped       []popped         // the last maxPopped Pops, oldest first

	// cacheMu guards pendingCache: the cache lines of the Pop in progress,
	// written into the feed before the first handler call it causes.
	cacheMu      sync.Mutex
	pendingCache []cacheLine
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
	var m message
	if info, ok := obj.(informer.ReplacedAllInfo); ok {
		n := fmt.Sprint(len(info.Objects))
		m = msg("listObjects", n+" objects", "n", n)
	}
	if op == "Resync" {
		n := fmt.Sprint(len(p.cache.List()))
		m = msg("resyncObjects", "the cache's "+n+" objects", "n", n)
	}
	p.feed.addMsg("queue", op, key, rv, m)
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

func (p *pacedQueue) snapshot() queueState {
	p.mu.Lock()
	s := queueState{Kind: fmt.Sprintf("%T", p.Queue), Paused: p.paused, Steps: p.steps, Pops: p.pops, BookmarkPops: p.bookmarkPops}
	s.Popped = append([]popped{}, p.popped...)
	s.Deltas = []delta{}
	if !p.isDeltaFIFO() {
		s.Real, s.Deltas = true, p.countSyncAll(deltasOf(p.mirror))
		s.Next = nextBatch(s.Deltas)
	}
	p.mu.Unlock()
	s.Keys = []queuedKey{}
	if f, ok := p.Queue.(*informer.DeltaFIFO); ok {
		s.Keys = queuedKeys(f)
		s.Next = min(1, len(s.Keys))
	}
	return s
}

// countSyncAll gives each SyncAll delta in ds the number of objects it
// stands for: the cache's, since a resync hands every cached object on.
func (p *pacedQueue) countSyncAll(ds []delta) []delta {
	for i := range ds {
		if ds[i].Type == string(informer.SyncAll) {
			ds[i].N = len(p.cache.List())
		}
	}
	return ds
}

// queue.go holds the live view's queue wrapper, installed through
// SharedIndexInformerOptions.WrapQueue: it records what the Reflector writes
// into the queue (Add, Update, Delete, Replace) and every Pop with the
// Deltas it handed out, shows the queued keys with their Deltas, and, in
// step mode, holds the consumer back so that each step Pops exactly one item.
//
// client-go counterpart: none; the queue it wraps is cache.DeltaFIFO.
// Tutorial: 004 §2.2 (DeltaFIFO: items map + queue), §4.2 (the run loop's Pop).

package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/learn-k8s/informer"
)

// delta is one Delta as the page shows it.
type delta struct {
	Type      string `json:"type"`
	RV        string `json:"rv,omitempty"`
	Tombstone bool   `json:"tombstone,omitempty"`
}

// queuedKey is one queued key and its Deltas, oldest first.
type queuedKey struct {
	Key    string  `json:"key"`
	Deltas []delta `json:"deltas"`
}

// queueState is the queue panel.
type queueState struct {
	Kind   string      `json:"kind"` // the queue's Go type
	Keys   []queuedKey `json:"keys"`
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

	mu     sync.Mutex
	cond   sync.Cond
	paused bool
	steps  int
	closed bool
	pops   int64
}

func newPacedQueue(q informer.Queue, f *feed, cache informer.Indexer, paused bool) *pacedQueue {
	p := &pacedQueue{Queue: q, feed: f, cache: cache, paused: paused}
	p.cond.L = &p.mu
	return p
}

// Add records the Reflector's Add.
func (p *pacedQueue) Add(obj any) error { return p.write("Add", obj, p.Queue.Add) }

// Update records the Reflector's Update.
func (p *pacedQueue) Update(obj any) error { return p.write("Update", obj, p.Queue.Update) }

// Delete records the Reflector's Delete.
func (p *pacedQueue) Delete(obj any) error { return p.write("Delete", obj, p.Queue.Delete) }

// write records a write, then makes it: recorded after, it could follow the
// Pop of what it queued in the feed.
func (p *pacedQueue) write(op string, obj any, do func(any) error) error {
	key, rv := keyAndVersion(obj)
	p.feed.add("queue", op, key, rv, "")
	err := do(obj)
	p.done(op, err)
	return err
}

// done wakes a waiting Pop and records a failed write.
func (p *pacedQueue) done(op string, err error) {
	p.wake()
	if err != nil {
		p.feed.add("queue", op+" failed", "", "", err.Error())
	}
}

// Replace records a relist's Replace: the whole list at once.
func (p *pacedQueue) Replace(list []any, rv string) error {
	p.feed.add("queue", "Replace", "", rv, fmt.Sprintf("%d objects", len(list)))
	err := p.Queue.Replace(list, rv)
	p.done("Replace", err)
	return err
}

// Resync records a resync.
func (p *pacedQueue) Resync() error {
	p.feed.add("queue", "Resync", "", "", "")
	err := p.Queue.Resync()
	p.done("Resync", err)
	return err
}

// wake tells a waiting Pop that something was queued.
func (p *pacedQueue) wake() {
	p.mu.Lock()
	p.cond.Broadcast()
	p.mu.Unlock()
}

// Pop waits until something is queued and, in step mode, for a step; then
// pops one item. Waiting here, not in the queue's own Pop, is what lets step
// mode start at any time: a consumer blocked inside the queue's Pop would
// take the next item without a step.
func (p *pacedQueue) Pop(process informer.PopProcessFunc) (any, error) {
	p.mu.Lock()
	for !p.closed && (p.paused && p.steps == 0 || len(p.Queue.ListKeys()) == 0) {
		p.cond.Wait()
	}
	if p.paused && p.steps > 0 {
		p.steps--
	}
	p.mu.Unlock()
	p.feed.poke()
	return p.Queue.Pop(func(item any, isInInitialList bool) error {
		deltas, _ := item.(informer.Deltas)
		if len(deltas) == 0 {
			return process(item, isInInitialList)
		}
		key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(deltas.Newest().Object)
		p.mu.Lock()
		p.pops++
		p.mu.Unlock()
		p.feed.add("queue", "Pop", key, "", describeDeltas(deltas))
		err := process(item, isInInitialList)
		// Where it went: the cache was written before any handler was told;
		// the handlers' goroutines may already be at work (and in the feed).
		if obj, exists, _ := p.cache.GetByKey(key); exists {
			_, rv := keyAndVersion(obj)
			p.feed.add("cache", "cache: stored", key, rv, "")
		} else {
			p.feed.add("cache", "cache: deleted", key, "", "")
		}
		return err
	})
}

// Close closes the queue and releases a Pop waiting for a step.
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
	p.mu.Unlock()
	s.Keys = queuedKeys(p.Queue)
	return s
}

// queuedKeys lists the queue's keys with their Deltas, in Pop order.
func queuedKeys(q informer.Queue) []queuedKey {
	fifo, ok := q.(*informer.DeltaFIFO)
	if !ok {
		return nil
	}
	out := []queuedKey{}
	for _, key := range fifo.ListKeys() {
		item, exists, _ := fifo.GetByKey(key)
		if !exists {
			continue // popped meanwhile
		}
		out = append(out, queuedKey{Key: key, Deltas: deltasOf(item.(informer.Deltas))})
	}
	return out
}

func deltasOf(ds informer.Deltas) []delta {
	out := make([]delta, len(ds))
	for i, d := range ds {
		_, out[i].RV = keyAndVersion(d.Object)
		_, out[i].Tombstone = d.Object.(informer.DeletedFinalStateUnknown)
		out[i].Type = string(d.Type)
	}
	return out
}

// describeDeltas renders Deltas as "Added@5 Updated@6 Deleted(tombstone)".
func describeDeltas(ds informer.Deltas) string {
	parts := make([]string, len(ds))
	for i, d := range deltasOf(ds) {
		parts[i] = d.Type
		if d.RV != "" {
			parts[i] += "@" + d.RV
		}
		if d.Tombstone {
			parts[i] += "(DeletedFinalStateUnknown)"
		}
	}
	return strings.Join(parts, " ")
}

// keyAndVersion returns obj's key and resource version; a tombstone's
// version is its last known object's.
func keyAndVersion(obj any) (key, rv string) {
	key, _ = informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if o, ok := obj.(informer.Object); ok && o != nil {
		rv = o.GetResourceVersion()
	}
	return key, rv
}

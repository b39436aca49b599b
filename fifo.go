// fifo.go holds the vocabulary of change from the Reflector through the queue to the informer
// (Delta, Deltas, the DeletedFinalStateUnknown tombstone, what queues share), then the DeltaFIFO,
// the queue from the Reflector to the run loop.
// client-go counterpart: tools/cache delta_fifo.go (the types, then the DeltaFIFO).
// Tutorial: 004 §2.2 (items map + queue, dedup), §4.4 (resync); 000 §3.1, §4.2 (tombstones).

package informer

import (
	"errors"
	"fmt"
	"sync"
)

// DeltaType says what happened to an object.
type DeltaType string

// The changes a queue records about one object (realfifo.go adds three for the whole queue).
const (
	Added    DeltaType = "Added"    // created (a watch ADDED event)
	Updated  DeltaType = "Updated"  // changed (a watch MODIFIED event)
	Deleted  DeltaType = "Deleted"  // gone; the last state known, or a DeletedFinalStateUnknown
	Replaced DeltaType = "Replaced" // in a relist, with EmitDeltaTypeReplaced (else Sync)
	Sync     DeltaType = "Sync"     // re-delivered by a resync or relist, maybe unchanged
)

// Delta is one change: what happened, and the object after it (before it, for Deleted).
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is the ordered list of changes queued for one key, oldest first.
type Deltas []Delta

// Oldest returns the first delta, or nil if there is none.
func (d Deltas) Oldest() *Delta {
	if len(d) > 0 {
		return &d[0]
	}
	return nil
}

// Newest returns the last delta, or nil if there is none.
func (d Deltas) Newest() *Delta {
	if n := len(d); n > 0 {
		return &d[n-1]
	}
	return nil
}

// DeletedFinalStateUnknown is the tombstone OnDelete gets when a relist finds an object
// gone whose deletion the watch missed. Obj is the cache's last state: maybe stale or nil.
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

type (
	// KeyLister lists the keys of the objects something holds.
	KeyLister interface{ ListKeys() []string }
	// KeyGetter looks an object up by its key.
	KeyGetter interface {
		GetByKey(key string) (value any, exists bool, err error)
	}
	// KeyListerGetter is what a DeltaFIFO needs of the objects its consumer knows (its Indexer).
	KeyListerGetter interface {
		KeyLister
		KeyGetter
	}
	// TransformFunc changes an object before it is queued, typically to drop fields nobody
	// reads. It may change the object in place, and runs under the queue's lock.
	TransformFunc func(obj any) (any, error)
	// PopProcessFunc handles one popped item; isInInitialList is true while the first
	// Replace's items are popped.
	PopProcessFunc func(obj any, isInInitialList bool) error
)

var (
	// ErrFIFOClosed is what Pop returns once the queue is closed and empty.
	ErrFIFOClosed = errors.New("DeltaFIFO: queue is closed")
	// ErrZeroLengthDeltasObject is the cause of KeyOf's error for an empty Deltas.
	ErrZeroLengthDeltasObject = errors.New("an empty Deltas has no key")
)

// DeltaFIFOOptions configures NewDeltaFIFOWithOptions. Every field is optional.
type DeltaFIFOOptions struct {
	KeyFunction           KeyFunc         // names objects; MetaNamespaceKeyFunc when nil
	KnownObjects          KeyListerGetter // what the consumer holds (its Indexer)
	EmitDeltaTypeReplaced bool            // Replace queues Replaced deltas, not Sync
	Transformer           TransformFunc   // changes each object entering, except tombstones
}

// DeltaFIFO is a queue of keys in first-queued order, each with its object's Deltas since
// its last Pop. It merges only two deletions in a row, and never compares resource versions.
type DeltaFIFO struct {
	lock                   sync.RWMutex      // guards every field below
	cond                   sync.Cond         // on lock: wakes Pop when a key is queued or the queue closes
	items                  map[string]Deltas // never empty; the keys are those of queue
	queue                  []string          // the keys, in Pop order
	populated              bool              // set by the first Add, Update, Delete or Replace
	initialPopulationCount int               // keys of the first Replace not yet popped
	closed                 bool
	keyFunc                KeyFunc
	knownObjects           KeyListerGetter
	emitDeltaTypeReplaced  bool
	transformer            TransformFunc
}

// NewDeltaFIFOWithOptions returns an empty DeltaFIFO configured by opts.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{items: map[string]Deltas{}, keyFunc: opts.KeyFunction, knownObjects: opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced, transformer: opts.Transformer}
	f.cond.L = &f.lock
	return f
}

// KeyOf returns obj's key, also for a Deltas (its newest object's) or a tombstone.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if t, ok := obj.(DeletedFinalStateUnknown); ok {
		return t.Key, nil
	}
	return f.keyFunc(obj)
}

// Add and Update queue an Added or an Updated delta for obj.
func (f *DeltaFIFO) Add(obj any) error    { return f.add(Added, obj) }
func (f *DeltaFIFO) Update(obj any) error { return f.add(Updated, obj) }

func (f *DeltaFIFO) add(action DeltaType, obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, err := f.queueActionLocked(action, obj)
	return err
}

// Delete queues a Deleted delta for obj, unless its key is neither queued nor known.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, queued := f.items[key]
	known, lookupErr := false, error(nil)
	if f.knownObjects != nil {
		_, known, lookupErr = f.knownObjects.GetByKey(key)
	}
	if !queued && !known && lookupErr == nil { // a failed lookup cannot tell: queue it
		return nil
	}
	_, err = f.queueActionLocked(Deleted, obj)
	return err
}

// queueActionLocked appends a delta for obj, transformed unless it is a tombstone, and returns its key.
func (f *DeltaFIFO) queueActionLocked(action DeltaType, obj any) (string, error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	if _, isTombstone := obj.(DeletedFinalStateUnknown); f.transformer != nil && !isTombstone {
		if obj, err = f.transformer(obj); err != nil {
			return "", fmt.Errorf("transforming %q: %w", key, err)
		}
	}
	f.appendLocked(key, Delta{Type: action, Object: obj})
	return key, nil
}

// appendLocked adds d to key's Deltas, queueing a new key, and wakes Pop. Of two deletions in a
// row (by the watch and a relist) it keeps the older, unless a tombstone (client-go's dedupDeltas).
func (f *DeltaFIFO) appendLocked(key string, d Delta) {
	deltas, queued := f.items[key]
	if !queued {
		f.queue = append(f.queue, key)
	}
	if last := deltas.Newest(); last != nil && last.Type == Deleted && d.Type == Deleted {
		if _, lastIsTombstone := last.Object.(DeletedFinalStateUnknown); lastIsTombstone {
			*last = d
		}
	} else {
		f.items[key] = append(deltas, d)
	}
	f.cond.Broadcast()
}

// Pop waits for a key, removes the first, and returns its Deltas and process's error on
// them; a closed queue is drained, then ErrFIFOClosed. process runs under the lock, as in
// client-go, so the cache is updated before Delete, Replace or Resync read it: it must be
// quick, and must not call the queue.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.queue) == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList, key := !f.hasSyncedLocked(), f.queue[0]
	f.queue = f.queue[1:]
	var item any = f.items[key]
	delete(f.items, key)
	if len(f.queue) == 0 { // drained: start afresh, as a Go map never shrinks
		f.items, f.queue = map[string]Deltas{}, nil
	}
	f.initialPopulationCount = max(0, f.initialPopulationCount-1)
	if process == nil {
		return item, nil
	}
	return item, process(item, isInInitialList)
}

// Replace records a full relist: a Sync (or Replaced) delta per object, then a tombstone
// per missing key that is queued (holding its last object) or known (the consumer's copy).
// As in client-go, a bad object ends it, unpopulated.
func (f *DeltaFIFO) Replace(list []any, _ string) error {
	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	listed := make(map[string]bool, len(list))
	for _, obj := range list {
		key, err := f.queueActionLocked(action, obj)
		if err != nil {
			return err
		}
		listed[key] = true
	}
	for _, key := range f.queue { // not the map: a predictable order
		if !listed[key] {
			last := f.items[key].Newest().Object
			if t, ok := last.(DeletedFinalStateUnknown); ok {
				last = t.Obj
			}
			f.appendLocked(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: last}})
		}
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if !listed[key] && len(f.items[key]) == 0 {
				obj, exists, err := f.knownObjects.GetByKey(key)
				if err != nil || !exists {
					obj = nil
				}
				f.appendLocked(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: obj}})
			}
		}
	}
	if !f.populated { // every key queued now is listed or a tombstone: the initial list
		f.populated = true
		f.initialPopulationCount = len(f.queue)
	}
	return nil
}

// Resync queues a Sync delta for every known object with nothing queued.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, k := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(k)
		if err != nil || !exists {
			continue // gone since ListKeys
		}
		key, err := f.KeyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		if len(f.items[key]) == 0 {
			f.appendLocked(key, Delta{Type: Sync, Object: obj})
		}
	}
	return nil
}

// HasSynced reports whether the first Replace's keys are popped (or a write came first).
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.hasSyncedLocked()
}

func (f *DeltaFIFO) hasSyncedLocked() bool { return f.populated && f.initialPopulationCount == 0 }

// Close wakes every waiting Pop; Pop returns ErrFIFOClosed once the queue is empty.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

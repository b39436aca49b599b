// fifo.go holds the DeltaFIFO: the queue between the Reflector (the producer)
// and the informer's run loop (the consumer). Every key is queued once; what
// happened to it while it waited accumulates as Deltas, oldest first.
// Replace and Resync, which compare the queue with a whole set of objects,
// are in fifo_relist.go.
//
// client-go counterpart: k8s.io/client-go/tools/cache delta_fifo.go
// (DeltaFIFO, DeltaFIFOOptions, KeyListerGetter, TransformFunc).
//
// Tutorial: 004 §2.2 (items map + queue, dedup), §4.4 (resync); 000 §3.1 and
// §4.2 (what is really deduplicated, and tombstones for missed deletions).

package informer

import (
	"errors"
	"fmt"
	"sync"
)

// ErrFIFOClosed is what Pop returns once the queue is closed and empty.
var ErrFIFOClosed = errors.New("DeltaFIFO: queue is closed")

// ErrZeroLengthDeltasObject is the cause inside the KeyError that KeyOf
// returns for an empty Deltas: an empty Deltas names no object.
var ErrZeroLengthDeltasObject = errors.New("an empty Deltas has no key")

// DeltaFIFOOptions configures NewDeltaFIFOWithOptions. Every field is optional.
type DeltaFIFOOptions struct {
	// KeyFunction names objects; MetaNamespaceKeyFunc when nil.
	KeyFunction KeyFunc
	// KnownObjects is what the consumer already holds (usually the
	// informer's Indexer). Delete, Replace and Resync consult it. When nil,
	// Replace cannot report the deletion of an object that is no longer queued.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace queue Replaced deltas; when false
	// it queues Sync, as client-go did before Replaced existed.
	EmitDeltaTypeReplaced bool
	// Transformer, when set, is applied to every object that enters through
	// Add, Update, Delete or Replace; never to a tombstone, nor to the Sync
	// deltas of Resync (those objects came out of the cache, transformed).
	Transformer TransformFunc
}

// DeltaFIFO is a queue of keys, each holding the Deltas that happened to its
// object since it was last popped. It is a Store, so the Reflector can write
// into it; the consumer calls Pop. Pop hands out keys in the order they were
// first queued, with everything that happened to each.
//
// The only deltas it merges are two Deleted ones in a row. It never compares
// resource versions: they are opaque strings.
type DeltaFIFO struct {
	// lock guards every field below; cond (on lock) wakes Pop when a key is
	// queued or the queue is closed.
	lock sync.RWMutex
	cond sync.Cond

	// items maps each queued key to its Deltas. Invariant: a key is in items
	// exactly when it is in queue, and its Deltas are never empty.
	items map[string]Deltas
	// queue holds the keys in the order Pop returns them, each once.
	queue []string
	// longest is the most keys queued since the queue was last empty.
	longest int

	// populated is set by the first Add, Update, Delete or Replace.
	populated bool
	// initialPopulationCount is how many keys of the first Replace are
	// still waiting to be popped. HasSynced waits for it to reach zero.
	initialPopulationCount int

	closed bool

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool
	transformer           TransformFunc
}

var _ Queue = (*DeltaFIFO)(nil)

// NewDeltaFIFOWithOptions returns an empty DeltaFIFO configured by opts.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
	}
	f.cond.L = &f.lock
	return f
}

// KeyOf returns obj's key. Beyond the key function, it understands a Deltas
// (the key of its newest object) and a DeletedFinalStateUnknown (its Key).
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

// Add queues an Added delta for obj.
func (f *DeltaFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta for obj.
func (f *DeltaFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta for obj, unless its key is neither queued
// nor known: then the deletion was already reported (by a Replace, say) and
// Delete does nothing.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, queued := f.items[key]
	known := false
	if f.knownObjects != nil {
		var lookupErr error
		_, known, lookupErr = f.knownObjects.GetByKey(key)
		// If the lookup fails we cannot tell; queueing is the safe side.
		known = known || lookupErr != nil
	}
	if !queued && !known {
		return nil
	}
	return f.queueActionLocked(Deleted, obj)
}

// queueActionLocked appends a delta of type action for obj, transformed.
// The caller holds the lock.
func (f *DeltaFIFO) queueActionLocked(action DeltaType, obj any) error {
	key, obj, err := f.prepare(obj)
	if err != nil {
		return err
	}
	f.appendLocked(key, Delta{Type: action, Object: obj})
	return nil
}

// prepare computes obj's key, then runs the transformer unless obj is a
// tombstone (its object went through the transformer when it entered).
// Resync does not call it: its objects come out of the consumer's cache,
// and were transformed on their way in.
func (f *DeltaFIFO) prepare(obj any) (string, any, error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return "", nil, KeyError{Obj: obj, Err: err}
	}
	if _, isTombstone := obj.(DeletedFinalStateUnknown); f.transformer != nil && !isTombstone {
		if obj, err = f.transformer(obj); err != nil {
			return "", nil, fmt.Errorf("transforming %q: %w", key, err)
		}
	}
	return key, obj, nil
}

// appendLocked adds d to key's Deltas, queueing the key if it is new, and
// wakes a waiting Pop. The caller holds the lock.
func (f *DeltaFIFO) appendLocked(key string, d Delta) {
	old, queued := f.items[key]
	if !queued {
		f.queue = append(f.queue, key)
		f.longest = max(f.longest, len(f.queue))
	}
	f.items[key] = dedupDeltas(old, d)
	f.cond.Broadcast()
}

// dedupDeltas returns old with d appended, except when both d and the last
// delta of old are deletions: the same deletion reported twice (by the watch
// and by a relist). Then one is kept: the older, unless the older is only a
// tombstone and the newer carries the real final state.
// The result is a new slice, never one that Get or Pop handed out.
func dedupDeltas(old Deltas, d Delta) Deltas {
	out := make(Deltas, len(old), len(old)+1)
	copy(out, old)
	if last := out.Newest(); last != nil && last.Type == Deleted && d.Type == Deleted {
		if _, lastIsTombstone := last.Object.(DeletedFinalStateUnknown); lastIsTombstone {
			*last = d
		}
		return out
	}
	return append(out, d)
}

// Transformer returns the transform function the queue applies.
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// Pop waits until a key is queued or the queue is closed, removes the first
// key and calls process with its Deltas and whether it belongs to the initial
// list. It returns the Deltas and process's error. Once the queue is closed,
// Pop still drains what is queued, then returns ErrFIFOClosed.
//
// process runs while the queue is locked: the one place in this package
// where a lock is held across a call to other code. It is deliberate, as in
// client-go: the consumer updates its cache (the KnownObjects) before any
// Add, Delete, Replace or Resync can look at it, so they never see a cache
// that lags behind the queue. So process must be quick, and must not call
// back into the queue.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.queue) == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := !f.hasSyncedLocked()
	key := f.queue[0]
	f.queue[0] = "" // let the string be collected
	if len(f.queue) == 1 {
		// Keep the slot: re-slicing past the last key would leave no
		// capacity, and the next key (usually the next event) would need
		// a new array.
		f.queue = f.queue[:0]
	} else {
		f.queue = f.queue[1:]
	}
	deltas := f.items[key]
	delete(f.items, key)
	if len(f.queue) == 0 {
		f.releaseDrainedLocked()
	}
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
	}
	var item any = deltas // boxed once, not once per use: Pop runs for every event
	if process == nil {
		return item, nil
	}
	return item, process(item, isInInitialList)
}

// releaseDrainedLocked drops the map and array of a queue that has drained
// after holding many keys (a list): Go maps never shrink, and they kept
// about 90 bytes per listed object. A small queue keeps them for the events.
func (f *DeltaFIFO) releaseDrainedLocked() {
	if f.longest > 1024 {
		f.items, f.queue = map[string]Deltas{}, nil
	}
	f.longest = 0
}

// List returns the newest object of every queued key.
func (f *DeltaFIFO) List() []any {
	f.lock.RLock()
	defer f.lock.RUnlock()
	list := make([]any, 0, len(f.items))
	for _, key := range f.queue {
		list = append(list, f.items[key].Newest().Object)
	}
	return list
}

// ListKeys returns the queued keys, in the order Pop will return them.
func (f *DeltaFIFO) ListKeys() []string {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return append([]string(nil), f.queue...)
}

// Get returns a copy of the Deltas queued for obj's key.
func (f *DeltaFIFO) Get(obj any) (item any, exists bool, err error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return nil, false, KeyError{Obj: obj, Err: err}
	}
	return f.GetByKey(key)
}

// GetByKey returns a copy of the Deltas queued for key. The slice is a copy;
// the objects in it are shared and must not be changed.
func (f *DeltaFIFO) GetByKey(key string) (item any, exists bool, err error) {
	f.lock.RLock()
	defer f.lock.RUnlock()
	d, exists := f.items[key]
	if !exists {
		return nil, false, nil
	}
	return append(Deltas(nil), d...), true, nil
}

// HasSynced reports whether the initial list has been delivered: every key
// of the first Replace has been popped, or an Add, Update or Delete came
// before any Replace.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.hasSyncedLocked()
}

func (f *DeltaFIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Close closes the queue and wakes every waiting Pop. Writes are still
// accepted; Pop returns ErrFIFOClosed once the queue is empty.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.closed
}

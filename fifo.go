// fifo.go holds the DeltaFIFO, the queue between the Reflector and the
// informer in client-go up to 1.32 (and in the tutorial): one entry per
// key, holding that object's Deltas in order, popped in the order the keys
// were first queued. The kinds of change it records are in delta.go.
//
// client-go counterpart: tools/cache delta_fifo.go (DeltaFIFO,
// DeltaFIFOOptions, NewDeltaFIFOWithOptions, dedupDeltas, isDeletionDup).
//
// Tutorial: 004 §2.2 (an items map plus a queue of keys, dedup), §4.4
// (resync); 000 §3.1 (deltas, and why versions are not compared), §4.2
// (tombstones for missed deletions).

package informer

import (
	"errors"
	"fmt"
	"sync"
)

// KeyLister lists the keys of the objects something holds, as Store does.
type KeyLister interface {
	ListKeys() []string
}

// KeyGetter looks an object up by its key, as Store does.
type KeyGetter interface {
	GetByKey(key string) (value any, exists bool, err error)
}

// KeyListerGetter is what a queue needs to know of the objects its consumer
// already holds (an informer's Indexer): Replace reads it to find deletions
// the watch missed, Delete to drop deletions of objects nobody knows, Resync
// to re-deliver what is held.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// TransformFunc changes an object before it is queued, typically to drop
// fields nobody reads so the cache holds less. It sees the object first, so
// it may change it in place. It runs under the queue's lock on every object
// that enters: keep it quick. It should be idempotent, as client-go asks:
// the streaming list of the second reading applies it twice to an object.
type TransformFunc func(obj any) (any, error)

// PopProcessFunc handles one popped item. isInInitialList is true while the
// items of the first Replace (the initial list) are being popped.
type PopProcessFunc func(obj any, isInInitialList bool) error

// ErrFIFOClosed is what Pop returns once the queue is closed and empty.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// ErrZeroLengthDeltasObject is the cause of KeyOf's error for an empty Deltas,
// which has no newest object to take a key from.
var ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")

// DeltaFIFOOptions configures NewDeltaFIFOWithOptions. Every field is optional.
type DeltaFIFOOptions struct {
	// KeyFunction names objects; MetaNamespaceKeyFunc when nil.
	KeyFunction KeyFunc
	// KnownObjects is what the consumer holds (an informer's Indexer). Without
	// it, Replace cannot tell which objects vanished, and Resync does nothing.
	KnownObjects KeyListerGetter
	// EmitDeltaTypeReplaced makes Replace queue Replaced deltas instead of
	// Sync, so a consumer can tell a relist from a resync. Informers set it.
	EmitDeltaTypeReplaced bool
	// Transformer changes each object that enters, except tombstones.
	Transformer TransformFunc
}

// DeltaFIFO is a queue of keys, each with the Deltas of its object since it
// was last popped. A key is queued once however many changes it gets, so a
// consumer that falls behind sees every change of an object at once, in
// order, and never two entries of one object.
//
// It merges nothing but two deletions in a row (see dedupDeltas), and it
// never compares resource versions: they are opaque strings that only the
// server may order.
type DeltaFIFO struct {
	// lock guards every field below it. cond, on lock, wakes a waiting Pop
	// when a key is queued or the queue is closed.
	lock sync.RWMutex
	cond sync.Cond

	// items holds each queued key's Deltas, oldest first. It has exactly the
	// keys of queue, and never an empty Deltas.
	items map[string]Deltas
	// queue is the keys, in the order Pop hands them out: first queued,
	// first popped.
	queue []string

	// populated is set by the first Add, Update, Delete or Replace.
	populated bool
	// initialPopulationCount counts the keys of the first Replace not yet
	// popped: HasSynced waits for it to reach zero.
	initialPopulationCount int
	closed                 bool

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter
	emitDeltaTypeReplaced bool
	transformer           TransformFunc
}

// NewDeltaFIFOWithOptions returns an empty DeltaFIFO. An informer's queue
// has KnownObjects and EmitDeltaTypeReplaced (see newQueueFIFO).
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

// KeyOf returns obj's key. obj may also be a Deltas (the key of its newest
// object) or a tombstone (its Key).
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

// Add queues an Added delta for obj, transformed (see TransformFunc). An
// object without a key is refused with a KeyError and nothing is queued.
func (f *DeltaFIFO) Add(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, err := f.queueActionLocked(Added, obj)
	return err
}

// Update is Add with an Updated delta.
func (f *DeltaFIFO) Update(obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	_, err := f.queueActionLocked(Updated, obj)
	return err
}

// Delete queues a Deleted delta for obj, unless nothing is queued for its
// key and the consumer does not know it: then a relist has already reported
// the deletion (with a tombstone), and a second report would be wrong.
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
	var lookupErr error
	if f.knownObjects != nil {
		_, known, lookupErr = f.knownObjects.GetByKey(key)
	}
	// A lookup that failed cannot tell: queue the deletion rather than lose it.
	if !queued && !known && lookupErr == nil {
		return nil
	}
	_, err = f.queueActionLocked(Deleted, obj)
	return err
}

// queueActionLocked appends a delta of type action for obj, transformed
// unless it is a tombstone (a tombstone's object came out of the cache,
// already transformed), and returns obj's key.
func (f *DeltaFIFO) queueActionLocked(action DeltaType, obj any) (string, error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	_, isTombstone := obj.(DeletedFinalStateUnknown)
	if f.transformer != nil && !isTombstone {
		obj, err = f.transformer(obj)
		if err != nil {
			return "", fmt.Errorf("transforming %q: %w", key, err)
		}
	}
	f.appendLocked(key, Delta{Type: action, Object: obj})
	return key, nil
}

// appendLocked adds d to key's Deltas, merging it with the delta before if
// both are deletions (dedupDeltas), queues key if it was not queued, and
// wakes a waiting Pop.
func (f *DeltaFIFO) appendLocked(key string, d Delta) {
	deltas, queued := f.items[key]
	if !queued {
		f.queue = append(f.queue, key)
	}
	f.items[key] = dedupDeltas(append(deltas, d))
	f.cond.Broadcast()
}

// dedupDeltas merges the last two deltas when they report the same deletion.
// The watch and a relist can both report one deletion: the watch with a
// DELETED event, the relist with a tombstone for an object no longer listed
// (Replace). Handlers must hear of a deletion once, so the two become one
// (isDeletionDup says which to keep). Nothing else is merged: two updates
// in a row are two changes, and the consumer gets both.
func dedupDeltas(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	if keep := isDeletionDup(&deltas[n-1], &deltas[n-2]); keep != nil {
		deltas[n-2] = *keep
		return deltas[:n-1]
	}
	return deltas
}

// isDeletionDup returns the delta to keep when newer and older are both
// deletions, or nil when they are not: the older one, which holds the
// object's real final state, unless it is only a tombstone (whose object may
// be stale), in which case the newer one.
func isDeletionDup(newer, older *Delta) *Delta {
	if newer.Type != Deleted || older.Type != Deleted {
		return nil
	}
	if _, ok := older.Object.(DeletedFinalStateUnknown); ok {
		return newer
	}
	return older
}

// Pop waits until a key is queued, removes the first one and calls process
// with its Deltas; it returns those Deltas and process's error. process runs
// with the queue locked, as in client-go (TestDeltaFIFOConcurrentAddAndPop),
// so that the consumer's cache is
// updated before Delete, Replace or Resync can read it: a relist never
// compares itself with a cache that is one Pop behind. So process must be
// quick and must not call the queue. A popped item is not queued again,
// even if process fails: only a relist delivers it anew (a resync re-sends
// what the cache holds, which may not be it).
//
// Once the queue is closed Pop still hands out what is queued; when it is
// empty, it returns ErrFIFOClosed.
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
	f.queue = f.queue[1:]
	deltas := f.items[key]
	delete(f.items, key)
	// Counted off before process runs, as client-go does
	// (TestDeltaFIFOHasSyncedAcrossTheInitialList); process runs under the
	// lock, so HasSynced cannot be asked in between.
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
	}
	if process == nil {
		return deltas, nil
	}
	return deltas, process(deltas, isInInitialList)
}

// Replace records a full relist: list is everything the server holds, as of
// the resource version (which a DeltaFIFO does not use). It queues a Sync
// delta (Replaced with EmitDeltaTypeReplaced) for each listed object. Then,
// for every key not listed, it queues a Deleted delta holding a tombstone:
// the object was deleted while the watch was not looking. The tombstone's
// object is the newest one queued for the key or, for a key with nothing
// queued, the one the consumer knows (KnownObjects).
//
// The first Replace marks the keys it queued as the initial list. An object
// without a key ends Replace at once, with what came before it queued and
// the queue not marked populated, as in client-go
// (TestDeltaFIFOReplaceFailingPartWay).
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

	// Keys queued but not listed: deleted since they were queued. Walk the
	// queue, not the map, so the tombstones come in a predictable order.
	for _, key := range f.queue {
		if listed[key] {
			continue
		}
		last := f.items[key].Newest().Object
		if t, ok := last.(DeletedFinalStateUnknown); ok {
			last = t.Obj // a tombstone never holds another tombstone
		}
		tombstone := DeletedFinalStateUnknown{Key: key, Obj: last}
		f.appendLocked(key, Delta{Type: Deleted, Object: tombstone})
	}

	// Keys the consumer knows, with nothing queued, not listed: deleted while
	// the watch was down. The tombstone holds the consumer's last copy.
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] || len(f.items[key]) > 0 {
				continue
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				obj = nil // gone since ListKeys: the deletion is still news
			}
			tombstone := DeletedFinalStateUnknown{Key: key, Obj: obj}
			f.appendLocked(key, Delta{Type: Deleted, Object: tombstone})
		}
	}

	if !f.populated {
		// Every key queued now is listed or a tombstone: the initial list.
		f.populated = true
		f.initialPopulationCount = len(f.queue)
	}
	return nil
}

// Resync queues a Sync delta for every object the consumer knows whose key
// has nothing queued. A key with deltas queued is skipped: what is queued is
// newer than the consumer's copy, and will reach the handlers anyway.
// Without KnownObjects it does nothing.
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

// HasSynced reports whether the initial list has been popped: the first
// Replace was called and every key it queued has been popped, or an Add,
// Update or Delete came before any Replace.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.hasSyncedLocked()
}

// hasSyncedLocked is HasSynced for a caller holding the lock.
func (f *DeltaFIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Close closes the queue and wakes every waiting Pop. Pop still hands out
// what is queued, then returns ErrFIFOClosed.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called; Pop may still have keys to
// hand out.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.RLock()
	defer f.lock.RUnlock()
	return f.closed
}

// Reading 2: what the streaming list reads, and a look inside for tools (ours).

// Transformer returns the transform function the queue applies (nil if
// none). The streaming list reads it (reflector_watchlist.go).
func (f *DeltaFIFO) Transformer() TransformFunc {
	return f.transformer
}

// QueuedDeltas returns what the queue holds without popping it: a copy of
// each queued key's Deltas (the objects are shared), in the order Pop would
// hand them out. It is ours, for tools that show the queue (the live view):
// client-go's DeltaFIFO has no way to look inside since v0.33 dropped List,
// ListKeys, Get and GetByKey.
func (f *DeltaFIFO) QueuedDeltas() []Deltas {
	f.lock.RLock()
	defer f.lock.RUnlock()
	out := make([]Deltas, len(f.queue))
	for i, key := range f.queue {
		out[i] = append(Deltas(nil), f.items[key]...)
	}
	return out
}

// End of reading 2.

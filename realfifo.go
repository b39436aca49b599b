// realfifo.go holds the RealFIFO: the queue client-go v0.37.2's shared
// informers run on (the DeltaFIFO of fifo.go is what they ran until 1.32).
// It keeps one Delta per notification, in the order they arrived, across
// all keys: nothing is merged per key. With AtomicEvents a relist is one
// ReplacedAll delta and a resync one SyncAll delta, so the consumer applies
// each in one step; bookmarks can travel through it as Bookmark deltas; and
// PopBatch hands out runs of consecutive deltas to be applied together.
//
// client-go counterpart: k8s.io/client-go/tools/cache the_real_fifo.go
// (RealFIFO, RealFIFOOptions, NewRealFIFOWithOptions, PopBatch,
// reconcileReplacement).
//
// Tutorial: 004 §2.2 (the queue between Reflector and informer); the
// walkthrough's Step03RealFIFO sets it beside the DeltaFIFO.

package informer

import (
	"errors"
	"sync"
)

// defaultBatchSize is the most deltas PopBatch hands out at once, as
// client-go's defaultBatchSize in the_real_fifo.go.
const defaultBatchSize = 1000

// RealFIFOOptions configures NewRealFIFOWithOptions. The fields depend on
// each other as in client-go: AtomicEvents forbids KnownObjects (the queue
// must not read the consumer's cache, so that it may be unlocked while the
// consumer writes it); without AtomicEvents, KnownObjects is required and
// UnlockWhileProcessing and EmitDeltaTypeBookmark are forbidden.
type RealFIFOOptions struct {
	// KeyFunction names objects; MetaNamespaceKeyFunc when nil.
	KeyFunction KeyFunc
	// KnownObjects is what the consumer holds; Replace and Resync read it
	// when AtomicEvents is off.
	KnownObjects KeyListerGetter
	// Transformer, when set, is applied to every object that enters
	// through Add, Update, Delete or Replace; never to a tombstone nor to
	// the objects of a resync (they came out of the cache, transformed).
	Transformer TransformFunc
	// AtomicEvents makes Replace queue one ReplacedAll and Resync one
	// SyncAll, instead of one delta per object.
	AtomicEvents bool
	// UnlockWhileProcessing lets Pop and PopBatch release the queue's lock
	// while the consumer processes what they popped, so the Reflector can
	// keep queueing. Only with AtomicEvents.
	UnlockWhileProcessing bool
	// EmitDeltaTypeBookmark makes Bookmark queue a Bookmark delta; without
	// it Bookmark does nothing. Only with AtomicEvents.
	EmitDeltaTypeBookmark bool
}

// validate applies client-go's rules between the options (checked in
// NewRealFIFOWithOptions, where client-go panics with "coding error").
func (o RealFIFOOptions) validate() error {
	if o.AtomicEvents {
		if o.KnownObjects != nil {
			return errors.New("RealFIFO: KnownObjects must not be set when AtomicEvents is true")
		}
		return nil
	}
	switch {
	case o.UnlockWhileProcessing:
		return errors.New("RealFIFO: UnlockWhileProcessing needs AtomicEvents")
	case o.KnownObjects == nil:
		return errors.New("RealFIFO: KnownObjects must be set when AtomicEvents is false")
	case o.EmitDeltaTypeBookmark:
		return errors.New("RealFIFO: EmitDeltaTypeBookmark needs AtomicEvents")
	}
	return nil
}

// RealFIFO is a queue of Deltas, one per notification, popped in the order
// they were queued. Unlike the DeltaFIFO it hands out every notification,
// including those of objects deleted since, and never reorders keys.
type RealFIFO struct {
	// lock guards every field below; cond (on lock) wakes Pop.
	lock sync.Mutex
	cond sync.Cond

	// items are the queued deltas, oldest first.
	items []Delta

	// populated is set by the first Add, Update, Delete or Replace.
	populated bool
	// initialPopulationCount is how many deltas of the first Replace are
	// still to be processed; HasSynced waits for it to reach zero.
	initialPopulationCount int
	closed                 bool

	// err is set when the options broke a rule; every call returns it.
	err error

	keyFunc               KeyFunc
	knownObjects          KeyListerGetter
	transformer           TransformFunc
	batchSize             int
	emitAtomicEvents      bool
	unlockWhileProcessing bool
	emitDeltaTypeBookmark bool
}

var _ QueueWithBatch = (*RealFIFO)(nil)

// NewRealFIFOWithOptions returns an empty RealFIFO configured by opts.
// Options that break the rules of RealFIFOOptions give a queue whose every
// call returns the error saying so (client-go panics instead).
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &RealFIFO{
		err:                   opts.validate(),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		transformer:           opts.Transformer,
		batchSize:             defaultBatchSize,
		emitAtomicEvents:      opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitDeltaTypeBookmark: opts.EmitDeltaTypeBookmark,
	}
	f.cond.L = &f.lock
	return f
}

// keyOf returns the key of obj, which may also be a Deltas, a Delta or a
// tombstone.
func (f *RealFIFO) keyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{Obj: obj, Err: ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(Delta); ok {
		obj = d.Object
	}
	if t, ok := obj.(DeletedFinalStateUnknown); ok {
		return t.Key, nil
	}
	return f.keyFunc(obj)
}

// Add queues an Added delta for obj.
func (f *RealFIFO) Add(obj any) error { return f.notify(Added, obj) }

// Update queues an Updated delta for obj.
func (f *RealFIFO) Update(obj any) error { return f.notify(Updated, obj) }

// Delete queues a Deleted delta for obj. Unlike the DeltaFIFO it does not
// ask whether the object is known: every notification is passed on.
func (f *RealFIFO) Delete(obj any) error { return f.notify(Deleted, obj) }

func (f *RealFIFO) notify(action DeltaType, obj any) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.err != nil {
		return f.err
	}
	f.populated = true
	return f.appendLocked(action, obj, true)
}

// appendLocked queues one delta for obj, after checking it has a key and,
// if transform is set and obj is no tombstone, running the transformer.
func (f *RealFIFO) appendLocked(action DeltaType, obj any, transform bool) error {
	if _, err := f.keyOf(obj); err != nil {
		return KeyError{Obj: obj, Err: err}
	}
	if _, isTombstone := obj.(DeletedFinalStateUnknown); transform && !isTombstone && f.transformer != nil {
		var err error
		if obj, err = f.transformer(obj); err != nil {
			return err
		}
	}
	f.pushLocked(Delta{Type: action, Object: obj})
	return nil
}

func (f *RealFIFO) pushLocked(d Delta) {
	f.items = append(f.items, d)
	f.cond.Broadcast()
}

// Bookmark queues a Bookmark delta carrying resourceVersion, when the queue
// was made with EmitDeltaTypeBookmark; otherwise it does nothing. The
// Reflector calls it for every watch bookmark.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.err != nil {
		return f.err
	}
	if f.emitDeltaTypeBookmark {
		f.pushLocked(Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	}
	return nil
}

// HasSynced reports whether the initial list has been processed: every
// delta queued by the first Replace has been popped and processed, or an
// Add, Update or Delete came before any Replace.
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.hasSyncedLocked()
}

func (f *RealFIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Close closes the queue and wakes every waiting Pop. Pop still drains what
// is queued, then returns ErrFIFOClosed.
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// waitLocked waits until a delta is queued. It returns ErrFIFOClosed once
// the queue is closed and empty, or the options' error.
func (f *RealFIFO) waitLocked() error {
	for len(f.items) == 0 {
		if f.err != nil {
			return f.err
		}
		if f.closed {
			return ErrFIFOClosed
		}
		f.cond.Wait()
	}
	return nil
}

// Pop waits for a delta, removes the oldest and calls process with it as a
// one-element Deltas, and whether it belongs to the initial list. It returns
// that Deltas and process's error. The initial list counts as processed only
// once process has returned, so HasSynced never runs ahead of the cache.
//
// process runs with the queue locked, unless the queue was made with
// UnlockWhileProcessing (see processLocked). Pop must have one caller at a
// time.
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	isInInitialList := !f.hasSyncedLocked()
	item := Deltas{f.items[0]}
	f.items[0] = Delta{} // let the object be collected
	f.items = f.items[1:]
	defer f.processedLocked(1)
	if process == nil {
		return item, nil
	}
	return item, f.processLocked(func() error { return process(item, isInInitialList) })
}

// processedLocked counts n popped deltas off the initial list.
func (f *RealFIFO) processedLocked(n int) {
	f.initialPopulationCount = max(f.initialPopulationCount-n, 0)
}

// processLocked runs process. With UnlockWhileProcessing, and while fewer
// than two batches are queued, it releases the lock meanwhile, so that the
// Reflector is not held up by the consumer; a longer queue keeps the lock,
// which holds the Reflector back until the consumer catches up.
func (f *RealFIFO) processLocked(process func() error) error {
	if f.unlockWhileProcessing && len(f.items) < 2*f.batchSize {
		f.lock.Unlock()
		defer f.lock.Lock()
	}
	return process()
}

// batchable reports whether deltas of type t may share a batch: the
// whole-queue deltas (ReplacedAll, SyncAll, Bookmark) are popped alone.
func batchable(t DeltaType) bool {
	switch t {
	case Added, Updated, Deleted, Replaced, Sync:
		return true
	}
	return false
}

// PopBatch waits for deltas and pops a run of them: up to batchSize
// consecutive deltas of distinct keys. The run ends before a second delta
// for a key already in it, before a whole-queue delta (which is popped alone
// when it comes first), after a delta whose key cannot be computed, and at
// the end of the initial list, so a batch never mixes initial and later
// deltas. A run of one goes to processSingle as a Deltas; a longer one to
// processBatch. Locking is as for Pop.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return err
	}
	isInInitialList := !f.hasSyncedLocked()
	n := f.batchLenLocked()
	batch := make([]Delta, n)
	copy(batch, f.items)
	clear(f.items[:n])
	f.items = f.items[n:]
	defer f.processedLocked(n)
	if n == 1 {
		return f.processLocked(func() error { return processSingle(Deltas(batch), isInInitialList) })
	}
	return f.processLocked(func() error { return processBatch(batch, isInInitialList) })
}

// batchLenLocked returns how many of the queued deltas form the next batch.
func (f *RealFIFO) batchLenLocked() int {
	limit := min(len(f.items), f.batchSize)
	if f.initialPopulationCount > 0 {
		limit = min(limit, f.initialPopulationCount)
	}
	if limit == 1 {
		return 1 // the usual case while watching: no key to compare
	}
	seen := make(map[string]struct{}, limit)
	for i, d := range f.items[:limit] {
		if !batchable(d.Type) {
			return max(i, 1)
		}
		key, err := f.keyOf(d)
		if err != nil {
			return i + 1
		}
		if _, dup := seen[key]; dup {
			return i
		}
		seen[key] = struct{}{}
	}
	return limit
}

// Transformer returns the transform function the queue applies.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

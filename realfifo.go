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

// The three deltas that stand for the whole queue rather than one object,
// which only a RealFIFO queues (DeltaType and the per-object ones are in
// fifo.go).
const (
	// ReplacedAll: a whole relist in one delta, emitted by a RealFIFO with
	// AtomicEvents instead of one Replaced per object. Its Object is a
	// ReplacedAllInfo.
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll: a whole resync in one delta (a RealFIFO with AtomicEvents):
	// the consumer re-delivers everything it holds. Its Object is a
	// SyncAllInfo.
	SyncAll DeltaType = "SyncAll"
	// Bookmark: the server said how far the stream has got, with no change
	// (a RealFIFO with EmitDeltaTypeBookmark). Its Object is a BookmarkInfo.
	Bookmark DeltaType = "Bookmark"
)

// ReplacedAllInfo is the Object of a ReplacedAll delta: the list of a Replace
// call, already transformed, and the resource version it was listed at.
type ReplacedAllInfo struct {
	// ResourceVersion is the version Replace was given.
	ResourceVersion string
	// Objects are the listed objects, in list order.
	Objects []any
}

// SyncAllInfo is the Object of a SyncAll delta; it carries nothing.
type SyncAllInfo struct{}

// BookmarkInfo is the Object of a Bookmark delta.
type BookmarkInfo struct {
	// ResourceVersion is the version of the bookmark.
	ResourceVersion string
}

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

// ReflectorBookmarkStore is told each watch bookmark's version (a RealFIFO).
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// bookmarkIfTaken is reflector_watch.go's bookmarkStore: it tells a ReflectorBookmarkStore.
func bookmarkIfTaken(store ReflectorStore, resourceVersion string) error {
	if b, ok := store.(ReflectorBookmarkStore); ok {
		return b.Bookmark(resourceVersion)
	}
	return nil
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
// UnlockWhileProcessing (see unlockWhileProcessingLocked). Pop must have
// one caller at a time.
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	isInInitialList := !f.hasSyncedLocked()
	var item any = Deltas{f.items[0]} // boxed once: Pop runs for every event
	f.dropLocked(1)
	defer f.processedLocked(1)
	if process == nil {
		return item, nil
	}
	if f.unlockWhileProcessingLocked() {
		defer f.lock.Lock() // runs before processedLocked: the count changes under the lock
	}
	return item, process(item, isInInitialList)
}

// dropLocked removes the n oldest deltas. Emptied, the queue keeps its array
// from the start, so the next notification needs no new one.
func (f *RealFIFO) dropLocked(n int) {
	clear(f.items[:n]) // let the objects be collected
	if n == len(f.items) {
		f.items = f.items[:0]
		return
	}
	f.items = f.items[n:]
}

// processedLocked counts n popped deltas off the initial list.
func (f *RealFIFO) processedLocked(n int) {
	f.initialPopulationCount = max(f.initialPopulationCount-n, 0)
}

// unlockWhileProcessingLocked releases the lock for the processing of what
// was popped, and reports so (the caller then takes it back), when the queue
// was made with UnlockWhileProcessing and fewer than two batches are queued:
// the Reflector is not held up by the consumer, while a longer queue keeps
// the lock, which holds the Reflector back until the consumer catches up.
func (f *RealFIFO) unlockWhileProcessingLocked() bool {
	if f.unlockWhileProcessing && len(f.items) < 2*f.batchSize {
		f.lock.Unlock()
		return true
	}
	return false
}

// Transformer returns the transform function the queue applies.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

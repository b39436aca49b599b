// realfifo.go holds the RealFIFO: the queue client-go v0.37.2's shared
// informers run on (the DeltaFIFO of fifo.go is what they ran until 1.32).
// It keeps one Delta per notification, in the order they arrived, across
// all keys: nothing is merged per key. With AtomicEvents a relist is one
// ReplacedAll delta and a resync one SyncAll delta, so the consumer applies
// each in one step; bookmarks can travel through it as Bookmark deltas; and
// PopBatch hands out runs of consecutive deltas to be applied together.
//
// Reading 2: today's client-go (v0.33+); the first reading's queue is the DeltaFIFO.
//
// client-go counterpart: k8s.io/client-go/tools/cache the_real_fifo.go
// (RealFIFO, RealFIFOOptions, NewRealFIFOWithOptions, Pop,
// whileProcessing_locked).
//
// Tutorial: 004 §2.2 (the queue between Reflector and informer); the
// walkthrough's Step03RealFIFO sets it beside the DeltaFIFO.

package informer

import (
	"errors"
	"sync"
)

// ReplacedAllInfo is the Object of a ReplacedAll delta: the list of a Replace
// call, already transformed, and the resource version it was listed at.
type ReplacedAllInfo struct {
	ResourceVersion string
	Objects         []any // in list order
}

// SyncAllInfo is the Object of a SyncAll delta; it carries nothing.
type SyncAllInfo struct{}

// BookmarkInfo is the Object of a Bookmark delta: the version the stream
// has reached, with no object changed.
type BookmarkInfo struct {
	ResourceVersion string
}

// defaultBatchSize is the most deltas PopBatch hands out at once, as
// client-go's defaultBatchSize in the_real_fifo.go.
const defaultBatchSize = 1000

// RealFIFOOptions configures NewRealFIFOWithOptions. The fields depend on
// each other as in client-go (TestRealFIFOOptionRules): AtomicEvents
// forbids KnownObjects (the queue
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

// Add queues an Added delta for obj, transformed (see TransformFunc).
func (f *RealFIFO) Add(obj any) error { return f.notify(Added, obj) }

// Update is Add with an Updated delta.
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
	_, isTombstone := obj.(DeletedFinalStateUnknown)
	if transform && !isTombstone && f.transformer != nil {
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

// ReflectorBookmarkStore is a store that wants to hear of the watch's
// bookmarks: the Reflector tells it each one's version (a RealFIFO does).
type ReflectorBookmarkStore interface {
	// Bookmark records that the stream has reached resourceVersion.
	Bookmark(resourceVersion string) error
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

// IsClosed reports whether Close was called; Pop may still have deltas to
// hand out.
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
// UnlockWhileProcessing (see whileProcessingLocked). Pop must have one
// caller at a time.
func (f *RealFIFO) Pop(process PopProcessFunc) (any, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	isInInitialList := !f.hasSyncedLocked()
	// Boxed into an interface once, not once per use: Pop runs for every event.
	var item any = Deltas{f.items[0]}
	f.dropLocked(1)
	defer f.processedLocked(1) // runs after processing, under the lock again
	if process == nil {
		return item, nil
	}
	err := f.whileProcessingLocked(func() error {
		return process(item, isInInitialList)
	})
	return item, err
}

// whileProcessingLocked runs process, which handles what was just popped.
// With UnlockWhileProcessing it releases the queue's lock for the time
// process runs, so the Reflector can keep queueing (the consumer may take
// its time), and takes it back before returning. It keeps the lock instead
// once two batches are queued: a queue that outgrows its consumer then holds
// the Reflector back until the consumer catches up.
func (f *RealFIFO) whileProcessingLocked(process func() error) error {
	if f.unlockWhileProcessing && len(f.items) < 2*f.batchSize {
		f.lock.Unlock()
		defer f.lock.Lock()
	}
	return process()
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

// Transformer returns the transform function the queue applies (nil if
// none): the streaming list applies it too.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

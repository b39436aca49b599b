// delta.go holds the vocabulary of change that flows from the Reflector,
// through the queue, to the informer: DeltaType, Delta, Deltas, the
// DeletedFinalStateUnknown tombstone, and the small interfaces and function
// types every queue shares (KeyListerGetter, TransformFunc, PopProcessFunc).
// (The three whole-queue deltas of client-go 1.37's RealFIFO are in
// realfifo.go, the second reading.)
//
// client-go counterpart: the types at the top of k8s.io/client-go/tools/cache
// delta_fifo.go.
//
// Tutorial: 004 §2.2 (DeltaFIFO) and 000 §4.2 (tombstones for deletes).

package informer

// DeltaType says what happened to an object.
type DeltaType string

// The kinds of change a queue records about one object. (A RealFIFO adds
// three that stand for the whole queue: realfifo.go.)
const (
	// Added: the object was created (a watch ADDED event).
	Added DeltaType = "Added"
	// Updated: the object changed (a watch MODIFIED event).
	Updated DeltaType = "Updated"
	// Deleted: the object is gone. Its Object is the last state known, or a
	// DeletedFinalStateUnknown when that state was missed.
	Deleted DeltaType = "Deleted"
	// Replaced: the object was in a full relist (only when the DeltaFIFO was
	// made with EmitDeltaTypeReplaced; otherwise a relist records Sync).
	Replaced DeltaType = "Replaced"
	// Sync: a periodic resync (or, by default, a relist) re-delivers an
	// object that may not have changed.
	Sync DeltaType = "Sync"
)

// Delta is one change: what happened, and the object after it happened
// (before it, for a deletion).
type Delta struct {
	// Type says what happened.
	Type DeltaType
	// Object is the object after the change, or before it for Deleted.
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

// DeletedFinalStateUnknown is the tombstone an informer hands to OnDelete
// when it learns of a deletion without seeing the object's final state: the
// watch was down when the object was deleted, and a relist found it missing.
// Obj is the last state the cache had, which may be stale.
//
// Real client-go does not keep tombstones around on a timer: a tombstone is
// just a value in one Deleted delta, gone once that delta is processed.
type DeletedFinalStateUnknown struct {
	// Key is the cache key of the deleted object.
	Key string
	// Obj is the last known state of the object (possibly stale, possibly nil).
	Obj any
}

// KeyLister lists the keys of the objects something holds.
type KeyLister interface {
	// ListKeys returns every key.
	ListKeys() []string
}

// KeyGetter looks an object up by its key.
type KeyGetter interface {
	// GetByKey returns the object with the given key, if there is one.
	GetByKey(key string) (value any, exists bool, err error)
}

// KeyListerGetter is what a DeltaFIFO needs of the objects its consumer
// already knows (the informer's Indexer): their keys, and each one by key.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// TransformFunc changes an object before it is queued, typically to drop
// fields nobody reads and save memory. It sees each object first, so it may
// change it in place. It must be fast: it runs under the queue's lock.
type TransformFunc func(obj any) (any, error)

// PopProcessFunc handles one popped item: a Deltas. isInInitialList is true
// while the items of the first Replace (the initial list) are being popped.
type PopProcessFunc func(obj any, isInInitialList bool) error

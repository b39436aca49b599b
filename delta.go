// delta.go holds the vocabulary of change that flows from the Reflector,
// through the queue, to the informer: DeltaType, Delta, Deltas, the
// DeletedFinalStateUnknown tombstone, and the small types every queue shares.
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
	Added   DeltaType = "Added"   // created (a watch ADDED event)
	Updated DeltaType = "Updated" // changed (a watch MODIFIED event)
	// Deleted: the object is gone. Its Object is the last state known, or a
	// DeletedFinalStateUnknown when that state was missed.
	Deleted DeltaType = "Deleted"
	// Replaced: the object was in a full relist (only with
	// EmitDeltaTypeReplaced; otherwise a relist records Sync).
	Replaced DeltaType = "Replaced"
	// Sync: a periodic resync re-delivers an object that may not have changed.
	Sync DeltaType = "Sync"
)

// Delta is one change: what happened, and the object after it happened
// (before it, for Deleted).
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

// DeletedFinalStateUnknown is the tombstone an informer hands to OnDelete
// when a relist finds an object gone whose deletion the watch missed. Obj is
// the last state the cache had, possibly stale, possibly nil. (client-go
// keeps no tombstones on a timer: it lives in one Deleted delta.)
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// KeyLister lists the keys of the objects something holds.
type KeyLister interface {
	ListKeys() []string
}

// KeyGetter looks an object up by its key.
type KeyGetter interface {
	GetByKey(key string) (value any, exists bool, err error)
}

// KeyListerGetter is what a DeltaFIFO needs of the objects its consumer
// already knows (the informer's Indexer).
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// TransformFunc changes an object before it is queued, typically to drop
// fields nobody reads. It may change the object in place, and runs under
// the queue's lock.
type TransformFunc func(obj any) (any, error)

// PopProcessFunc handles one popped item. isInInitialList is true while the
// items of the first Replace (the initial list) are being popped.
type PopProcessFunc func(obj any, isInInitialList bool) error

// delta.go holds the vocabulary of change from the Reflector through the queue to the
// informer: Delta, Deltas, the DeletedFinalStateUnknown tombstone, and what queues share.
// client-go counterpart: the types at the top of tools/cache delta_fifo.go.
// Tutorial: 004 §2.2 (DeltaFIFO), 000 §4.2 (tombstones for deletes).

package informer

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

// delta.go holds the vocabulary of change that travels from the Reflector
// through the queue to the informer: a DeltaType says what happened, a Delta
// is one change with its object, Deltas are one key's changes in order, and
// DeletedFinalStateUnknown is the tombstone of a deletion the watch missed.
//
// client-go counterpart: the types at the top of tools/cache delta_fifo.go
// (DeltaType, Delta, Deltas, DeletedFinalStateUnknown).
//
// Tutorial: 004 §2.2 (what the DeltaFIFO stores), 000 §3.1 (a delta per
// change) and §4.2 (tombstones for deletes).

package informer

// DeltaType says what happened to an object: one of the constants below
// (an informer ignores any other).
type DeltaType string

// The kinds of change a queue records.
const (
	// Added: the object was created (a watch ADDED event).
	Added DeltaType = "Added"
	// Updated: the object changed (a watch MODIFIED event).
	Updated DeltaType = "Updated"
	// Deleted: the object is gone (a watch DELETED event, or a relist that
	// no longer lists it: see DeltaFIFO.Replace).
	Deleted DeltaType = "Deleted"
	// Replaced: a relist listed the object. The queue cannot tell whether
	// it changed since the last time, so the informer treats it like an
	// update of what it caches (an add if it caches nothing). A DeltaFIFO
	// queues Replaced only with EmitDeltaTypeReplaced (informers set it);
	// older ones queued Sync for relists too.
	Replaced DeltaType = "Replaced"
	// Sync: a resync re-delivered the object; nothing on the server changed.
	Sync DeltaType = "Sync"
	// Reading 2: deltas about the whole queue, which only an atomic RealFIFO queues (1.33–1.37).
	// ReplacedAll: a whole relist in one delta, queued by a RealFIFO with
	// AtomicEvents instead of one Replaced per object. Its Object is a
	// ReplacedAllInfo (realfifo.go).
	ReplacedAll DeltaType = "ReplacedAll"
	// SyncAll: a whole resync in one delta (a RealFIFO with AtomicEvents):
	// the consumer re-delivers everything it holds. Its Object is a
	// SyncAllInfo.
	SyncAll DeltaType = "SyncAll"
	// Bookmark: the server said how far the stream has got, with no change
	// (a RealFIFO with EmitDeltaTypeBookmark). Its Object is a BookmarkInfo.
	Bookmark DeltaType = "Bookmark"
	// End of reading 2.
)

// Delta is one change: its Type says what happened, its Object is the
// object's state after it (for Deleted, the last state known, or a
// DeletedFinalStateUnknown).
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is the list of changes queued for one object, oldest first.
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

// DeletedFinalStateUnknown is the tombstone a handler's OnDelete gets when an
// object was deleted while the watch was down: the relist after it no longer
// lists the object, so the deletion is known but its final state is not.
// Obj is the last state the informer knew, which may be stale (the object
// may have changed before it was deleted); it can be nil when the queue did
// not know the object either. A handler that needs the object must check for
// this type:
//
//	pod, ok := obj.(*Pod)
//	if !ok {
//		tombstone, ok := obj.(DeletedFinalStateUnknown)
//		...
//	}
type DeletedFinalStateUnknown struct {
	// Key is the object's key (namespace/name), always set; Obj may be nil.
	Key string
	Obj any
}

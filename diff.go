// diff.go compares two snapshots of a cache (key → object) and says which
// keys were added, which were updated and which were deleted between them.
// "Updated" means the resource version differs: Kubernetes gives an object a
// new resourceVersion on every change, so two equal versions mean the same
// state, and no hashing of the contents is needed. Versions are only ever
// tested for equality, never ordered.
//
// client-go counterpart: none as a function. DeltaFIFO.Replace does the same
// comparison on every relist (fifo_relist.go): a listed key becomes a
// Replaced delta (an update for handlers when the cache knew the key, an add
// when it did not), and a key the cache knew but the list lacks becomes a
// Deleted delta carrying DeletedFinalStateUnknown. The informer then tells
// the two kinds of update apart just as DiffSnapshots does: same resource
// version, only a re-delivery; another version, a real change.
//
// Tutorial: 000 §3.2 (snapshots and incremental diff).

package informer

import (
	"reflect"
	"slices"
)

// Snapshot is the state of a cache at one moment: each object by its key.
type Snapshot map[string]any

// SnapshotOf returns a snapshot of store's current contents, keyed by
// keyFunc (use the key function the store was made with, normally
// DeletionHandlingMetaNamespaceKeyFunc). The objects are the store's own,
// shared: do not change them.
func SnapshotOf(store Store, keyFunc KeyFunc) (Snapshot, error) {
	return SnapshotFromList(store.List(), keyFunc)
}

// SnapshotFromList keys a list of objects (such as a list from the server).
// A key that appears twice keeps its last object.
func SnapshotFromList(items []any, keyFunc KeyFunc) (Snapshot, error) {
	s := make(Snapshot, len(items))
	for _, obj := range items {
		key, err := keyFunc(obj)
		if err != nil {
			return nil, KeyError{Obj: obj, Err: err}
		}
		s[key] = obj
	}
	return s, nil
}

// SnapshotDiff lists, as sorted keys, how a new snapshot differs from an old
// one.
type SnapshotDiff struct {
	// Added are the keys only in the new snapshot.
	Added []string
	// Updated are the keys in both whose objects differ: their resource
	// versions are not equal.
	Updated []string
	// Deleted are the keys only in the old snapshot.
	Deleted []string
}

// Empty reports whether the snapshots held the same objects.
func (d SnapshotDiff) Empty() bool {
	return len(d.Added) == 0 && len(d.Updated) == 0 && len(d.Deleted) == 0
}

// DiffSnapshots compares oldSnap with newSnap by key. A key in both is
// updated when the two objects' resource versions differ; objects that
// carry no metadata (not an Object) are compared by value instead.
func DiffSnapshots(oldSnap, newSnap Snapshot) SnapshotDiff {
	var d SnapshotDiff
	for key, newObj := range newSnap {
		oldObj, existed := oldSnap[key]
		switch {
		case !existed:
			d.Added = append(d.Added, key)
		case changed(oldObj, newObj):
			d.Updated = append(d.Updated, key)
		}
	}
	for key := range oldSnap {
		if _, exists := newSnap[key]; !exists {
			d.Deleted = append(d.Deleted, key)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Updated)
	slices.Sort(d.Deleted)
	return d
}

// changed reports whether two states of one key differ.
func changed(oldObj, newObj any) bool {
	oldRV, ok1 := resourceVersionOf(oldObj)
	newRV, ok2 := resourceVersionOf(newObj)
	if ok1 && ok2 {
		return oldRV != newRV
	}
	return !reflect.DeepEqual(oldObj, newObj)
}

// resourceVersionOf returns obj's resource version, and false when obj has
// no metadata to read it from.
func resourceVersionOf(obj any) (string, bool) {
	o, ok := obj.(Object)
	if !ok || isNilPointer(obj) {
		return "", false
	}
	return o.GetResourceVersion(), true
}

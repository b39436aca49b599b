// Package diff compares two snapshots of a cache (key → object) and says
// which keys were added, which were updated and which were deleted between
// them. "Updated" means the resource version differs: Kubernetes gives an
// object a new resourceVersion on every change, so two equal versions mean
// the same state, and no hashing of the contents is needed. Versions are
// only ever tested for equality, never ordered.
//
// client-go counterpart: none as a package. DeltaFIFO.Replace does the same
// comparison on every relist (the root's fifo.go): a listed key
// becomes a Replaced delta (an update for handlers when the cache knew the
// key, an add when it did not), and a key the cache knew but the list lacks
// becomes a Deleted delta carrying DeletedFinalStateUnknown. The informer
// then tells the two kinds of update apart just as Snapshots does: same
// resource version, only a re-delivery; another version, a real change.
//
// Tutorial: 000 §3.2 (snapshots and incremental diff). Walkthrough: Step 13
// (go test -v -run Step13 ./diff).
package diff

import (
	"reflect"
	"slices"

	informer "github.com/learn-k8s/informer"
)

// Snapshot is the state of a cache at one moment: each object by its key.
type Snapshot map[string]any

// SnapshotOf returns a snapshot of store's current contents, keyed by
// keyFunc (use the key function the store was made with, normally
// informer.DeletionHandlingMetaNamespaceKeyFunc). The objects are the
// store's own, shared: do not change them.
func SnapshotOf(store informer.Store, keyFunc informer.KeyFunc) (Snapshot, error) {
	return SnapshotFromList(store.List(), keyFunc)
}

// SnapshotFromList keys a list of objects (such as a list from the server).
// A key that appears twice keeps its last object.
func SnapshotFromList(items []any, keyFunc informer.KeyFunc) (Snapshot, error) {
	s := make(Snapshot, len(items))
	for _, obj := range items {
		key, err := keyFunc(obj)
		if err != nil {
			return nil, informer.KeyError{Obj: obj, Err: err}
		}
		s[key] = obj
	}
	return s, nil
}

// Changes lists, as sorted keys, how a new snapshot differs from an old
// one.
type Changes struct {
	// Added are the keys only in the new snapshot.
	Added []string
	// Updated are the keys in both whose objects differ: their resource
	// versions are not equal.
	Updated []string
	// Deleted are the keys only in the old snapshot.
	Deleted []string
}

// Empty reports whether the snapshots held the same objects.
func (c Changes) Empty() bool {
	return len(c.Added) == 0 && len(c.Updated) == 0 && len(c.Deleted) == 0
}

// Snapshots compares oldSnap with newSnap by key. A key in both is updated
// when Changed says its two objects differ.
func Snapshots(oldSnap, newSnap Snapshot) Changes {
	var c Changes
	for key, newObj := range newSnap {
		oldObj, existed := oldSnap[key]
		switch {
		case !existed:
			c.Added = append(c.Added, key)
		case Changed(oldObj, newObj):
			c.Updated = append(c.Updated, key)
		}
	}
	for key := range oldSnap {
		if _, exists := newSnap[key]; !exists {
			c.Deleted = append(c.Deleted, key)
		}
	}
	slices.Sort(c.Added)
	slices.Sort(c.Updated)
	slices.Sort(c.Deleted)
	return c
}

// Changed reports whether two states of one key differ: by resource
// version when both are objects with metadata, by value otherwise (values
// that carry no metadata, a nil pointer).
func Changed(oldObj, newObj any) bool {
	oldRV, ok1 := ResourceVersion(oldObj)
	newRV, ok2 := ResourceVersion(newObj)
	if ok1 && ok2 {
		return oldRV != newRV
	}
	return !reflect.DeepEqual(oldObj, newObj)
}

// ResourceVersion returns obj's resource version, and false when obj has
// no metadata to read it from (it is not an informer.Object, or a nil
// pointer).
func ResourceVersion(obj any) (string, bool) {
	o, ok := obj.(informer.Object)
	if !ok {
		return "", false
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return "", false
	}
	return o.GetResourceVersion(), true
}

// deltas.go renders Deltas and the objects in them for the page: keys,
// resource versions, tombstones, and the whole-queue deltas of a RealFIFO
// (ReplacedAll, SyncAll, Bookmark).
//
// client-go counterpart: none.
// Tutorial: 004 §2.2 (Deltas), 000 §4.2 (tombstones).

package main

import (
	"fmt"
	"strings"

	"github.com/learn-k8s/informer"
)

// delta is one Delta as the page shows it.
type delta struct {
	Type      string `json:"type"`
	Key       string `json:"key,omitempty"`
	RV        string `json:"rv,omitempty"`
	Tombstone bool   `json:"tombstone,omitempty"`
	// N is how many objects a whole-queue delta stands for: a ReplacedAll's
	// list, a SyncAll's cache.
	N int `json:"n,omitempty"`
}

// queuedKey is one queued key of a DeltaFIFO and its Deltas, oldest first.
type queuedKey struct {
	Key    string  `json:"key"`
	Deltas []delta `json:"deltas"`
}

// queuedKeys lists a DeltaFIFO's keys with their Deltas, in Pop order.
func queuedKeys(f *informer.DeltaFIFO) []queuedKey {
	out := []queuedKey{}
	for _, ds := range f.QueuedDeltas() {
		key, _ := f.KeyOf(ds) // the newest object's: the key it is queued under
		out = append(out, queuedKey{Key: key, Deltas: deltasOf(ds)})
	}
	return out
}

func deltasOf(ds []informer.Delta) []delta {
	out := make([]delta, len(ds))
	for i, d := range ds {
		out[i].Key, out[i].RV = describeObject(d.Object)
		_, out[i].Tombstone = d.Object.(informer.DeletedFinalStateUnknown)
		if info, ok := d.Object.(informer.ReplacedAllInfo); ok {
			out[i].N = len(info.Objects)
		}
		out[i].Type = string(d.Type)
	}
	return out
}

// describeDeltas renders Deltas as "Added rv 5, Updated rv 6, Deleted rv 6
// (DeletedFinalStateUnknown)", with the keys when they are not all the same.
func describeDeltas(ds informer.Deltas) string {
	parts := make([]string, len(ds))
	keys := map[string]bool{}
	for _, d := range deltasOf(ds) {
		keys[d.Key] = true
	}
	for i, d := range deltasOf(ds) {
		if len(keys) > 1 && d.Key != "" {
			parts[i] = d.Key + ":"
		}
		parts[i] += d.Type
		if d.RV != "" {
			parts[i] += " rv " + d.RV
		}
		if d.Tombstone {
			parts[i] += " (DeletedFinalStateUnknown)"
		}
	}
	return strings.Join(parts, ", ")
}

// listSize returns, for Deltas that hold a relist's ReplacedAll, the
// number of objects in its list.
func listSize(ds informer.Deltas) (string, bool) {
	for _, d := range ds {
		if info, ok := d.Object.(informer.ReplacedAllInfo); ok {
			return fmt.Sprint(len(info.Objects)), true
		}
	}
	return "", false
}

// describeObject returns the key and resource version of what a delta
// holds: an object, a tombstone (its last known object's version), or a
// whole-queue delta's information (no key; a relist's version).
func describeObject(obj any) (key, rv string) {
	switch o := obj.(type) {
	case nil:
		return "", ""
	case informer.ReplacedAllInfo:
		return "", o.ResourceVersion
	case informer.SyncAllInfo:
		return "", ""
	case informer.BookmarkInfo:
		return "", o.ResourceVersion
	case informer.DeletedFinalStateUnknown:
		_, rv = describeObject(o.Obj)
		return o.Key, rv
	}
	key, _ = informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if o, ok := obj.(informer.Object); ok && o != nil {
		rv = o.GetResourceVersion()
	}
	return key, rv
}

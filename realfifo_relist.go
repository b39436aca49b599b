// realfifo_relist.go holds the RealFIFO's Replace and Resync, and
// reconcileReplacement: the comparison of a relist with what is queued and
// known that both the RealFIFO's non-atomic Replace and the informer's
// handling of a ReplacedAll delta (realfifo_batch.go) use to find missed deletions.
//
// Reading 2: today's client-go (v0.33+), the RealFIFO's relist and resync.
//
// client-go counterpart: RealFIFO.Replace, RealFIFO.Resync and
// reconcileReplacement in k8s.io/client-go/tools/cache the_real_fifo.go
// (v0.37.2).
//
// Tutorial: 000 §3.2 (snapshot + diff: what a relist computes), §4.2
// (tombstones for missed deletions); 004 §4.4 (resync).

package informer

import "fmt"

// Replace records a full relist. With AtomicEvents it queues one
// ReplacedAll delta holding the whole list (transformed) and its resource
// version. Without, it queues a Deleted tombstone for every key missing from
// list (see reconcileReplacement), then a Replaced delta per listed object,
// in list order. The first Replace before any other write marks the whole
// queue as the initial list.
//
// A failure part-way (an object without a key, a transformer error) returns
// at once: what was queued before it stays queued, and the queue is not
// marked populated. That is client-go's behaviour, too.
func (f *RealFIFO) Replace(list []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.err != nil {
		return f.err
	}
	var err error
	if f.emitAtomicEvents {
		err = f.replaceAllLocked(list, resourceVersion)
	} else {
		err = reconcileReplacement(f.items, f.knownObjects, list, f.keyOf,
			func(t DeletedFinalStateUnknown) error { return f.appendLocked(Deleted, t, false) },
			func(obj any) error { return f.appendLocked(Replaced, obj, true) })
	}
	if err != nil {
		return err
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(f.items)
	}
	return nil
}

// replaceAllLocked queues one ReplacedAll delta. The list is transformed
// into a new slice first, so a transformer error queues nothing.
func (f *RealFIFO) replaceAllLocked(list []any, resourceVersion string) error {
	objs := list
	if f.transformer != nil {
		objs = make([]any, len(list))
		for i, obj := range list {
			var err error
			if objs[i], err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	info := ReplacedAllInfo{ResourceVersion: resourceVersion, Objects: objs}
	f.pushLocked(Delta{Type: ReplacedAll, Object: info})
	return nil
}

// Resync asks for everything the consumer holds to be delivered again. With
// AtomicEvents it queues one SyncAll delta. Without, it queues a Sync delta
// for every known object whose key has nothing queued (the queued delta is
// newer than the cache's copy); without KnownObjects it does nothing.
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.err != nil {
		return f.err
	}
	if f.emitAtomicEvents {
		f.pushLocked(Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}
	queued := make(map[string]bool, len(f.items))
	for _, d := range f.items {
		key, err := f.keyOf(d.Object)
		if err != nil {
			return KeyError{Obj: d, Err: err}
		}
		queued[key] = true
	}
	for _, key := range f.knownObjects.ListKeys() {
		if queued[key] {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			continue // gone since ListKeys: nothing to resync
		}
		if err := f.appendLocked(Sync, obj, false); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}

// reconcileReplacement compares a relist (list) with the deltas still
// queued and the objects the consumer knows, and reports, in this order:
//   - to onDelete, a tombstone for every queued key missing from list whose
//     last queued delta is not already a deletion, holding that delta's
//     object, in the order the keys were first queued;
//   - to onDelete, a tombstone for every known key missing from list with
//     nothing queued, holding the known object (nil if the lookup failed),
//     in the order knownObjects lists them;
//   - to onReplace, every object of list, in list order.
//
// It stops at the first error. An object of list without a key stops it
// before anything is reported.
func reconcileReplacement(queued []Delta, knownObjects KeyListerGetter, list []any,
	keyOf KeyFunc, onDelete func(DeletedFinalStateUnknown) error, onReplace func(any) error) error {
	listed := make(map[string]bool, len(list))
	for _, obj := range list {
		key, err := keyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		listed[key] = true
	}

	var queuedKeys []string
	lastQueued := map[string]Delta{}
	for _, d := range queued {
		key, err := keyOf(d.Object)
		if err != nil {
			return KeyError{Obj: d.Object, Err: err}
		}
		if _, seen := lastQueued[key]; !seen {
			queuedKeys = append(queuedKeys, key)
		}
		lastQueued[key] = d
	}
	for _, key := range queuedKeys {
		last := lastQueued[key]
		if listed[key] || last.Type == Deleted {
			continue
		}
		if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: last.Object}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	for _, key := range knownObjects.ListKeys() {
		if _, isQueued := lastQueued[key]; listed[key] || isQueued {
			continue
		}
		obj, exists, err := knownObjects.GetByKey(key)
		if err != nil || !exists {
			obj = nil
		}
		if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	for _, obj := range list {
		if err := onReplace(obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

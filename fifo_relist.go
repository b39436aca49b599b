// fifo_relist.go holds the two DeltaFIFO methods that compare the queue with
// a whole set of objects instead of taking one change: Replace, which records
// a full relist (and the deletions it reveals), and Resync, which re-delivers
// what the consumer already holds.
//
// client-go counterpart: DeltaFIFO.Replace and DeltaFIFO.Resync in
// k8s.io/client-go/tools/cache delta_fifo.go.
//
// Tutorial: 000 §3.2 (snapshot + diff: what a relist computes), §4.2
// (tombstones for missed deletions); 004 §4.4 (resync).

package informer

// Replace records a full relist: a Replaced delta (Sync, unless
// EmitDeltaTypeReplaced) for every object of list, then a Deleted delta
// holding a DeletedFinalStateUnknown for every key that is missing from list
// and is either queued, or known to the consumer with nothing queued. The
// resource version is not used.
//
// Replace is not all or nothing, as in client-go's DeltaFIFO.Replace: if an
// object has no key or fails the transformer, Replace returns at once. The
// objects before it stay queued, no tombstone is queued, and the queue is
// not marked populated (so HasSynced stays false until a Replace succeeds).
func (f *DeltaFIFO) Replace(list []any, _ string) error {
	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	f.lock.Lock()
	defer f.lock.Unlock()

	listed := make(map[string]bool, len(list))
	for _, item := range list {
		key, obj, err := f.prepare(item)
		if err != nil {
			return err
		}
		listed[key] = true
		f.appendLocked(key, Delta{Type: action, Object: obj})
	}

	deletions := 0
	// Queued keys missing from the list: the last object we saw is the best
	// guess at the final state. The queue is walked (not the map) so the
	// tombstones are queued in a predictable order; appending to a key that
	// is already queued never grows the queue.
	for _, key := range f.queue {
		if listed[key] {
			continue
		}
		last := f.items[key].Newest().Object
		if t, ok := last.(DeletedFinalStateUnknown); ok {
			last = t.Obj
		}
		f.appendLocked(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: last}})
		deletions++
	}
	// Known keys missing from the list with nothing queued: the consumer's
	// copy is the final state we know. A failed lookup leaves Obj nil.
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] || len(f.items[key]) > 0 {
				continue
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				obj = nil
			}
			f.appendLocked(key, Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: obj}})
			deletions++
		}
	}

	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(listed) + deletions
	}
	return nil
}

// Resync queues a Sync delta for every known object whose key has nothing
// queued; a key with queued deltas is skipped, because the cache's copy is
// older than what is queued. Without KnownObjects it does nothing.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, k := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(k)
		if err != nil || !exists {
			continue // gone since ListKeys: nothing to resync
		}
		key, err := f.KeyOf(obj)
		if err != nil {
			return KeyError{Obj: obj, Err: err}
		}
		if len(f.items[key]) > 0 {
			continue
		}
		f.appendLocked(key, Delta{Type: Sync, Object: obj})
	}
	return nil
}

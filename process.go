// process.go holds what an informer does with a pop: apply each delta to
// its cache first, then tell the handlers, so that a handler reading the
// cache sees at least the state it is told about.
//
// client-go counterpart: processDeltas in k8s.io/client-go/tools/cache
// controller.go (v0.37.2).
//
// Tutorial: 004 §2.3 (the cache is updated before the handlers hear of it),
// 000 §4.1 (event type → cache operation) and §4.2 (tombstones).

package informer

// processDeltas applies deltas to clientState, oldest first, and tells
// handler about each (processDelta).
func processDeltas(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool) error {
	for _, d := range deltas {
		if err := processDelta(handler, clientState, d, isInInitialList); err != nil {
			return err
		}
	}
	return nil
}

// processDelta applies one delta: an object the cache already has is an
// update (old is the cached one), a new one an add, a Deleted delta a delete
// (its object may be a DeletedFinalStateUnknown tombstone, which the cache
// deletes by its key).
func processDelta(handler ResourceEventHandler, clientState Store, d Delta, isInInitialList bool) error {
	obj := d.Object
	switch d.Type {
	case Sync, Replaced, Added, Updated:
		old, exists, err := clientState.Get(obj)
		if err == nil && exists {
			if err := clientState.Update(obj); err != nil {
				return err
			}
			handler.OnUpdate(old, obj)
			return nil
		}
		if err := clientState.Add(obj); err != nil {
			return err
		}
		handler.OnAdd(obj, isInInitialList)
	case Deleted:
		if err := clientState.Delete(obj); err != nil {
			return err
		}
		handler.OnDelete(obj)
	}
	return nil
}

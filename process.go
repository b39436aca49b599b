// process.go holds what an informer does with what it pops: apply each
// delta to its cache, then tell the handlers. processDeltas takes one
// Deltas (from either queue), processDeltasInBatch a batch from a RealFIFO's
// PopBatch, applied in one Transaction, and processReplacedAllInfo a whole
// relist from one ReplacedAll delta.
//
// client-go counterpart: processDeltas, processDeltasInBatch and
// processReplacedAllInfo in k8s.io/client-go/tools/cache controller.go
// (v0.37.2).
//
// Tutorial: 004 §2.3 (the cache is updated before the handlers hear of it),
// 000 §4.2 (tombstones); the walkthrough's Step03RealFIFO.

package informer

import "fmt"

// processDeltas applies deltas to clientState, oldest first, and tells
// handler about each: an object the cache already has is an update (old is
// the cached one), a new one an add, a Deleted delta a delete. A ReplacedAll
// delta is a whole relist (processReplacedAllInfo); a SyncAll delta is an
// update of every cached object to itself; a Bookmark delta only moves the
// cache's resource version.
func processDeltas(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool, keyFunc KeyFunc) error {
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case Sync, Replaced, Added, Updated:
			old, exists, err := addOrUpdate(clientState, obj)
			if err != nil {
				return err
			}
			if exists {
				handler.OnUpdate(old, obj)
			} else {
				handler.OnAdd(obj, isInInitialList)
			}
		case Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			handler.OnDelete(obj)
		case ReplacedAll:
			info, ok := obj.(ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", obj)
			}
			if err := processReplacedAllInfo(handler, info, clientState, isInInitialList, keyFunc); err != nil {
				return err
			}
		case SyncAll:
			if _, ok := obj.(SyncAllInfo); !ok {
				return fmt.Errorf("SyncAll did not contain SyncAllInfo: %T", obj)
			}
			for _, cached := range clientState.List() {
				handler.OnUpdate(cached, cached)
			}
			return nil // as client-go: a SyncAll ends the Deltas it is in
		case Bookmark:
			info, ok := obj.(BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", obj)
			}
			clientState.Bookmark(info.ResourceVersion)
		}
	}
	return nil
}

// addOrUpdate stores obj in clientState and returns the object it replaced,
// if any. With any Store that is a Get, then an Update or an Add; the
// cache of NewIndexer does both in one step, so that the key of every event
// is computed once here instead of twice.
func addOrUpdate(clientState Store, obj any) (old any, exists bool, err error) {
	if c, ok := clientState.(*cache); ok {
		return c.swap(obj)
	}
	old, exists, err = clientState.Get(obj)
	if err == nil && exists {
		return old, true, clientState.Update(obj)
	}
	return nil, false, clientState.Add(obj)
}

// processDeltasInBatch applies a batch of deltas of distinct keys to
// clientState in one Transaction, then tells handler about each, in order.
// If some writes of the Transaction failed, only the applied ones are
// told, and the error says how many failed. A store that cannot do
// transactions gets the deltas one by one through processDeltas. Only
// per-object deltas may be in a batch (PopBatch sends the others alone).
func processDeltasInBatch(handler ResourceEventHandler, clientState Store, deltas []Delta, isInInitialList bool, keyFunc KeyFunc) error {
	txnStore, ok := clientState.(TransactionStore)
	if !ok {
		var errs []error
		for _, d := range deltas {
			if err := processDeltas(handler, clientState, Deltas{d}, isInInitialList, keyFunc); err != nil {
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("unexpected error when handling deltas: %v", errs)
		}
		return nil
	}
	txns := make([]Transaction, 0, len(deltas))
	notify := make([]func(), 0, len(deltas))
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case Sync, Replaced, Added, Updated:
			// The keys of a batch are distinct, so what the cache holds now
			// is what this write replaces.
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				txns = append(txns, Transaction{Type: TransactionTypeUpdate, Object: obj})
				notify = append(notify, func() { handler.OnUpdate(old, obj) })
			} else {
				txns = append(txns, Transaction{Type: TransactionTypeAdd, Object: obj})
				notify = append(notify, func() { handler.OnAdd(obj, isInInitialList) })
			}
		case Deleted:
			txns = append(txns, Transaction{Type: TransactionTypeDelete, Object: obj})
			notify = append(notify, func() { handler.OnDelete(obj) })
		default:
			return fmt.Errorf("delta type %s is not supported in batch processing", d.Type)
		}
	}
	if err := txnStore.Transaction(txns...); err != nil {
		for _, i := range err.SuccessfulIndices {
			notify[i]()
		}
		return fmt.Errorf("not all items in the batch successfully processed: %s", err.Error())
	}
	for _, n := range notify {
		n()
	}
	return nil
}

// processReplacedAllInfo applies a whole relist. It compares the list with
// the cache (reconcileReplacement, realfifo_relist.go) to find the objects
// that vanished and what each listed object replaces; then it replaces the
// cache's contents in one step, so handlers and readers never see a
// half-applied relist; then it tells handler of the deletions (tombstones
// holding the cached object), then of the adds and updates, in list order.
func processReplacedAllInfo(handler ResourceEventHandler, info ReplacedAllInfo, clientState Store, isInInitialList bool, keyFunc KeyFunc) error {
	type replacement struct {
		old, new any
		exists   bool
	}
	var deletions []DeletedFinalStateUnknown
	replacements := make([]replacement, 0, len(info.Objects))
	err := reconcileReplacement(nil, clientState, info.Objects, keyFunc,
		func(t DeletedFinalStateUnknown) error {
			deletions = append(deletions, t)
			return nil
		},
		func(obj any) error {
			old, exists, err := clientState.Get(obj)
			replacements = append(replacements, replacement{old: old, new: obj, exists: err == nil && exists})
			return nil
		})
	if err != nil {
		return err
	}
	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, t := range deletions {
		handler.OnDelete(t)
	}
	for _, r := range replacements {
		if r.exists {
			handler.OnUpdate(r.old, r.new)
		} else {
			handler.OnAdd(r.new, isInInitialList)
		}
	}
	return nil
}

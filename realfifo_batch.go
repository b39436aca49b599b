// realfifo_batch.go holds what is new on the consumer's side of a RealFIFO:
// PopBatch, which cuts the queue into runs of deltas of distinct keys (the
// run loop pops them through QueueWithBatch, controller.go), and what an
// informer does with them: a run applied to its cache in one Transaction
// (processDeltasInBatch; the cache's Transaction is in store_transaction.go),
// so readers never see half of it; and a whole relist applied in one step
// (processReplacedAllInfo, which processDeltas calls for a ReplacedAll).
//
// Reading 2: today's client-go (v0.35+: InOrderInformersBatchProcess, AtomicFIFO).
//
// client-go counterpart: RealFIFO.PopBatch, batchable and defaultBatchSize
// in k8s.io/client-go/tools/cache the_real_fifo.go; processDeltasInBatch and
// processReplacedAllInfo in controller.go.
//
// Tutorial: the walkthrough's Step03RealFIFO.

package informer

import "fmt"

// QueueWithBatch is a Queue that can pop several deltas of distinct keys at
// once (*RealFIFO): to processBatch, or one to processSingle as Deltas.
type QueueWithBatch interface {
	Queue
	// PopBatch pops a run of deltas: see RealFIFO.PopBatch.
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// ProcessBatchFunc processes deltas popped together, no two of one key.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// batchable reports whether deltas of type t may share a batch: the
// whole-queue deltas (ReplacedAll, SyncAll, Bookmark) are popped alone.
func batchable(t DeltaType) bool {
	switch t {
	case Added, Updated, Deleted, Replaced, Sync:
		return true
	}
	return false
}

// PopBatch waits for deltas and pops a run of them: up to batchSize
// consecutive deltas of distinct keys. The run ends before a second delta
// for a key already in it, before a whole-queue delta (which is popped alone
// when it comes first), after a delta whose key cannot be computed, and at
// the end of the initial list, so a batch never mixes initial and later
// deltas. A run of one goes to processSingle as a Deltas; a longer one to
// processBatch. Locking is as for Pop.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return err
	}
	isInInitialList := !f.hasSyncedLocked()
	n := f.batchLenLocked()
	batch := make([]Delta, n)
	copy(batch, f.items)
	f.dropLocked(n)
	defer f.processedLocked(n) // runs after processing, under the lock again
	return f.whileProcessingLocked(func() error {
		if n == 1 {
			return processSingle(Deltas(batch), isInInitialList)
		}
		return processBatch(batch, isInInitialList)
	})
}

// batchLenLocked returns how many of the queued deltas form the next batch.
func (f *RealFIFO) batchLenLocked() int {
	limit := min(len(f.items), f.batchSize)
	if f.initialPopulationCount > 0 {
		limit = min(limit, f.initialPopulationCount)
	}
	if limit == 1 {
		return 1 // the usual case while watching: no key to compare
	}
	seen := make(map[string]struct{}, limit)
	for i, d := range f.items[:limit] {
		if !batchable(d.Type) {
			return max(i, 1)
		}
		key, err := f.keyOf(d)
		if err != nil {
			return i + 1
		}
		if _, dup := seen[key]; dup {
			return i
		}
		seen[key] = struct{}{}
	}
	return limit
}

// processDeltasInBatch applies a batch of deltas of distinct keys to
// clientState in one Transaction, then tells handler about each, in order.
// If some writes of the Transaction failed, only the applied ones are
// told, and the error says how many failed. A store that cannot do
// transactions gets the deltas one by one through processDeltas
// (controller.go). Only per-object deltas may be in a batch (PopBatch sends
// the others alone).
func processDeltasInBatch(handler ResourceEventHandler, clientState Store, deltas []Delta, isInInitialList bool) error {
	txnStore, ok := clientState.(TransactionStore)
	if !ok {
		var errs []error
		for _, d := range deltas {
			if err := processDeltas(handler, clientState, Deltas{d}, isInInitialList); err != nil {
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
func processReplacedAllInfo(handler ResourceEventHandler, info ReplacedAllInfo, clientState Store,
	isInInitialList bool, keyFunc KeyFunc) error {
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
			r := replacement{old: old, new: obj, exists: err == nil && exists}
			replacements = append(replacements, r)
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

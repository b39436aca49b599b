// realfifo_batch.go holds what is new on the consumer's side of a RealFIFO:
// PopBatch, which cuts the queue into runs of deltas (the controller pops
// them through QueueWithBatch), and what an informer
// does with what it pops — a run applied to its cache in one Transaction
// (processDeltasInBatch, and the cache's Transaction at the end of the
// file: a batch of writes under one lock, so readers never see half of
// it), a whole relist in one step (processReplacedAllInfo), a whole resync
// and a bookmark (processDeltasAtomic).
//
// client-go counterpart: RealFIFO.PopBatch, batchable and defaultBatchSize in
// k8s.io/client-go/tools/cache the_real_fifo.go; processDeltas,
// processDeltasInBatch and processReplacedAllInfo in controller.go;
// Transaction, TransactionStore and TransactionError in store.go; the
// InOrderInformersBatchProcess and AtomicFIFO gates (v0.37.2).
//
// Tutorial: the walkthrough's Step03RealFIFO.

package informer

import "fmt"

// QueueWithBatch is a Queue that can pop several deltas of distinct keys at
// once (*RealFIFO): to processBatch, or one to processSingle as Deltas.
type QueueWithBatch interface {
	Queue
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// popBatch is controller.go's popAndProcess: with PopBatch when the queue can and
// cfg.ProcessBatch is set, else one item with Pop.
func popBatch(cfg Config) error {
	if q, ok := cfg.Queue.(QueueWithBatch); ok && cfg.ProcessBatch != nil {
		return q.PopBatch(cfg.ProcessBatch, PopProcessFunc(cfg.Process))
	}
	_, err := cfg.Queue.Pop(PopProcessFunc(cfg.Process))
	return err
}

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
	defer f.processedLocked(n)
	if f.unlockWhileProcessingLocked() {
		defer f.lock.Lock() // runs before processedLocked: the count changes under the lock
	}
	if n == 1 {
		return processSingle(Deltas(batch), isInInitialList)
	}
	return processBatch(batch, isInInitialList)
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

// processDeltasAtomic is processDeltas for a queue that may also hand out
// the whole-queue deltas of an atomic RealFIFO: a ReplacedAll delta is a
// whole relist (processReplacedAllInfo); a SyncAll delta is an update of
// every cached object to itself, and ends the Deltas it is in, as in
// client-go; a Bookmark delta only moves the cache's resource version.
// Every other delta is processDelta's (informer.go).
func processDeltasAtomic(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool) error {
	for _, d := range deltas {
		switch d.Type {
		case ReplacedAll:
			info, ok := d.Object.(ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", d.Object)
			}
			// An informer's cache is keyed by DeletionHandlingMetaNamespaceKeyFunc.
			if err := processReplacedAllInfo(handler, info, clientState, isInInitialList, DeletionHandlingMetaNamespaceKeyFunc); err != nil {
				return err
			}
		case SyncAll:
			if _, ok := d.Object.(SyncAllInfo); !ok {
				return fmt.Errorf("SyncAll did not contain SyncAllInfo: %T", d.Object)
			}
			for _, cached := range clientState.List() {
				handler.OnUpdate(cached, cached)
			}
			return nil
		case Bookmark:
			info, ok := d.Object.(BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", d.Object)
			}
			clientState.Bookmark(info.ResourceVersion)
		default:
			if err := processDelta(handler, clientState, d, isInInitialList); err != nil {
				return err
			}
		}
	}
	return nil
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
			if err := processDelta(handler, clientState, d, isInInitialList); err != nil {
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

// ---- the cache's Transaction (client-go store.go, thread_safe_store.go) ----

// TransactionType says what one write of a Transaction does.
type TransactionType string

// The writes a Transaction can hold.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction is one write of a batch: what to do, and to which object.
type Transaction struct {
	// Object is the object to add, update or delete.
	Object any
	// Type says which.
	Type TransactionType
}

// TransactionStore is a store that can apply several writes at once.
// The Indexer of NewIndexer is one.
type TransactionStore interface {
	// Transaction applies txns in order under one lock. It returns nil
	// when all were applied; otherwise a TransactionError that lists the
	// ones that were (the others changed nothing).
	Transaction(txns ...Transaction) *TransactionError
}

// TransactionError reports a Transaction that applied only some writes.
type TransactionError struct {
	// SuccessfulIndices are the positions, in the Transaction's
	// arguments, of the writes that were applied.
	SuccessfulIndices []int
	// TotalTransactions is how many writes the Transaction was given.
	TotalTransactions int
	// Errors are why the others were not.
	Errors []error
}

// Error says how many writes failed, and why.
func (t *TransactionError) Error() string {
	return fmt.Sprintf("failed to execute (%d/%d) transactions failed due to: %v",
		t.TotalTransactions-len(t.SuccessfulIndices), t.TotalTransactions, t.Errors)
}

var _ TransactionStore = (*cache)(nil)

// keyedTransaction is a Transaction with its object's key computed.
type keyedTransaction struct {
	Transaction
	key   string
	index int // position in the caller's arguments
}

// Transaction applies txns in order, under the store's lock, so a reader
// sees the cache before the batch or after it. A write whose key cannot be
// computed, or (ours only: client-go panics there) whose object cannot be
// indexed, is skipped and reported; the others are applied.
func (c *cache) Transaction(txns ...Transaction) *TransactionError {
	keyed := make([]keyedTransaction, 0, len(txns))
	var errs []error
	for i, txn := range txns {
		key, err := c.key(txn.Object)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		keyed = append(keyed, keyedTransaction{Transaction: txn, key: key, index: i})
	}
	applied, applyErrs := c.transaction(keyed)
	if errs = append(errs, applyErrs...); len(errs) == 0 {
		return nil
	}
	return &TransactionError{SuccessfulIndices: applied, TotalTransactions: len(txns), Errors: errs}
}

// transaction applies txns under one lock acquisition and returns the
// indices of those applied. The resource version becomes that of the last
// applied object that has one.
func (s *threadSafeStore) transaction(txns []keyedTransaction) (applied []int, errs []error) {
	s.lock.Lock()
	defer s.lock.Unlock()
	applied = make([]int, 0, len(txns))
	var last any
	for _, txn := range txns {
		switch txn.Type {
		case TransactionTypeAdd, TransactionTypeUpdate:
			if _, _, err := s.updateLocked(txn.key, txn.Object); err != nil {
				errs = append(errs, err)
				continue
			}
		case TransactionTypeDelete:
			s.deleteLocked(txn.key)
		default:
			errs = append(errs, fmt.Errorf("unknown transaction type %q", txn.Type))
			continue
		}
		applied = append(applied, txn.index)
		last = txn.Object
	}
	s.observeLocked(last)
	return applied, errs
}

// store_transaction.go holds the cache's Transaction: several writes
// applied under one acquisition of the lock, so a reader sees the cache
// before the batch or after it, never half of it. The informer applies each
// batch that PopBatch hands out with it (realfifo_batch.go).
//
// Reading 2: today's client-go (v0.35+, the InOrderInformersBatchProcess gate).
//
// client-go counterpart: Transaction, TransactionType, TransactionStore and
// TransactionError in tools/cache store.go; threadSafeMap.Transaction in
// thread_safe_store.go.
//
// Tutorial: 000 §2.5 (applying a change atomically).

package informer

import "fmt"

// TransactionType says what one write of a Transaction does.
type TransactionType string

// The writes a Transaction can hold.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction is one write of a batch: its Type says whether Object is
// added, updated or deleted.
type Transaction struct {
	Object any
	Type   TransactionType
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
	errs = append(errs, applyErrs...)
	if len(errs) == 0 {
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
			if err := s.updateLocked(txn.key, txn.Object); err != nil {
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

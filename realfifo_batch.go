// realfifo_batch.go holds the RealFIFO's PopBatch: how it cuts the queue
// into runs of deltas that the informer applies to its cache in one
// Transaction (processDeltasInBatch, process.go).
//
// client-go counterpart: RealFIFO.PopBatch, batchable and defaultBatchSize in
// k8s.io/client-go/tools/cache the_real_fifo.go; the InOrderInformersBatchProcess
// gate (v0.37.2).
//
// Tutorial: the walkthrough's Step03RealFIFO.

package informer

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

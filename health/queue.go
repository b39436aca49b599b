// queue.go holds the queue wrapper a Recorder gives the informer through
// SharedIndexInformerOptions.WrapQueue: every call goes on to the informer's
// queue unchanged, and a Resync call, which the controller makes once per
// resync, is timed. The optional methods the Reflector and the run loop
// look for (Bookmark, Transformer, and PopBatch of a RealFIFO) are handed on
// too, so the informer works exactly as without the wrapper.
//
// client-go counterpart: none; client-go's work queue metrics
// (util/workqueue's MetricsProvider) count a different queue.
//
// Tutorial: 000 ch. 5 (health figures: how long a resync takes).

package health

import (
	"errors"

	informer "github.com/learn-k8s/informer"
)

// errOtherWatchError is the failure of an ERROR event that carried no
// Status.
var errOtherWatchError = errors.New("the watch ended with an ERROR event without a Status")

// WrapQueue wraps the informer's queue so that the Recorder times each
// resync; pass it as SharedIndexInformerOptions.WrapQueue.
func (r *Recorder) WrapQueue(q informer.Queue) informer.Queue {
	w := queue{Queue: q, rec: r}
	if b, ok := q.(informer.QueueWithBatch); ok {
		return batchQueue{queue: w, batch: b}
	}
	return w
}

// queue hands every call on to the informer's queue.
type queue struct {
	informer.Queue
	rec *Recorder
}

// Resync re-delivers the cache's objects, timed.
func (q queue) Resync() error {
	start := q.rec.clock.Now()
	err := q.Queue.Resync()
	q.rec.resynced(start, q.rec.clock.Since(start))
	return err
}

// Bookmark hands a watch bookmark on to a queue that wants it (a RealFIFO).
func (q queue) Bookmark(resourceVersion string) error {
	if b, ok := q.Queue.(informer.ReflectorBookmarkStore); ok {
		return b.Bookmark(resourceVersion)
	}
	return nil
}

// Transformer returns the queue's transform, nil when it has none (the
// streaming list then applies none, as without the wrapper).
func (q queue) Transformer() informer.TransformFunc {
	if t, ok := q.Queue.(interface{ Transformer() informer.TransformFunc }); ok {
		return t.Transformer()
	}
	return nil
}

// batchQueue is queue for a queue that can pop batches (a RealFIFO).
type batchQueue struct {
	queue
	batch informer.QueueWithBatch
}

// PopBatch hands the call on.
func (q batchQueue) PopBatch(processBatch informer.ProcessBatchFunc, processSingle informer.PopProcessFunc) error {
	return q.batch.PopBatch(processBatch, processSingle)
}

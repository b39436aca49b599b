// queues_clientgo.go is client-go's side of the queue differential
// (queues_drive.go): tools/cache's DeltaFIFO or RealFIFO, configured as
// queueConfig says, popped through client-go's own processDeltas and
// processDeltasInBatch (reached by go:linkname, as queues_ours.go explains)
// into its Indexer, with a handler that writes down every call.
//
// client-go's LastStoreSyncResourceVersion answers "" unless the AtomicFIFO
// gate is on; the differential runs with v0.37.2's defaults, where it is.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	_ "unsafe" // go:linkname

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

//go:linkname clientGoProcessDeltas k8s.io/client-go/tools/cache.processDeltas
func clientGoProcessDeltas(logger klog.Logger, handler cache.ResourceEventHandler, clientState cache.Store,
	deltas cache.Deltas, isInInitialList bool, keyFunc cache.KeyFunc) error

//go:linkname clientGoProcessDeltasInBatch k8s.io/client-go/tools/cache.processDeltasInBatch
func clientGoProcessDeltasInBatch(logger klog.Logger, handler cache.ResourceEventHandler, clientState cache.Store,
	deltas []cache.Delta, isInInitialList bool, keyFunc cache.KeyFunc) error

// clientGoQueue is client-go's queue, Indexer and handler: a queueSide.
type clientGoQueue struct {
	cfg   queueConfig
	idx   cache.Indexer
	store clientGoSortedIndexer
	fifo  interface {
		cache.Queue
		IsClosed() bool
	}
	real  *cache.RealFIFO  // the RealFIFO, or nil
	delta *cache.DeltaFIFO // the DeltaFIFO, or nil
	notes []string
}

// newClientGoQueue builds client-go's side in cfg.
func newClientGoQueue(cfg queueConfig) *clientGoQueue {
	q := &clientGoQueue{cfg: cfg, idx: cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{
		"byApp": clientGoLabelIndex("app"), cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
	})}
	q.store = clientGoSortedIndexer{q.idx}
	var transform cache.TransformFunc
	if cfg.Transform {
		transform = clientGoTransform
	}
	if !cfg.Real {
		opts := cache.DeltaFIFOOptions{EmitDeltaTypeReplaced: cfg.Replaced, Transformer: transform}
		if cfg.Known {
			opts.KnownObjects = q.store
		}
		q.delta = cache.NewDeltaFIFOWithOptions(opts)
		q.fifo = q.delta
		return q
	}
	opts := cache.RealFIFOOptions{Transformer: transform, AtomicEvents: cfg.Atomic,
		UnlockWhileProcessing: cfg.Unlock, EmitDeltaTypeBookmark: cfg.Bookmarks}
	if cfg.Known {
		opts.KnownObjects = q.store
	}
	q.real = cache.NewRealFIFOWithOptions(opts)
	q.fifo = q.real
	return q
}

func (q *clientGoQueue) write(kind qopKind, o qobj) error {
	switch kind {
	case qAdd:
		return q.fifo.Add(clientGoObject(o))
	case qUpdate:
		return q.fifo.Update(clientGoObject(o))
	}
	return q.fifo.Delete(clientGoObject(o))
}

func (q *clientGoQueue) replace(list []qobj, rv string) error {
	objs := make([]any, len(list))
	for i, o := range list {
		objs[i] = clientGoObject(o)
	}
	return q.fifo.Replace(objs, rv)
}

func (q *clientGoQueue) resync() error            { return q.fifo.Resync() }
func (q *clientGoQueue) bookmark(rv string) error { return q.real.Bookmark(rv) }
func (q *clientGoQueue) close()                   { q.fifo.Close() }
func (q *clientGoQueue) isClosed() bool           { return q.fifo.IsClosed() }
func (q *clientGoQueue) hasSynced() bool          { return q.fifo.HasSynced() }

func (q *clientGoQueue) pop(fail bool, during func()) (string, int, error) {
	n := 0
	finish := func(err error) error {
		during()
		if err == nil && fail {
			err = errProcess
		}
		return err
	}
	process := func(obj any, initial bool) error {
		deltas := obj.(cache.Deltas)
		n += len(deltas)
		q.note(fmt.Sprintf("process %s, initial %v", clientGoDescribe(deltas), initial))
		return finish(clientGoProcessDeltas(klog.Background(), q, q.store, deltas, initial,
			cache.DeletionHandlingMetaNamespaceKeyFunc))
	}
	if q.cfg.Batch {
		err := q.real.PopBatch(func(deltas []cache.Delta, initial bool) error {
			n += len(deltas)
			q.note(fmt.Sprintf("process batch %s, initial %v", clientGoDescribe(cache.Deltas(deltas)), initial))
			return finish(clientGoProcessDeltasInBatch(klog.Background(), q, q.store, deltas, initial,
				cache.DeletionHandlingMetaNamespaceKeyFunc))
		}, process)
		return "", n, err
	}
	item, err := q.fifo.Pop(process)
	if item == nil {
		return "", n, err
	}
	return clientGoDescribe(item), n, err
}

// queued reads what the queue holds under its lock: client-go's queues
// have no way to look inside since v0.33.
func (q *clientGoQueue) queued() []string {
	var out []string
	if q.real != nil {
		lock := fieldOf[sync.RWMutex](q.real, "lock")
		lock.RLock()
		defer lock.RUnlock()
		for _, d := range *fieldOf[[]cache.Delta](q.real, "items") {
			out = append(out, clientGoDescribe(cache.Deltas{d}))
		}
		return out
	}
	lock := fieldOf[sync.RWMutex](q.delta, "lock")
	lock.RLock()
	defer lock.RUnlock()
	items := *fieldOf[map[string]cache.Deltas](q.delta, "items")
	for _, key := range *fieldOf[[]string](q.delta, "queue") {
		out = append(out, clientGoDescribe(items[key]))
	}
	return out
}

func (q *clientGoQueue) indexer() []string {
	idx := q.idx
	var out []string
	for _, key := range q.store.ListKeys() {
		obj, _, _ := idx.GetByKey(key)
		out = append(out, "cached "+key+": "+clientGoDescribe(obj))
	}
	out = append(out, "store version "+idx.LastStoreSyncResourceVersion())
	for _, name := range sortedKeys(idx.GetIndexers()) {
		values := slices.Sorted(slices.Values(idx.ListIndexFuncValues(name)))
		out = append(out, fmt.Sprintf("index %s: %q", name, values))
		for _, v := range values {
			keys, err := idx.IndexKeys(name, v)
			objs, err2 := idx.ByIndex(name, v)
			out = append(out, fmt.Sprintf("index %s=%s: keys %q %v, objects %q %v", name, v,
				slices.Sorted(slices.Values(keys)), err, describeSorted(objs, clientGoDescribe), err2))
		}
	}
	return out
}

func (q *clientGoQueue) addIndexer() error {
	return q.idx.AddIndexers(cache.Indexers{"byTier": clientGoLabelIndex("tier")})
}

func (q *clientGoQueue) note(line string) { q.notes = append(q.notes, line) }

func (q *clientGoQueue) takeNotes() []string {
	n := q.notes
	q.notes = nil
	return n
}

func (q *clientGoQueue) errKind(err error) string {
	return kindOf(err, func(err error) string {
		var ke cache.KeyError
		switch {
		case errors.Is(err, cache.ErrFIFOClosed):
			return "closed"
		case errors.As(err, &ke):
			return "key"
		}
		return ""
	})
}

// OnAdd, OnUpdate and OnDelete make clientGoQueue the handler
// processDeltas tells: they write the call down.
func (q *clientGoQueue) OnAdd(obj any, initial bool) {
	q.note(fmt.Sprintf("OnAdd %s, initial %v", clientGoDescribe(obj), initial))
}
func (q *clientGoQueue) OnUpdate(old, obj any) {
	q.note(fmt.Sprintf("OnUpdate %s -> %s", clientGoDescribe(old), clientGoDescribe(obj)))
}
func (q *clientGoQueue) OnDelete(obj any) { q.note("OnDelete " + clientGoDescribe(obj)) }

// clientGoSortedIndexer is the Indexer with its keys and objects listed in
// key order (see queues_drive.go), still a TransactionStore.
type clientGoSortedIndexer struct{ cache.Indexer }

func (s clientGoSortedIndexer) ListKeys() []string {
	return slices.Sorted(slices.Values(s.Indexer.ListKeys()))
}

func (s clientGoSortedIndexer) List() []any {
	var out []any
	for _, k := range s.ListKeys() {
		if obj, ok, _ := s.GetByKey(k); ok {
			out = append(out, obj)
		}
	}
	return out
}

func (s clientGoSortedIndexer) Transaction(txns ...cache.Transaction) *cache.TransactionError {
	return s.Indexer.(cache.TransactionStore).Transaction(txns...)
}

// clientGoObject builds o as one of client-go's objects.
func clientGoObject(o qobj) any {
	if o.Keyless {
		return keylessObject{ID: o.ID}
	}
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: o.Name,
		ResourceVersion: o.RV, Labels: o.labels()}}
}

// clientGoTransform is queueTransform for client-go's pods.
func clientGoTransform(obj any) (any, error) {
	if p, ok := obj.(*corev1.Pod); ok {
		return queueTransform(p, &p.Labels)
	}
	return obj, nil
}

// clientGoLabelIndex is labelIndex for client-go's pods.
func clientGoLabelIndex(label string) cache.IndexFunc {
	return func(obj any) ([]string, error) {
		if p, ok := obj.(*corev1.Pod); ok {
			return labelIndex(p.Labels, label), nil
		}
		return nil, nil
	}
}

// clientGoDescribe describes one of client-go's objects, deltas or queue
// items, as ourDescribe describes ours.
func clientGoDescribe(obj any) string {
	switch o := obj.(type) {
	case nil:
		return "nil"
	case *corev1.Pod:
		return podString(o.Namespace, o.Name, o.ResourceVersion, o.Labels)
	case cache.DeletedFinalStateUnknown:
		return "tombstone " + o.Key + " of " + clientGoDescribe(o.Obj)
	case cache.ReplacedAllInfo:
		return "all@" + o.ResourceVersion + " " + describeList(o.Objects, clientGoDescribe)
	case cache.SyncAllInfo:
		return "sync-all"
	case cache.BookmarkInfo:
		return "bookmark@" + o.ResourceVersion
	case keylessObject:
		return o.String()
	case cache.Deltas:
		items := make([]any, len(o))
		for i, d := range o {
			items[i] = string(d.Type) + " " + clientGoDescribe(d.Object)
		}
		return describeList(items, func(s any) string { return s.(string) })
	}
	return fmt.Sprintf("%T", obj)
}

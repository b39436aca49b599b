// queues_ours.go is our side of the queue differential (queues_drive.go):
// the root package's DeltaFIFO or RealFIFO, configured as queueConfig says,
// popped through the root's own processDeltas and processDeltasInBatch
// into its Indexer, with a handler that writes down every call.
//
// processDeltas is what an informer's run loop calls, and it is not
// exported; the differential reaches it by go:linkname (a pull of a
// symbol of a package this module imports, which the Go toolchain allows
// outside the standard library), so that what is compared is the code the
// informer runs, not a copy. queues_clientgo.go does the same with
// client-go's.
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

	informer "github.com/learn-k8s/informer"
)

//go:linkname ourProcessDeltas github.com/learn-k8s/informer.processDeltas
func ourProcessDeltas(handler informer.ResourceEventHandler, clientState informer.Store,
	deltas informer.Deltas, isInInitialList bool) error

//go:linkname ourProcessDeltasInBatch github.com/learn-k8s/informer.processDeltasInBatch
func ourProcessDeltasInBatch(handler informer.ResourceEventHandler, clientState informer.Store,
	deltas []informer.Delta, isInInitialList bool) error

// ourFIFO is what both our queues do.
type ourFIFO interface {
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	Replace(list []any, resourceVersion string) error
	Resync() error
	Pop(process informer.PopProcessFunc) (any, error)
	Close()
	IsClosed() bool
	HasSynced() bool
}

// ourQueue is our queue, Indexer and handler: a queueSide.
type ourQueue struct {
	cfg   queueConfig
	idx   informer.Indexer
	store ourSortedIndexer
	fifo  ourFIFO
	real  *informer.RealFIFO // the RealFIFO, or nil
	notes []string
}

// newOurQueue builds our side in cfg.
func newOurQueue(cfg queueConfig) *ourQueue {
	q := &ourQueue{cfg: cfg, idx: informer.NewIndexer(informer.DeletionHandlingMetaNamespaceKeyFunc, informer.Indexers{
		"byApp": ourLabelIndex("app"), informer.NamespaceIndex: informer.MetaNamespaceIndexFunc,
	})}
	q.store = ourSortedIndexer{q.idx}
	var transform informer.TransformFunc
	if cfg.Transform {
		transform = ourTransform
	}
	if !cfg.Real {
		opts := informer.DeltaFIFOOptions{EmitDeltaTypeReplaced: cfg.Replaced, Transformer: transform}
		if cfg.Known {
			opts.KnownObjects = q.store
		}
		q.fifo = informer.NewDeltaFIFOWithOptions(opts)
		return q
	}
	opts := informer.RealFIFOOptions{Transformer: transform, AtomicEvents: cfg.Atomic,
		UnlockWhileProcessing: cfg.Unlock, EmitDeltaTypeBookmark: cfg.Bookmarks}
	if cfg.Known {
		opts.KnownObjects = q.store
	}
	q.real = informer.NewRealFIFOWithOptions(opts)
	q.fifo = q.real
	return q
}

func (q *ourQueue) write(kind qopKind, o qobj) error {
	switch kind {
	case qAdd:
		return q.fifo.Add(ourObject(o))
	case qUpdate:
		return q.fifo.Update(ourObject(o))
	}
	return q.fifo.Delete(ourObject(o))
}

func (q *ourQueue) replace(list []qobj, rv string) error {
	objs := make([]any, len(list))
	for i, o := range list {
		objs[i] = ourObject(o)
	}
	return q.fifo.Replace(objs, rv)
}

func (q *ourQueue) resync() error            { return q.fifo.Resync() }
func (q *ourQueue) bookmark(rv string) error { return q.real.Bookmark(rv) }
func (q *ourQueue) close()                   { q.fifo.Close() }
func (q *ourQueue) isClosed() bool           { return q.fifo.IsClosed() }
func (q *ourQueue) hasSynced() bool          { return q.fifo.HasSynced() }

func (q *ourQueue) pop(fail bool, during func()) (string, int, error) {
	n := 0
	finish := func(err error) error {
		during()
		if err == nil && fail {
			err = errProcess
		}
		return err
	}
	process := func(obj any, initial bool) error {
		deltas := obj.(informer.Deltas)
		n += len(deltas)
		q.note(fmt.Sprintf("process %s, initial %v", ourDescribe(deltas), initial))
		return finish(ourProcessDeltas(q, q.store, deltas, initial))
	}
	if q.cfg.Batch {
		err := q.real.PopBatch(func(deltas []informer.Delta, initial bool) error {
			n += len(deltas)
			q.note(fmt.Sprintf("process batch %s, initial %v", ourDescribe(informer.Deltas(deltas)), initial))
			return finish(ourProcessDeltasInBatch(q, q.store, deltas, initial))
		}, process)
		return "", n, err
	}
	item, err := q.fifo.Pop(process)
	if item == nil {
		return "", n, err
	}
	return ourDescribe(item), n, err
}

// queued reads what the queue holds: the DeltaFIFO says (QueuedDeltas);
// the RealFIFO does not, so its items are read under its lock.
func (q *ourQueue) queued() []string {
	var out []string
	if q.real == nil {
		for _, d := range q.fifo.(*informer.DeltaFIFO).QueuedDeltas() {
			out = append(out, ourDescribe(d))
		}
		return out
	}
	lock := fieldOf[sync.Mutex](q.real, "lock")
	lock.Lock()
	defer lock.Unlock()
	for _, d := range *fieldOf[[]informer.Delta](q.real, "items") {
		out = append(out, ourDescribe(informer.Deltas{d}))
	}
	return out
}

func (q *ourQueue) indexer() []string {
	idx := q.idx
	var out []string
	for _, key := range q.store.ListKeys() {
		obj, _, _ := idx.GetByKey(key)
		out = append(out, "cached "+key+": "+ourDescribe(obj))
	}
	out = append(out, "store version "+idx.LastStoreSyncResourceVersion())
	for _, name := range sortedKeys(idx.GetIndexers()) {
		values := slices.Sorted(slices.Values(idx.ListIndexFuncValues(name)))
		out = append(out, fmt.Sprintf("index %s: %q", name, values))
		for _, v := range values {
			keys, err := idx.IndexKeys(name, v)
			objs, err2 := idx.ByIndex(name, v)
			out = append(out, fmt.Sprintf("index %s=%s: keys %q %v, objects %q %v", name, v,
				slices.Sorted(slices.Values(keys)), err, describeSorted(objs, ourDescribe), err2))
		}
	}
	return out
}

func (q *ourQueue) addIndexer() error {
	return q.idx.AddIndexers(informer.Indexers{"byTier": ourLabelIndex("tier")})
}

func (q *ourQueue) note(line string) { q.notes = append(q.notes, line) }

func (q *ourQueue) takeNotes() []string {
	n := q.notes
	q.notes = nil
	return n
}

func (q *ourQueue) errKind(err error) string {
	return kindOf(err, func(err error) string {
		var ke informer.KeyError
		switch {
		case errors.Is(err, informer.ErrFIFOClosed):
			return "closed"
		case errors.As(err, &ke):
			return "key"
		}
		return ""
	})
}

// OnAdd, OnUpdate and OnDelete make ourQueue the handler processDeltas
// tells: they write the call down.
func (q *ourQueue) OnAdd(obj any, initial bool) {
	q.note(fmt.Sprintf("OnAdd %s, initial %v", ourDescribe(obj), initial))
}
func (q *ourQueue) OnUpdate(old, obj any) {
	q.note(fmt.Sprintf("OnUpdate %s -> %s", ourDescribe(old), ourDescribe(obj)))
}
func (q *ourQueue) OnDelete(obj any) { q.note("OnDelete " + ourDescribe(obj)) }

// ourSortedIndexer is the Indexer with its keys and objects listed in
// key order (see queues_drive.go), still a TransactionStore.
type ourSortedIndexer struct{ informer.Indexer }

func (s ourSortedIndexer) ListKeys() []string {
	return slices.Sorted(slices.Values(s.Indexer.ListKeys()))
}

func (s ourSortedIndexer) List() []any {
	var out []any
	for _, k := range s.ListKeys() {
		if obj, ok, _ := s.GetByKey(k); ok {
			out = append(out, obj)
		}
	}
	return out
}

func (s ourSortedIndexer) Transaction(txns ...informer.Transaction) *informer.TransactionError {
	return s.Indexer.(informer.TransactionStore).Transaction(txns...)
}

// ourObject builds o as one of our objects.
func ourObject(o qobj) any {
	if o.Keyless {
		return keylessObject{ID: o.ID}
	}
	return &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: o.Namespace, Name: o.Name,
		ResourceVersion: o.RV, Labels: o.labels()}}
}

// ourTransform is queueTransform for our pods.
func ourTransform(obj any) (any, error) {
	if p, ok := obj.(*informer.Pod); ok {
		return queueTransform(p, &p.Labels)
	}
	return obj, nil
}

// ourLabelIndex is labelIndex for our pods.
func ourLabelIndex(label string) informer.IndexFunc {
	return func(obj any) ([]string, error) {
		if p, ok := obj.(*informer.Pod); ok {
			return labelIndex(p.Labels, label), nil
		}
		return nil, nil
	}
}

// ourDescribe describes one of our objects, deltas or queue items.
func ourDescribe(obj any) string {
	switch o := obj.(type) {
	case nil:
		return "nil"
	case *informer.Pod:
		return podString(o.Namespace, o.Name, o.ResourceVersion, o.Labels)
	case informer.DeletedFinalStateUnknown:
		return "tombstone " + o.Key + " of " + ourDescribe(o.Obj)
	case informer.ReplacedAllInfo:
		return "all@" + o.ResourceVersion + " " + describeList(o.Objects, ourDescribe)
	case informer.SyncAllInfo:
		return "sync-all"
	case informer.BookmarkInfo:
		return "bookmark@" + o.ResourceVersion
	case keylessObject:
		return o.String()
	case informer.Deltas:
		items := make([]any, len(o))
		for i, d := range o {
			items[i] = string(d.Type) + " " + ourDescribe(d.Object)
		}
		return describeList(items, func(s any) string { return s.(string) })
	}
	return fmt.Sprintf("%T", obj)
}

// informer.go holds the typed informer and indexer: SharedIndexInformer[T]
// wraps an informer.SharedIndexInformer so typed handlers and typed index
// functions can be added and typed results read, converting to and from the
// untyped informer at the edge.
//
// client-go counterpart: TypedSharedIndexInformer,
// NewTypedSharedIndexInformer and typedResourceEventHandler in
// k8s.io/client-go/tools/cache shared_informer.go; TypedIndexer,
// TypedIndexers, TypedIndexFunc, IndexersToIndexers,
// IndexerFuncToIndexerFunc in index.go (v0.37.2). See the package
// comment for the names.
//
// Tutorial: 004 §3.1 (generics for type-safe informers).

package typed

import (
	"fmt"
	"log/slog"

	informer "github.com/learn-k8s/informer"
)

// IndexFunc computes the index values of an object of type T.
type IndexFunc[T any] func(obj T) ([]string, error)

// Indexers maps an index name to its typed index function.
type Indexers[T any] map[string]IndexFunc[T]

// IndexersToIndexers turns typed index functions into Indexers, for
// informer.SharedIndexInformerOptions.Indexers or informer.NewIndexer.
func IndexersToIndexers[T any](indexers Indexers[T]) informer.Indexers {
	untyped := make(informer.Indexers, len(indexers))
	for name, fn := range indexers {
		untyped[name] = IndexerFuncToIndexerFunc(fn)
	}
	return untyped
}

// IndexerFuncToIndexerFunc turns one typed index function into an
// informer.IndexFunc. An object that is not a T is an error (client-go
// panics).
func IndexerFuncToIndexerFunc[T any](indexer IndexFunc[T]) informer.IndexFunc {
	return func(obj any) ([]string, error) {
		t, ok := obj.(T)
		if !ok {
			var want T
			return nil, fmt.Errorf("index function for %T got a %T", want, obj)
		}
		return indexer(t)
	}
}

// Indexer is an informer.Indexer whose objects are of type T.
type Indexer[T any] interface {
	informer.Indexer
	// TypedIndex returns the objects that share an index value with obj.
	TypedIndex(indexName string, obj T) ([]T, error)
	// ByTypedIndex returns the objects with this index value.
	ByTypedIndex(indexName, indexedValue string) ([]T, error)
	// AddTypedIndexers adds typed index functions.
	AddTypedIndexers(newIndexers Indexers[T]) error
}

// SharedIndexInformer is an informer.SharedIndexInformer with typed
// variants of the methods that take or give objects.
type SharedIndexInformer[T informer.Object] interface {
	informer.SharedIndexInformer
	// AddTypedEventHandler adds a typed handler; with no options as
	// AddEventHandler, with one as AddEventHandlerWithOptions. More than
	// one is an error.
	AddTypedEventHandler(handler ResourceEventHandler[T], options ...informer.HandlerOptions) (informer.ResourceEventHandlerRegistration, error)
	// AddTypedIndexers adds typed index functions.
	AddTypedIndexers(indexers Indexers[T]) error
	// GetTypedIndexer returns the cache, typed.
	GetTypedIndexer() Indexer[T]
}

// NewSharedIndexInformer wraps inf, whose objects are of type T.
func NewSharedIndexInformer[T informer.Object](inf informer.SharedIndexInformer) SharedIndexInformer[T] {
	return typedSharedIndexInformer[T]{SharedIndexInformer: inf}
}

type typedSharedIndexInformer[T informer.Object] struct {
	informer.SharedIndexInformer
}

func (s typedSharedIndexInformer[T]) AddTypedEventHandler(handler ResourceEventHandler[T], options ...informer.HandlerOptions) (informer.ResourceEventHandlerRegistration, error) {
	var o informer.HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		o = options[0]
	default:
		return nil, fmt.Errorf("at most one HandlerOptions may be passed, got %d", len(options))
	}
	if handler == nil {
		return nil, fmt.Errorf("AddTypedEventHandler: the handler is nil")
	}
	return s.AddEventHandlerWithOptions(typedResourceEventHandler[T]{handler}, o)
}

func (s typedSharedIndexInformer[T]) AddTypedIndexers(indexers Indexers[T]) error {
	return s.AddIndexers(IndexersToIndexers(indexers))
}

func (s typedSharedIndexInformer[T]) GetTypedIndexer() Indexer[T] {
	return typedIndexer[T]{s.GetIndexer()}
}

// typedResourceEventHandler adapts a typed handler to
// informer.ResourceEventHandler.
// A tombstone becomes a DeletedObject with FinalStateUnknown set. An object
// that is not a T is logged and dropped (client-go's type assertion panics).
type typedResourceEventHandler[T informer.Object] struct {
	handler ResourceEventHandler[T]
}

func (h typedResourceEventHandler[T]) OnAdd(obj any, isInInitialList bool) {
	if t, ok := typedOrLog[T](obj); ok {
		h.handler.OnAdd(t, isInInitialList)
	}
}

func (h typedResourceEventHandler[T]) OnUpdate(oldObj, newObj any) {
	o, okOld := typedOrLog[T](oldObj)
	n, okNew := typedOrLog[T](newObj)
	if okOld && okNew {
		h.handler.OnUpdate(o, n)
	}
}

func (h typedResourceEventHandler[T]) OnDelete(obj any) {
	tomb, isTombstone := obj.(informer.DeletedFinalStateUnknown)
	if !isTombstone {
		if t, ok := typedOrLog[T](obj); ok {
			h.handler.OnDelete(DeletedObject[T]{OptionalObj: t})
		}
		return
	}
	d := DeletedObject[T]{FinalStateUnknown: &tomb}
	if tomb.Obj != nil {
		t, ok := typedOrLog[T](tomb.Obj)
		if !ok {
			return
		}
		d.OptionalObj = t
	}
	h.handler.OnDelete(d)
}

// typedOrLog converts obj to T, logging anything else.
func typedOrLog[T any](obj any) (T, bool) {
	t, ok := obj.(T)
	if !ok {
		slog.Error("typed handler got an object of an unexpected type",
			"want", fmt.Sprintf("%T", t), "got", fmt.Sprintf("%T", obj))
	}
	return t, ok
}

// typedIndexer is an Indexer with typed results.
type typedIndexer[T any] struct {
	informer.Indexer
}

func (i typedIndexer[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	untyped, err := i.Index(indexName, obj)
	if err != nil {
		return nil, err
	}
	return typedList[T](untyped)
}

func (i typedIndexer[T]) ByTypedIndex(indexName, indexedValue string) ([]T, error) {
	untyped, err := i.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return typedList[T](untyped)
}

func (i typedIndexer[T]) AddTypedIndexers(newIndexers Indexers[T]) error {
	return i.AddIndexers(IndexersToIndexers(newIndexers))
}

// typedList converts a list of objects to []T; an object that is not a T is
// an error (client-go panics).
func typedList[T any](untyped []any) ([]T, error) {
	typed := make([]T, len(untyped))
	for n, obj := range untyped {
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("the indexer holds a %T, not a %T", obj, t)
		}
		typed[n] = t
	}
	return typed, nil
}

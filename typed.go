// typed.go puts generics around the any-based core, so that code for one
// kind reads without type assertions: TypedResourceEventHandlerFuncs[T]
// turns typed functions into a ResourceEventHandler, and ResourceIndexer[T]
// lists and gets objects of type T from an informer's Indexer.
//
// The core stays untyped, as client-go's tools/cache does: one informer,
// DeltaFIFO and Indexer work for every kind, including *Unstructured. The
// one place a typed handler must still think is OnDelete. When the informer
// missed a deletion (the watch was down) it hands OnDelete a
// DeletedFinalStateUnknown instead of the object. TypedResourceEventHandlerFuncs
// unwraps it and gives DeleteFunc the last state the cache knew, which may
// be stale; set TombstoneFunc to learn that the final state was unknown.
// Anything that is not a T (a tombstone with no object, a foreign type)
// goes to UnexpectedFunc, or is logged: it is never turned into a zero T.
//
// client-go counterpart: the generic listers of k8s.io/client-go/listers
// (ResourceIndexer[T], New, NewNamespaced), and the tombstone-unwrapping
// pattern every client-go controller writes in its delete handler.
//
// Tutorial: 004 §3.1 (generics for type-safe informers).

package informer

import (
	"fmt"
	"log/slog"
)

// TypedResourceEventHandlerFuncs is a ResourceEventHandler for objects of
// type T (such as *Pod) made of typed functions; a nil function ignores its
// notifications.
type TypedResourceEventHandlerFuncs[T Object] struct {
	// AddFunc is called with each added object.
	AddFunc func(obj T)
	// UpdateFunc is called with the old and new state of an object.
	UpdateFunc func(oldObj, newObj T)
	// DeleteFunc is called with the last state of a deleted object: the
	// object of the DELETED event, or, when the deletion was missed, the
	// last state the cache knew (unwrapped from DeletedFinalStateUnknown).
	DeleteFunc func(obj T)
	// TombstoneFunc, if set, is called instead of DeleteFunc for a deletion
	// the informer missed, with the tombstone's key and last known object.
	TombstoneFunc func(key string, lastKnown T)
	// UnexpectedFunc, if set, receives any notification whose object is not
	// a T; otherwise such notifications are logged and dropped.
	UnexpectedFunc func(obj any)
}

var _ ResourceEventHandler = TypedResourceEventHandlerFuncs[*Pod]{}

// OnAdd calls AddFunc with obj as a T.
func (h TypedResourceEventHandlerFuncs[T]) OnAdd(obj any, _ bool) {
	if t, ok := h.as(obj); ok && h.AddFunc != nil {
		h.AddFunc(t)
	}
}

// OnUpdate calls UpdateFunc with both objects as T.
func (h TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj any) {
	o, okOld := h.as(oldObj)
	if !okOld {
		return
	}
	if n, okNew := h.as(newObj); okNew && h.UpdateFunc != nil {
		h.UpdateFunc(o, n)
	}
}

// OnDelete calls DeleteFunc (or TombstoneFunc) with the deleted object as a
// T, unwrapping a DeletedFinalStateUnknown.
func (h TypedResourceEventHandlerFuncs[T]) OnDelete(obj any) {
	tomb, isTombstone := obj.(DeletedFinalStateUnknown)
	if !isTombstone {
		if t, ok := h.as(obj); ok && h.DeleteFunc != nil {
			h.DeleteFunc(t)
		}
		return
	}
	t, ok := cast[T](tomb.Obj)
	switch {
	case !ok:
		h.unexpected(obj) // the whole tombstone, so its key is not lost
	case h.TombstoneFunc != nil:
		h.TombstoneFunc(tomb.Key, t)
	case h.DeleteFunc != nil:
		h.DeleteFunc(t)
	}
}

// as converts obj to T, reporting anything else as unexpected.
func (h TypedResourceEventHandlerFuncs[T]) as(obj any) (T, bool) {
	t, ok := cast[T](obj)
	if !ok {
		h.unexpected(obj)
	}
	return t, ok
}

func (h TypedResourceEventHandlerFuncs[T]) unexpected(obj any) {
	if h.UnexpectedFunc != nil {
		h.UnexpectedFunc(obj)
		return
	}
	var want T
	slog.Error("typed handler got an object of an unexpected type",
		"want", fmt.Sprintf("%T", want), "got", fmt.Sprintf("%T", obj))
}

// cast converts obj to T; a nil pointer is no T.
func cast[T Object](obj any) (T, bool) {
	t, ok := obj.(T)
	return t, ok && !isNilPointer(obj)
}

// ResourceIndexer lists and gets objects of type T from an Indexer (an
// informer's GetIndexer()), in every namespace or in one. The objects are
// the cache's own, shared with every reader: DeepCopy before changing one.
// Objects in the Indexer that are not a T are skipped.
type ResourceIndexer[T Object] struct {
	indexer   Indexer
	resource  string // for NotFound messages, e.g. "pod"
	namespace string // NamespaceAll for every namespace
}

// NewResourceIndexer returns a ResourceIndexer over indexer for every
// namespace. resource names the kind in NotFound errors, e.g. "pod".
func NewResourceIndexer[T Object](indexer Indexer, resource string) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns parent restricted to one namespace.
func NewNamespaced[T Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector (nil: all), from the
// namespace index when the indexer has one.
func (l ResourceIndexer[T]) List(selector Selector) ([]T, error) {
	var out []T
	err := ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if t, ok := obj.(T); ok {
			out = append(out, t)
		}
	})
	return out, err
}

// Get returns the named object: name alone for every-namespace (or
// cluster-scoped) indexers, namespace/name once restricted by NewNamespaced.
// A missing object is an error for which IsNotFound is true.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespace != NamespaceAll {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("%s %q in the cache is a %T, not a %T", l.resource, key, obj, zero)
	}
	return t, nil
}

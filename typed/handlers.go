// Package typed holds client-go's typed informer API: handlers whose
// functions take the object's own type (such as *informer.Pod) instead of
// any, DeletedObject[T], which carries a deletion whose final state may be
// unknown without losing the type, typed index functions, and a typed view
// of a shared informer. The informer stays untyped, as client-go's
// tools/cache does: one informer, queue and Indexer work for every kind;
// this package converts at the edge (informer.go).
//
// client-go counterpart: the Typed... names of k8s.io/client-go/tools/cache
// (v0.37.2), where they live beside the untyped informer; here the package
// name says "typed", so each name drops the prefix:
//
//	typed.ResourceEventHandler[T]               cache.TypedResourceEventHandler[T]
//	typed.ResourceEventHandlerFuncs[T]          cache.TypedResourceEventHandlerFuncs[T]
//	typed.ResourceEventHandlerDetailedFuncs[T]  cache.TypedResourceEventHandlerDetailedFuncs[T]
//	typed.FilteringResourceEventHandler[T]      cache.TypedFilteringResourceEventHandler[T]
//	typed.DeletedObject[T]                      cache.DeletedObject[T]
//	typed.SharedIndexInformer[T]                cache.TypedSharedIndexInformer[T]
//	typed.NewSharedIndexInformer[T]             cache.NewTypedSharedIndexInformer[T]
//	typed.Indexer[T], Indexers[T], IndexFunc[T] cache.TypedIndexer[T], TypedIndexers[T], TypedIndexFunc[T]
//	typed.IndexersToIndexers                    cache.TypedIndexersToIndexers
//	typed.IndexerFuncToIndexerFunc              cache.TypedIndexerFuncToIndexerFunc
//
// The methods keep client-go's names (AddTypedEventHandler, ByTypedIndex...).
// client-go's cache.Object constraint (comparable, GetName, GetNamespace)
// is informer.Object here. Typed listers are in the listers package.
//
// Tutorial: 004 §3.1 (generics for type-safe informers). Walkthrough: Step
// 18 (go test -v -run Step18 ./typed).
package typed

import (
	"reflect"
	"strings"

	informer "github.com/learn-k8s/informer"
)

// ResourceEventHandler is an informer.ResourceEventHandler for objects of
// type T.
// OnDelete gets a DeletedObject: the object, or a tombstone when the
// informer missed the deletion.
type ResourceEventHandler[T informer.Object] interface {
	// OnAdd is called with each added object.
	OnAdd(obj T, isInInitialList bool)
	// OnUpdate is called with the old and new state of an object.
	OnUpdate(oldObj, newObj T)
	// OnDelete is called with a deleted object.
	OnDelete(obj DeletedObject[T])
}

// DeletedObject is a deletion as a typed handler receives it. OptionalObj is
// the object's last state: the object of the DELETED event, or the last state
// the cache knew when the deletion was missed, which may be stale; it is the
// zero T when even that is unknown. FinalStateUnknown is set exactly when
// the deletion was missed (a relist found the object gone).
type DeletedObject[T informer.Object] struct {
	// OptionalObj is the last known state, or the zero T.
	OptionalObj T
	// FinalStateUnknown is the tombstone of a missed deletion, else nil.
	FinalStateUnknown *informer.DeletedFinalStateUnknown
}

// GetKey returns the deleted object's key: the tombstone's, or namespace/name
// (name alone when cluster-scoped); "" when nothing is known.
func (d DeletedObject[T]) GetKey() string {
	if d.FinalStateUnknown != nil {
		return d.FinalStateUnknown.Key
	}
	if isNilObject(d.OptionalObj) {
		return ""
	}
	if ns := d.OptionalObj.GetNamespace(); ns != "" {
		return ns + "/" + d.OptionalObj.GetName()
	}
	return d.OptionalObj.GetName()
}

// GetNamespace returns the deleted object's namespace, from its key.
func (d DeletedObject[T]) GetNamespace() string {
	ns, _ := d.namespaceAndName()
	return ns
}

// GetName returns the deleted object's name, from its key.
func (d DeletedObject[T]) GetName() string {
	_, name := d.namespaceAndName()
	return name
}

func (d DeletedObject[T]) namespaceAndName() (namespace, name string) {
	key := d.GetKey()
	if ns, n, found := strings.Cut(key, "/"); found {
		return ns, n
	}
	return "", key
}

// isNilObject reports whether obj is the zero T (nil interface or pointer).
func isNilObject[T informer.Object](obj T) bool {
	if any(obj) == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// ResourceEventHandlerFuncs is a ResourceEventHandler made of
// functions; a nil function ignores its notifications.
type ResourceEventHandlerFuncs[T informer.Object] struct {
	// AddFunc is called with each added object.
	AddFunc func(obj T)
	// UpdateFunc is called with the old and new state of an object.
	UpdateFunc func(oldObj, newObj T)
	// DeleteFunc is called with each deletion.
	DeleteFunc func(obj DeletedObject[T])
}

var _ ResourceEventHandler[*informer.Pod] = ResourceEventHandlerFuncs[*informer.Pod]{}

// OnAdd calls AddFunc, if set.
func (r ResourceEventHandlerFuncs[T]) OnAdd(obj T, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc, if set.
func (r ResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc, if set.
func (r ResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs
// whose AddFunc also learns whether the add belongs to the initial list.
type ResourceEventHandlerDetailedFuncs[T informer.Object] struct {
	// AddFunc is called with each added object.
	AddFunc func(obj T, isInInitialList bool)
	// UpdateFunc is called with the old and new state of an object.
	UpdateFunc func(oldObj, newObj T)
	// DeleteFunc is called with each deletion.
	DeleteFunc func(obj DeletedObject[T])
}

var _ ResourceEventHandler[*informer.Pod] = ResourceEventHandlerDetailedFuncs[*informer.Pod]{}

// OnAdd calls AddFunc, if set.
func (r ResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc, if set.
func (r ResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc, if set.
func (r ResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler passes on only the objects FilterFunc
// accepts. An update that makes an object pass becomes an add; one that
// makes it fail becomes a delete of the old state.
type FilteringResourceEventHandler[T informer.Object] struct {
	// FilterFunc says whether an object concerns Handler.
	FilterFunc func(obj T) bool
	// Handler receives what passes.
	Handler ResourceEventHandler[T]
}

// OnAdd passes obj on if it passes the filter.
func (r FilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes an update on as an update, an add, a delete or nothing,
// by whether the old and new states pass the filter.
func (r FilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	newer, older := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer:
		r.Handler.OnAdd(newObj, false)
	case older:
		r.Handler.OnDelete(DeletedObject[T]{OptionalObj: oldObj})
	}
}

// OnDelete passes obj on if its last known state passes the filter.
func (r FilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	if r.FilterFunc(obj.OptionalObj) {
		r.Handler.OnDelete(obj)
	}
}

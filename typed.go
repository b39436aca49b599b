// typed.go holds client-go's typed event-handler API: handlers whose
// functions take the object's own type (such as *Pod) instead of any, and
// DeletedObject[T], which carries a deletion whose final state may be
// unknown without losing the type. The core stays untyped, as client-go's
// tools/cache does: one informer, queue and Indexer work for every kind; the
// typed layer converts at the edge (typed_informer.go).
//
// client-go counterpart: TypedResourceEventHandler, DeletedObject,
// TypedResourceEventHandlerFuncs, TypedResourceEventHandlerDetailedFuncs and
// TypedFilteringResourceEventHandler in k8s.io/client-go/tools/cache
// controller.go (v0.37.2). Its cache.Object constraint (comparable, GetName,
// GetNamespace) is our Object here.
//
// Tutorial: 004 §3.1 (generics for type-safe informers).

package informer

import "strings"

// TypedResourceEventHandler is a ResourceEventHandler for objects of type T.
// OnDelete gets a DeletedObject: the object, or a tombstone when the
// informer missed the deletion.
type TypedResourceEventHandler[T Object] interface {
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
type DeletedObject[T Object] struct {
	// OptionalObj is the last known state, or the zero T.
	OptionalObj T
	// FinalStateUnknown is the tombstone of a missed deletion, else nil.
	FinalStateUnknown *DeletedFinalStateUnknown
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
func isNilObject[T Object](obj T) bool {
	return any(obj) == nil || isNilPointer(obj)
}

// TypedResourceEventHandlerFuncs is a TypedResourceEventHandler made of
// functions; a nil function ignores its notifications.
type TypedResourceEventHandlerFuncs[T Object] struct {
	// AddFunc is called with each added object.
	AddFunc func(obj T)
	// UpdateFunc is called with the old and new state of an object.
	UpdateFunc func(oldObj, newObj T)
	// DeleteFunc is called with each deletion.
	DeleteFunc func(obj DeletedObject[T])
}

var _ TypedResourceEventHandler[*Pod] = TypedResourceEventHandlerFuncs[*Pod]{}

// OnAdd calls AddFunc, if set.
func (r TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc, if set.
func (r TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc, if set.
func (r TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedResourceEventHandlerDetailedFuncs is TypedResourceEventHandlerFuncs
// whose AddFunc also learns whether the add belongs to the initial list.
type TypedResourceEventHandlerDetailedFuncs[T Object] struct {
	// AddFunc is called with each added object.
	AddFunc func(obj T, isInInitialList bool)
	// UpdateFunc is called with the old and new state of an object.
	UpdateFunc func(oldObj, newObj T)
	// DeleteFunc is called with each deletion.
	DeleteFunc func(obj DeletedObject[T])
}

var _ TypedResourceEventHandler[*Pod] = TypedResourceEventHandlerDetailedFuncs[*Pod]{}

// OnAdd calls AddFunc, if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc, if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc, if set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedFilteringResourceEventHandler passes on only the objects FilterFunc
// accepts. An update that makes an object pass becomes an add; one that
// makes it fail becomes a delete of the old state.
type TypedFilteringResourceEventHandler[T Object] struct {
	// FilterFunc says whether an object concerns Handler.
	FilterFunc func(obj T) bool
	// Handler receives what passes.
	Handler TypedResourceEventHandler[T]
}

// OnAdd passes obj on if it passes the filter.
func (r TypedFilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes an update on as an update, an add, a delete or nothing,
// by whether the old and new states pass the filter.
func (r TypedFilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
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
func (r TypedFilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	if r.FilterFunc(obj.OptionalObj) {
		r.Handler.OnDelete(obj)
	}
}

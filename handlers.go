// handlers.go holds what a user of an informer writes: ResourceEventHandler
// (OnAdd, OnUpdate, OnDelete), the ResourceEventHandlerFuncs adapter, and
// FilteringResourceEventHandler, which shows a handler only the objects a
// filter accepts.
//
// client-go counterpart: the handler types at the end of
// k8s.io/client-go/tools/cache controller.go.
//
// Tutorial: 004 §4.3 (handler registration and filters).

package informer

// ResourceEventHandler receives an informer's notifications. The calls for
// one handler come from one goroutine, in order; they must not change the
// objects they are given (the cache shares them: DeepCopy first).
type ResourceEventHandler interface {
	// OnAdd: an object appeared. isInInitialList is true for the objects of
	// the initial list (or, for a handler added late, the cache's contents).
	OnAdd(obj any, isInInitialList bool)
	// OnUpdate: an object changed, or a relist or resync re-delivered it
	// (then old and new have the same resource version).
	OnUpdate(oldObj, newObj any)
	// OnDelete: an object is gone. obj is its last state, or a
	// DeletedFinalStateUnknown when the deletion happened while the watch
	// was down and a relist found the object missing.
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs adapts functions to a ResourceEventHandler; a
// nil function ignores its notifications.
type ResourceEventHandlerFuncs struct {
	// AddFunc is called for OnAdd; the isInInitialList flag is dropped.
	AddFunc func(obj any)
	// UpdateFunc is called for OnUpdate.
	UpdateFunc func(oldObj, newObj any)
	// DeleteFunc is called for OnDelete; obj may be a DeletedFinalStateUnknown.
	DeleteFunc func(obj any)
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler passes on only what FilterFunc accepts. An
// update that makes an object start passing the filter reaches Handler as an
// add; one that makes it stop passing reaches Handler as a delete, so the
// handler's view is always "the objects that pass".
type FilteringResourceEventHandler struct {
	// FilterFunc says whether an object is of interest. It must be set.
	FilterFunc func(obj any) bool
	// Handler receives the notifications that pass the filter.
	Handler ResourceEventHandler
}

// OnAdd passes obj on if it passes the filter.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes the update on as an update, an add, a delete or nothing,
// depending on which of the two states pass the filter.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	newer, older := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer:
		r.Handler.OnAdd(newObj, false)
	case older:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete passes obj on if it passes the filter.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

// ResourceEventHandlerRegistration is what AddEventHandler returns: a handle
// for RemoveEventHandler, and HasSynced for this one handler.
type ResourceEventHandlerRegistration interface {
	// HasSynced is true once the informer has synced and this handler has
	// been given (and has returned from) every object of its initial list.
	HasSynced() bool
}

// handlers.go holds ResourceEventHandler, what an informer's user writes, and two ready-made ones.
//
// client-go counterpart: the handler types in k8s.io/client-go/tools/cache controller.go.
//
// Tutorial: 004 §4.3 (handler registration and filters).

package informer

// ResourceEventHandler is called in order on one goroutine; the objects are the cache's: read only.
type ResourceEventHandler interface {
	// OnAdd: an object appeared; isInInitialList if in the initial list (or cache, if added late).
	OnAdd(obj any, isInInitialList bool)
	// OnUpdate: an object changed, or a relist or resync re-delivered it.
	OnUpdate(oldObj, newObj any)
	// OnDelete: an object is gone; obj is its last state or a DeletedFinalStateUnknown.
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs adapts functions to a ResourceEventHandler; nil ones ignore theirs.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)            // called by OnAdd, without isInInitialList
	UpdateFunc func(oldObj, newObj any) // called by OnUpdate
	DeleteFunc func(obj any)            // called by OnDelete
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

// FilteringResourceEventHandler shows Handler only what FilterFunc (required)
// accepts: an update into the filter arrives as an add, one out as a delete.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

// OnAdd passes obj on if it passes the filter.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes an update on as an update, an add, a delete or nothing.
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

// ResourceEventHandlerRegistration, from AddEventHandler, is the handle for RemoveEventHandler.
type ResourceEventHandlerRegistration interface {
	// HasSynced: the informer has synced and this handler has handled its initial list.
	HasSynced() bool
}

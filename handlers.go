// handlers.go holds ResourceEventHandler, what an informer's user writes, and two ready-made ones.
// client-go counterpart: the handler types in k8s.io/client-go/tools/cache controller.go.
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

// ResourceEventHandlerRegistration, from AddEventHandler, is the handle for RemoveEventHandler.
type ResourceEventHandlerRegistration interface {
	// HasSynced: the informer has synced and this handler has handled its initial list.
	HasSynced() bool
}

// ResourceEventHandlerFuncs is a ResourceEventHandler of functions; each
// method calls its function (AddFunc without isInInitialList) if not nil.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

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

func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

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

func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

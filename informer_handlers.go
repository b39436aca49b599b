// informer_handlers.go holds ResourceEventHandler, what an informer's user writes, and two
// ready-made ones; then SharedIndexInformer's handler and settings methods, and WaitForCacheSync.
// client-go counterpart: the handler types in tools/cache controller.go; shared_informer.go.
// Tutorial: 004 §4.3 (handler registration and filters), §4.4 (resync periods).

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

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

var errAlreadyStarted = errors.New("informer has already started")
var errForeignRegistration = errors.New("the registration was not returned by AddEventHandler")

// The exported methods below are documented on SharedIndexInformer (informer.go).

func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithResyncPeriod(handler, s.options.ResyncPeriod)
}

// determineResyncPeriod fits a handler's wish to the informer's check period.
func determineResyncPeriod(desired, check time.Duration) time.Duration {
	switch {
	case desired == 0:
		return 0
	case check == 0:
		slog.Warn("the resync period is ignored: this informer does not resync", "period", desired)
		return 0
	case desired < check:
		slog.Warn("the resync period is raised to the informer's check period", "period", desired, "check", check)
		return check
	}
	return desired
}

func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	period := s.options.ResyncPeriod
	if options.ResyncPeriod != nil {
		period = *options.ResyncPeriod
	}
	return s.AddEventHandlerWithResyncPeriod(handler, period)
}

// AddEventHandlerWithResyncPeriod registers handler with its own resync
// period; one under the check period lowers it before Run, is raised after.
func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	if handler == nil {
		return nil, errors.New("AddEventHandler: the handler is nil")
	}
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.stopped.Load() {
		return nil, fmt.Errorf("handler %T was not added to the shared informer because it has stopped already", handler)
	}
	if resyncPeriod > 0 {
		resyncPeriod = max(resyncPeriod, minimumResyncPeriod)
		if resyncPeriod < s.resyncCheckPeriod {
			if s.started {
				resyncPeriod = s.resyncCheckPeriod
			} else {
				s.resyncCheckPeriod = resyncPeriod
				s.processor.resyncCheckPeriodChanged(resyncPeriod)
			}
		}
	}
	l := newProcessListener(handler, resyncPeriod, determineResyncPeriod(resyncPeriod, s.resyncCheckPeriod),
		s.clock.Now(), s.HasSynced)
	if !s.started {
		return s.processor.addListener(l), nil
	}
	// A late handler gets the cache as adds before anything else: hold deltas.
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	handle := s.processor.addListener(l)
	for _, item := range s.indexer.List() {
		l.add(addNotification{newObj: item, isInInitialList: true})
	}
	return handle, nil
}

func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.processor.removeListener(handle)
}

func (s *sharedIndexInformer) HasSynced() bool {
	c, _ := s.controller.Load().(Controller)
	return c != nil && c.HasSynced()
}

func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	if c, _ := s.controller.Load().(Controller); c != nil {
		return c.LastSyncResourceVersion()
	}
	return ""
}

func (s *sharedIndexInformer) GetStore() Store     { return s.indexer }
func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }
func (s *sharedIndexInformer) IsStopped() bool     { return s.stopped.Load() }

func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	if s.IsStopped() {
		return errors.New("indexer was not added because the informer has stopped already")
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.indexer.AddIndexers(indexers)
}

func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	return s.beforeStart(func() { s.watchErrorHandler = handler })
}

func (s *sharedIndexInformer) SetTransform(handler TransformFunc) error {
	return s.beforeStart(func() { s.transform = handler })
}

// beforeStart runs set unless the informer has started.
func (s *sharedIndexInformer) beforeStart(set func()) error {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.started {
		return errAlreadyStarted
	}
	set()
	return nil
}

// InformerSynced is an informer's or a registration's HasSynced.
type InformerSynced func() bool

const syncedPollPeriod = 100 * time.Millisecond // how often WaitForCacheSync asks

// WaitForCacheSync waits for every cacheSyncs to report true; false if ctx ends first.
func WaitForCacheSync(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	ticker := time.NewTicker(syncedPollPeriod)
	defer ticker.Stop()
	for slices.ContainsFunc(cacheSyncs, func(synced InformerSynced) bool { return !synced() }) {
		select {
		case <-ctx.Done():
			slog.Info("stopped waiting for caches to sync", "err", ctx.Err())
			return false
		case <-ticker.C:
		}
	}
	return true
}

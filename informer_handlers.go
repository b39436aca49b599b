// informer_handlers.go holds what an informer's user writes: the
// ResourceEventHandler interface and two ready-made handlers; then the
// SharedIndexInformer's methods that add and remove handlers and change its
// settings, and WaitForCacheSync.
//
// client-go counterpart: the handler types of tools/cache controller.go
// (ResourceEventHandler, ResourceEventHandlerFuncs,
// FilteringResourceEventHandler); shared_informer.go
// (AddEventHandlerWithOptions, RemoveEventHandler, WaitForCacheSync).
//
// Tutorial: 004 §4.3 (registering handlers, filters), §4.4 (resync periods).

package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// ResourceEventHandler is what an informer tells of changes: write one to
// react to them. The informer calls a handler's methods one at a time, on
// one goroutine, in the order of the changes (see SharedInformer for the
// full contract). The objects are the cache's own (see Store). A method
// must return promptly; long work belongs on a work queue.
type ResourceEventHandler interface {
	// OnAdd is called when an object appears in the cache. isInInitialList
	// is true for the objects of the initial list (and, for a handler added
	// while the informer runs, for the objects already cached then).
	OnAdd(obj any, isInInitialList bool)
	// OnUpdate is called when an object in the cache is replaced. oldObj is
	// what the cache held, which may be several changes back. A resync, and
	// a relist that found the object unchanged, call it with equal resource
	// versions, for the handlers due for a resync only (see SharedInformer).
	OnUpdate(oldObj, newObj any)
	// OnDelete is called when an object leaves the cache. obj is its last
	// state known, or a tombstone (DeletedFinalStateUnknown).
	OnDelete(obj any)
}

// ResourceEventHandlerRegistration is what AddEventHandler returns: the
// handle that RemoveEventHandler takes.
type ResourceEventHandlerRegistration interface {
	// HasSynced reports whether the informer has synced and this handler
	// has handled every add of its initial list.
	HasSynced() bool
}

// ResourceEventHandlerFuncs is a ResourceEventHandler made of functions;
// each may be nil, and a nil one is not called. AddFunc does not get
// isInInitialList.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd implements ResourceEventHandler: it calls AddFunc, if set.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, _ bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate implements ResourceEventHandler: it calls UpdateFunc, if set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete implements ResourceEventHandler: it calls DeleteFunc, if set.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler shows Handler only the objects FilterFunc
// accepts. An update that makes an object pass the filter arrives as an
// add, one that makes it fail as a delete: Handler sees objects enter and
// leave the filtered set as if it were a collection of its own.
type FilteringResourceEventHandler struct {
	// FilterFunc says which objects Handler sees; it is required.
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

// OnAdd implements ResourceEventHandler: it tells Handler of an accepted object.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate implements ResourceEventHandler: an update within the filter, an
// add into it or a delete out of it.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	newer := r.FilterFunc(newObj)
	older := r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer:
		r.Handler.OnAdd(newObj, false)
	case older:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete implements ResourceEventHandler: it tells Handler of an accepted object.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

var errAlreadyStarted = errors.New("informer has already started")
var errForeignRegistration = errors.New("the registration was not returned by AddEventHandler")

// AddEventHandler implements SharedInformer.
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
		slog.Warn("the resync period is raised to the informer's check period",
			"period", desired, "check", check)
		return check
	}
	return desired
}

// AddEventHandlerWithOptions implements SharedInformer.
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
	if s.stopped {
		return nil, fmt.Errorf("handler %T was not added to the shared informer "+
			"because it has stopped already", handler)
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
	period := determineResyncPeriod(resyncPeriod, s.resyncCheckPeriod)
	l := newProcessListener(handler, resyncPeriod, period, s.clock.Now(), s.HasSynced)
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

// RemoveEventHandler implements SharedInformer.
func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.processor.removeListener(handle)
}

// HasSynced implements SharedInformer: the initial list has been processed,
// and, once the informer was stopped, it had been by then.
func (s *sharedIndexInformer) HasSynced() bool {
	if s.stopping.Load() {
		return s.syncedAtStop.Load()
	}
	c, _ := s.controller.Load().(Controller)
	return c != nil && c.HasSynced()
}

// LastSyncResourceVersion implements SharedInformer.
func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	if c, _ := s.controller.Load().(Controller); c != nil {
		return c.LastSyncResourceVersion()
	}
	return ""
}

// GetStore implements SharedInformer.
func (s *sharedIndexInformer) GetStore() Store {
	return s.indexer
}

// GetIndexer implements SharedIndexInformer.
func (s *sharedIndexInformer) GetIndexer() Indexer {
	return s.indexer
}

// IsStopped implements SharedInformer.
func (s *sharedIndexInformer) IsStopped() bool {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	return s.stopped
}

// AddIndexers implements SharedIndexInformer.
func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	if s.IsStopped() {
		return errors.New("indexer was not added because the informer has stopped already")
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.indexer.AddIndexers(indexers)
}

// SetWatchErrorHandler implements SharedInformer.
func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	return s.beforeStart(func() { s.watchErrorHandler = handler })
}

// SetTransform implements SharedInformer.
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

const syncedPollPeriod = 100 * time.Millisecond

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

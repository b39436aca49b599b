// compat_gc_collector.go (compatibility layer): the garbage collector,
// which kube-controller-manager runs on a real cluster. It follows
// ownerReferences from an owner to its dependents, as a delete's
// propagationPolicy asks:
//
//   - Background (the default of a plain delete): the owner goes at once;
//     then each dependent whose owners are all gone is deleted too.
//   - Foreground: the owner stays, with a deletionTimestamp and the
//     "foregroundDeletion" finalizer, while its dependents are deleted; once
//     none that blocks it (blockOwnerDeletion: true) is left, the finalizer
//     goes, and the owner with it.
//   - Orphan: the owner stays with the "orphan" finalizer while the
//     collector removes the owner's entry from each dependent's
//     ownerReferences; then the finalizer goes, and the owner with it.
//
// A dependent that still has an owner in place loses only its references
// to the owners gone (or waiting for their dependents); a dependent is
// deleted with the policy its own finalizers ask for, Background if none.
// A pod so deleted is deleted gracefully, as any delete of a pod.
//
// As kube-controller-manager's collector, fakeapi's works a moment after
// the change that calls for it (gcDelay), in a goroutine of its own: a
// client sees the owner go first, then its dependents, as on a real
// cluster (a ReplicaSet controller whose pod cache heard of its pods'
// deletion before its ReplicaSet cache heard of the ReplicaSet's would
// make new pods). One difference is on purpose: an ownerReference to an object fakeapi
// never held is left alone (kube-controller-manager's collector would
// read the owner, find it missing and delete the dependent), so that an
// object made with an example ownerReference stays. One to an object
// fakeapi deleted is dangling, as on a real cluster.
//
// Options.DisableGarbageCollector switches it off: the "orphan" and
// "foregroundDeletion" finalizers then stay until someone else removes
// them, as on a kube-apiserver without kube-controller-manager, so that
// kube-controller-manager's own collector can run against fakeapi.
//
// client-go counterpart: the garbage collector of kube-controller-manager
// (k8s.io/kubernetes v1.37.2 pkg/controller/garbagecollector:
// attemptToDeleteItem, classifyReferences, processDeletingDependentsItem,
// orphanDependents, the GraphBuilder's transitions). Tutorial: none.

package fakeapi

import (
	"slices"
	"sync"
	"time"
)

// gcDelay is how long after a change the collector acts on it; the
// changes meanwhile are dealt with together.
const gcDelay = 50 * time.Millisecond

// controllers are the parts of kube-controller-manager fakeapi plays: the
// namespace controller (compat_namespace_controller.go) and the garbage
// collector.
type controllers struct {
	namespaces namespaceController
	gc         garbageCollector
}

// configure sets the controllers as opts say, before the server starts.
func (c *controllers) configure(opts Options) {
	c.namespaces.delay = opts.NamespaceDeletionDelay
	c.gc.disabled = opts.DisableGarbageCollector
}

// stop ends the controllers' goroutines and waits for them.
func (c *controllers) stop() {
	c.namespaces.stop()
	c.gc.stop()
}

// objectRef names one stored object: its resource, key and uid.
type objectRef struct {
	ri  *resourceInfo
	key string
	uid string
}

// gcTask is one thing the collector has to look at.
type gcTask struct {
	orphan bool // orphan ref's dependents; else attempt to delete ref (attemptToDeleteItem)
	ref    objectRef
}

// garbageCollector is the collector's state, guarded by the store's mu
// but for the fields of its goroutine's life.
type garbageCollector struct {
	disabled bool

	// The goroutine that runs the tasks: started with the first task,
	// woken by wake, ended by stop.
	mu      sync.Mutex // guards started and stopped
	started bool
	stopped bool
	wake    chan struct{} // buffered: one wake-up pending is enough
	stopCh  chan struct{}
	running sync.WaitGroup

	// dependents lists, by owner uid, the objects whose ownerReferences
	// name it.
	dependents map[string]map[objectRef]struct{}
	// deleted holds the uids of the objects deleted: a reference to one is
	// dangling.
	deleted  map[string]struct{}
	tasks    []gcTask // to do, in order
	draining bool     // collectGarbageLocked is running the tasks
}

// stop ends the collector's goroutine, if any, and waits for it.
func (gc *garbageCollector) stop() {
	gc.mu.Lock()
	if !gc.stopped && gc.started {
		close(gc.stopCh)
	}
	gc.stopped = true
	gc.mu.Unlock()
	gc.running.Wait()
}

// kickCollectorLocked makes the collector run its tasks soon, starting its
// goroutine the first time. s.mu is held.
func (s *store) kickCollectorLocked() {
	gc := &s.controllers.gc
	gc.mu.Lock()
	defer gc.mu.Unlock()
	if gc.stopped {
		return
	}
	if !gc.started {
		gc.started = true
		gc.wake = make(chan struct{}, 1)
		gc.stopCh = make(chan struct{})
		gc.running.Go(s.runCollector)
	}
	select {
	case gc.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// runCollector is the collector's goroutine: gcDelay after being woken, it
// runs every task queued, until stopped.
func (s *store) runCollector() {
	gc := &s.controllers.gc
	for {
		select {
		case <-gc.wake:
		case <-gc.stopCh:
			return
		}
		t := time.NewTimer(gcDelay)
		select {
		case <-t.C:
		case <-gc.stopCh:
			t.Stop()
			return
		}
		s.mu.Lock()
		s.collectGarbageLocked()
		s.mu.Unlock()
	}
}

// ownerReference is what the collector reads of one ownerReferences entry.
type ownerReference struct {
	apiVersion, kind, name, uid string
	blockOwnerDeletion          bool
}

// ownerReferences returns the ownerReferences of body.
func ownerReferences(body map[string]any) []ownerReference {
	list, _ := metadata(body)["ownerReferences"].([]any)
	refs := make([]ownerReference, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		r := ownerReference{}
		r.apiVersion, _ = m["apiVersion"].(string)
		r.kind, _ = m["kind"].(string)
		r.name, _ = m["name"].(string)
		r.uid, _ = m["uid"].(string)
		r.blockOwnerDeletion, _ = m["blockOwnerDeletion"].(bool)
		refs = append(refs, r)
	}
	return refs
}

// refOf returns the objectRef of a stored object of ri.
func refOf(ri *resourceInfo, o *object) objectRef {
	uid, _ := metadata(o.body)["uid"].(string)
	return objectRef{ri: ri, key: o.key, uid: uid}
}

// deletingDependents reports whether o waits for its dependents
// (Foreground). (kubernetes: node.isDeletingDependents.)
func deletingDependents(o *object) bool {
	meta := metadata(o.body)
	return meta["deletionTimestamp"] != nil && slices.Contains(finalizers(meta), finalizerForeground)
}

// observeLocked is the collector's view of one change, called by every
// stored write (compat_writes.go): typ is "ADDED", "MODIFIED" or "DELETED",
// o the new (or, deleted, the last) state, prev the state before. It keeps
// the dependents index and queues what the change calls for; the tasks run
// a moment later (runCollector). (kubernetes: the GraphBuilder's
// processGraphChanges and processTransitions.)
func (s *store) observeLocked(typ string, ri *resourceInfo, o, prev *object) {
	gc := &s.controllers.gc
	if gc.disabled {
		return
	}
	defer func() {
		if len(gc.tasks) > 0 && !gc.draining {
			s.kickCollectorLocked()
		}
	}()
	if gc.dependents == nil {
		gc.dependents = map[string]map[objectRef]struct{}{}
		gc.deleted = map[string]struct{}{}
	}
	ref := refOf(ri, o)
	var before []ownerReference
	if prev != nil {
		before = ownerReferences(prev.body)
		for _, owner := range before {
			delete(gc.dependents[owner.uid], ref)
		}
	}
	if typ == "DELETED" {
		gc.deleted[ref.uid] = struct{}{}
		// Its dependents may have no owner left.
		for dep := range gc.dependents[ref.uid] {
			gc.tasks = append(gc.tasks, gcTask{ref: dep})
		}
		s.wakeWaitingOwnersLocked(o.ns, before)
		return
	}
	after := ownerReferences(o.body)
	for _, owner := range after {
		if gc.dependents[owner.uid] == nil {
			gc.dependents[owner.uid] = map[objectRef]struct{}{}
		}
		gc.dependents[owner.uid][ref] = struct{}{}
	}
	meta := metadata(o.body)
	if meta["deletionTimestamp"] != nil {
		fins := finalizers(meta)
		if slices.Contains(fins, finalizerOrphan) {
			gc.tasks = append(gc.tasks, gcTask{orphan: true, ref: ref})
		}
		if slices.Contains(fins, finalizerForeground) {
			gc.tasks = append(gc.tasks, gcTask{ref: ref}) // processDeletingDependents
			for dep := range gc.dependents[ref.uid] {
				gc.tasks = append(gc.tasks, gcTask{ref: dep})
			}
		}
	}
	// An owner gone or waiting: this object may have to go.
	for _, owner := range after {
		if _, gone := gc.deleted[owner.uid]; gone {
			gc.tasks = append(gc.tasks, gcTask{ref: ref})
			break
		}
		if obj, _ := s.ownerLocked(owner, o.ns); obj != nil && deletingDependents(obj) {
			gc.tasks = append(gc.tasks, gcTask{ref: ref})
			break
		}
	}
	// An owner this object no longer names may have been waiting for it.
	var dropped []ownerReference
	for _, owner := range before {
		if !slices.ContainsFunc(after, func(r ownerReference) bool { return r.uid == owner.uid }) {
			dropped = append(dropped, owner)
		}
	}
	s.wakeWaitingOwnersLocked(o.ns, dropped)
}

// wakeWaitingOwnersLocked queues the owners in refs that wait for their
// dependents: one of them just went.
func (s *store) wakeWaitingOwnersLocked(ns string, refs []ownerReference) {
	for _, owner := range refs {
		if obj, ri := s.ownerLocked(owner, ns); obj != nil && deletingDependents(obj) {
			s.controllers.gc.tasks = append(s.controllers.gc.tasks, gcTask{ref: refOf(ri, obj)})
		}
	}
}

// ownerLocked returns the stored object ref names, for a dependent in
// namespace ns, if it is there with ref's uid.
func (s *store) ownerLocked(ref ownerReference, ns string) (*object, *resourceInfo) {
	for _, ri := range catalog {
		if ri.kind != ref.kind || ri.apiVersion() != ref.apiVersion {
			continue
		}
		key := ref.name
		if ri.namespaced {
			key = objectKey(ns, ref.name)
		}
		if o := s.objects[ri][key]; o != nil && metadata(o.body)["uid"] == ref.uid {
			return o, ri
		}
		return nil, ri
	}
	return nil, nil
}

// collectGarbageLocked runs the queued tasks, and those they cause, until
// none is left; a write the collector makes only queues more.
func (s *store) collectGarbageLocked() {
	gc := &s.controllers.gc
	gc.draining = true
	defer func() { gc.draining = false }()
	for len(gc.tasks) > 0 {
		task := gc.tasks[0]
		gc.tasks = gc.tasks[1:]
		if task.orphan {
			s.orphanDependentsLocked(task.ref)
		} else {
			s.attemptToDeleteLocked(task.ref)
		}
	}
	gc.tasks = nil
}

// lookupLocked returns the object ref names if it is still stored.
func (s *store) lookupLocked(ref objectRef) *object {
	o := s.objects[ref.ri][ref.key]
	if o == nil || metadata(o.body)["uid"] != ref.uid {
		return nil
	}
	return o
}

// attemptToDeleteLocked decides what to do with ref: wait for the
// dependents of an owner in Foreground deletion, else delete it if it has
// no owner left in place, else drop its references to owners gone.
// (kubernetes: attemptToDeleteItem, classifyReferences.)
func (s *store) attemptToDeleteLocked(ref objectRef) {
	o := s.lookupLocked(ref)
	if o == nil {
		return
	}
	meta := metadata(o.body)
	if meta["deletionTimestamp"] != nil {
		if deletingDependents(o) {
			s.processDeletingDependentsLocked(ref, o)
		}
		return // on its way out already
	}
	refs := ownerReferences(o.body)
	if len(refs) == 0 {
		return
	}
	var solid, dangling, waiting []string
	for _, owner := range refs {
		obj, _ := s.ownerLocked(owner, o.ns)
		_, gone := s.controllers.gc.deleted[owner.uid]
		switch {
		case obj != nil && deletingDependents(obj):
			waiting = append(waiting, owner.uid)
		case obj == nil && gone:
			dangling = append(dangling, owner.uid)
		default: // in place, or never held by fakeapi: left alone
			solid = append(solid, owner.uid)
		}
	}
	switch {
	case len(solid) > 0:
		if len(dangling)+len(waiting) > 0 {
			s.removeOwnerReferencesLocked(ref, o, append(dangling, waiting...))
		}
	case len(waiting) > 0 && len(s.controllers.gc.dependents[ref.uid]) > 0:
		s.gcDeleteLocked(ref, o, "Foreground") // its own dependents go first
	default:
		policy := "Background"
		switch fins := finalizers(meta); {
		case slices.Contains(fins, finalizerOrphan):
			policy = "Orphan"
		case slices.Contains(fins, finalizerForeground):
			policy = "Foreground"
		}
		s.gcDeleteLocked(ref, o, policy)
	}
}

// processDeletingDependentsLocked removes the "foregroundDeletion"
// finalizer of o once no dependent that blocks it is left.
// (kubernetes: processDeletingDependentsItem.)
func (s *store) processDeletingDependentsLocked(ref objectRef, o *object) {
	for dep := range s.controllers.gc.dependents[ref.uid] {
		d := s.lookupLocked(dep)
		if d == nil {
			continue
		}
		for _, owner := range ownerReferences(d.body) {
			if owner.uid == ref.uid && owner.blockOwnerDeletion {
				return // still blocked; the dependent's delete wakes it again
			}
		}
	}
	s.removeFinalizerLocked(ref, o, finalizerForeground)
}

// orphanDependentsLocked removes ref from the ownerReferences of each of
// its dependents, then its "orphan" finalizer.
// (kubernetes: attemptToOrphanWorker, orphanDependents.)
func (s *store) orphanDependentsLocked(ref objectRef) {
	o := s.lookupLocked(ref)
	if o == nil || !slices.Contains(finalizers(metadata(o.body)), finalizerOrphan) {
		return
	}
	for dep := range s.controllers.gc.dependents[ref.uid] {
		if d := s.lookupLocked(dep); d != nil {
			s.removeOwnerReferencesLocked(dep, d, []string{ref.uid})
		}
	}
	if o = s.lookupLocked(ref); o != nil {
		s.removeFinalizerLocked(ref, o, finalizerOrphan)
	}
}

// removeOwnerReferencesLocked writes o without its ownerReferences to the
// owners of uids. (kubernetes: the collector's delete-owner-ref patch.)
func (s *store) removeOwnerReferencesLocked(ref objectRef, o *object, uids []string) {
	body := deepCopy(o.body).(map[string]any)
	meta := metadata(body)
	list, _ := meta["ownerReferences"].([]any)
	kept := slices.DeleteFunc(slices.Clone(list), func(item any) bool {
		m, _ := item.(map[string]any)
		uid, _ := m["uid"].(string)
		return slices.Contains(uids, uid)
	})
	if len(kept) == len(list) {
		return
	}
	if len(kept) == 0 {
		delete(meta, "ownerReferences")
	} else {
		meta["ownerReferences"] = kept
	}
	s.updateLocked(writeRequest{ri: ref.ri, ns: o.ns, name: o.name}, o, body)
}

// removeFinalizerLocked writes o without finalizer f; the write deletes o
// if it was only waiting for its finalizers.
func (s *store) removeFinalizerLocked(ref objectRef, o *object, f string) {
	body := deepCopy(o.body).(map[string]any)
	meta := metadata(body)
	left := slices.DeleteFunc(finalizers(meta), func(x string) bool { return x == f })
	if len(left) == 0 {
		delete(meta, "finalizers")
	} else {
		meta["finalizers"] = toAnyList(left)
	}
	w := writeRequest{ri: ref.ri, ns: o.ns, name: o.name}
	if deletesOnUpdate(o, body) {
		s.deleteLocked(w, o)
		return
	}
	s.updateLocked(w, o, body)
}

// gcDeleteLocked deletes o as a client's delete with propagationPolicy
// policy and o's uid as precondition would.
func (s *store) gcDeleteLocked(ref objectRef, o *object, policy string) {
	uid := ref.uid
	opts := deleteOptions{PropagationPolicy: &policy}
	opts.Preconditions = &struct {
		UID             *string `json:"uid,omitempty"`
		ResourceVersion *string `json:"resourceVersion,omitempty"`
	}{UID: &uid}
	_, _, _ = s.removeLocked(writeRequest{ri: ref.ri, ns: o.ns, name: o.name}, opts)
}

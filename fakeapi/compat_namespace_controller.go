// compat_namespace_controller.go (compatibility layer): the namespace
// controller, which kube-controller-manager runs on a real cluster: it
// empties a deleted namespace and then removes it.
//
// A deleted namespace stays Terminating while the controller works: first
// for Options.NamespaceDeletionDelay (the time the real controller takes to
// notice), during which a create inside it is a 403; then the controller
// deletes everything in it, as a client's delete would (so a pod bound to a
// node waits for its kubelet, which fakeapi has not, and the namespace with
// it), and once nothing is left removes its "kubernetes" finalizer, which
// deletes the namespace (DELETED) if no other finalizer holds it. fakeapi
// does not write the status conditions the real controller writes on the
// way. client-go counterpart: the namespace controller
// (k8s.io/kubernetes/pkg/controller/namespace/deletion). Tutorial: none.

package fakeapi

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"
)

// defaultNamespaceDeletionDelay is Options.NamespaceDeletionDelay's default.
const defaultNamespaceDeletionDelay = 500 * time.Millisecond

// namespaceController owns the goroutines that empty deleted namespaces,
// one per namespace being deleted. Its zero value is ready to use.
type namespaceController struct {
	delay   time.Duration // before the first pass; 0 = the default
	mu      sync.Mutex    // guards stopped and stopCh
	stopped bool
	stopCh  chan struct{} // closed by stop
	running sync.WaitGroup
}

// start runs work in a new goroutine, unless the controller has stopped.
func (c *namespaceController) start(work func(stop <-chan struct{}, delay time.Duration)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	if c.stopCh == nil {
		c.stopCh = make(chan struct{})
	}
	delay := cmp.Or(c.delay, defaultNamespaceDeletionDelay)
	c.running.Go(func() { work(c.stopCh, delay) })
}

// stop ends every goroutine of the controller and waits for them.
func (c *namespaceController) stop() {
	c.mu.Lock()
	if !c.stopped {
		c.stopped = true
		if c.stopCh != nil {
			close(c.stopCh)
		}
	}
	c.mu.Unlock()
	c.running.Wait()
}

// startNamespaceController starts the controller's work on namespace ns,
// just marked Terminating, whose uid is uid: a pass after the delay, and
// after each change to the store another pass, a delay later (changes in
// between are looked at together, as the real controller requeues).
func (s *store) startNamespaceController(ns string, uid any) {
	s.controllers.namespaces.start(func(stop <-chan struct{}, delay time.Duration) {
		for {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-stop:
				t.Stop()
				return
			}
			s.mu.Lock()
			done := s.syncNamespaceLocked(ns, uid)
			changed := s.changed
			s.mu.Unlock()
			if done {
				return
			}
			select { // wait for something to change: a pod's end, a finalizer gone
			case <-changed:
			case <-stop:
				return
			}
		}
	})
}

// syncNamespaceLocked is one pass of the controller over namespace ns: it
// empties it and finalizes it if it is empty. It reports whether the
// controller is done with ns: it is gone, is another namespace of the same
// name, or no longer waits for the "kubernetes" finalizer.
func (s *store) syncNamespaceLocked(ns string, uid any) bool {
	n := s.objects[namespaceInfo][ns]
	if n == nil || metadata(n.body)["uid"] != uid || metadata(n.body)["deletionTimestamp"] == nil {
		return true
	}
	s.emptyNamespaceLocked(ns)
	n = s.objects[namespaceInfo][ns]
	if n == nil {
		return true
	}
	spec, _ := n.body["spec"].(map[string]any)
	return !slices.Contains(stringList(spec["finalizers"]), "kubernetes")
}

// emptyNamespaceLocked is the namespace controller: it deletes every
// object in namespace ns, then finalizes ns if nothing is left.
func (s *store) emptyNamespaceLocked(ns string) {
	for _, ri := range catalog {
		if !ri.namespaced {
			continue
		}
		var names []string
		for _, o := range s.objects[ri] {
			if o.ns == ns && metadata(o.body)["deletionTimestamp"] == nil {
				names = append(names, o.name)
			}
		}
		slices.Sort(names)
		background := "Background"
		for _, name := range names {
			_, _, _ = s.removeLocked(writeRequest{ri: ri, ns: ns, name: name}, deleteOptions{PropagationPolicy: &background})
		}
	}
	s.finalizeNamespaceLocked(ns)
}

// finalizeNamespaceLocked removes the "kubernetes" finalizer of a
// Terminating namespace that holds no objects, and then the namespace if
// no other finalizer is left.
func (s *store) finalizeNamespaceLocked(ns string) {
	n := s.objects[namespaceInfo][ns]
	if n == nil || metadata(n.body)["deletionTimestamp"] == nil {
		return
	}
	for ri, objs := range s.objects {
		if !ri.namespaced {
			continue
		}
		for key := range objs {
			if strings.HasPrefix(key, ns+"/") {
				return
			}
		}
	}
	spec, _ := n.body["spec"].(map[string]any)
	fins := stringList(spec["finalizers"])
	if !slices.Contains(fins, "kubernetes") {
		return
	}
	w := writeRequest{ri: namespaceInfo, name: ns}
	body := deepCopy(n.body).(map[string]any)
	left := slices.DeleteFunc(fins, func(f string) bool { return f == "kubernetes" })
	if len(left) == 0 {
		delete(body["spec"].(map[string]any), "finalizers")
	} else {
		body["spec"].(map[string]any)["finalizers"] = toAnyList(left)
	}
	if len(left) == 0 && len(finalizers(metadata(body))) == 0 {
		s.deleteLocked(w, n) // the update that empties them deletes it: DELETED, no MODIFIED
		return
	}
	s.updateLocked(w, n, body)
}

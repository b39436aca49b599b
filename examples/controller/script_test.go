// script_test.go is the comparison script: one scenario of a ReplicaSet's
// life, played against an API server whatever runs the controller and the
// garbage collector there, and written down as a transcript of what it
// ends in after each step, in terms that do not depend on pod names or
// timing: for each ReplicaSet its status and deletion state, the pods as a
// multiset of (controller, phase, readiness, node, labels, terminating),
// the pods a step deleted, and at the end how many pods each ReplicaSet
// created. compare_test.go plays it with kube-controller-manager and with
// this controller and compares the transcripts.
//
// The steps: create a ReplicaSet of 3; scale to 5; two pods Running and
// Ready (the script plays the kubelet through /status); scale to 2 (which
// three go?); a pod deleted; a pod relabelled out of the selector; every
// pod Running and Ready; an orphan that matches, bound to a node; a pod
// Failed; the ReplicaSet deleted with propagationPolicy Orphan, then made
// again (it adopts); deleted with Foreground (a pod bound to a node, with
// no kubelet to end it, holds it until deleted with gracePeriodSeconds=0);
// a second ReplicaSet deleted in the Background.
//
// client-go counterpart: none (it is how this project compares itself
// with kube-controller-manager).
//
// Tutorial: 004 §2.3.

package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/retry"
)

// scriptWait is how long a step may take to settle.
const scriptWait = 60 * time.Second

// script plays the scenario in namespace ns through client.
type script struct {
	t      *testing.T
	client *informer.RESTClient
	ns     string
	lines  []string // the transcript
	// podCache is the controller's pod cache when the test can see it (this
	// controller), nil when the controller is a black box
	// (kube-controller-manager).
	podCache informer.Store

	mu        sync.Mutex
	lastEvent time.Time         // when the script's pod watch last saw an event
	created   map[string]int    // by ReplicaSet uid: pods that had a controller reference to it when created
	names     map[string]string // ReplicaSet uid → "name#n", n counting the objects of that name
	seen      map[string]int    // ReplicaSet name → how many of that name so far
}

// playScript plays the scenario and returns its transcript. podCache is the
// controller's pod cache, or nil when the test cannot see it.
func playScript(t *testing.T, client *informer.RESTClient, ns string, podCache informer.Store) []string {
	s := &script{t: t, client: client, ns: ns, podCache: podCache, created: map[string]int{}, names: map[string]string{},
		seen: map[string]int{}}
	stop := s.countCreates()
	defer stop()
	s.step("create web, replicas 3", func() { s.createReplicaSet("web", "web", 3) }, s.settled("web", 3))
	s.step("scale web to 5", func() { s.scale("web", 5) }, s.settled("web", 5))
	s.step("2 of web's pods Running and Ready", func() { s.runPods(s.podsOf("web")[:2]) }, s.settled("web", 5))
	s.stepDiff("scale web to 2", func() { s.scale("web", 2) }, s.settled("web", 2))
	s.stepDiff("delete a pod of web", func() { s.deletePod(s.podsOf("web")[0].Name, -1) }, s.settled("web", 2))
	s.step("relabel web's Running pod out of its selector (app=debug)", func() { s.relabel(s.runningPodOf("web"), "debug") },
		s.settled("web", 2))
	s.step("every pod of web Running and Ready", func() { s.runPods(s.podsOf("web")) }, s.settled("web", 2))
	s.stepDiff("an orphan with web's labels, bound to node-1", func() { s.createPod("spare", "web", "node-1") },
		s.settled("web", 2))
	s.step("web's Running pod Failed", func() { s.failPod(s.runningPodOf("web")) }, s.settled("web", 2))
	s.step("delete web, propagationPolicy Orphan", func() { s.deleteReplicaSet("web", "Orphan") }, s.gone("web"))
	// The controller's pod cache must show the orphans before web is made
	// again, or web's first sync would count none of them and make 2 pods
	// (kube-controller-manager would too: its informer is as late).
	s.podCacheCurrent()
	s.step("create web again, replicas 2 (it adopts)", func() { s.createReplicaSet("web", "web", 2) }, s.settled("web", 2))
	s.step("delete web, propagationPolicy Foreground", func() { s.deleteReplicaSet("web", "Foreground") },
		s.waiting("web"))
	s.step("delete the pod holding it, gracePeriodSeconds 0", func() { s.deletePod("spare", 0) }, s.gone("web"))
	s.step("create api, replicas 2", func() { s.createReplicaSet("api", "api", 2) }, s.settled("api", 2))
	s.step("delete api, propagationPolicy Background", func() { s.deleteReplicaSet("api", "Background") },
		s.noPods("api"))
	s.mu.Lock()
	var counts []string
	for uid, name := range s.names {
		counts = append(counts, fmt.Sprintf("%s %d", name, s.created[uid]))
	}
	s.mu.Unlock()
	slices.Sort(counts)
	s.lines = append(s.lines, "pods created, by ReplicaSet: "+strings.Join(counts, ", "))
	return s.lines
}

// step does what, waits until done holds (or fails), then writes the state.
func (s *script) step(name string, what func(), done func() string) {
	s.t.Helper()
	what()
	s.wait(name, done)
	s.lines = append(s.lines, "## "+name)
	s.lines = append(s.lines, s.state()...)
}

// stepDiff is step, also writing which pods it deleted.
func (s *script) stepDiff(name string, what func(), done func() string) {
	s.t.Helper()
	before := s.pods()
	s.step(name, what, done)
	var gone []string
	for _, p := range before {
		if now := s.pod(p.Name); now == nil || now.DeletionTimestamp != nil {
			gone = append(gone, describePod(p, s.rsNames()))
		}
	}
	s.lines = append(s.lines, "deleted: "+multiset(gone))
}

// wait polls done until it returns "" (scriptWait at most).
func (s *script) wait(what string, done func() string) {
	s.t.Helper()
	deadline := time.Now().Add(scriptWait)
	tick := time.NewTicker(20 * time.Millisecond) // polling a server, not synchronisation
	defer tick.Stop()
	for ; ; <-tick.C {
		missing := done()
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: not settled after %v: %s\nthe transcript so far:\n%s\nnow:\n%s", what, scriptWait, missing,
				strings.Join(s.lines, "\n"), strings.Join(s.state(), "\n"))
		}
	}
}

// settled is done when ReplicaSet name has n active pods, claims what it
// selects, and its status reports them for its generation.
func (s *script) settled(name string, n int) func() string {
	return func() string {
		rs := s.replicaSet(name)
		if rs == nil {
			return name + " is not there"
		}
		selector, _ := rs.selector()
		var active, ready, terminating int32
		for _, p := range s.pods() {
			ref := controllerOf(&p.ObjectMeta)
			switch {
			case ref == nil && IsPodActive(p) && selector.Matches(p.Labels):
				return "an orphan it selects: " + p.Name
			case ref == nil || ref.UID != rs.UID:
			case !selector.Matches(p.Labels):
				if IsPodActive(p) { // an inactive pod is never claimed, so never released
					return "a pod it controls and does not select: " + p.Name
				}
			case IsPodActive(p):
				active++
				if IsPodReady(p) {
					ready++
				}
			case IsPodTerminating(p):
				terminating++
			}
		}
		st := rs.Status
		if int(active) != n || st.Replicas != active || st.ReadyReplicas != ready || st.TerminatingReplicas == nil ||
			*st.TerminatingReplicas != terminating || st.ObservedGeneration != rs.Generation {
			return fmt.Sprintf("%s: %d active, %d ready, %d terminating; status %s", name, active, ready, terminating, statusLine(st))
		}
		return ""
	}
}

// gone is done when ReplicaSet name is not there and no pod names it.
func (s *script) gone(name string) func() string {
	return func() string {
		if s.replicaSet(name) != nil {
			return name + " is still there"
		}
		for _, p := range s.pods() {
			for _, ref := range p.OwnerReferences {
				if ref.Name == name {
					return p.Name + " still names " + name
				}
			}
		}
		return ""
	}
}

// waiting is done when ReplicaSet name waits for its dependents
// (foregroundDeletion), only its pods bound to a node, terminating, are
// left, and its status says so.
func (s *script) waiting(name string) func() string {
	return func() string {
		rs := s.replicaSet(name)
		if rs == nil || rs.DeletionTimestamp == nil || !slices.Contains(rs.Finalizers, "foregroundDeletion") {
			return name + " is not waiting for its dependents"
		}
		var terminating int32
		for _, p := range s.pods() {
			if ref := controllerOf(&p.ObjectMeta); ref != nil && ref.UID == rs.UID {
				if p.DeletionTimestamp == nil {
					return p.Name + " is not being deleted"
				}
				terminating++
			}
		}
		if st := rs.Status; st.Replicas != 0 || st.TerminatingReplicas == nil || *st.TerminatingReplicas != terminating {
			return fmt.Sprintf("%s: status %s, %d pods terminating", name, statusLine(st), terminating)
		}
		return ""
	}
}

// noPods is done when ReplicaSet name is gone with its pods.
func (s *script) noPods(name string) func() string {
	gone := s.gone(name)
	return func() string {
		if missing := gone(); missing != "" {
			return missing
		}
		for _, p := range s.pods() {
			if p.Labels["app"] == name {
				return p.Name + " is still there"
			}
		}
		return ""
	}
}

// state describes the namespace: each ReplicaSet, then its pods.
func (s *script) state() []string {
	var out []string
	names := s.rsNames()
	for _, rs := range s.replicaSets() {
		line := fmt.Sprintf("%s: replicas %d; %s", rs.Name, rs.replicas(), statusLine(rs.Status))
		if rs.DeletionTimestamp != nil {
			line += fmt.Sprintf("; being deleted, finalizers %v", rs.Finalizers)
		}
		for _, c := range rs.Status.Conditions {
			line += fmt.Sprintf("; condition %s %s %s", c.Type, c.Status, c.Reason)
		}
		out = append(out, line)
	}
	var pods []string
	for _, p := range s.pods() {
		pods = append(pods, describePod(p, names))
	}
	return append(out, "pods: "+multiset(pods))
}

// describePod is what the transcript says of a pod: its controller (by
// ReplicaSet name, "-" for none), phase, readiness, node, app label and
// whether it is terminating.
func describePod(p *informer.Pod, rsNames map[string]string) string {
	owner := "-"
	if ref := controllerOf(&p.ObjectMeta); ref != nil {
		owner = ref.Name
		if n, ok := rsNames[ref.UID]; ok {
			owner = n
		}
		if ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			owner += "(not blocking)"
		}
	}
	d := fmt.Sprintf("[%s %s", owner, p.Status.Phase)
	if IsPodReady(p) {
		d += " ready"
	}
	if p.Spec.NodeName != "" {
		d += " on " + p.Spec.NodeName
	}
	d += " app=" + p.Labels["app"]
	if p.DeletionTimestamp != nil {
		d += " terminating"
	}
	return d + "]"
}

// multiset writes items as "2×[a] 1×[b]", sorted.
func multiset(items []string) string {
	count := map[string]int{}
	for _, it := range items {
		count[it]++
	}
	var out []string
	for it, n := range count {
		out = append(out, fmt.Sprintf("%d×%s", n, it))
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}

// countCreates watches the namespace's pods from now on and counts, per
// ReplicaSet uid, the pods created with a controller reference to it.
func (s *script) countCreates() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	list, err := s.client.List(ctx, podsGVR, s.ns, informer.ListOptions{}, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	var wg sync.WaitGroup
	rv := list.ResourceVersion
	wg.Go(func() {
		for ctx.Err() == nil {
			w, err := s.client.Watch(ctx, podsGVR, s.ns, informer.ListOptions{ResourceVersion: rv}, nil)
			if err != nil {
				time.Sleep(100 * time.Millisecond) // a re-watch after a failure, not synchronisation
				continue
			}
			for ev := range w.ResultChan() {
				pod, ok := ev.Object.(*informer.Pod)
				if !ok {
					continue
				}
				rv = pod.ResourceVersion
				s.mu.Lock()
				s.lastEvent = time.Now()
				if ref := controllerOf(&pod.ObjectMeta); ev.Type == informer.WatchAdded && ref != nil {
					s.created[ref.UID]++
				}
				s.mu.Unlock()
			}
			w.Stop()
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}

// podCacheCurrent waits until the controller's pod cache holds every pod
// of the namespace at the version the server lists; with no cache to look
// at (kube-controller-manager), until the script's own pod watch has seen
// no event for 200 ms.
func (s *script) podCacheCurrent() {
	s.t.Helper()
	if s.podCache == nil {
		s.quiet(200 * time.Millisecond)
		return
	}
	s.wait("the controller's pod cache to catch up with the server", func() string {
		for _, p := range s.pods() {
			obj, ok, _ := s.podCache.GetByKey(s.ns + "/" + p.Name)
			if !ok {
				return "pod " + p.Name + " not in the cache yet"
			}
			if v := obj.(informer.Object).GetResourceVersion(); v != p.ResourceVersion {
				return fmt.Sprintf("pod %s at version %s in the cache, %s on the server", p.Name, v, p.ResourceVersion)
			}
		}
		return ""
	})
}

// quiet waits until the script's pod watch has seen no event for d
// (scriptWait at most).
func (s *script) quiet(d time.Duration) {
	s.t.Helper()
	s.wait("the pods quiet for "+d.String(), func() string {
		s.mu.Lock()
		since := time.Since(s.lastEvent)
		s.mu.Unlock()
		if since < d {
			return fmt.Sprintf("a pod event %v ago", since.Round(time.Millisecond))
		}
		return ""
	})
}

// rsNames maps each ReplicaSet uid the script made to "name#n".
func (s *script) rsNames() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for uid, n := range s.names {
		out[uid] = n
	}
	return out
}

func (s *script) createReplicaSet(name, app string, replicas int32) {
	rs := newReplicaSetObject(name, replicas)
	rs.Namespace = s.ns
	rs.Spec.Selector.MatchLabels = map[string]string{"app": app}
	rs.Spec.Template.ObjectMeta.Labels = map[string]string{"app": app}
	obj, err := s.client.Create(context.Background(), replicaSetsGVR, rs)
	if err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	s.seen[name]++
	s.names[obj.GetUID()] = fmt.Sprintf("%s#%d", name, s.seen[name])
	s.mu.Unlock()
}

func (s *script) scale(name string, replicas int) {
	ctx := context.Background()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := s.client.Get(ctx, replicaSetsGVR, s.ns, name)
		if err != nil {
			return err
		}
		u := obj.(*informer.Unstructured)
		u.Object["spec"].(map[string]any)["replicas"] = replicas
		_, err = s.client.Update(ctx, replicaSetsGVR, u)
		return err
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *script) deleteReplicaSet(name, policy string) {
	options := &informer.Unstructured{Object: map[string]any{"kind": "DeleteOptions", "apiVersion": "v1",
		"propagationPolicy": policy}}
	if _, err := s.client.Do(context.Background(), http.MethodDelete, replicaSetsGVR, s.ns, name, options, nil); err != nil {
		s.t.Fatal(err)
	}
}

// deletePod deletes the pod name, with gracePeriodSeconds grace (-1: the default).
func (s *script) deletePod(name string, grace int) {
	var options informer.Object
	if grace >= 0 {
		options = &informer.Unstructured{Object: map[string]any{"kind": "DeleteOptions", "apiVersion": "v1",
			"gracePeriodSeconds": grace}}
	}
	if _, err := s.client.Do(context.Background(), http.MethodDelete, podsGVR, s.ns, name, options, nil); err != nil {
		s.t.Fatal(err)
	}
}

func (s *script) createPod(name, app, node string) {
	pod := &informer.Pod{ObjectMeta: informer.ObjectMeta{Name: name, Namespace: s.ns, Labels: map[string]string{"app": app}},
		Spec: informer.PodSpec{NodeName: node, Containers: []informer.Container{{Name: "c", Image: "nginx:1.27"}}}}
	if _, err := s.client.Create(context.Background(), podsGVR, pod); err != nil {
		s.t.Fatal(err)
	}
}

// modifyPod changes the pod name through change, again on a 409; status
// writes go to /status.
func (s *script) modifyPod(name string, status bool, change func(p *informer.Pod)) {
	ctx := context.Background()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := s.client.Get(ctx, podsGVR, s.ns, name)
		if err != nil {
			return err
		}
		p := obj.(*informer.Pod)
		change(p)
		if status {
			_, err = s.client.UpdateStatus(ctx, podsGVR, p)
		} else {
			_, err = s.client.Update(ctx, podsGVR, p)
		}
		return err
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *script) relabel(name, app string) {
	s.modifyPod(name, false, func(p *informer.Pod) { p.Labels = map[string]string{"app": app} })
}

func (s *script) runPods(pods []*informer.Pod) {
	for _, p := range pods {
		s.modifyPod(p.Name, true, func(p *informer.Pod) {
			p.Status.Phase = podRunning
			p.Status.Conditions = []informer.PodCondition{{Type: "Ready", Status: "True",
				LastTransitionTime: time.Now().UTC().Truncate(time.Second)}}
		})
	}
}

func (s *script) failPod(name string) {
	s.modifyPod(name, true, func(p *informer.Pod) {
		p.Status.Phase = podFailed
		p.Status.Conditions = []informer.PodCondition{{Type: "Ready", Status: "False",
			LastTransitionTime: time.Now().UTC().Truncate(time.Second)}}
	})
}

// pods lists the namespace's pods, by name.
func (s *script) pods() []*informer.Pod {
	list, err := s.client.List(context.Background(), podsGVR, s.ns, informer.ListOptions{}, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	var pods []*informer.Pod
	for _, item := range list.Items {
		pods = append(pods, item.(*informer.Pod))
	}
	slices.SortFunc(pods, func(a, b *informer.Pod) int { return strings.Compare(a.Name, b.Name) })
	return pods
}

// pod returns the pod name, or nil.
func (s *script) pod(name string) *informer.Pod {
	for _, p := range s.pods() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// podsOf returns the active pods ReplicaSet name controls, by name.
func (s *script) podsOf(name string) []*informer.Pod {
	rs := s.replicaSet(name)
	var out []*informer.Pod
	for _, p := range s.pods() {
		if ref := controllerOf(&p.ObjectMeta); rs != nil && ref != nil && ref.UID == rs.UID && IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// runningPodOf returns the name of a Running pod of ReplicaSet name.
func (s *script) runningPodOf(name string) string {
	for _, p := range s.podsOf(name) {
		if p.Status.Phase == podRunning {
			return p.Name
		}
	}
	s.t.Fatalf("%s has no Running pod", name)
	return ""
}

// replicaSets lists the namespace's ReplicaSets, by name.
func (s *script) replicaSets() []*ReplicaSet {
	list, err := s.client.List(context.Background(), replicaSetsGVR, s.ns, informer.ListOptions{}, newReplicaSet)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []*ReplicaSet
	for _, item := range list.Items {
		out = append(out, item.(*ReplicaSet))
	}
	slices.SortFunc(out, func(a, b *ReplicaSet) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// replicaSet returns ReplicaSet name, or nil.
func (s *script) replicaSet(name string) *ReplicaSet {
	for _, rs := range s.replicaSets() {
		if rs.Name == name {
			return rs
		}
	}
	return nil
}

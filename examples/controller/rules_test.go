// rules_test.go tests the controller's rules one at a time, without a
// running controller: which pods go first on a scale-down, the
// expectations (their timeout, a deletion counted once), the
// ConsistencyStore, slowStartBatch, and the handlers (which keys an event
// queues, what the expectations observe).
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller
// controller_utils_test.go (TestSortingActivePodsWithRanks,
// TestControllerExpectations, TestUIDExpectations),
// util/consistency/consistency_test.go, replicaset replica_set_test.go
// (TestSlowStartBatch, TestUpdatePods, TestDeletePodWithTombstone).
//
// Tutorial: 004 §2.3.

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestPodsToDeleteGoInTheRealOrder(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	mk := func(name, node, phase string, readyFor time.Duration, created time.Duration) *informer.Pod {
		p := &informer.Pod{ObjectMeta: informer.ObjectMeta{Name: name, UID: "uid-" + name,
			CreationTimestamp: now.Add(-created)}}
		p.Spec.NodeName = node
		p.Status.Phase = phase
		if readyFor > 0 {
			p.Status.Conditions = []informer.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: now.Add(-readyFor)}}
		}
		return p
	}
	costly := mk("costly", "n1", podRunning, 0, time.Hour)
	costly.Annotations = map[string]string{podDeletionCostAnnotation: "100"}
	pods := []*informer.Pod{
		mk("ready-long", "n1", podRunning, 10*time.Hour, 20*time.Hour),
		mk("ready-short", "n1", podRunning, time.Minute, 20*time.Hour),
		costly,
		mk("running-not-ready-old", "n1", podRunning, 0, 10*time.Hour),
		mk("running-not-ready-new", "n1", podRunning, 0, time.Minute),
		mk("unknown", "n1", podUnknown, 0, time.Hour),
		mk("pending-scheduled", "n1", podPending, 0, time.Hour),
		mk("unscheduled", "", podPending, 0, time.Hour),
	}
	want := []string{"unscheduled", "pending-scheduled", "unknown", "running-not-ready-new", "running-not-ready-old",
		"costly", "ready-short", "ready-long"}
	for _, rotate := range []int{0, 3, 5} { // whatever the cache's order
		in := append(slices.Clone(pods[rotate:]), pods[:rotate]...)
		var got []string
		for _, p := range getPodsToDelete(in, len(in)-1, now) {
			got = append(got, p.Name)
		}
		if !slices.Equal(got, want[:len(want)-1]) {
			t.Errorf("deletion order from %v:\n got %v\nwant %v", names(in), got, want[:len(want)-1])
		}
	}
	if got := getPodsToDelete(pods, len(pods), now); len(got) != len(pods) {
		t.Errorf("deleting all %d pods returned %d", len(pods), len(got))
	}
}

// names returns the pods' names.
func names(pods []*informer.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

func TestExpectationsAreMetObservedOnceAndExpire(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Now())
	e := newExpectations(clock)
	if !e.SatisfiedExpectations("default/web") {
		t.Fatal("a ReplicaSet that never expected anything is not satisfied")
	}
	e.ExpectCreations("default/web", 2)
	e.CreationObserved("default/web")
	if e.SatisfiedExpectations("default/web") {
		t.Fatal("satisfied with one of two creations observed")
	}
	e.CreationObserved("default/web")
	if !e.SatisfiedExpectations("default/web") {
		t.Fatal("not satisfied with both creations observed")
	}
	e.ExpectDeletions("default/web", []string{"default/a", "default/b"})
	e.DeletionObserved("default/web", "default/a")
	e.DeletionObserved("default/web", "default/a") // marked for deletion, then gone: one deletion
	e.DeletionObserved("default/web", "default/other")
	if add, del, _ := e.GetExpectations("default/web"); add != 0 || del != 1 || e.SatisfiedExpectations("default/web") {
		t.Fatalf("after a's deletion seen twice and another pod's: add %d, del %d; want 0, 1 and not satisfied", add, del)
	}
	clock.Step(ExpectationsTimeout + time.Second)
	if !e.SatisfiedExpectations("default/web") {
		t.Fatal("an expectation older than ExpectationsTimeout still holds the ReplicaSet back")
	}
	e.DeleteExpectations("default/web")
	if _, _, ok := e.GetExpectations("default/web"); ok {
		t.Fatal("DeleteExpectations left an expectation")
	}
}

// fixedRV is a cache that reports rv.
type fixedRV struct{ rv atomic.Value }

func (f *fixedRV) LastStoreSyncResourceVersion() string { s, _ := f.rv.Load().(string); return s }

func TestConsistencyStoreHoldsASyncUntilTheCachesCatchUp(t *testing.T) {
	pods, rss := &fixedRV{}, &fixedRV{}
	pods.rv.Store("10")
	rss.rv.Store("10")
	c := NewConsistencyStore(map[string]LastSyncRVGetter{"pods": pods, "replicasets.apps": rss})
	c.WroteAt("default/web", "uid-1", "replicasets.apps", "78")
	c.WroteAt("default/web", "uid-1", "pods", "12")
	c.WroteAt("default/web", "uid-1", "pods", "11") // older: the newest stays
	var ce *ConsistencyError
	if err := c.EnsureReady("default/web"); !errors.As(err, &ce) {
		t.Fatalf("EnsureReady = %v with caches at 10, want a ConsistencyError", err)
	}
	rss.rv.Store("78")
	err := c.EnsureReady("default/web")
	if !errors.As(err, &ce) || ce.Resource != "pods" || ce.WroteRV != "12" || ce.ReadRV != "10" {
		t.Fatalf("EnsureReady = %v, want pods read at 10, written at 12", err)
	}
	want := "read version: 10 is not as new as written version: 12 for group resource pods"
	if err.Error() != want {
		t.Fatalf("the message is %q, want kubernetes' %q", err, want)
	}
	pods.rv.Store("12")
	if err := c.EnsureReady("default/web"); err != nil {
		t.Fatalf("EnsureReady = %v with both caches caught up", err)
	}
	c.WroteAt("default/web", "uid-1", "pods", "99")
	c.Clear("default/web", "uid-2") // another object of the name: nothing
	if c.EnsureReady("default/web") == nil {
		t.Fatal("Clear of another uid cleared the record")
	}
	c.Clear("default/web", "")
	if err := c.EnsureReady("default/web"); err != nil {
		t.Fatalf("EnsureReady = %v after Clear", err)
	}
	pods.rv.Store("") // a cache that does not report its version is not waited for
	c.WroteAt("default/web", "uid-1", "pods", "200")
	if err := c.EnsureReady("default/web"); err != nil {
		t.Fatalf("EnsureReady = %v with a cache that reports no version", err)
	}
}

func TestSlowStartBatchDoublesAndStopsAtAFailure(t *testing.T) {
	for _, tc := range []struct {
		count, failAt  int // failAt: the call (1-based) that fails; 0: none
		wantOK, wantOf int // successes, calls made
	}{
		{count: 7, wantOK: 7, wantOf: 7},
		{count: 10, failAt: 1, wantOK: 0, wantOf: 1},
		{count: 10, failAt: 2, wantOK: 2, wantOf: 3},    // batches 1, 2: the second batch runs whole
		{count: 10, failAt: 4, wantOK: 6, wantOf: 7},    // batches 1, 2, 4
		{count: 5, failAt: 0, wantOK: 5, wantOf: 5},     // 1, 2, then the 2 left
		{count: 3, failAt: 99, wantOK: 3, wantOf: 3},    // no failure
		{count: 0, failAt: 0, wantOK: 0, wantOf: 0},     // nothing to do
		{count: 4, failAt: 4, wantOK: 3, wantOf: 4},     // the last of batch 1, 2, 1
		{count: 2, failAt: 2, wantOK: 1, wantOf: 2},     // a panic counts as a failure below
		{count: 1, failAt: -1, wantOK: 0, wantOf: 1},    // -1: the call panics
		{count: 20, failAt: 16, wantOK: 19, wantOf: 20}, // batches 1, 2, 4, 8, then the 5 left run whole
	} {
		var calls atomic.Int32
		ok, err := slowStartBatch(tc.count, SlowStartInitialBatchSize, func() error {
			n := int(calls.Add(1))
			switch {
			case tc.failAt == -1:
				panic("a bug")
			case n == tc.failAt:
				return errors.New("refused")
			}
			return nil
		})
		if ok != tc.wantOK || int(calls.Load()) != tc.wantOf || (err != nil) != (tc.failAt != 0 && tc.failAt <= tc.count) {
			t.Errorf("slowStartBatch(%d) failing call %d: %d succeeded of %d calls, err %v; want %d of %d",
				tc.count, tc.failAt, ok, calls.Load(), err, tc.wantOK, tc.wantOf)
		}
	}
}

func TestHandlersQueueTheReplicaSetsAPodConcerns(t *testing.T) {
	f := newFixture(t, 1, nil) // not started: the handlers are called by hand
	c := f.r.controller
	t.Cleanup(c.workqueue.ShutDown)
	web := newReplicaSetObject("web", 1)
	web.UID = "uid-web"
	api := newReplicaSetObject("api", 1)
	api.UID = "uid-api"
	for _, rs := range []*ReplicaSet{web, api} {
		if err := f.r.replicaSet.GetIndexer().Add(rs); err != nil {
			t.Fatal(err)
		}
	}
	pod := func(rv, app string, owner *ReplicaSet) *informer.Pod {
		p := &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: "a", ResourceVersion: rv,
			Labels: map[string]string{"app": app}}}
		if owner != nil {
			p.OwnerReferences = []informer.OwnerReference{*newControllerRef(owner)}
		}
		return p
	}
	deleting := func(p *informer.Pod) *informer.Pod {
		now := time.Now()
		p.DeletionTimestamp = &now
		return p
	}
	drain := func() []string {
		keys := []string{}
		for c.workqueue.Len() > 0 {
			k, _ := c.workqueue.Get()
			c.workqueue.Done(k)
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys
	}
	for _, tc := range []struct {
		name, zh  string // the case, in each language: a failure names it in the reader's
		call      func()
		want      []string
		add, del  int // web's expectations after the call, from add 3 and deletions of a and b
		notForWeb bool
	}{
		{"its pod appears", "它的 Pod 出现了", func() { c.addPod(pod("1", "web", web)) }, []string{"default/web"}, 2, 2, false},
		{"an orphan appears", "一个孤儿 Pod 出现了", func() { c.addPod(pod("1", "web", nil)) }, []string{"default/web"}, 3, 2, false},
		{"an orphan no selector matches", "一个没有选择算符匹配的孤儿 Pod", func() { c.addPod(pod("1", "db", nil)) }, []string{}, 3, 2, false},
		{"a pod of another kind's", "一个属于别的类别的 Pod", func() {
			p := pod("1", "web", web)
			p.OwnerReferences[0].Kind = "StatefulSet"
			c.addPod(p)
		}, []string{}, 3, 2, false},
		{"a pod of a web made again (another uid)", "一个属于重建的 `web` 的 Pod（另一个 `uid`）", func() {
			p := pod("1", "web", web)
			p.OwnerReferences[0].UID = "uid-old"
			c.addPod(p)
		}, []string{}, 3, 2, false},
		{"its pod appears being deleted", "它的 Pod 出现时已在删除中", func() { c.addPod(deleting(pod("1", "web", web))) }, []string{"default/web"}, 3, 1, false},
		{"a resync (the same resourceVersion)", "一次重新同步（资源版本相同）", func() { c.updatePod(pod("1", "web", web), pod("1", "web", web)) }, []string{}, 3, 2, false},
		{"its pod marked for deletion", "它的 Pod 被标记为删除", func() { c.updatePod(pod("1", "web", web), deleting(pod("2", "web", web))) }, []string{"default/web"}, 3, 1, false},
		{"relabelled out of web, still web's", "标签改得不再属于 `web`，但仍归 `web` 所有", func() { c.updatePod(pod("1", "web", web), pod("2", "api", web)) }, []string{"default/web"}, 3, 2, false},
		{"changed controller, web to api", "控制者从 `web` 换成了 `api`", func() { c.updatePod(pod("1", "web", web), pod("2", "web", api)) }, []string{"default/api", "default/web"}, 3, 2, false},
		{"released by web, now an orphan api selects", "被 `web` 释放，成了 `api` 选中的孤儿 Pod", func() { c.updatePod(pod("1", "web", web), pod("2", "api", nil)) }, []string{"default/api", "default/web"}, 3, 2, false},
		{"an orphan relabelled", "一个孤儿 Pod 的标签改了", func() { c.updatePod(pod("1", "web", nil), pod("2", "api", nil)) }, []string{"default/api"}, 3, 2, false},
		{"its pod deleted", "它的 Pod 被删除了", func() { c.deletePod(pod("1", "web", web)) }, []string{"default/web"}, 3, 1, false},
		{"a tombstone of its pod", "它的 Pod 的墓碑", func() {
			c.deletePod(informer.DeletedFinalStateUnknown{Key: "default/a", Obj: pod("1", "web", web)})
		}, []string{"default/web"}, 3, 1, false},
		{"an orphan deleted", "一个孤儿 Pod 被删除了", func() { c.deletePod(pod("1", "web", nil)) }, []string{}, 3, 2, false},
		{"web updated", "`web` 被更新了", func() { c.updateRS(web, web) }, []string{"default/web"}, 3, 2, false},
		{"web made again under its name", "以同一个名字重建了 `web`", func() {
			again := newReplicaSetObject("web", 1)
			again.UID = "uid-web-2"
			c.updateRS(web, again)
		}, []string{"default/web"}, 0, 0, true},
	} {
		c.expectations.ExpectCreations("default/web", 3)
		e := c.expectations.(*expectations)
		e.mu.Lock()
		e.byKey["default/web"].deletions = map[string]struct{}{"default/a": {}, "default/b": {}}
		e.mu.Unlock()
		tc.call()
		// The messages are English formats that the labs command shows in
		// Chinese (labs/messages_zh.go); the case they name must follow.
		name := tc.name
		if walkthrough.Language() == "zh" {
			name = tc.zh
		}
		if got := drain(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: queued %v, want %v", name, got, tc.want)
		}
		add, del, ok := c.expectations.GetExpectations("default/web")
		if tc.notForWeb && ok {
			t.Errorf("%s: web's expectations are still there (add %d, del %d)", name, add, del)
		}
		if !tc.notForWeb && (add != tc.add || del != tc.del) {
			t.Errorf("%s: web expects add %d, del %d; want %d, %d", name, add, del, tc.add, tc.del)
		}
	}
	if s := fmt.Sprint(drain()); !strings.Contains(s, "[]") {
		t.Fatalf("keys left: %s", s)
	}
}

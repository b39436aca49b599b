// lab08_test.go grades lab 8: the reconcile loop of the ReplicaSet
// controller of examples/controller: the handlers that turn events
// (tombstones included) into keys, the worker's processNextWorkItem
// (Done, Forget on success, AddRateLimited on failure), the reconcile
// (the owned pods through the pod cache's index, pods created with an
// ownerReference and deleted to match spec.replicas) and the status,
// written through /status with RetryOnConflict. Copied into the student
// repository's examples/controller package; it runs the controller over
// HTTP against fakeapi.
//
// client-go counterpart: the Controller of k8s.io/sample-controller
// (enqueueFoo, handleObject, processNextWorkItem, syncHandler) and
// k8s.io/kubernetes v1.37.2 pkg/controller/replicaset (updatePod,
// syncReplicaSet, manageReplicas, updateReplicaSetStatus).
//
// Tutorial: 004 §2.3; 000 §3.3 (optimistic concurrency), §5.

//go:build informerlab

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// lab08Start runs f's controller until the test ends; then the controller
// must stop within 10 s. It waits for the caches to sync.
func lab08Start(t *testing.T, f *fixture) bool {
	t.Helper()
	f.r.run()
	t.Cleanup(func() {
		stopped := make(chan struct{})
		go func() {
			f.r.stop()
			close(stopped)
		}()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			labFailf(t, 8, 2, "the controller did not stop within 10 s of its context ending: does processNextWorkItem return false once Get reports shutdown?",
				"context 结束 10 秒后控制器仍未停止：Get 报告关闭之后，processNextWorkItem 返回 false 了吗？")
		}
	})
	if !labWaitFor(func() bool { return f.r.replicaSet.HasSynced() && f.r.pods.HasSynced() }) {
		labFailf(t, 8, 0, "the informers' caches did not sync within 5 s (labs 1 to 6 are needed for this lab)",
			"Informer 的缓存 5 秒内没有同步（本实验需要实验 1 到 6）")
		return false
	}
	return true
}

// lab08Missing says, in the reader's language, how the server differs from
// what its ReplicaSets ask for, or "".
func lab08Missing(srv *fakeapi.Server) string {
	items, _ := srv.List(replicaSets, "")
	for _, rs := range items {
		meta := rs["metadata"].(map[string]any)
		name := meta["name"].(string)
		want := number(rs["spec"].(map[string]any)["replicas"])
		var names []string
		for i := range want {
			names = append(names, fmt.Sprintf("%s-%d", name, i))
		}
		have := podsOf(srv, meta["namespace"].(string), meta["uid"].(string))
		status, _ := rs["status"].(map[string]any)
		if !slices.Equal(have, names) || number(status["replicas"]) != want {
			return labPick(
				fmt.Sprintf("ReplicaSet %s asks for pods %v; the server has %v controlled by it, and status.replicas %v", name, names, have, status["replicas"]),
				fmt.Sprintf("ReplicaSet %s 要的 Pod 是 %v；服务器上由它控制的是 %v，status.replicas 是 %v", name, names, have, status["replicas"]))
		}
	}
	return ""
}

// lab08Converge waits (5 s at most, as the kit's waits do; stepping f's fake clock, if any,
// whenever something waits on it) until the controller has converged:
// every ReplicaSet has exactly its pods, controlled by it, and reports
// them; the caches are current; no key is queued or being synced. It fails
// with what is missing if not.
func lab08Converge(t *testing.T, f *fixture, section int, what, whatZH string) bool {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok, _ := convergedNow(f.srv, f.r)
		if ok {
			return true
		}
		if time.Now().After(deadline) || labHits.Load() != labHitsAtStart.Load() {
			missing := lab08Missing(f.srv)
			if missing == "" {
				missing = labPick(fmt.Sprintf("the server is right, but %d keys are queued and %d syncs in progress, or a cache is behind",
					f.r.controller.workqueue.Len(), f.r.busy.Load()),
					fmt.Sprintf("服务器上是对的，但还有 %d 个键在排队、%d 次同步在进行，或者缓存落后了",
						f.r.controller.workqueue.Len(), f.r.busy.Load()))
			}
			labFailf(t, 8, section, "%s: the controller did not converge within 5 s: %s", "%s：控制器 5 秒内没有收敛：%s",
				labPick(what, whatZH), missing)
			return false
		}
		if f.clock != nil && f.clock.HasWaiters() {
			f.clock.Step(time.Minute)
		}
		time.Sleep(2 * time.Millisecond) // polling interval, not synchronisation
	}
}

// lab08Drain takes every key waiting in c's queue (each Done at once) and
// returns them in order.
func lab08Drain(t *testing.T, c *Controller) []string {
	t.Helper()
	keys := []string{}
	for c.workqueue.Len() > 0 && len(keys) < 10 {
		var k string
		labWithin(t, 8, 1, "the queue's Get with keys waiting", func() {
			k, _ = c.workqueue.Get()
			c.workqueue.Done(k)
		})
		keys = append(keys, k)
	}
	return keys
}

// lab08Owned is a pod of default with one owner reference.
func lab08Owned(name, kind, owner, uid, rv string, controller bool) *informer.Pod {
	p := &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: name, ResourceVersion: rv}}
	p.OwnerReferences = []informer.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: owner, UID: uid, Controller: &controller}}
	return p
}

// TestLab08HandlersEnqueueKeys: the handlers only add keys: the
// ReplicaSet's own (of a tombstone too), and for a pod the key of the
// ReplicaSet that controls it, if the cache has that ReplicaSet with the
// same uid.
func TestLab08HandlersEnqueueKeys(t *testing.T) {
	defer labStart(t, 8)()
	f := newFixture(t, 1, nil) // not started: the handlers are called by hand
	c := f.r.controller
	t.Cleanup(c.workqueue.ShutDown)
	web := newReplicaSetObject("web", 1)
	web.UID = "uid-web"
	other := newReplicaSetObject("other", 1)
	other.UID = "uid-other"
	for _, rs := range []*ReplicaSet{web, other} {
		if err := f.r.replicaSet.GetIndexer().Add(rs); err != nil {
			t.Fatal(err)
		}
	}
	owned := func(rv string) *informer.Pod { return lab08Owned("a", "ReplicaSet", "web", "uid-web", rv, true) }
	for _, tc := range []struct {
		en, zh string
		call   func()
		want   []string
	}{
		{"a ReplicaSet added, updated three times", "一个 ReplicaSet 被添加、再更新三次", func() {
			c.enqueueReplicaSet(web)
			for range 3 {
				c.enqueueReplicaSet(web)
			}
		}, []string{"default/web"}},
		{"a ReplicaSet's tombstone (deleted while the watch was down)", "ReplicaSet 的墓碑（watch 断开期间被删除）", func() {
			c.enqueueReplicaSet(informer.DeletedFinalStateUnknown{Key: "default/gone", Obj: newReplicaSetObject("gone", 1)})
		}, []string{"default/gone"}},
		{"its pod", "它的 Pod", func() { c.handlePod(owned("1")) }, []string{"default/web"}},
		{"a tombstone of its pod", "它的 Pod 的墓碑", func() {
			c.handlePod(informer.DeletedFinalStateUnknown{Key: "default/a", Obj: owned("1")})
		}, []string{"default/web"}},
		{"a pod whose owner is not its controller", "属主不是其控制器的 Pod", func() {
			c.handlePod(lab08Owned("a", "ReplicaSet", "web", "uid-web", "1", false))
		}, []string{}},
		{"a StatefulSet's pod", "StatefulSet 的 Pod", func() {
			c.handlePod(lab08Owned("a", "StatefulSet", "web", "uid-web", "1", true))
		}, []string{}},
		{"a pod of a ReplicaSet named web with another uid (deleted and made again)", "属于另一个 uid 的同名 ReplicaSet web 的 Pod（删除后又重建）", func() {
			c.handlePod(lab08Owned("a", "ReplicaSet", "web", "uid-old", "1", true))
		}, []string{}},
		{"a pod of a ReplicaSet the cache does not have", "属于缓存里没有的 ReplicaSet 的 Pod", func() {
			c.handlePod(lab08Owned("a", "ReplicaSet", "nobody", "uid-nobody", "1", true))
		}, []string{}},
		{"a pod update with the same resourceVersion (a resync)", "resourceVersion 相同的 Pod 更新（重新同步）", func() {
			c.updatePod(owned("1"), owned("1"))
		}, []string{}},
		{"a pod update", "一次 Pod 更新", func() { c.updatePod(owned("1"), owned("2")) }, []string{"default/web"}},
		{"a pod that changed controller, other → web", "换了控制器的 Pod：other → web", func() {
			c.updatePod(lab08Owned("a", "ReplicaSet", "other", "uid-other", "1", true), owned("2"))
		}, []string{"default/other", "default/web"}},
		{"a pod that lost its controller", "失去控制器的 Pod", func() {
			c.updatePod(owned("1"), lab08Owned("a", "ReplicaSet", "web", "uid-web", "2", false))
		}, []string{"default/web"}},
	} {
		labWithin(t, 8, 1, labPick("the handlers, for "+tc.en, "事件处理器，处理"+tc.zh), tc.call)
		got := lab08Drain(t, c)
		slices.Sort(got)
		labExpect(t, 8, 1, "the keys queued for "+tc.en, "为"+tc.zh+"入队的键", tc.want, got)
	}
}

// TestLab08WorkerDoneForgetAndRetry: processNextWorkItem gets a key, syncs
// it, and always calls Done; on success Forget, on failure AddRateLimited
// (the key comes back after the limiter's wait); a panicking sync is a
// failure too; after a shutdown it returns false.
func TestLab08WorkerDoneForgetAndRetry(t *testing.T) {
	defer labStart(t, 8)()
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f := newFixture(t, 1, clock) // not started: the test is the worker
	c := f.r.controller
	t.Cleanup(c.workqueue.ShutDown)
	failures := 2
	var synced []string
	c.syncHandler = func(_ context.Context, key string) error {
		synced = append(synced, key)
		switch {
		case key == "default/boom":
			panic("a bug in the reconcile")
		case failures > 0:
			failures--
			return fmt.Errorf("injected failure, %d more", failures)
		}
		return nil
	}
	step := func(what, whatZH string) bool {
		var more bool
		labWithin(t, 8, 2, "processNextWorkItem ("+what+")", func() { more = c.processNextWorkItem(context.Background()) })
		return labExpect(t, 8, 2, "what processNextWorkItem returned ("+what+")", "processNextWorkItem 的返回值（"+whatZH+"）", true, more)
	}
	key := "default/web"
	c.workqueue.Add(key)
	for i := 1; i <= 2; i++ {
		if !step(fmt.Sprintf("failure %d", i), fmt.Sprintf("第 %d 次失败", i)) {
			return
		}
		labExpect(t, 8, 2, fmt.Sprintf("NumRequeues after failure %d (AddRateLimited counts it)", i),
			fmt.Sprintf("第 %d 次失败之后的 NumRequeues（AddRateLimited 会计数）", i), i, c.workqueue.NumRequeues(key))
		if c.workqueue.Len() != 0 {
			labFailf(t, 8, 2, "after failure %d the key was queued again at once: a failed key comes back after the rate limiter's wait (AddRateLimited)",
				"第 %d 次失败之后键立即重新入队了：失败的键要等限速器给出的时间之后才回来（AddRateLimited）", i)
			return
		}
		if !labWaitFor(clock.HasWaiters) {
			labFailf(t, 8, 2, "after failure %d nothing waits on the queue's clock: a failed key is retried with AddRateLimited",
				"第 %d 次失败之后队列的时钟上没有等待：失败的键要用 AddRateLimited 重试", i)
			return
		}
		clock.Step(time.Minute)
		if !labWaitFor(func() bool { return c.workqueue.Len() == 1 }) {
			labFailf(t, 8, 2, "after failure %d the key did not come back once its wait had passed (was Done called?)",
				"第 %d 次失败之后，等待过去了键却没有回来（调用 Done 了吗？）", i)
			return
		}
	}
	if !step("success", "成功") {
		return
	}
	labExpect(t, 8, 2, "NumRequeues after the success (Forget)", "成功之后的 NumRequeues（Forget）", 0, c.workqueue.NumRequeues(key))
	labExpect(t, 8, 2, "the keys synced", "同步过的键", []string{key, key, key}, synced)
	c.workqueue.Add(key)
	labExpect(t, 8, 2, "Len after an Add of the key once its sync succeeded (the worker called Done)",
		"同步成功之后再 Add 这个键时的 Len（工作协程调用了 Done）", 1, c.workqueue.Len())
	lab08Drain(t, c)

	c.workqueue.Add("default/boom")
	if !step("a sync that panics", "同步时发生 panic") {
		return
	}
	labExpect(t, 8, 2, "NumRequeues of a key whose sync panicked (a panic is a failure: syncRecovering)",
		"同步时 panic 的键的 NumRequeues（panic 也是失败：syncRecovering）", 1, c.workqueue.NumRequeues("default/boom"))

	labWithin(t, 8, 2, "ShutDown", c.workqueue.ShutDown)
	var more bool
	labWithin(t, 8, 2, "processNextWorkItem after ShutDown", func() { more = c.processNextWorkItem(context.Background()) })
	labExpect(t, 8, 2, "what processNextWorkItem returns once the queue has shut down (the worker ends)",
		"队列关闭之后 processNextWorkItem 的返回值（工作协程结束）", false, more)
}

// TestLab08CreatesOwnedPodsScalesAndReportsStatus: a ReplicaSet gets
// spec.replicas pods made from its template, each controlled by it
// through an ownerReference, and status.replicas says so; scaling down
// deletes the pods it should not have, scaling up makes them.
func TestLab08CreatesOwnedPodsScalesAndReportsStatus(t *testing.T) {
	defer labStart(t, 8)()
	f := newFixture(t, 2, nil)
	if !lab08Start(t, f) {
		return
	}
	rs := f.createReplicaSet(t, "web", 3)
	if !labWaitFor(func() bool { items, _ := f.srv.List(fakeapi.Pods, "default"); return len(items) >= 3 }) {
		labFailf(t, 8, 3, "a ReplicaSet web asking for 3 pods: the server has %s", "ReplicaSet web 要 3 个 Pod：服务器上有 %s",
			lab08PodNames(f.srv))
		return
	}
	for _, name := range []string{"web-0", "web-1", "web-2"} {
		obj, err := f.srv.Get(fakeapi.Pods, "default", name)
		if err != nil {
			labFailf(t, 8, 3, "pod %s is not there (the server has %s): pods are named web-0, web-1, ... (podName)",
				"Pod %s 不存在（服务器上有 %s）：Pod 依次命名为 web-0、web-1……（podName）", name, lab08PodNames(f.srv))
			return
		}
		meta := obj["metadata"].(map[string]any)
		refs, _ := meta["ownerReferences"].([]any)
		var ref map[string]any
		for _, r := range refs {
			if r.(map[string]any)["controller"] == true {
				ref = r.(map[string]any)
			}
		}
		if ref == nil || ref["apiVersion"] != "apps/v1" || ref["kind"] != "ReplicaSet" || ref["name"] != "web" ||
			ref["uid"] != rs.GetUID() || ref["blockOwnerDeletion"] != true {
			labFailf(t, 8, 3, "pod %s's ownerReferences are %v: want one with apiVersion apps/v1, kind ReplicaSet, name web, uid %s, controller true, blockOwnerDeletion true",
				"Pod %s 的 ownerReferences 是 %v：应有一项 apiVersion apps/v1、kind ReplicaSet、name web、uid %s、controller true、blockOwnerDeletion true",
				name, refs, rs.GetUID())
			return
		}
		labels, _ := meta["labels"].(map[string]any)
		labExpect(t, 8, 3, "pod "+name+"'s labels (the template's)", "Pod "+name+" 的标签（模板里的）", "web", labels["app"])
	}
	if !lab08Converge(t, f, 4, "web with 3 replicas", "web 有 3 个副本") {
		return
	}
	got, _ := f.srv.Get(replicaSets, "default", "web")
	generation := number(got["metadata"].(map[string]any)["generation"])
	labExpect(t, 8, 4, "status.observedGeneration (the generation the controller acted on)",
		"status.observedGeneration（控制器据以行动的 generation）", generation, number(got["status"].(map[string]any)["observedGeneration"]))
	for _, n := range []int{1, 4, 0, 2} {
		f.scale(t, "web", n)
		if !lab08Converge(t, f, 3, fmt.Sprintf("web scaled to %d", n), fmt.Sprintf("web 伸缩到 %d", n)) {
			return
		}
	}
}

// lab08PodNames lists the names of the server's pods in default.
func lab08PodNames(srv *fakeapi.Server) string {
	items, _ := srv.List(fakeapi.Pods, "default")
	names := []string{}
	for _, p := range items {
		names = append(names, p["metadata"].(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	return fmt.Sprint(names)
}

// TestLab08LeavesOtherPodsAlone: a ReplicaSet acts on the pods it controls,
// found through the pod cache's index by controller, never on pods that
// merely match its labels: an unowned pod, or another ReplicaSet's.
func TestLab08LeavesOtherPodsAlone(t *testing.T) {
	defer labStart(t, 8)()
	f := newFixture(t, 2, nil)
	stray := &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: "stray", Labels: map[string]string{"app": "web"}},
		Spec: informer.PodSpec{Containers: []informer.Container{{Name: "c", Image: "busybox"}}}}
	if _, err := f.client.Create(context.Background(), podsGVR, stray); err != nil {
		t.Fatal(err)
	}
	if !lab08Start(t, f) {
		return
	}
	f.createReplicaSet(t, "web", 2)
	canary := newReplicaSetObject("canary", 1) // the same selector as web: app=web
	canary.Spec.Selector.MatchLabels = map[string]string{"app": "web"}
	canary.Spec.Template.ObjectMeta.Labels = map[string]string{"app": "web"}
	if _, err := f.client.Create(context.Background(), replicaSetsGVR, canary); err != nil {
		t.Fatal(err)
	}
	if !lab08Converge(t, f, 3, "web (2 pods) and canary (1 pod), with the same labels, beside an unowned pod with them too",
		"web（2 个 Pod）和 canary（1 个 Pod）标签相同，旁边还有一个同样标签、没有属主的 Pod") {
		return
	}
	f.scale(t, "web", 0)
	if !lab08Converge(t, f, 3, "web scaled to 0", "web 伸缩到 0") {
		return
	}
	for _, name := range []string{"stray", "canary-0"} {
		if _, err := f.srv.Get(fakeapi.Pods, "default", name); err != nil {
			labFailf(t, 8, 3, "pod %s, which web does not control, is gone: a ReplicaSet deletes only the pods it controls (podsOwnedBy: the index by controller, not the labels)",
				"web 并不控制的 Pod %s 没了：ReplicaSet 只删除它控制的 Pod（podsOwnedBy：按控制器的索引，而不是按标签）", name)
		}
	}
}

// TestLab08StatusThroughTheSubresourceWithRetryOnConflict: the status is
// written through /status, on a fresh read, again after a 409, keeping the
// status members this controller does not know.
func TestLab08StatusThroughTheSubresourceWithRetryOnConflict(t *testing.T) {
	defer labStart(t, 8)()
	f := newFixture(t, 1, nil) // not started: only updateStatus writes
	t.Cleanup(f.r.controller.workqueue.ShutDown)
	created := f.createReplicaSet(t, "web", 2)
	created.Object["status"] = map[string]any{"replicas": 0, "fullyLabeledReplicas": 7}
	if _, err := f.client.UpdateStatus(context.Background(), replicaSetsGVR, created); err != nil {
		t.Fatal(err)
	}
	obj, err := f.client.Do(context.Background(), http.MethodGet, replicaSetsGVR, "default", "web", nil, newReplicaSet)
	if err != nil {
		t.Fatal(err)
	}
	rs := obj.(*ReplicaSet)
	// Someone writes between the controller's read of the cache and its
	// write: the next request answers 409 Conflict, as if.
	f.srv.FailNext(1, http.StatusConflict)
	labWithin(t, 8, 4, "updateStatus", func() { err = f.r.controller.updateStatus(context.Background(), rs, 2) })
	if err != nil {
		labFailf(t, 8, 4, "updateStatus with one 409 Conflict on the way: expected nil (read again and retry: retry.RetryOnConflict), got %v",
			"途中有一次 409 Conflict 的 updateStatus：期望 nil（重新读取再重试：retry.RetryOnConflict），实际 %v", err)
		return
	}
	got, _ := f.srv.Get(replicaSets, "default", "web")
	status, _ := got["status"].(map[string]any)
	labExpect(t, 8, 4, "status.replicas on the server (written through the /status subresource)",
		"服务器上的 status.replicas（通过 /status 子资源写入）", 2, number(status["replicas"]))
	labExpect(t, 8, 4, "status.fullyLabeledReplicas, which this controller does not know (kept)",
		"status.fullyLabeledReplicas，本控制器并不知道它（要保留）", 7, number(status["fullyLabeledReplicas"]))
	labExpect(t, 8, 4, "status.observedGeneration", "status.observedGeneration",
		number(got["metadata"].(map[string]any)["generation"]), number(status["observedGeneration"]))

	// A ReplicaSet deleted meanwhile has no status to write: not an error.
	if err := f.srv.Delete(replicaSets, "default", "web"); err != nil {
		t.Fatal(err)
	}
	labWithin(t, 8, 4, "updateStatus of a deleted ReplicaSet", func() { err = f.r.controller.updateStatus(context.Background(), rs, 3) })
	labExpect(t, 8, 4, "updateStatus of a ReplicaSet deleted meanwhile", "更新期间已被删除的 ReplicaSet 的 updateStatus", "<nil>", fmt.Sprint(err))
}

// TestLab08RetriesAFailedCreateWithNoNewEvent: a pod is lost while the
// server fails the controller's create; no event follows the failure, so
// only the key's rate-limited retry can bring the pod back.
func TestLab08RetriesAFailedCreateWithNoNewEvent(t *testing.T) {
	defer labStart(t, 8)()
	f := newFixture(t, 1, nil)
	if !lab08Start(t, f) {
		return
	}
	f.createReplicaSet(t, "web", 2)
	if !lab08Converge(t, f, 3, "web with 2 replicas", "web 有 2 个副本") {
		return
	}
	// Both informers watch: the controller's create is the next request.
	for _, pod := range []string{"web-0", "web-1", "web-0"} {
		if !labWaitFor(func() bool { return f.srv.Stats().OpenWatches == 2 }) {
			t.Fatal("the informers are not watching")
		}
		failedBefore := len(f.events.find("FailedCreate", "default/web"))
		f.srv.FailNext(1, http.StatusInternalServerError)
		if err := f.srv.Delete(fakeapi.Pods, "default", pod); err != nil {
			t.Fatal(err)
		}
		if !lab08Converge(t, f, 2, pod+" deleted while the server failed the create once",
			pod+" 被删除，同时服务器让创建失败了一次") {
			return
		}
		if len(f.events.find("FailedCreate", "default/web")) > failedBefore {
			return // the create failed, and the retry made the pod
		}
		f.srv.FailNext(0, 0) // the failure hit another request: try again
	}
	labFailf(t, 8, 0, "the grader could not make the controller's create meet the injected failure in 3 tries; run it again",
		"评分测试 3 次都没能让控制器的创建遇上注入的失败；请再运行一次")
}

// TestLab08RandomScalesAndPodDeletionsConverge: seeded random workloads
// (ReplicaSets scaled, pods deleted, sometimes several changes at once, now
// and then a request the server fails with 500 or 409) must each end with
// every ReplicaSet holding exactly its pods and reporting them.
func TestLab08RandomScalesAndPodDeletionsConverge(t *testing.T) {
	defer labStart(t, 8)()
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 8))
		f := newFixture(t, 2, nil)
		if !lab08Start(t, f) {
			return
		}
		names := []string{"a", "b"}
		for _, name := range names {
			f.createReplicaSet(t, name, int32(1+rng.IntN(3)))
		}
		var ops []string
		for step := range 10 {
			if fault := rng.IntN(8); fault < 2 { // the next request fails: whoever makes it must cope
				code := []int{http.StatusInternalServerError, http.StatusConflict}[fault]
				f.srv.FailNext(1, code)
				ops = append(ops, fmt.Sprintf("fail the next request with %d", code))
			}
			for range 1 + rng.IntN(2) { // one or two changes before the controller catches up
				if rng.IntN(3) < 2 {
					name := names[rng.IntN(len(names))]
					n := rng.IntN(5)
					scaleDirect(t, f.srv, name, n)
					ops = append(ops, fmt.Sprintf("scale %s %d", name, n))
				} else if pods, _ := f.srv.List(fakeapi.Pods, "default"); len(pods) > 0 {
					name := pods[rng.IntN(len(pods))]["metadata"].(map[string]any)["name"].(string)
					_ = f.srv.Delete(fakeapi.Pods, "default", name)
					ops = append(ops, "delete "+name)
				}
			}
			last := strings.Join(ops[max(0, len(ops)-4):], ", ")
			if !lab08Converge(t, f, 3, fmt.Sprintf("seed %d, step %d, after %s", seed, step, last),
				fmt.Sprintf("种子 %d，第 %d 步，在 %s 之后", seed, step, last)) {
				return
			}
		}
	}
}

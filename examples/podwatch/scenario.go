// scenario.go is podwatch's story against fakeapi: each step does what a
// person would do with kubectl (or what goes wrong on a real network), then
// waits until the fast handler has printed the events it causes.
//
// client-go counterpart: none (it is the demo's story).
//
// Tutorial: 004 §1 (kubectl apply → "ADD event for default/nginx-pod"); 000 §4.3 (410 → relist).

package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/health"
)

// slowEach is how long the slow handler takes over each event; the story's
// lines quote it (exercise 2 makes it 500 ms).
const slowEach = 150 * time.Millisecond

func pod(name string, labels map[string]any) map[string]any {
	meta := map[string]any{"name": name, "namespace": "default"}
	if labels != nil {
		meta["labels"] = labels
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1.27"}}}}
}

// story holds what the steps share.
type story struct {
	n    *narrator
	s    *fakeapi.Server
	inf  informer.SharedIndexInformer
	rec  *health.Recorder // counts the lists, through the informer's ListerWatcher
	fast chan seen        // what the fast handler printed
}

// expect waits until the fast handler has printed each of want (in any order).
func (st *story) expect(want ...seen) error {
	left := map[seen]bool{}
	for _, w := range want {
		left[w] = true
	}
	deadline := time.After(15 * time.Second)
	for len(left) > 0 {
		select {
		case got := <-st.fast:
			delete(left, got)
		case <-deadline:
			return fmt.Errorf("%w: still waiting for %v", errTimeout, left)
		}
	}
	return nil
}

// watching waits until the informer has a watch open again (after a relist,
// the list and the new watch are two requests), so that the counts it prints
// next are the same on every run.
func (st *story) watching() error {
	deadline := time.Now().Add(15 * time.Second)
	for st.s.Stats().OpenWatches == 0 {
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: no watch open after the relist", errTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// stats counts the full lists (plain or streamed: the informer's health
// figures) and the watch requests the server answered.
func (st *story) stats() string {
	lists := st.rec.Health(nil).Lists
	if st.n.zh {
		return fmt.Sprintf("到目前为止 list %d 次，watch %d 次", lists, st.s.Stats().Watches)
	}
	return fmt.Sprintf("lists so far %d, watches %d", lists, st.s.Stats().Watches)
}

// playScenario plays the story against an in-process fakeapi, narrated by n.
func playScenario(gates informer.PipelineGates, resync time.Duration, n *narrator) error {
	s, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Create(fakeapi.Pods, "default", pod("existing", nil)); err != nil {
		return err
	}
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: s.URL()})
	if err != nil {
		return err
	}
	rec := health.NewRecorder(nil)
	lw := rec.ListerWatcher(informer.NewListWatchFromClient(client,
		informer.GroupVersionResource{Version: "v1", Resource: "pods"}, informer.NamespaceAll, ""))
	st := &story{n: n, s: s, rec: rec, fast: make(chan seen, 100),
		inf: informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
			PipelineGates: &gates,
			ResyncPeriod:  resync, // 0: none (exercise 6 sets it with -resync)
		})}
	_ = st.inf.SetWatchErrorHandler(func(_ *informer.Reflector, err error) {
		n.say("# (list/watch failed, will retry after a backoff: %v)", "# （list/watch 失败，退避之后重试：%v）", err)
	})
	var fastCount, slowCount atomic.Int64
	_, _ = st.inf.AddEventHandler(printingHandler(n, "fast", 0, st.fast, &fastCount))
	_, _ = st.inf.AddEventHandler(printingHandler(n, "slow", slowEach, nil, &slowCount))

	n.describePipeline(gates)
	n.say("# fakeapi is serving on %s; it already holds default/existing",
		"# fakeapi 在 %s 上提供服务；里面已经有 default/existing", s.URL())
	if gates.WatchListClient {
		n.say("# an informer with two handlers, \"fast\" and \"slow\": one watch streams it the list of all pods, then goes on",
			"# 一个带两个事件处理器（“fast”和“slow”）的 Informer：一个 watch 以流式列表送来所有 Pod，然后接着 watch")
	} else {
		n.say("# an informer with two handlers, \"fast\" and \"slow\", lists all pods, then watches them",
			"# 一个带两个事件处理器（“fast”和“slow”）的 Informer，对所有 Pod 先 list 再 watch")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { st.inf.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	if !informer.WaitForCacheSync(ctx, st.inf.HasSynced) {
		return errTimeout
	}
	if err := st.expect(seen{"ADD", "default/existing"}); err != nil {
		return err
	}
	n.say("# synced at version %s (%s)", "# 已同步到资源版本 %s（%s）", st.inf.LastSyncResourceVersion(), st.stats())

	steps := []func() error{st.create, st.update, st.dropWatch, st.slowHandler, st.compaction, st.remove}
	for _, step := range steps {
		n.blank()
		if err := step(); err != nil {
			return err
		}
	}
	// slow catches up with what fast had handled by now (a resync, if set,
	// keeps adding events to both: the target does not move with them).
	target := fastCount.Load()
	n.blank()
	n.say("# fast has handled %d events; slow (%d ms each) is still working through its backlog ...",
		"# fast 已处理 %d 个事件；slow（每个 %d ms）还在处理积压的事件……", target, slowEach.Milliseconds())
	deadline := time.Now().Add(15 * time.Second)
	for slowCount.Load() < target {
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: slow handled %d of %d events", errTimeout, slowCount.Load(), target)
		}
		time.Sleep(20 * time.Millisecond)
	}
	n.say("# the end: both handlers saw all %d events (%s)", "# 结束：两个事件处理器都收到了全部 %d 个事件（%s）",
		target, st.stats())
	return nil
}

func (st *story) create() error {
	st.n.say("$ kubectl apply -f nginx-pod.yaml     # creates default/nginx-pod",
		"$ kubectl apply -f nginx-pod.yaml     # 创建 default/nginx-pod")
	if _, err := st.s.Create(fakeapi.Pods, "default", pod("nginx-pod", map[string]any{"app": "nginx"})); err != nil {
		return err
	}
	return st.expect(seen{"ADD", "default/nginx-pod"})
}

func (st *story) update() error {
	st.n.say("$ kubectl label pod nginx-pod tier=frontend", "$ kubectl label pod nginx-pod tier=frontend     # 给它加一个标签")
	if _, err := st.s.Update(fakeapi.Pods, "default", pod("nginx-pod", map[string]any{"app": "nginx", "tier": "frontend"})); err != nil {
		return err
	}
	return st.expect(seen{"UPDATE", "default/nginx-pod"})
}

func (st *story) dropWatch() error {
	st.n.say("# the network drops the watch connection; the informer has seen version %s (%s)",
		"# 网络断开了 watch 连接；Informer 已经看到资源版本 %s（%s）", st.inf.LastSyncResourceVersion(), st.stats())
	st.s.CloseWatches()
	st.n.say("$ kubectl run redis --image=redis     # made after the drop", "$ kubectl run redis --image=redis     # 在断开之后创建")
	if _, err := st.s.Create(fakeapi.Pods, "default", pod("redis", nil)); err != nil {
		return err
	}
	if err := st.expect(seen{"ADD", "default/redis"}); err != nil {
		return err
	}
	st.n.say("# the informer re-watched from the version it had seen, without a relist (%s)",
		"# Informer 从它看到的资源版本接着 watch，没有重新 list（%s）", st.stats())
	return nil
}

func (st *story) slowHandler() error {
	st.n.say("# a burst of three pods: fast prints them at once, slow (%d ms each) lags behind without holding fast up",
		"# 一下子来了三个 Pod：fast 立刻打印，slow（每个 %d ms）落在后面，但不拖住 fast", slowEach.Milliseconds())
	var want []seen
	for i := 1; i <= 3; i++ {
		name := fmt.Sprintf("batch-%d", i)
		if _, err := st.s.Create(fakeapi.Pods, "default", pod(name, nil)); err != nil {
			return err
		}
		want = append(want, seen{"ADD", "default/" + name})
	}
	return st.expect(want...)
}

func (st *story) compaction() error {
	st.n.say("# the API server goes away; meanwhile redis is deleted, web is created, and etcd compacts its history",
		"# API 服务器下线；其间 redis 被删除，web 被创建，etcd 压缩了历史")
	if err := st.s.Stop(); err != nil {
		return err
	}
	if err := st.s.Delete(fakeapi.Pods, "default", "redis"); err != nil {
		return err
	}
	if _, err := st.s.Create(fakeapi.Pods, "default", pod("web", nil)); err != nil {
		return err
	}
	st.s.Compact(0)
	if err := st.s.Restart(); err != nil {
		return err
	}
	st.n.say("# it is back: re-watching from the old version gets 410 Expired, so the informer relists",
		"# 它回来了：从旧的资源版本接着 watch 得到 410 Expired，于是 Informer 重新 list")
	// Every cached pod comes back from the relist: the new one as an ADD, the
	// missed deletion as a DELETE, the others as UPDATEs.
	if err := st.expect(seen{"DELETE", "default/redis"}, seen{"ADD", "default/web"},
		seen{"UPDATE", "default/nginx-pod"}, seen{"UPDATE", "default/existing"}, seen{"UPDATE", "default/batch-1"},
		seen{"UPDATE", "default/batch-2"}, seen{"UPDATE", "default/batch-3"}); err != nil {
		return err
	}
	if err := st.watching(); err != nil {
		return err
	}
	st.n.say("# relisted (%s): the relist's differences became a DELETE, an ADD, and UPDATEs",
		"# 已重新 list（%s）：前后的差别变成了一个 DELETE、一个 ADD 和若干 UPDATE", st.stats())
	return nil
}

func (st *story) remove() error {
	st.n.say("$ kubectl delete pod nginx-pod", "$ kubectl delete pod nginx-pod     # 删除它")
	if err := st.s.Delete(fakeapi.Pods, "default", "nginx-pod"); err != nil {
		return err
	}
	return st.expect(seen{"DELETE", "default/nginx-pod"})
}

// story.go is the program's story on fakeapi: each step does what a person
// would do with kubectl (or what a kubelet would do: fakeapi has none),
// then waits until the controller has converged (converged.go) and says
// what it sees. Pods are named by the server (web-x7k2p); the story names
// them by what they are.
//
// client-go counterpart: none (it is the demo's story).
//
// Tutorial: 004 §2.3 (informer → work queue → reconcile) and 000 §5
// (backpressure and retries).

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/retry"
)

// story holds what the steps share.
type story struct {
	n       *narrator
	srv     *fakeapi.Server
	client  *informer.RESTClient
	r       *running
	metrics string // the URL of the controller's /debug/vars
}

// playStory plays the story on an in-process fakeapi, narrated by n; the
// controller's queue reports to provider, which debugURL serves.
func playStory(n *narrator, workers int, gates informer.PipelineGates, provider *expvarProvider, debugURL string) error {
	srv, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: srv.URL()})
	if err != nil {
		return err
	}
	st := &story{n: n, srv: srv, client: client, metrics: debugURL}
	n.say("# fakeapi is serving on %s (with its garbage collector)", "# fakeapi 在 %s 上提供服务（带垃圾收集器）", srv.URL())
	n.say("# the controller: informers on replicasets and pods, whose handlers only add keys to a work queue;",
		"# 控制器：ReplicaSet 和 Pod 各一个 Informer，它们的事件处理器只把键加入工作队列；")
	n.say("#   %d workers take keys from the queue and reconcile them, one worker per key at a time",
		"#   %d 个工作协程从队列取键并调谐，同一个键同一时间只在一个工作协程手里", workers)
	n.say("# the queue's metrics: %s", "# 工作队列的指标：%s", debugURL)
	st.r, err = newRunning(client, options{workers: workers, gates: gates, recorder: n, logger: n.logger(),
		metrics: provider})
	if err != nil {
		return err
	}
	st.r.run()
	defer st.r.stop()
	if err := st.converged(); err != nil {
		return err
	}
	n.say("# the caches are synced: no ReplicaSets, no pods", "# 缓存已同步：没有 ReplicaSet，也没有 Pod")

	steps := []func() error{
		st.createWeb, st.runThem, st.scaleUp, st.podLostWhileServerFails, st.scaleDown,
		st.relabelOut, st.deleteOrphaning, st.createWebAgain, st.deleteWeb,
	}
	for _, step := range steps {
		n.say("", "")
		if err := step(); err != nil {
			return err
		}
	}
	n.say("", "")
	return st.showMetrics()
}

// createWeb creates default/web with 3 replicas.
func (st *story) createWeb() error {
	st.n.say("$ kubectl apply -f web.yaml      # a ReplicaSet default/web: replicas 3, selector app=web",
		"$ kubectl apply -f web.yaml      # 一个 ReplicaSet default/web：replicas 3，选择算符 app=web")
	if _, err := st.client.Create(context.Background(), replicaSetsGVR, newReplicaSetObject("web", 3)); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	add, del, _ := st.r.controller.expectations.GetExpectations("default/web")
	st.n.say("# expectations of default/web: add %d, del %d. Its sync expected 3 creations; the pod handler "+
		"observed each; until then no sync of web made pods",
		"# default/web 的期望：add %d，del %d。它的同步期望 3 次创建；Pod 事件处理器逐个观察到；"+
			"在此之前 web 的同步不再创建 Pod", add, del)
	return nil
}

// runThem plays the kubelet: web's pods are Running and Ready.
func (st *story) runThem() error {
	st.n.say("# the kubelet (fakeapi has none; the story plays it): web's 3 pods are Running and Ready",
		"# kubelet（fakeapi 没有，由故事扮演）：web 的 3 个 Pod 进入 Running 且 Ready")
	for _, pod := range st.podsOf("web") {
		if err := st.setRunning(pod); err != nil {
			return err
		}
	}
	return st.report()
}

// scaleUp scales web to 5.
func (st *story) scaleUp() error {
	st.n.say("$ kubectl scale rs web --replicas=5     # two more pods", "$ kubectl scale rs web --replicas=5     # 再要两个 Pod")
	if err := st.scale("web", 5); err != nil {
		return err
	}
	return st.report()
}

// podLostWhileServerFails deletes a running pod of web while the server
// fails the next request: the controller's create of its replacement gets
// a 500, and the key comes back after the rate limiter's first wait.
func (st *story) podLostWhileServerFails() error {
	victim := st.podsOf("web")[0]
	st.n.say("$ kubectl delete pod %s   # a Running one; and the server fails the next request with 500",
		"$ kubectl delete pod %s   # 一个 Running 的；同时服务器让下一个请求失败：500", victim.Name)
	st.n.say("# (the sync writes its status first, with a ReplicaFailure condition, then fails: AddRateLimited "+
		"would bring the key back 5 ms later; the status write's own event brings it back at once)",
		"# （同步先写 status，带上 ReplicaFailure condition，然后失败：AddRateLimited 会让键 5 毫秒后回来；"+
			"而 status 写入引起的事件让它立即回来）")
	st.srv.FailNext(1, http.StatusInternalServerError)
	// fakeapi's Go Delete is not an HTTP request: the failure waits for the controller's.
	if err := st.srv.Delete(fakeapi.Pods, "default", victim.Name); err != nil {
		return err
	}
	return st.report()
}

// scaleDown scales web to 2: the three Pending pods go, the Running stay.
func (st *story) scaleDown() error {
	st.n.say("$ kubectl scale rs web --replicas=2     # three fewer: which three?",
		"$ kubectl scale rs web --replicas=2     # 少要三个：删哪三个？")
	if err := st.scale("web", 2); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	st.n.say("# the Pending pods went first (getPodsToDelete: Pending before Running, not ready before ready)",
		"# 先删的是 Pending 的 Pod（getPodsToDelete：Pending 先于 Running，未就绪先于就绪）")
	return nil
}

// relabelOut relabels a pod of web out of its selector: web releases it
// and makes a new one.
func (st *story) relabelOut() error {
	pod := st.podsOf("web")[0]
	st.n.say("$ kubectl label pod %s app=debug --overwrite   # out of web's selector",
		"$ kubectl label pod %s app=debug --overwrite   # 移出 web 的选择算符", pod.Name)
	changed := pod.DeepCopy()
	changed.Labels = map[string]string{"app": "debug"}
	if _, err := st.client.Update(context.Background(), podsGVR, changed); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	st.n.say("# web released it (its ownerReference removed) and made a new pod in its place",
		"# web 释放了它（删掉了它的 ownerReference），并新建了一个 Pod 顶替")
	return nil
}

// deleteOrphaning deletes web with propagationPolicy Orphan.
func (st *story) deleteOrphaning() error {
	st.n.say("$ kubectl delete rs web --cascade=orphan     # the pods stay, without their owner",
		"$ kubectl delete rs web --cascade=orphan     # Pod 留下，不再有属主")
	if err := st.deleteReplicaSet("web", "Orphan"); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	st.n.say("# the garbage collector removed web from its pods' ownerReferences, then the orphan finalizer: "+
		"web is gone", "# 垃圾收集器先从 Pod 的 ownerReferences 里删掉 web，再删掉 orphan finalizer：web 没了")
	return nil
}

// createWebAgain creates web again: it adopts the orphans it selects.
func (st *story) createWebAgain() error {
	st.n.say("$ kubectl apply -f web.yaml      # web again (a new uid), replicas 3",
		"$ kubectl apply -f web.yaml      # 再建 web（新的 uid），replicas 3")
	if _, err := st.client.Create(context.Background(), replicaSetsGVR, newReplicaSetObject("web", 3)); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	st.n.say("# it adopted the two orphans it selects (after a live read: is web being deleted?) and made one more",
		"# 它收养了选择算符选中的两个孤儿 Pod（先实时读一次：web 是否正被删除？），又新建了一个")
	return nil
}

// deleteWeb deletes web in the background: the collector deletes its pods.
func (st *story) deleteWeb() error {
	st.n.say("$ kubectl delete rs web     # propagationPolicy Background: web goes, then its pods",
		"$ kubectl delete rs web     # propagationPolicy Background：先删 web，再删它的 Pod")
	if err := st.deleteReplicaSet("web", "Background"); err != nil {
		return err
	}
	if err := st.report(); err != nil {
		return err
	}
	st.n.say("# the garbage collector deleted the 3 pods that named web in their ownerReferences; "+
		"the released one stays", "# 垃圾收集器删掉了 ownerReferences 里指向 web 的 3 个 Pod；被释放的那个留了下来")
	return nil
}

// showMetrics reads the controller's /debug/vars and says what its queue
// reported.
func (st *story) showMetrics() error {
	resp, err := http.Get(st.metrics)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var vars struct {
		Workqueue map[string]struct {
			Depth        int64   `json:"depth"`
			Adds         int64   `json:"adds_total"`
			Retries      int64   `json:"retries_total"`
			Unfinished   float64 `json:"unfinished_work_seconds"`
			WorkDuration struct {
				Count int64   `json:"count"`
				Sum   float64 `json:"sum"`
			} `json:"work_duration_seconds"`
		} `json:"workqueue"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&vars); err != nil {
		return err
	}
	q := vars.Workqueue["replicaset"]
	mean := time.Duration(0)
	if q.WorkDuration.Count > 0 {
		mean = time.Duration(q.WorkDuration.Sum / float64(q.WorkDuration.Count) * float64(time.Second)).Round(time.Microsecond)
	}
	st.n.say("# GET %s: workqueue.replicaset: depth %d, adds_total %d, retries_total %d, "+
		"work_duration_seconds: %d syncs, %v each on average",
		"# GET %s：workqueue.replicaset：depth %d，adds_total %d，retries_total %d，"+
			"work_duration_seconds：%d 次同步，平均每次 %v",
		st.metrics, q.Depth, q.Adds, q.Retries, q.WorkDuration.Count, mean)
	waits, gone := st.n.retries()
	st.n.say("# syncs retried, not printed: %d for a cache behind the controller's own last write (ConsistencyStore), "+
		"%d for a ReplicaSet deleted under them",
		"# 重试而未打印的同步：%d 次是缓存落后于控制器自己最近一次写入（ConsistencyStore），"+
			"%d 次是 ReplicaSet 在同步期间被删除", waits, gone)
	st.n.say("# converged after every step: the work queue is empty", "# 每一步之后都已收敛：工作队列是空的")
	return nil
}

// newReplicaSetObject is the ReplicaSet default/name: replicas pods of
// nginx, selected and labelled app=name.
func newReplicaSetObject(name string, replicas int32) *ReplicaSet {
	labels := map[string]string{"app": name}
	return &ReplicaSet{
		TypeMeta:   informer.TypeMeta{Kind: "ReplicaSet", APIVersion: "apps/v1"},
		ObjectMeta: informer.ObjectMeta{Name: name, Namespace: "default"},
		Spec: ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &LabelSelector{MatchLabels: labels},
			Template: PodTemplateSpec{
				ObjectMeta: informer.ObjectMeta{Labels: maps.Clone(labels)},
				Spec: informer.PodSpec{
					Containers: []informer.Container{{Name: "nginx", Image: "nginx:1.27"}},
				},
			},
		},
	}
}

// scale sets spec.replicas of default/name, as kubectl scale does: read,
// change, write, again on a 409.
func (st *story) scale(name string, replicas int) error {
	ctx := context.Background()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := st.client.Get(ctx, replicaSetsGVR, "default", name)
		if err != nil {
			return err
		}
		rs := obj.(*informer.Unstructured)
		rs.Object["spec"].(map[string]any)["replicas"] = replicas
		_, err = st.client.Update(ctx, replicaSetsGVR, rs)
		return err
	})
}

// deleteReplicaSet deletes default/name with propagationPolicy policy and,
// as kubectl delete does, waits (15 s at most) until it is gone: with
// Orphan, the garbage collector first orphans its pods.
func (st *story) deleteReplicaSet(name, policy string) error {
	ctx := context.Background()
	options := &informer.Unstructured{Object: map[string]any{"kind": "DeleteOptions", "apiVersion": "v1",
		"propagationPolicy": policy}}
	if _, err := st.client.Do(ctx, http.MethodDelete, replicaSetsGVR, "default", name, options, nil); err != nil {
		return err
	}
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond) // polling, as kubectl's wait does
	defer tick.Stop()
	for ; ; <-tick.C {
		_, err := st.client.Get(ctx, replicaSetsGVR, "default", name)
		switch {
		case informer.IsNotFound(err):
			return nil
		case err != nil:
			return err
		case time.Now().After(deadline):
			return fmt.Errorf("ReplicaSet %s is still there 15 s after its delete", name)
		}
	}
}

// setRunning plays the kubelet for pod: Running and Ready now.
func (st *story) setRunning(pod *informer.Pod) error {
	ctx := context.Background()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, err := st.client.Get(ctx, podsGVR, pod.Namespace, pod.Name)
		if err != nil {
			return err
		}
		p := obj.(*informer.Pod)
		now := time.Now().UTC().Truncate(time.Second)
		p.Status.Phase = podRunning
		p.Status.Conditions = []informer.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: now}}
		_, err = st.client.UpdateStatus(ctx, podsGVR, p)
		return err
	})
}

// podsOf returns the active pods the ReplicaSet name controls, as the
// server has them, Running first, each group by name.
func (st *story) podsOf(name string) []*informer.Pod {
	rs, err := st.srv.Get(replicaSets, "default", name)
	if err != nil {
		return nil
	}
	uid := rs["metadata"].(map[string]any)["uid"].(string)
	var pods []*informer.Pod
	for _, pod := range serverPods(st.srv, "default") {
		if ref := controllerOf(&pod.ObjectMeta); ref != nil && ref.UID == uid && active(pod) {
			pods = append(pods, pod)
		}
	}
	slices.SortFunc(pods, func(a, b *informer.Pod) int {
		if c := phaseOrder[b.Status.Phase] - phaseOrder[a.Status.Phase]; c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return pods
}

// report waits for convergence, then says, per ReplicaSet, its pods by
// phase and its status, and which pods no ReplicaSet controls.
func (st *story) report() error {
	if err := st.converged(); err != nil {
		return err
	}
	for _, rs := range serverReplicaSets(st.srv) {
		st.n.say("# converged: default/%s controls %s; status: %s",
			"# 已收敛：default/%s 控制着 %s；status：%s", rs.Name, st.byPhase(st.podsOf(rs.Name)), statusLine(rs.Status))
	}
	var orphans []*informer.Pod
	for _, pod := range serverPods(st.srv, "default") {
		if controllerOf(&pod.ObjectMeta) == nil {
			orphans = append(orphans, pod)
		}
	}
	if len(orphans) > 0 {
		st.n.say("# pods no ReplicaSet controls: %s", "# 没有 ReplicaSet 控制的 Pod：%s", st.byPhase(orphans))
	}
	if len(serverReplicaSets(st.srv)) == 0 {
		st.n.say("# no ReplicaSets left", "# 一个 ReplicaSet 也没有了")
	}
	return nil
}

// byPhase lists pods grouped by phase and labels: "2 Running (app=web:
// web-a web-b), 1 Pending (app=web: web-c)".
func (st *story) byPhase(pods []*informer.Pod) string {
	groups := map[string][]string{}
	var order []string
	for _, pod := range pods {
		g := fmt.Sprintf("%s (app=%s", pod.Status.Phase, pod.Labels["app"])
		if groups[g] == nil {
			order = append(order, g)
		}
		groups[g] = append(groups[g], pod.Name)
	}
	slices.SortFunc(order, func(a, b string) int { return strings.Compare(b, a) }) // Running before Pending
	var parts []string
	for _, g := range order {
		names := groups[g]
		slices.Sort(names)
		parts = append(parts, fmt.Sprintf("%d %s: %s)", len(names), g, strings.Join(names, " ")))
	}
	if len(parts) == 0 && st.n.zh {
		return "0 个 Pod"
	}
	if len(parts) == 0 {
		return "0 pods"
	}
	return strings.Join(parts, ", ")
}

// errNotConverged says the controller did not converge in time.
var errNotConverged = errors.New("the controller did not converge within 15 s")

// converged waits (15 s at most) until the controller has converged.
func (st *story) converged() error {
	if missing := waitConverged(st.srv, st.r, 15*time.Second, nil); missing != "" {
		return fmt.Errorf("%w: %s", errNotConverged, missing)
	}
	return nil
}

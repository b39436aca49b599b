// story.go is the program's story on fakeapi: each step does what a person
// would do with kubectl, then waits until the controller has converged (the
// server holds the pods each ReplicaSet asks for and the status says so,
// the controller's caches have caught up, and no key is queued or being
// worked on) and says what it sees.
//
// client-go counterpart: none (it is the demo's story).
//
// Tutorial: 004 §2.3 (informer → work queue → reconcile) and 000 §5
// (backpressure and retries).

package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/retry"
)

// story holds what the steps share.
type story struct {
	n      *narrator
	srv    *fakeapi.Server
	client *informer.RESTClient
	r      *running
}

// playStory plays the story on an in-process fakeapi, narrated by n.
func playStory(n *narrator, workers int, gates informer.PipelineGates) error {
	srv, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: srv.URL()})
	if err != nil {
		return err
	}
	st := &story{n: n, srv: srv, client: client}
	n.say("# fakeapi is serving on %s", "# fakeapi 在 %s 上提供服务", srv.URL())
	n.say("# the controller: informers on replicasets and pods, whose handlers only add keys to a work queue;",
		"# 控制器：ReplicaSet 和 Pod 各一个 Informer，它们的事件处理器只把键加入工作队列；")
	n.say("#   %d workers take keys from the queue and reconcile them, one worker per key at a time",
		"#   %d 个工作协程从队列取键并调谐，同一个键同一时间只在一个工作协程手里", workers)
	if st.r, err = newRunning(client, options{workers: workers, gates: gates, recorder: n}); err != nil {
		return err
	}
	st.r.run()
	defer st.r.stop()
	if err := st.converged(); err != nil {
		return err
	}
	n.say("# the caches are synced: no ReplicaSets, no pods", "# 缓存已同步：没有 ReplicaSet，也没有 Pod")

	steps := []func() error{st.createWeb, st.scaleUp, st.podLostWhileServerFails, st.scaleDown, st.createAPI}
	for _, step := range steps {
		n.say("", "")
		if err := step(); err != nil {
			return err
		}
	}
	n.say("", "")
	n.say("# converged: every ReplicaSet has the pods it asks for and reports them; the work queue is empty",
		"# 已收敛：每个 ReplicaSet 都有它要的 Pod，并如实报告；工作队列是空的")
	return nil
}

// createWeb creates default/web with 3 replicas.
func (st *story) createWeb() error {
	st.n.say("$ kubectl apply -f web.yaml      # a ReplicaSet default/web: replicas 3, pods labelled app=web",
		"$ kubectl apply -f web.yaml      # 一个 ReplicaSet default/web：replicas 3，Pod 带标签 app=web")
	if _, err := st.client.Create(context.Background(), replicaSetsGVR, newReplicaSetObject("web", 3)); err != nil {
		return err
	}
	return st.report()
}

// scaleUp scales web to 5.
func (st *story) scaleUp() error {
	st.n.say("$ kubectl scale rs web --replicas=5     # two more pods",
		"$ kubectl scale rs web --replicas=5     # 再要两个 Pod")
	if err := st.scale("web", 5); err != nil {
		return err
	}
	return st.report()
}

// podLostWhileServerFails deletes web-1 while the server fails the next
// request: the controller's create of the new web-1 gets a 500, and the key
// comes back after the rate limiter's first wait.
func (st *story) podLostWhileServerFails() error {
	st.n.say("$ kubectl delete pod web-1        # and the server fails the next request with 500 Internal Error",
		"$ kubectl delete pod web-1        # 同时服务器让下一个请求失败：500 Internal Error")
	st.n.say("# (the failed create sends the key back through AddRateLimited: it returns 5 ms later)",
		"# （创建失败，键经 AddRateLimited 放回队列：5 毫秒后再来）")
	st.srv.FailNext(1, 500)
	// fakeapi's Go Delete is not an HTTP request: the failure waits for the controller's.
	if err := st.srv.Delete(fakeapi.Pods, "default", "web-1"); err != nil {
		return err
	}
	return st.report()
}

// scaleDown scales web to 2.
func (st *story) scaleDown() error {
	st.n.say("$ kubectl scale rs web --replicas=2     # three fewer",
		"$ kubectl scale rs web --replicas=2     # 少要三个")
	if err := st.scale("web", 2); err != nil {
		return err
	}
	return st.report()
}

// createAPI creates a second ReplicaSet, default/api, with 2 replicas.
func (st *story) createAPI() error {
	st.n.say("$ kubectl apply -f api.yaml      # a second ReplicaSet, default/api: replicas 2",
		"$ kubectl apply -f api.yaml      # 第二个 ReplicaSet default/api：replicas 2")
	if _, err := st.client.Create(context.Background(), replicaSetsGVR, newReplicaSetObject("api", 2)); err != nil {
		return err
	}
	return st.report()
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
				Spec:       informer.PodSpec{Containers: []informer.Container{{Name: "nginx", Image: "nginx:1.27"}}},
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

// report waits for convergence, then says, per ReplicaSet, its pods and
// its status.replicas, as the server has them.
func (st *story) report() error {
	if err := st.converged(); err != nil {
		return err
	}
	items, _ := st.srv.List(replicaSets, "default")
	for _, rs := range items {
		meta := rs["metadata"].(map[string]any)
		name := meta["name"].(string)
		pods := podsOf(st.srv, "default", meta["uid"].(string))
		st.n.say("# converged: default/%s has %d pods (%s); status.replicas %v",
			"# 已收敛：default/%s 有 %d 个 Pod（%s）；status.replicas %v",
			name, len(pods), strings.Join(pods, " "), rs["status"].(map[string]any)["replicas"])
	}
	return nil
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

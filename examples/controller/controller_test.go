// controller_test.go tests the controller over HTTP against fakeapi: the
// pods it makes (owner, labels, spec), the status it writes (and the
// members it does not know, kept), pods it must leave alone, a pod being
// deleted that holds its name, a panic mid-reconcile, a 409 on the status,
// and the handlers' rules on their own.
//
// client-go counterpart: k8s.io/kubernetes pkg/controller/replicaset
// replica_set_test.go tests the real controller's rules.
//
// Tutorial: 004 §2.3 (the reconcile behind the informer).

package main

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestControllerMakesOwnedPodsFromTheTemplateAndReportsStatus(t *testing.T) {
	f := newFixture(t, 2, nil)
	rs := f.createReplicaSet(t, "web", 3)
	// A status member this controller does not know, written by someone else.
	rs.Object["status"] = map[string]any{"replicas": 0, "fullyLabeledReplicas": 7}
	_, err := f.client.UpdateStatus(context.Background(), replicaSetsGVR, rs)
	walkthrough.Must(t, err)
	f.start(t)
	f.waitConverged(t, "web with 3 replicas")

	for i, name := range []string{"web-0", "web-1", "web-2"} {
		obj, err := f.client.Get(context.Background(), podsGVR, "default", name)
		walkthrough.Must(t, err)
		pod := obj.(*informer.Pod)
		ref := controllerOf(&pod.ObjectMeta)
		if ref == nil || ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" || ref.Name != "web" ||
			ref.UID != rs.GetUID() || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			t.Fatalf("pod %d's controller reference = %+v, want apps/v1 ReplicaSet web %s, blockOwnerDeletion", i, ref, rs.GetUID())
		}
		if pod.Labels["app"] != "web" || len(pod.Spec.Containers) != 1 || pod.Spec.Containers[0].Image != "nginx:1.27" {
			t.Fatalf("pod %s: labels %v, containers %+v; want the template's", name, pod.Labels, pod.Spec.Containers)
		}
	}
	got, err := f.srv.Get(replicaSets, "default", "web")
	walkthrough.Must(t, err)
	status := got["status"].(map[string]any)
	generation := number(got["metadata"].(map[string]any)["generation"])
	if number(status["replicas"]) != 3 || number(status["observedGeneration"]) != generation ||
		number(status["fullyLabeledReplicas"]) != 7 {
		t.Fatalf("status = %v; want replicas 3, observedGeneration %d, and fullyLabeledReplicas kept (7)", status, generation)
	}
	if created := f.events.find("SuccessfulCreate", ""); len(created) != 3 {
		t.Fatalf("SuccessfulCreate events = %v, want 3: a pod is created once", created)
	}
}

func TestControllerLeavesPodsItDoesNotOwnAlone(t *testing.T) {
	f := newFixture(t, 2, nil)
	// A pod with the ReplicaSet's labels but no owner, and a pod holding a
	// name the ReplicaSet wants: neither is the controller's to touch.
	stray := walkthrough.Pod("stray")
	stray.Labels = map[string]string{"app": "web"}
	squatter := walkthrough.Pod("web-1")
	for _, p := range []*informer.Pod{stray, squatter} {
		_, err := f.client.Create(context.Background(), podsGVR, p)
		walkthrough.Must(t, err)
	}
	f.start(t)
	f.createReplicaSet(t, "web", 2)
	walkthrough.WaitFor(t, "a FailedCreate naming the squatter", func() bool {
		return len(f.events.find("FailedCreate", "web-1 exists and is not controlled by ReplicaSet web")) > 0 &&
			len(f.events.find("SyncFailed", "web-1")) > 0
	})
	walkthrough.Must(t, f.srv.Delete(fakeapi.Pods, "default", "web-1"))
	f.waitConverged(t, "web, once web-1 is free")
	if _, err := f.srv.Get(fakeapi.Pods, "default", "stray"); err != nil {
		t.Fatalf("the unowned pod with the same labels was touched: %v", err)
	}
}

func TestPodBeingDeletedHoldsItsNameAndIsNotCounted(t *testing.T) {
	f := newFixture(t, 1, nil)
	f.start(t)
	f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, "web with 2 replicas")
	// A finalizer keeps web-0 after its delete, with a deletionTimestamp.
	ctx := context.Background()
	obj, err := f.client.Get(ctx, podsGVR, "default", "web-0")
	walkthrough.Must(t, err)
	pod := obj.(*informer.Pod)
	pod.Finalizers = []string{"example.com/hold"}
	_, err = f.client.Update(ctx, podsGVR, pod)
	walkthrough.Must(t, err)
	_, err = f.client.Do(ctx, http.MethodDelete, podsGVR, "default", "web-0", nil, nil)
	walkthrough.Must(t, err)
	walkthrough.WaitFor(t, "status.replicas 1: a pod being deleted is not counted", func() bool {
		rs, err := f.srv.Get(replicaSets, "default", "web")
		return err == nil && number(rs["status"].(map[string]any)["replicas"]) == 1
	})
	if created := f.events.find("SuccessfulCreate", "web-0"); len(created) != 1 {
		t.Fatalf("web-0 was created %d times while its old self was being deleted, want once", len(created))
	}
	// The finalizer goes: web-0 is gone, and the controller makes it again.
	obj, err = f.client.Get(ctx, podsGVR, "default", "web-0")
	walkthrough.Must(t, err)
	pod = obj.(*informer.Pod)
	pod.Finalizers = nil
	_, err = f.client.Update(ctx, podsGVR, pod)
	walkthrough.Must(t, err)
	f.waitConverged(t, "web-0 made again once the old one was gone")
	if deleted := f.events.find("SuccessfulDelete", ""); len(deleted) != 0 {
		t.Fatalf("the controller deleted %v: a pod already being deleted is not deleted again", deleted)
	}
}

func TestPanicMidReconcileIsRetriedWithBackoff(t *testing.T) {
	f := newFixture(t, 1, nil)
	panicked := false
	f.events.hook = func(reason, message string) {
		if reason == "SuccessfulCreate" && !panicked { // after the first pod, before the others
			panicked = true
			panic("a bug in the reconcile")
		}
	}
	f.start(t)
	f.createReplicaSet(t, "web", 3)
	f.waitConverged(t, "web after a panic mid-reconcile")
	if failed := f.events.find("SyncFailed", "panic: a bug in the reconcile"); len(failed) != 1 {
		t.Fatalf("SyncFailed events for the panic = %v, want 1", failed)
	}
	if n := f.r.controller.workqueue.NumRequeues("default/web"); n != 0 {
		t.Fatalf("NumRequeues = %d after the retry succeeded, want 0 (Forget)", n)
	}
}

func TestStatusWriteRetriesOnConflict(t *testing.T) {
	f := newFixture(t, 1, nil) // not started: only updateStatus writes
	t.Cleanup(f.r.controller.workqueue.ShutDown)
	f.createReplicaSet(t, "web", 1)
	obj, err := f.client.Do(context.Background(), http.MethodGet, replicaSetsGVR, "default", "web", nil, newReplicaSet)
	walkthrough.Must(t, err)
	// The next request, the status write's read, gets 409 Conflict: the
	// retry reads again and writes.
	f.srv.FailNext(1, http.StatusConflict)
	walkthrough.Must(t, f.r.controller.updateStatus(context.Background(), obj.(*ReplicaSet), 5))
	got, err := f.srv.Get(replicaSets, "default", "web")
	walkthrough.Must(t, err)
	if n := number(got["status"].(map[string]any)["replicas"]); n != 5 {
		t.Fatalf("status.replicas = %d after a 409 and a retry, want 5", n)
	}
}

func TestHandlersEnqueueTheOwningReplicaSetOnly(t *testing.T) {
	f := newFixture(t, 1, nil) // not started: the handlers are called by hand
	c := f.r.controller
	t.Cleanup(c.workqueue.ShutDown)
	rs := newReplicaSetObject("web", 1)
	rs.UID = "uid-web"
	walkthrough.Must(t, f.r.replicaSet.GetIndexer().Add(rs))
	other := newReplicaSetObject("other", 1)
	other.UID = "uid-other"
	walkthrough.Must(t, f.r.replicaSet.GetIndexer().Add(other))
	owned := func(name, kind, owner, uid string, controller bool) *informer.Pod {
		p := walkthrough.Pod(name)
		p.ResourceVersion = "1"
		p.OwnerReferences = []informer.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: owner, UID: uid, Controller: &controller}}
		return p
	}
	drain := func() []string {
		var keys []string
		for c.workqueue.Len() > 0 {
			k, _ := c.workqueue.Get()
			c.workqueue.Done(k)
			keys = append(keys, k)
		}
		return keys
	}
	for _, tc := range []struct {
		name string
		call func()
		want []string
	}{
		{"its pod", func() { c.handlePod(owned("a", "ReplicaSet", "web", "uid-web", true)) }, []string{"default/web"}},
		{"a tombstone of its pod", func() {
			c.handlePod(informer.DeletedFinalStateUnknown{Key: "default/a", Obj: owned("a", "ReplicaSet", "web", "uid-web", true)})
		}, []string{"default/web"}},
		{"an owner that is not the controller", func() { c.handlePod(owned("a", "ReplicaSet", "web", "uid-web", false)) }, nil},
		{"another kind's pod", func() { c.handlePod(owned("a", "StatefulSet", "web", "uid-web", true)) }, nil},
		{"a ReplicaSet of the same name, another uid", func() { c.handlePod(owned("a", "ReplicaSet", "web", "uid-old", true)) }, nil},
		{"an update with the same resourceVersion (a resync)", func() {
			p := owned("a", "ReplicaSet", "web", "uid-web", true)
			c.updatePod(p, p)
		}, nil},
		{"a pod that changed owner", func() {
			c.updatePod(owned("a", "ReplicaSet", "other", "uid-other", true), func() *informer.Pod {
				p := owned("a", "ReplicaSet", "web", "uid-web", true)
				p.ResourceVersion = "2"
				return p
			}())
		}, []string{"default/other", "default/web"}},
		{"a burst of one ReplicaSet's events", func() {
			for range 3 {
				c.enqueueReplicaSet(rs)
			}
		}, []string{"default/web"}},
	} {
		tc.call()
		if got := drain(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: queued %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestStoryInBothLanguages(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			var out strings.Builder
			n := &narrator{w: &out, zh: lang == "zh"}
			if err := playStory(n, 2, *walkthrough.Gates()); err != nil {
				t.Fatalf("%v; it printed:\n%s", err, out.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			for _, line := range lines {
				if line != "" && hasHan(line) != (lang == "zh") {
					t.Errorf("in %s, a line with Chinese=%v: %q", lang, hasHan(line), line)
				}
			}
			last := lines[len(lines)-1]
			if !strings.Contains(last, "converged") && !strings.Contains(last, "已收敛") {
				t.Errorf("the story does not end by saying it converged: %q", last)
			}
			for _, want := range []string{"web-0", "web-4", "api-1", "SyncFailed", "FailedCreate", "SuccessfulDelete"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the story never mentions %s:\n%s", want, out.String())
				}
			}
		})
	}
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

func TestControllerRunReturnsWhenStoppedBeforeTheCachesSync(t *testing.T) {
	walkthrough.QuietLogs(t) // WaitForCacheSync logs that it stopped
	srv := walkthrough.StartServer(t)
	client := walkthrough.Client(t, srv)
	r, err := newRunning(client, options{workers: 1, gates: *walkthrough.Gates(), recorder: &eventLog{}})
	walkthrough.Must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // stopped before anything ran
	done := make(chan error, 1)
	go func() { done <- r.controller.Run(ctx, 1) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Run returned nil although the caches never synced")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended before the caches synced")
	}
	waitNoLeftover(t)
}

// TestDocsShowTheWorkersLoop checks that docs/controller.md and its Chinese
// twin show processNextWorkItem as it is (comments aside, which are
// translated).
func TestDocsShowTheWorkersLoop(t *testing.T) {
	code := func(text string) string {
		text = regexp.MustCompile(`//[^\n]*`).ReplaceAllString(text, "")
		return strings.Join(strings.Fields(text), " ")
	}
	src, err := os.ReadFile("controller.go")
	walkthrough.Must(t, err)
	body := regexp.MustCompile(`(?s)func \(c \*Controller\) processNextWorkItem.*?\n}\n`).Find(src)
	if body == nil {
		t.Fatal("processNextWorkItem not found in controller.go")
	}
	if _, err := os.Stat("../../docs"); os.IsNotExist(err) {
		t.Skip("no docs/ in this tree (a student repository of the labs has none)")
	}
	for _, doc := range []string{"../../docs/controller.md", "../../docs/controller.zh-CN.md"} {
		text, err := os.ReadFile(doc)
		walkthrough.Must(t, err)
		if !strings.Contains(code(string(text)), code(string(body))) {
			t.Errorf("%s does not show processNextWorkItem as controller.go has it:\n%s", doc, body)
		}
	}
}

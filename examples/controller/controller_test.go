// controller_test.go tests the controller over HTTP against fakeapi: the
// pods it makes from the template, counted not named; pods that do not
// count (Failed, Succeeded, terminating); claiming (adoption with its live
// recheck, release); the status written on every sync, failed ones too;
// a 409 on a create; the burst limit; a panic mid-reconcile; the story in
// both languages; and stopping.
//
// client-go counterpart: k8s.io/kubernetes v1.37.2 pkg/controller/replicaset
// replica_set_test.go tests the real controller's rules (with fake
// clients).
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
	"sync/atomic"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestControllerMakesPodsFromTheTemplateAndReportsStatus(t *testing.T) {
	f := newFixture(t, 2, nil)
	rs := f.createReplicaSet(t, "web", 3)
	f.start(t)
	f.waitConverged(t, "web with 3 replicas")

	names := f.activePods(t, "web")
	for _, name := range names {
		obj, err := f.client.Get(context.Background(), podsGVR, "default", name)
		walkthrough.Must(t, err)
		pod := obj.(*informer.Pod)
		ref := controllerOf(&pod.ObjectMeta)
		if ref == nil || ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" || ref.Name != "web" ||
			ref.UID != rs.GetUID() || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			t.Fatalf("pod %s's controller reference = %+v, want apps/v1 ReplicaSet web %s, blockOwnerDeletion", name, ref, rs.GetUID())
		}
		if !regexp.MustCompile(`^web-[a-z0-9]{5}$`).MatchString(name) || pod.GenerateName != "web-" {
			t.Fatalf("pod name %q (generateName %q), want the server's name from generateName web-", name, pod.GenerateName)
		}
		if pod.Labels["app"] != "web" || len(pod.Spec.Containers) != 1 || pod.Spec.Containers[0].Image != "nginx:1.27" {
			t.Fatalf("pod %s: labels %v, containers %+v; want the template's", name, pod.Labels, pod.Spec.Containers)
		}
	}
	st := f.serverReplicaSet(t, "web").Status
	if st.Replicas != 3 || st.FullyLabeledReplicas != 3 || st.ReadyReplicas != 0 || st.TerminatingReplicas == nil ||
		*st.TerminatingReplicas != 0 || st.ObservedGeneration != 1 {
		t.Fatalf("status = %s; want replicas 3, fullyLabeled 3, ready 0, terminating 0, observedGeneration 1", statusLine(st))
	}
	if created := f.events.find("SuccessfulCreate", ""); len(created) != 3 {
		t.Fatalf("SuccessfulCreate events = %v, want 3: a pod is created once", created)
	}
	// Two of them Ready: readyReplicas and availableReplicas follow.
	f.setPodStatus(t, names[0], podRunning, true)
	f.setPodStatus(t, names[1], podRunning, true)
	f.waitConverged(t, "two pods Ready")
	if st := f.serverReplicaSet(t, "web").Status; st.ReadyReplicas != 2 || st.AvailableReplicas != 2 {
		t.Fatalf("status = %s; want ready 2, available 2", statusLine(st))
	}
}

func TestControllerCountsPodsItDoesNotNameThem(t *testing.T) {
	f := newFixture(t, 1, nil)
	rs := f.createReplicaSet(t, "web", 2)
	ref := *newControllerRef(&ReplicaSet{ObjectMeta: informer.ObjectMeta{Name: "web", UID: rs.GetUID()}})
	// Two pods it controls, named as no sync of its own would name them.
	f.createPod(t, "web-0", map[string]string{"app": "web"}, ref)
	f.createPod(t, "web-x7k2p", map[string]string{"app": "web"}, ref)
	f.start(t)
	f.waitConverged(t, "web with two pods of its own")
	if writes := append(f.events.find("SuccessfulCreate", ""), f.events.find("SuccessfulDelete", "")...); len(writes) != 0 {
		t.Fatalf("the controller wrote %v: two owned active pods for replicas 2 is done", writes)
	}
	// Made again under the same name, web shares nothing with the old one.
	_, err := f.client.Do(context.Background(), http.MethodDelete, replicaSetsGVR, "default", "web", nil, nil)
	walkthrough.Must(t, err)
	f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, "web made again")
	if got := f.activePods(t, "web"); len(got) != 2 || slices.Contains(got, "web-0") {
		t.Fatalf("the new web controls %v; want two new pods (the old ones went with the old web)", got)
	}
}

func TestPodsThatDoNotCountAreReplaced(t *testing.T) {
	f := newFixture(t, 2, nil)
	f.start(t)
	f.createReplicaSet(t, "web", 3)
	f.waitConverged(t, "web with 3 replicas")
	pods := f.activePods(t, "web")
	f.setPodStatus(t, pods[0], podFailed, false)
	f.setPodStatus(t, pods[1], podSucceeded, false)
	// A pod being deleted (a finalizer keeps it) counts as terminating.
	obj, err := f.client.Get(context.Background(), podsGVR, "default", pods[2])
	walkthrough.Must(t, err)
	held := obj.(*informer.Pod)
	held.Finalizers = []string{"example.com/hold"}
	_, err = f.client.Update(context.Background(), podsGVR, held)
	walkthrough.Must(t, err)
	_, err = f.client.Do(context.Background(), http.MethodDelete, podsGVR, "default", pods[2], nil, nil)
	walkthrough.Must(t, err)
	f.waitConverged(t, "a Failed, a Succeeded and a terminating pod replaced")
	if got := f.activePods(t, "web"); len(got) != 3 || slices.ContainsFunc(got, func(n string) bool { return slices.Contains(pods, n) }) {
		t.Fatalf("web's active pods = %v, want 3 new ones (none of %v)", got, pods)
	}
	if st := f.serverReplicaSet(t, "web").Status; st.Replicas != 3 || *st.TerminatingReplicas != 1 {
		t.Fatalf("status = %s; want replicas 3 (the Failed and Succeeded are not counted), terminating 1", statusLine(st))
	}
	if deleted := f.events.find("SuccessfulDelete", ""); len(deleted) != 0 {
		t.Fatalf("the controller deleted %v: a pod already being deleted is not deleted again", deleted)
	}
}

func TestControllerAdoptsOrphansItSelectsAndReleasesPodsItNoLongerSelects(t *testing.T) {
	f := newFixture(t, 2, nil)
	orphan := f.createPod(t, "orphan", map[string]string{"app": "web"})
	other := f.createPod(t, "other", map[string]string{"app": "api"})
	f.start(t)
	rs := f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, "web adopting an orphan")
	if got := f.activePods(t, "web"); len(got) != 2 || !slices.Contains(got, orphan.Name) {
		t.Fatalf("web controls %v, want the orphan and one new pod", got)
	}
	if created := f.events.find("SuccessfulCreate", ""); len(created) != 1 {
		t.Fatalf("web created %d pods, want 1 (the orphan is one of its two)", len(created))
	}
	obj, err := f.client.Get(context.Background(), podsGVR, "default", other.Name)
	walkthrough.Must(t, err)
	if refs := obj.(*informer.Pod).OwnerReferences; len(refs) != 0 {
		t.Fatalf("a pod web does not select was adopted: %+v", refs)
	}
	// Relabelled out: released, and replaced.
	obj, err = f.client.Get(context.Background(), podsGVR, "default", orphan.Name)
	walkthrough.Must(t, err)
	pod := obj.(*informer.Pod)
	pod.Labels = map[string]string{"app": "debug"}
	_, err = f.client.Update(context.Background(), podsGVR, pod)
	walkthrough.Must(t, err)
	f.waitConverged(t, "web releasing a relabelled pod")
	obj, err = f.client.Get(context.Background(), podsGVR, "default", orphan.Name)
	walkthrough.Must(t, err)
	if ref := controllerOf(&obj.(*informer.Pod).ObjectMeta); ref != nil {
		t.Fatalf("the relabelled pod is still controlled by %+v (web is %s)", ref, rs.GetUID())
	}
}

func TestAdoptionRechecksTheReplicaSetWithALiveRead(t *testing.T) {
	f := newFixture(t, 1, nil) // not started: claimPods is called by hand
	t.Cleanup(f.r.controller.workqueue.ShutDown)
	ctx := context.Background()
	rsObj := newReplicaSetObject("web", 1)
	rsObj.Finalizers = []string{"example.com/hold"} // the delete leaves it, being deleted
	obj, err := f.client.Create(ctx, replicaSetsGVR, rsObj)
	walkthrough.Must(t, err)
	cached, err := asReplicaSet(obj) // what a cache that has not seen the delete yet holds
	walkthrough.Must(t, err)
	_, err = f.client.Do(ctx, http.MethodDelete, replicaSetsGVR, "default", "web", nil, nil)
	walkthrough.Must(t, err)
	orphan := f.createPod(t, "orphan", map[string]string{"app": "web"})
	selector, err := cached.selector()
	walkthrough.Must(t, err)
	claimed, err := f.r.controller.claimPods(ctx, cached, selector, []*informer.Pod{orphan})
	if err == nil || !strings.Contains(err.Error(), "has just been deleted") || len(claimed) != 0 {
		t.Fatalf("claimPods = %v, %v; want no pod and an error saying web has just been deleted", claimed, err)
	}
	got, err := f.srv.Get(fakeapi.Pods, "default", "orphan")
	walkthrough.Must(t, err)
	if refs := got["metadata"].(map[string]any)["ownerReferences"]; refs != nil {
		t.Fatalf("the orphan was adopted by a ReplicaSet being deleted: %v", refs)
	}
}

func TestStatusIsWrittenWhenCreatesFail(t *testing.T) {
	var refuse atomic.Bool
	f := newProxiedFixture(t, 1, nil, func(r *http.Request) (int, string, string) {
		if refuse.Load() && isPodCreate(r) {
			return http.StatusForbidden, "Forbidden", `pods "web-" is forbidden: exceeded quota`
		}
		return 0, "", ""
	})
	f.start(t)
	f.createReplicaSet(t, "web", 1)
	f.waitConverged(t, "web with 1 replica")
	refuse.Store(true) // a quota, say: every create is refused
	f.scale(t, "web", 2)
	walkthrough.WaitFor(t, "the ReplicaFailure condition on the server", func() bool {
		c := getCondition(f.serverReplicaSet(t, "web").Status, replicaFailure)
		return c != nil && c.Status == "True" && c.Reason == "FailedCreate" && strings.Contains(c.Message, "exceeded quota")
	})
	if st := f.serverReplicaSet(t, "web").Status; st.Replicas != 1 || st.ObservedGeneration != 2 {
		t.Fatalf("status after the failed create = %s; want replicas 1 and observedGeneration 2, written before the error", statusLine(st))
	}
	refuse.Store(false)
	f.waitConverged(t, "web once creates are allowed again")
	if c := getCondition(f.serverReplicaSet(t, "web").Status, replicaFailure); c != nil {
		t.Fatalf("the ReplicaFailure condition is still there after the create succeeded: %+v", c)
	}
}

func TestAlreadyExistsOnACreateIsAFailure(t *testing.T) {
	var once atomic.Bool
	f := newProxiedFixture(t, 1, nil, func(r *http.Request) (int, string, string) {
		if isPodCreate(r) && once.CompareAndSwap(false, true) {
			return http.StatusConflict, "AlreadyExists", `pods "web-x7k2p" already exists`
		}
		return 0, "", ""
	})
	f.start(t)
	f.createReplicaSet(t, "web", 2)
	f.waitConverged(t, "web after an AlreadyExists")
	if failed := f.events.find("FailedCreate", "already exists"); len(failed) != 1 {
		t.Fatalf("FailedCreate events naming AlreadyExists = %v; want 1", failed)
	}
	if got := f.activePods(t, "web"); len(got) != 2 {
		t.Fatalf("web has %v, want 2 pods: the create that met AlreadyExists was made again", got)
	}
}

func TestBurstReplicasLimitsOneSync(t *testing.T) {
	f := newFixture(t, 1, nil)
	f.r.controller.burstReplicas = 2
	f.start(t)
	f.createReplicaSet(t, "web", 5)
	f.waitConverged(t, "web with 5 replicas, 2 a sync")
	// Each sync creates at most 2: at least three syncs created pods.
	if created := f.events.find("SuccessfulCreate", ""); len(created) != 5 {
		t.Fatalf("%d pods created, want 5", len(created))
	}
}

func TestPanicMidReconcileIsRetriedWithBackoff(t *testing.T) {
	f := newFixture(t, 1, nil)
	panicked := false
	f.events.hook = func(reason, message string) {
		if reason == "SuccessfulCreate" && !panicked { // after the first pod, before the status
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
	// A retry already waiting in the queue's heap when web converged runs
	// too, succeeds, and Forgets the key.
	walkthrough.WaitFor(t, "NumRequeues 0 once a retry succeeded (Forget)", func() bool {
		return f.r.controller.workqueue.NumRequeues("default/web") == 0
	})
}

func TestStoryInBothLanguages(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			var out strings.Builder
			n := &narrator{w: &out, zh: lang == "zh"}
			provider := newExpvarProvider()
			url, stop := serveProvider(t, provider)
			defer stop()
			if err := playStory(n, 2, *walkthrough.Gates(), provider, url); err != nil {
				t.Fatalf("%v; it printed:\n%s", err, out.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			for _, line := range lines {
				if line != "" && hasHan(line) != (lang == "zh") {
					t.Errorf("in %s, a line with Chinese=%v: %q", lang, hasHan(line), line)
				}
			}
			for _, want := range []string{"SyncFailed", "FailedCreate", "SuccessfulDelete", "Too few", "Releasing", "Adopting",
				"adds_total", "depth 0", "retries_total", "work_duration_seconds", "add 0, del 0"} {
				if lang == "zh" && (want == "Too few" || want == "Releasing" || want == "Adopting" || want == "add 0, del 0") {
					continue
				}
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
		t.Skip("no docs/ in this tree")
	}
	for _, doc := range []string{"../../docs/controller.md", "../../docs/controller.zh-CN.md"} {
		text, err := os.ReadFile(doc)
		walkthrough.Must(t, err)
		// A student repository's copy of the chapter leaves the exercise's
		// code out (labs/standalone.go, withoutLabCode): there is nothing to
		// compare, and the learner's loop is theirs.
		if strings.Contains(string(text), "`processNextWorkItem` is lab") ||
			strings.Contains(string(text), "`processNextWorkItem` 的代码是实验") {
			t.Skipf("%s leaves processNextWorkItem out: lab 8's exercise, in a student repository", doc)
		}
		if !strings.Contains(code(string(text)), code(string(body))) {
			t.Errorf("%s does not show processNextWorkItem as controller.go has it:\n%s", doc, body)
		}
	}
}

// chaos_test.go is the controller's chaos test: while a seeded random
// workload creates and scales ReplicaSets and deletes their pods, faults
// fire: watches dropped, the history compacted (410, relist), bursts of
// 500, 409 and 429 answers (to the informers' lists and watches and to the
// controller's writes alike), a worker panicking mid-reconcile (in a
// create's goroutine, or after its writes), slow reconciles, and a slow
// pod handler beside the controller's, which slows the pod cache. Whenever
// the caches have caught up with the server, no ReplicaSet may have more
// active pods than it asked for since the last such point (or had then):
// expectations keep a sync on a stale cache from creating twice. Then the
// faults stop, and within a deadline the controller must converge: every
// ReplicaSet has exactly the pods it asks for and reports them, the caches
// hold what the server holds, and the work queue is empty. Time runs on a
// fake clock, moved a minute whenever something waits on it (the queue's
// backoffs, the Reflectors'), so that no run waits for real backoffs.
//
//	go test -run TestControllerChaos -v ./examples/controller              2 random seeds, printed
//	CONTROLLER_CHAOS_SEED=42 go test -run TestControllerChaos ./examples/controller   that seed
//	CONTROLLER_CHAOS_SEEDS=100 go test -run TestControllerChaos -timeout 1h ./examples/controller
//	CONTROLLER_CHAOS_SEEDS=15 go test -race -run TestControllerChaos -timeout 1h ./examples/controller
//
// Each runs in both informer pipelines (TestMain).
//
// client-go counterpart: none (the real controller is tested with fake
// clients; this one is tested over HTTP against fakeapi).
//
// Tutorial: 000 §4.3 (when things go wrong) and 000 §5 (backpressure).

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	informer "github.com/learn-k8s/informer"
	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// chaosFaults names the kinds of step, in the order their counts are
// reported.
var chaosFaults = []string{"scale", "burst-of-scales", "delete-pod", "drop-watches", "compact",
	"fail-500", "fail-409", "fail-429", "panic", "slow-reconcile", "slow-watch", "clock-step"}

func TestControllerChaos(t *testing.T) {
	seeds := chaosSeeds(t)
	for _, seed := range seeds {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) { runChaos(t, seed) })
	}
}

// chaosSeeds reads CONTROLLER_CHAOS_SEED (one seed) or
// CONTROLLER_CHAOS_SEEDS (that many consecutive seeds from a random one);
// by default, two random seeds (CI's run: the hundred are on demand).
func chaosSeeds(t *testing.T) []uint64 {
	if v := os.Getenv("CONTROLLER_CHAOS_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		walkthrough.Must(t, err)
		return []uint64{seed}
	}
	n := 2
	if v := os.Getenv("CONTROLLER_CHAOS_SEEDS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		walkthrough.Must(t, err)
	}
	first := rand.Uint64() % 1_000_000
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = first + uint64(i)
	}
	return seeds
}

// runChaos plays one seeded run and checks that the controller converges.
func runChaos(t *testing.T, seed uint64) {
	walkthrough.QuietLogs(t) // the Reflectors log the faults on purpose
	rng := rand.New(rand.NewPCG(seed, 31))
	clock := testingclock.NewFakeClock(time.Now())
	f := newFixture(t, 3, clock, fakeapi.Options{BookmarkInterval: 20 * time.Millisecond, History: 40})

	// A panic strikes before a sync, or after its writes: never between a
	// create the server made and its report, which would tell the
	// expectations a made pod failed (as a create whose answer is lost does,
	// on a real cluster too: TestPanicMidReconcileIsRetriedWithBackoff).
	var panicArmed, panicAfterArmed, slowArmed atomic.Bool
	sync := f.r.controller.syncHandler
	f.r.controller.syncHandler = func(ctx context.Context, key string) error {
		if slowArmed.CompareAndSwap(true, false) {
			time.Sleep(20 * time.Millisecond) // a slow reconcile: work, not synchronisation
		}
		if panicArmed.CompareAndSwap(true, false) {
			panic("chaos: a worker panics mid-reconcile")
		}
		err := sync(ctx, key)
		if panicAfterArmed.CompareAndSwap(true, false) {
			panic("chaos: a worker panics after its writes") // the key is not Forgotten
		}
		return err
	}
	_, err := f.r.pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { time.Sleep(time.Millisecond) }, // a slow handler beside the controller's
		UpdateFunc: func(any, any) { time.Sleep(time.Millisecond) },
		DeleteFunc: func(any) { time.Sleep(time.Millisecond) },
	})
	walkthrough.Must(t, err)
	f.start(t)

	names := []string{"a", "b", "c", "d"}
	asked := map[string]int{}    // the most each ReplicaSet asked for since the last settled point
	settled := map[string]int{}  // its active pods at that point
	for _, name := range names { // made before any fault: the chaos is in what follows
		n := 1 + rng.IntN(4)
		f.createReplicaSet(t, name, int32(n))
		asked[name] = n
	}
	scale := func(name string, n int) {
		scaleDirect(t, f.srv, name, n)
		asked[name] = max(asked[name], n)
	}
	// The workload writes through fakeapi's Go methods, which are not HTTP
	// requests: the injected failures hit the controller and its informers.
	counts := map[string]int{}
	// The workload's steps come up three times as often as each fault.
	steps := append([]string{"scale", "scale", "delete-pod", "delete-pod", "burst-of-scales"}, chaosFaults...)
	for range 60 {
		kind := steps[rng.IntN(len(steps))]
		if kind == "fail-429" && rng.IntN(3) != 0 {
			// The client waits out a 429's Retry-After (1 s, as fakeapi and
			// kube-apiserver send it) before it asks again, as client-go's
			// does, on the real clock: one in three, to keep a run short.
			kind = "fail-500"
		}
		counts[kind]++
		switch kind {
		case "scale":
			scale(names[rng.IntN(len(names))], rng.IntN(6))
		case "burst-of-scales": // one key, three events: queued once
			name := names[rng.IntN(len(names))]
			for range 3 {
				scale(name, rng.IntN(6))
			}
		case "delete-pod":
			// A pod the controller's cache shows: one made and deleted while
			// its watch was down would never be observed, and its ReplicaSet
			// would wait ExpectationsTimeout (5 minutes), as on a real cluster.
			if keys := f.r.pods.GetStore().ListKeys(); len(keys) > 0 {
				slices.Sort(keys)
				_, name, _ := informer.SplitMetaNamespaceKey(keys[rng.IntN(len(keys))])
				_ = f.srv.Delete(fakeapi.Pods, "default", name)
			}
		case "drop-watches":
			f.srv.CloseWatches()
		case "compact":
			f.srv.Compact(0)
			f.srv.CloseWatches() // the re-watch from a compacted version gets 410: relist
		case "fail-500":
			f.srv.FailNext(1+rng.IntN(3), http.StatusInternalServerError)
		case "fail-409":
			f.srv.FailNext(1+rng.IntN(2), http.StatusConflict)
		case "fail-429":
			f.srv.FailNext(1, http.StatusTooManyRequests)
		case "panic":
			if rng.IntN(2) == 0 {
				panicArmed.Store(true)
			} else {
				panicAfterArmed.Store(true)
			}
		case "slow-reconcile":
			slowArmed.Store(true)
		case "slow-watch": // the controller's pod cache lags behind its own writes, or stops lagging
			f.gate.setDelay(time.Duration(rng.IntN(2)) * 3 * time.Millisecond)
		case "clock-step":
			clock.Step(time.Duration(rng.IntN(100)) * time.Millisecond) // retries come due mid-chaos
		}
		if kind == "scale" || kind == "delete-pod" || kind == "burst-of-scales" || rng.IntN(2) == 0 {
			// Let the informers catch up before the next step (the
			// controller works meanwhile, and faults may still be armed).
			f.waitSettled(t, fmt.Sprintf("chaos seed %d, after %s", seed, kind))
			checkNoExtraPods(t, f, seed, kind, asked, settled)
		}
	}
	// The faults stop; the workload is what it is. Now it must converge.
	f.srv.FailNext(0, 0)
	f.gate.setDelay(0)
	panicArmed.Store(false)
	panicAfterArmed.Store(false)
	f.waitConverged(t, fmt.Sprintf("chaos seed %d (steps %v)", seed, faultCounts(counts)))
	// Last, a failure nothing else will repair: a pod of a turns Ready while
	// the server fails the status write and its retry's read. No event
	// follows, so only the key's rate-limited retry writes the status.
	scaleDirect(t, f.srv, "a", 2)
	f.waitConverged(t, fmt.Sprintf("chaos seed %d, a scaled to 2 after the chaos", seed))
	// Both informers must be watching, with no backoff or retry still
	// waiting on the clock: then the status write is the next request.
	walkthrough.WaitStepping(t, clock, "both informers watching, nothing waiting on the clock", func() bool {
		return f.srv.Stats().OpenWatches == 2 && !clock.HasWaiters()
	})
	failedBefore := len(f.events.find("SyncFailed", "default/a"))
	f.srv.FailNext(2, http.StatusInternalServerError)
	pod, err := f.srv.Get(fakeapi.Pods, "default", f.activePods(t, "a")[0])
	walkthrough.Must(t, err)
	pod["status"] = map[string]any{"phase": "Running", "conditions": []any{map[string]any{"type": "Ready", "status": "True",
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}}}
	_, err = f.srv.Update(fakeapi.Pods, "default", pod)
	walkthrough.Must(t, err)
	f.waitConverged(t, fmt.Sprintf("chaos seed %d, a's status write failing twice", seed))
	if len(f.events.find("SyncFailed", "default/a")) != failedBefore+1 {
		t.Fatal("the controller's status write did not meet the injected failure: the last check tested nothing")
	}
	if os.Getenv("CONTROLLER_CHAOS_EVENTS") != "" {
		t.Logf("events:\n%s", strings.Join(f.events.all(), "\n"))
	}
	if testing.Verbose() {
		t.Logf("seed %d converged: steps %v; %d pods created, %d deleted, %d failed syncs (%d panics)",
			seed, faultCounts(counts), len(f.events.find("SuccessfulCreate", "")),
			len(f.events.find("SuccessfulDelete", "")), len(f.events.find("SyncFailed", "")),
			len(f.events.find("SyncFailed", "panic")))
	}
}

// scaleDirect sets spec.replicas of default/name in fakeapi's storage (not
// over HTTP), retrying if the controller's status write came in between.
func scaleDirect(t *testing.T, srv *fakeapi.Server, name string, replicas int) {
	t.Helper()
	for range 100 {
		rs, err := srv.Get(replicaSets, "default", name)
		walkthrough.Must(t, err)
		rs["spec"].(map[string]any)["replicas"] = replicas
		if _, err := srv.Update(replicaSets, "default", rs); err == nil {
			return
		}
	}
	t.Fatalf("could not scale %s: 100 conflicts in a row", name)
}

// faultCounts lists the counts in chaosFaults' order.
func faultCounts(counts map[string]int) string {
	s := ""
	for _, k := range chaosFaults {
		if counts[k] > 0 {
			s += fmt.Sprintf("%s=%d ", k, counts[k])
		}
	}
	return s
}

// waitSettled waits (stepping the fake clock whenever something waits on
// it) until both caches hold what the server holds and no sync is running:
// a sync still running may have read its cache before the last change.
func (f *fixture) waitSettled(t *testing.T, what string) {
	t.Helper()
	walkthrough.WaitStepping(t, f.clock, what+": the caches to catch up and the syncs in progress to end", func() bool {
		return sameVersions(f.srv, fakeapi.Pods, f.r.pods.GetStore()) &&
			sameVersions(f.srv, replicaSets, f.r.replicaSet.GetStore()) && f.r.busy.Load() == 0
	})
}

// checkNoExtraPods fails t if a ReplicaSet has more active pods than the
// most it asked for since the last settled point, or than it had then:
// that would be a sync on a stale cache creating pods twice. It then
// makes this point the last settled one.
func checkNoExtraPods(t *testing.T, f *fixture, seed uint64, kind string, asked, settled map[string]int) {
	t.Helper()
	for _, rs := range serverReplicaSets(f.srv) {
		n := len(activePodsOf(serverPods(f.srv, rs.Namespace), rs.UID))
		if limit := max(asked[rs.Name], settled[rs.Name]); n > limit {
			t.Fatalf("chaos seed %d, after %s: ReplicaSet %s has %d active pods; it asked for at most %d since the "+
				"last settled point, and had %d then\nevents:\n  %s", seed, kind, rs.Name, n, asked[rs.Name],
				settled[rs.Name], strings.Join(f.events.all(), "\n  "))
		}
		settled[rs.Name] = n
		asked[rs.Name] = rs.replicas()
	}
}

// chaos_test.go: the chaos convergence test. fakeapi and a shared informer
// with three handlers (fast, slow, added late) run while a seeded random
// workload creates, updates and deletes pods across namespaces and faults
// fire: every watch dropped, history compacted (410, relist, also between
// the pages of a list), bursts of 500 and 429, the server stopped and
// restarted with its data, a graceful shutdown (HTTP/2 GOAWAY, then the
// connections closed under the watches) and restart, a black hole (the
// connection stays open, nothing gets through; the transport's HTTP/2
// pings notice), a tiny history window, slow watchers cut off, a handler
// blocked for a while. It runs over HTTPS and HTTP/2, as against a real
// cluster. Then it waits, with a deadline, until the
// informer is quiet and checks the informer's one promise: its cache equals
// the server, and every handler's notifications replay to the server's
// final state, with no impossible notification on the way.
//
//	go test -run TestChaos -v .                      one random seed (printed)
//	go test -run TestChaos -chaos.seed=42 .          that seed again
//	CHAOS_SEED=42 go test -run TestChaos .           the same
//	go test -run TestChaos -chaos.long=200 -timeout=2h .   200 seeds, bigger workload
//	CHAOS_LONG=200 go test -run TestChaos -timeout=2h .    the same
//
// Tutorial: 000 §4.3 (when things go wrong: 410, backoff, relist).
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

var (
	chaosSeed = flag.Uint64("chaos.seed", 0, "seed of the chaos test (0: random, or $CHAOS_SEED)")
	chaosLong = flag.Int("chaos.long", 0, "run the chaos test for this many consecutive seeds with a bigger workload (or $CHAOS_LONG)")
)

// chaosSize is the size of one chaos run.
type chaosSize struct {
	ops, namespaces, names int
}

// The default run is part of CI; the long mode runs on demand.
var (
	chaosDefault = chaosSize{ops: 500, namespaces: 4, names: 40}
	chaosBig     = chaosSize{ops: 1000, namespaces: 6, names: 60}
)

// The fault kinds, in the order their counts are reported.
var faultKinds = []string{"drop-watches", "compact", "burst-500", "burst-429", "restart",
	"tiny-history", "block-handler", "compact-mid-list", "delay", "goaway", "black-hole"}

// The chaos client's HTTP/2 health check: client-go's 30 s and 15 s,
// shortened so that a black hole is noticed within the run. A hole lasts
// at most half the ping timeout, so it is over before the client notices
// and dials again (a connection dialled into the hole would wait for the
// 10 s TLS handshake timeout).
const chaosReadIdle, chaosPingTimeout = 100 * time.Millisecond, 100 * time.Millisecond

func TestChaosConvergence(t *testing.T) {
	seed, long := *chaosSeed, *chaosLong
	if v := os.Getenv("CHAOS_SEED"); v != "" && seed == 0 {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	if v := os.Getenv("CHAOS_LONG"); v != "" && long == 0 {
		long, _ = strconv.Atoi(v)
	}
	if seed == 0 {
		seed = rand.Uint64() % 1_000_000
	}
	if long == 0 {
		runChaos(t, seed, chaosDefault)
		return
	}
	start := time.Now()
	total := map[string]int{}
	failed := 0
	for i := range long {
		s := seed + uint64(i)
		ok := t.Run(fmt.Sprint("seed=", s), func(t *testing.T) {
			for k, n := range runChaos(t, s, chaosBig) {
				total[k] += n
			}
		})
		if !ok {
			failed++
		}
	}
	say(t, "chaos long mode: %d seeds from %d, %d failed, %s; totals %s", "混沌长跑模式：%d 个种子（从 %d 起），%d 个失败，%s；合计 %s",
		long, seed, failed, time.Since(start).Round(time.Second), formatCounts(total))
}

// runChaos runs one seeded chaos run and returns what it counted.
func runChaos(t *testing.T, seed uint64, size chaosSize) map[string]int {
	checkLeaksAtEnd(t)
	quietLogs(t) // the informer logs every injected failure: keep the output readable
	t.Cleanup(func() {
		if t.Failed() {
			say(t, "chaos seed %d: rerun with: go test -run TestChaosConvergence -chaos.seed=%d .", "混沌种子 %d：重跑：go test -run TestChaosConvergence -chaos.seed=%d .", seed, seed)
		}
	})
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	history := 30 + rng.IntN(200)
	srv := startServer(t, fakeapi.Options{History: history, BookmarkInterval: 20 * time.Millisecond,
		WatchBuffer: 20 + rng.IntN(200), TLS: true})
	client := tlsClient(t, srv, func(cfg *RESTConfig) {
		cfg.HTTP2ReadIdleTimeout, cfg.HTTP2PingTimeout = chaosReadIdle, chaosPingTimeout
	})
	lw := &chaosLW{inner: NewListWatchFromClient(client, podsResource, NamespaceAll, ""), srv: srv}
	clock := testingclock.NewFakeClock(time.Now())
	indexers := Indexers{NamespaceIndex: MetaNamespaceIndexFunc, "app": appIndexFunc}
	inf := NewSharedIndexInformerWithOptions(lw, &Pod{}, SharedIndexInformerOptions{
		Indexers: indexers, Clock: clock,
		WatchListPageSize: int64(3 + rng.IntN(20)),
		PipelineGates:     chaosGates(rng),
	})
	fast, slow, late := newReplayer("fast", 0), newReplayer("slow", 7), newReplayer("late", 0)
	regs := map[*replayer]ResourceEventHandlerRegistration{}
	for _, h := range []*replayer{fast, slow} {
		reg, err := inf.AddEventHandler(h)
		if err != nil {
			t.Fatal(err)
		}
		regs[h] = reg
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.Run(ctx) }()
	clockDone := make(chan struct{})
	go func() { defer close(clockDone); driveClock(ctx, clock) }()
	defer func() {
		cancel()
		receiveOrError(t, "the informer's Run to return after the cancel", done)
		receiveOrError(t, "the clock driver to return after the cancel", clockDone)
	}()

	counts := chaosWorkload(t, rng, size, srv, lw, inf, slow, func() {
		reg, err := inf.AddEventHandler(late)
		if err != nil {
			t.Fatal(err)
		}
		regs[late] = reg
	})

	// Quiet: the cache and every handler have reached the server's state.
	lw.disarm() // no more writes from here on
	var want map[string]string
	deadline := time.Now().Add(30 * time.Second)
	for {
		want = serverState(srv)
		cache := cacheState(inf.GetIndexer())
		quiet := maps.Equal(cache, want) && inf.HasSynced()
		for h, reg := range regs {
			got, _ := h.snapshot()
			quiet = quiet && maps.Equal(got, want) && reg.HasSynced()
		}
		if quiet {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("not converged after 30s (informer synced: %v)", inf.HasSynced())
			t.Errorf("cache: %s", diffStates(cache, want))
			for h, reg := range regs {
				got, _ := h.snapshot()
				t.Errorf("handler %s (synced: %v): %s", h.name, reg.HasSynced(), diffStates(got, want))
			}
			break
		}
		time.Sleep(2 * time.Millisecond) // polling interval
	}
	checkIndexes(t, inf.GetIndexer(), indexers)
	for h, reg := range regs {
		_, violations := h.snapshot()
		for _, v := range violations {
			t.Errorf("handler %s: %s", h.name, v)
		}
		if !reg.HasSynced() {
			t.Errorf("handler %s: registration not synced", h.name)
		}
		counts["tombstones"] += h.tombstones
	}
	lw.mu.Lock()
	counts["lists"], counts["watches"], counts["failed-calls"], counts["list-410"] = lw.lists, lw.watches, lw.failures, lw.expiredErr
	counts["compact-mid-list-fired"] = lw.compactionsDuringPaging
	lw.mu.Unlock()
	counts["objects"] = len(want)
	say(t, "chaos seed %d: %s", "混沌种子 %d：%s", seed, formatCounts(counts))
	return counts
}

// chaosWorkload runs size.ops random writes with faults among them, and
// adds the late handler a third of the way in. It returns the faults fired.
func chaosWorkload(t *testing.T, rng *rand.Rand, size chaosSize, srv *fakeapi.Server, lw *chaosLW,
	inf SharedIndexInformer, slow *replayer, addLate func()) map[string]int {
	counts := map[string]int{}
	exists := map[string]bool{}
	var undo []func() // ends the faults that last a few ops
	undoAt := -1
	history := 0
	for i := range size.ops {
		if i == size.ops/3 {
			addLate()
		}
		if i == undoAt {
			for _, f := range undo {
				f()
			}
			undo, undoAt = nil, -1
		}
		ns, name := fmt.Sprint("ns", rng.IntN(size.namespaces)), fmt.Sprint("p", rng.IntN(size.names))
		key := ns + "/" + name
		labels := map[string]string{"app": []string{"web", "db", "cache"}[rng.IntN(3)], "gen": fmt.Sprint(i)}
		var err error
		switch {
		case !exists[key]:
			_, err = srv.Create(fakeapi.Pods, ns, podJSON(ns, name, labels))
			exists[key] = true
		case rng.IntN(10) < 7:
			_, err = srv.Update(fakeapi.Pods, ns, podJSON(ns, name, labels))
		default:
			err = srv.Delete(fakeapi.Pods, ns, name)
			delete(exists, key)
		}
		if err != nil {
			t.Fatalf("op %d on %s: %v", i, key, err)
		}
		if pause := rng.IntN(400); pause > 0 { // the workload's pace, in µs
			pace := time.NewTimer(time.Duration(pause) * time.Microsecond)
			<-pace.C
		}
		if rng.IntN(12) != 0 || undoAt >= 0 {
			continue
		}
		kind := faultKinds[rng.IntN(len(faultKinds))]
		counts[kind]++
		lasts := i + 3 + rng.IntN(15)
		switch kind {
		case "drop-watches":
			srv.CloseWatches()
		case "compact":
			srv.Compact(rng.IntN(3))
		case "burst-500":
			srv.FailNext(1+rng.IntN(5), 500)
		case "burst-429":
			srv.FailNext(1+rng.IntN(5), 429)
		case "restart":
			failures := lw.failureCount()
			if err := srv.Stop(); err != nil {
				t.Fatal(err)
			}
			undo, undoAt = []func(){func() {
				// Let the informer meet the closed port before restarting.
				waitUntil(2*time.Second, func() bool { return lw.failureCount() > failures })
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
			}}, lasts
		case "tiny-history":
			if history == 0 {
				history = 1 + rng.IntN(3)
			}
			srv.SetHistory(history)
			undo, undoAt = []func(){func() { srv.SetHistory(1000) }}, lasts
		case "block-handler":
			release := slow.block()
			undo, undoAt = []func(){release}, lasts
		case "compact-mid-list":
			lw.arm()
			srv.CloseWatches() // a watch that ended with nothing new, or a 410, leads to a list
			srv.Compact(0)
		case "goaway":
			failures := lw.failureCount()
			stopped := make(chan error, 1)
			closeAfter := time.Duration(rng.IntN(20)) * time.Millisecond
			go func() { stopped <- srv.Shutdown(closeAfter) }()
			undo, undoAt = []func(){func() {
				if err := receive(t, "the server's Shutdown to return", stopped); err != nil {
					t.Error(err)
				}
				waitUntil(2*time.Second, func() bool { return lw.failureCount() > failures })
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
			}}, lasts
		case "black-hole":
			hole := time.Duration(1+rng.IntN(int(chaosPingTimeout/time.Millisecond/2))) * time.Millisecond
			srv.BlackHole(hole)
			undo, undoAt = []func(){func() {}}, lasts // no other fault while the hole lasts
		case "delay":
			srv.SetDelay(time.Duration(1+rng.IntN(3)) * time.Millisecond)
			undo, undoAt = []func(){func() { srv.SetDelay(0) }}, lasts
		}
	}
	for _, f := range undo {
		f()
	}
	srv.FailNext(0, 0)
	srv.SetHistory(1000)
	srv.SetDelay(0)
	if err := srv.Restart(); err != nil { // a no-op when it runs
		t.Fatal(err)
	}
	return counts
}

// appIndexFunc indexes pods by their "app" label.
func appIndexFunc(obj any) ([]string, error) {
	if app := obj.(*Pod).Labels["app"]; app != "" {
		return []string{app}, nil
	}
	return nil, nil
}

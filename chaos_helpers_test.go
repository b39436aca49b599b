// chaos_helpers_test.go: the pieces of the chaos convergence test
// (chaos_test.go): a handler that replays its notifications into the state
// it believes in and records every impossible notification, a ListerWatcher
// wrapper that counts calls and can compact the server in the middle of a
// paged list, and a driver that moves the fake clock forward whenever the
// informer waits on it, so backoffs cost no real time.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/fakeapi"
)

// replayer is a handler that rebuilds, from its notifications alone, the
// state the informer told it about (key → resource version), and records
// every notification that cannot happen to a correct informer: an add for a
// key it holds, an update or delete for one it does not, an update whose old
// object is not the one it was last told about.
type replayer struct {
	name string
	// gate, when set, is waited on before each notification is handled:
	// the test blocks the handler by setting it and releases it by closing it.
	gateMu sync.Mutex
	gate   chan struct{}
	// slowEvery makes every slowEvery-th notification take a little time
	// (a workload, not synchronisation); 0 = never.
	slowEvery int

	mu         sync.Mutex
	state      map[string]string // key → resource version
	calls      int
	tombstones int
	violations []string
}

func newReplayer(name string, slowEvery int) *replayer {
	return &replayer{name: name, slowEvery: slowEvery, state: map[string]string{}}
}

// block makes the handler wait, from its next notification on, until the
// returned function is called.
func (r *replayer) block() (release func()) {
	gate := make(chan struct{})
	r.gateMu.Lock()
	r.gate = gate
	r.gateMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.gateMu.Lock()
			r.gate = nil
			r.gateMu.Unlock()
			close(gate)
		})
	}
}

// enter runs before each notification: it waits on the gate and plays the
// part of a handler that sometimes does real work.
func (r *replayer) enter() {
	r.gateMu.Lock()
	gate := r.gate
	r.gateMu.Unlock()
	if gate != nil {
		<-gate
	}
	r.mu.Lock()
	r.calls++
	slow := r.slowEvery > 0 && r.calls%r.slowEvery == 0
	r.mu.Unlock()
	if slow {
		t := time.NewTimer(time.Millisecond) // the work a slow handler does
		<-t.C
	}
}

func (r *replayer) violate(format string, args ...any) {
	if len(r.violations) < 20 { // enough to diagnose; keeps a runaway bug readable
		r.violations = append(r.violations, fmt.Sprintf(format, args...))
	}
}

// OnAdd records an add; the key must be new to this handler.
func (r *replayer) OnAdd(obj any, _ bool) {
	r.enter()
	r.mu.Lock()
	defer r.mu.Unlock()
	key, rv := keyOf(obj), versionOf(obj)
	if have, ok := r.state[key]; ok {
		r.violate("add %s@%s, but it already holds it at %s", key, rv, have)
	}
	r.state[key] = rv
}

// OnUpdate records an update; the key must be held, at the old version.
func (r *replayer) OnUpdate(oldObj, newObj any) {
	r.enter()
	r.mu.Lock()
	defer r.mu.Unlock()
	key, rv, oldRV := keyOf(newObj), versionOf(newObj), versionOf(oldObj)
	have, ok := r.state[key]
	switch {
	case !ok:
		r.violate("update %s@%s, a key it was never told about", key, rv)
	case have != oldRV:
		r.violate("update %s %s→%s, but it was last told about %s", key, oldRV, rv, have)
	}
	r.state[key] = rv
}

// OnDelete records a delete (the object or a tombstone); the key must be held.
func (r *replayer) OnDelete(obj any) {
	r.enter()
	r.mu.Lock()
	defer r.mu.Unlock()
	key := keyOf(obj)
	if _, ok := obj.(DeletedFinalStateUnknown); ok {
		r.tombstones++
	}
	if _, ok := r.state[key]; !ok {
		r.violate("delete %s (%T), a key it was never told about", key, obj)
	}
	delete(r.state, key)
}

// snapshot returns a copy of the replayed state and the violations so far.
func (r *replayer) snapshot() (map[string]string, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	state := make(map[string]string, len(r.state))
	for k, v := range r.state {
		state[k] = v
	}
	return state, append([]string(nil), r.violations...)
}

// chaosLW wraps the HTTP ListerWatcher: it counts what the informer asks and
// what fails, and, when armed, compacts the server's history right after a
// page with a continue token, so the next page gets 410 Expired.
type chaosLW struct {
	inner ListerWatcher
	srv   *fakeapi.Server

	mu                        sync.Mutex
	lists, watches, failures  int
	armed                     bool // compact after the next page with a continue token
	compactionsDuringPaging   int
	markerVersion, expiredErr int
}

func (c *chaosLW) List(ctx context.Context, o ListOptions) (*ObjectList, error) {
	l, err := c.inner.List(ctx, o)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lists++
	if err != nil {
		c.failures++
		if isExpiredError(err) {
			c.expiredErr++
		}
		return l, err
	}
	if c.armed && l.Continue != "" {
		c.armed = false
		c.compactionsDuringPaging++
		// A write after the page's version, then a compaction: the
		// snapshot the continue token names is gone.
		c.markerVersion++
		marker := podJSON("chaos", "marker", map[string]string{"v": fmt.Sprint(c.markerVersion)})
		if _, err := c.srv.Update(fakeapi.Pods, "chaos", marker); err != nil {
			_, _ = c.srv.Create(fakeapi.Pods, "chaos", marker)
		}
		c.srv.Compact(0)
	}
	return l, nil
}

func (c *chaosLW) Watch(ctx context.Context, o ListOptions) (Watcher, error) {
	w, err := c.inner.Watch(ctx, o)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watches++
	if err != nil {
		c.failures++

	}
	return w, err
}

// arm makes the next paged list meet a compaction between two pages.
func (c *chaosLW) arm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = true
}

// disarm cancels a compaction not yet fired: the workload is over, and
// the server must not change any more. When it returns, no marker write
// is under way.
func (c *chaosLW) disarm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = false
}

// failureCount returns how many calls have failed so far.
func (c *chaosLW) failureCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failures
}

// driveClock moves clock forward to the next timer whenever some code waits
// on it, until ctx ends, so a backoff of seconds takes a moment of real
// time. It looks every millisecond: a poll, not a synchronisation.
func driveClock(ctx context.Context, clock *testingclock.FakeClock) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if w := clock.Waiters(); len(w) > 0 {
			clock.Step(max(w[0], 0))
		}
	}
}

// waitUntil polls cond until it holds or limit passes, and reports whether
// it held. The chaos driver uses it to let a fault take effect; it does not
// fail the test.
func waitUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond) // polling interval
	}
	return true
}

// chaosGates varies the pipeline around the one the suite runs in: each
// gate below InOrderInformers is flipped with probability 1/4, so seeds
// also cover the mixed configurations (a non-atomic RealFIFO, no batches,
// no unlocking, list+watch in the default pipeline, streaming lists in 1.32's).
func chaosGates(rng *rand.Rand) *PipelineGates {
	g := defaultPipelineGates
	for _, gate := range []*bool{&g.AtomicFIFO, &g.InOrderInformersBatchProcess, &g.UnlockWhileProcessingFIFO, &g.WatchListClient} {
		if rng.IntN(4) == 0 {
			*gate = !*gate
		}
	}
	if !g.InOrderInformers {
		g.AtomicFIFO, g.InOrderInformersBatchProcess, g.UnlockWhileProcessingFIFO = false, false, false
	}
	return &g
}

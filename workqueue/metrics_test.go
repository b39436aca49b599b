// metrics_test.go tests the queue's metrics: what a provider hears through
// Add, Get, Done and AddAfter, on a fake clock; the work-in-progress
// gauges set every 500 ms; a queue without a name or provider reporting
// nothing and starting nothing; the gauges' goroutine ending with the
// queue. And the one difference with client-go a fake clock shows: an idle
// delaying queue here waits on no timer, where client-go's keeps a 10 s
// heartbeat (maxWait) ticking.
//
// client-go counterpart: k8s.io/client-go/util/workqueue metrics_test.go
// (v0.37.2), TestMetrics and TestMetricsRetry, which check the same values
// with a provider of their own.
//
// Tutorial: 000 §5.

package workqueue

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	testingclock "github.com/learn-k8s/informer/clock/testing"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// recordingProvider keeps every value its metrics are given, by metric.
type recordingProvider struct {
	mu     sync.Mutex
	values map[string][]float64 // "depth" → the depth after each change, ...
	names  map[string]bool      // the queue names asked for
}

func newRecordingProvider() *recordingProvider {
	return &recordingProvider{values: map[string][]float64{}, names: map[string]bool{}}
}

func (p *recordingProvider) record(name, metric string, v float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.names[name] = true
	p.values[metric] = append(p.values[metric], v)
}

func (p *recordingProvider) last(metric string) (float64, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.values[metric]
	if len(v) == 0 {
		return 0, 0
	}
	return v[len(v)-1], len(v)
}

// recorded is one metric of a recordingProvider.
type recorded struct {
	p            *recordingProvider
	name, metric string
	value        float64
}

func (r *recorded) Inc()              { r.value++; r.p.record(r.name, r.metric, r.value) }
func (r *recorded) Dec()              { r.value--; r.p.record(r.name, r.metric, r.value) }
func (r *recorded) Set(v float64)     { r.p.record(r.name, r.metric, v) }
func (r *recorded) Observe(v float64) { r.p.record(r.name, r.metric, v) }

func (p *recordingProvider) metric(name, metric string) *recorded {
	p.mu.Lock()
	p.names[name] = true
	p.mu.Unlock()
	return &recorded{p: p, name: name, metric: metric}
}

func (p *recordingProvider) NewDepthMetric(n string) GaugeMetric       { return p.metric(n, "depth") }
func (p *recordingProvider) NewAddsMetric(n string) CounterMetric      { return p.metric(n, "adds") }
func (p *recordingProvider) NewLatencyMetric(n string) HistogramMetric { return p.metric(n, "latency") }
func (p *recordingProvider) NewWorkDurationMetric(n string) HistogramMetric {
	return p.metric(n, "work")
}
func (p *recordingProvider) NewUnfinishedWorkSecondsMetric(n string) SettableGaugeMetric {
	return p.metric(n, "unfinished")
}
func (p *recordingProvider) NewLongestRunningProcessorSecondsMetric(n string) SettableGaugeMetric {
	return p.metric(n, "longest")
}
func (p *recordingProvider) NewRetriesMetric(n string) CounterMetric { return p.metric(n, "retries") }

// expectMetric fails t unless metric's last value is want, after n values.
func expectMetric(t *testing.T, p *recordingProvider, metric string, want float64, n int) {
	t.Helper()
	if got, count := p.last(metric); got != want || count != n {
		t.Fatalf("%s: last value %v after %d values, want %v after %d", metric, got, count, want, n)
	}
}

func TestQueueMetricsAsClientGoReportsThem(t *testing.T) {
	clock := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := newRecordingProvider()
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "test", MetricsProvider: p, Clock: clock})
	t.Cleanup(q.ShutDown)
	// gauges waits until the gauges have been set n times and their timer is
	// set again, so that the next step of the clock is measured from now.
	gauges := func(n int) {
		t.Helper()
		walkthrough.WaitFor(t, "the work-in-progress gauges", func() bool {
			_, count := p.last("longest")
			return count == n && clock.HasWaiters()
		})
	}
	gauges(0)
	q.Add("a")
	q.Add("a") // waiting already: not an add
	q.Add("b")
	expectMetric(t, p, "adds", 2, 2)
	expectMetric(t, p, "depth", 2, 2)
	clock.Step(3 * time.Second)
	gauges(1) // nothing in progress yet
	expectMetric(t, p, "unfinished", 0, 1)
	a := getNow(t, q)
	expectMetric(t, p, "depth", 1, 3)
	expectMetric(t, p, "latency", 3, 1) // seconds from Add to Get
	q.Add(a)                            // added while processing: waits for Done, but counts now
	expectMetric(t, p, "adds", 3, 3)
	clock.Step(500 * time.Millisecond) // the gauges' period: a's work in progress
	gauges(2)
	expectMetric(t, p, "unfinished", 0.5, 2)
	expectMetric(t, p, "longest", 0.5, 2)
	clock.Step(1500 * time.Millisecond)
	q.Done(a)
	expectMetric(t, p, "work", 2, 1) // seconds from Get to Done
	p.mu.Lock()                      // the gauges' goroutine may be recording
	defer p.mu.Unlock()
	if !p.names["test"] || len(p.names) != 1 {
		t.Fatalf("metrics made for queues %v, want test only", p.names)
	}
}

func TestRetriesCountEveryAddAfter(t *testing.T) {
	p := newRecordingProvider()
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		TypedRateLimitingQueueConfig[string]{Name: "test", MetricsProvider: p,
			Clock: testingclock.NewFakeClock(time.Now())})
	t.Cleanup(q.ShutDown)
	q.AddRateLimited("a")
	q.AddRateLimited("a")
	q.AddAfter("b", 0) // due at once: a retry all the same, as in client-go
	expectMetric(t, p, "retries", 3, 3)
}

func TestQueueWithoutMetricsStartsNothing(t *testing.T) {
	before := queueGoroutines()
	for _, q := range []*Typed[string]{
		NewTyped[string](),
		NewTypedWithConfig(TypedQueueConfig[string]{Name: "named, no provider"}),
		NewTypedWithConfig(TypedQueueConfig[string]{MetricsProvider: newRecordingProvider()}), // no name
	} {
		if q.metrics != nil {
			t.Fatalf("a queue without a name and a provider has metrics")
		}
		q.Add("a")
		q.ShutDown()
	}
	if after := queueGoroutines(); after != before {
		t.Fatalf("%d queue goroutines before, %d after: a queue without metrics starts none", before, after)
	}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: newRecordingProvider()})
	walkthrough.WaitFor(t, "the gauges' goroutine to start", func() bool { return queueGoroutines() == before+1 })
	walkthrough.ReturnsWithin(t, "ShutDown", q.ShutDown) // it waits for the goroutine
	if after := queueGoroutines(); after != before {
		t.Fatalf("the gauges' goroutine outlived ShutDown")
	}
}

// queueGoroutines counts the goroutines running the gauges' loop.
func queueGoroutines() int {
	buf := make([]byte, 1<<20)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "updateUnfinishedWorkLoop")
}

// TestIdleDelayingQueueWaitsOnNoTimer shows the one difference with
// client-go's delaying queue that a fake clock makes observable. client-go's
// waitingLoop also wakes every 10 s (maxWait, a heartbeat ticker made with
// the queue), in case a timer is missed: on a fake clock, its queue always
// has a waiter. Ours sleeps on the earliest item's timer only: an idle
// queue has none. On a clock whose timers fire, the heartbeat changes
// nothing a program sees, and it would add a waiter to every test that
// asks whether anything waits on its clock (Step 20 does).
func TestIdleDelayingQueueWaitsOnNoTimer(t *testing.T) {
	c := newTimerClock()
	q := newDelaying(t, c)
	if c.HasWaiters() {
		t.Fatalf("an idle delaying queue waits on %v; client-go's would wait on its 10s heartbeat, ours on nothing", c.Waiters())
	}
	addAfter(t, q, c, "a", time.Second, time.Second)
	if w := c.Waiters(); len(w) != 1 || w[0] != time.Second {
		t.Fatalf("waiters %v with one item due in 1s, want [1s]", w)
	}
}

// metrics.go holds the work queue's metrics: what a queue reports about
// itself, if it has a name and a provider, through metrics the provider
// makes. Seven per queue, under client-go's names:
//
//	depth                  GaugeMetric          items waiting to be worked on (Add +1, Get -1)
//	adds                   CounterMetric        Adds that made an item waiting
//	latency                HistogramMetric      seconds from an item's Add to its Get
//	work duration          HistogramMetric      seconds from an item's Get to its Done
//	unfinished work        SettableGaugeMetric  seconds of work in progress, summed over items
//	longest running        SettableGaugeMetric  seconds the oldest item in progress has taken
//	retries                CounterMetric        AddAfter calls (AddRateLimited makes one per failure)
//
// The last two gauges are set every 500 ms by a goroutine the queue
// starts only when it has metrics, on the queue's clock, until ShutDown.
// A queue with no name, or with no provider (the default), reports
// nothing and starts nothing.
//
// client-go counterpart: k8s.io/client-go/util/workqueue metrics.go
// (v0.37.2): MetricsProvider, SetProvider, GaugeMetric,
// SettableGaugeMetric, CounterMetric, SummaryMetric, HistogramMetric,
// defaultQueueMetrics, defaultRetryMetrics; the unfinished-work loop of
// queue.go (updateUnfinishedWorkLoop). kube-controller-manager's provider
// is Prometheus's (k8s.io/component-base/metrics/prometheus/workqueue);
// examples/controller has one on expvar.
//
// Tutorial: 000 §5 (backpressure: a queue's depth and latency are how a
// controller that falls behind shows it).

package workqueue

import (
	"sync"
	"time"

	"github.com/learn-k8s/informer/clock"
)

// GaugeMetric is a value that goes up and down.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a value that is set.
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric is a value that only goes up.
type CounterMetric interface {
	Inc()
}

// SummaryMetric takes observations.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric takes observations and counts them in buckets.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider makes the metrics of a queue, each under the queue's
// name. Each method is called once per queue, when the queue is made.
type MetricsProvider interface {
	NewDepthMetric(name string) GaugeMetric
	NewAddsMetric(name string) CounterMetric
	NewLatencyMetric(name string) HistogramMetric
	NewWorkDurationMetric(name string) HistogramMetric
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	NewRetriesMetric(name string) CounterMetric
}

// The provider of the queues made without one in their config: none, until
// SetProvider. (A config's MetricsProvider is the way to choose one per
// queue, without touching this process-wide choice.)
var (
	globalProviderMu sync.Mutex
	globalProvider   MetricsProvider // nil: no metrics
	globalProviderOK bool            // SetProvider has been called
)

// SetProvider sets the provider of every queue made from now on without a
// MetricsProvider in its config. Only the first call counts, as in
// client-go: a process picks one metrics system.
func SetProvider(provider MetricsProvider) {
	globalProviderMu.Lock()
	defer globalProviderMu.Unlock()
	if !globalProviderOK {
		globalProvider, globalProviderOK = provider, true
	}
}

// providerOr returns p, or the global provider when p is nil.
func providerOr(p MetricsProvider) MetricsProvider {
	if p != nil {
		return p
	}
	globalProviderMu.Lock()
	defer globalProviderMu.Unlock()
	return globalProvider
}

// queueMetrics are a Typed queue's metrics. The queue calls add, get and
// done with its lock held, which guards the maps.
type queueMetrics[T comparable] struct {
	clock        clock.Clock
	depth        GaugeMetric
	adds         CounterMetric
	latency      HistogramMetric
	workDuration HistogramMetric
	unfinished   SettableGaugeMetric
	longest      SettableGaugeMetric

	addTimes   map[T]time.Time // when each waiting item was added
	startTimes map[T]time.Time // when each item in progress was handed out
}

// newQueueMetrics returns the metrics of the queue name from provider
// (nil: the global one), or nil, which reports nothing, if the queue has
// no name or there is no provider.
func newQueueMetrics[T comparable](provider MetricsProvider, name string, clk clock.Clock) *queueMetrics[T] {
	provider = providerOr(provider)
	if name == "" || provider == nil {
		return nil
	}
	return &queueMetrics[T]{
		clock:        clk,
		depth:        provider.NewDepthMetric(name),
		adds:         provider.NewAddsMetric(name),
		latency:      provider.NewLatencyMetric(name),
		workDuration: provider.NewWorkDurationMetric(name),
		unfinished:   provider.NewUnfinishedWorkSecondsMetric(name),
		longest:      provider.NewLongestRunningProcessorSecondsMetric(name),
		addTimes:     map[T]time.Time{},
		startTimes:   map[T]time.Time{},
	}
}

// add records that item became waiting: an Add of an item not waiting.
func (m *queueMetrics[T]) add(item T) {
	if m == nil {
		return
	}
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = m.clock.Now()
	}
}

// get records that a worker got item.
func (m *queueMetrics[T]) get(item T) {
	if m == nil {
		return
	}
	m.depth.Dec()
	m.startTimes[item] = m.clock.Now()
	if added, ok := m.addTimes[item]; ok {
		m.latency.Observe(m.clock.Since(added).Seconds())
		delete(m.addTimes, item)
	}
}

// done records that a worker finished item.
func (m *queueMetrics[T]) done(item T) {
	if m == nil {
		return
	}
	if started, ok := m.startTimes[item]; ok {
		m.workDuration.Observe(m.clock.Since(started).Seconds())
		delete(m.startTimes, item)
	}
}

// updateUnfinishedWork sets the two gauges of the work in progress.
func (m *queueMetrics[T]) updateUnfinishedWork() {
	var total, oldest float64
	for _, started := range m.startTimes {
		age := m.clock.Since(started).Seconds()
		total += age
		oldest = max(oldest, age)
	}
	m.unfinished.Set(total)
	m.longest.Set(oldest)
}

// unfinishedWorkUpdatePeriod is how often the work-in-progress gauges are
// set. (client-go: defaultUnfinishedWorkUpdatePeriod.)
const unfinishedWorkUpdatePeriod = 500 * time.Millisecond

// retryMetrics counts a delaying queue's AddAfter calls; nil counts nothing.
type retryMetrics struct{ retries CounterMetric }

// newRetryMetrics returns the retry counter of the queue name, or nil.
func newRetryMetrics(provider MetricsProvider, name string) *retryMetrics {
	provider = providerOr(provider)
	if name == "" || provider == nil {
		return nil
	}
	return &retryMetrics{retries: provider.NewRetriesMetric(name)}
}

func (m *retryMetrics) retry() {
	if m != nil {
		m.retries.Inc()
	}
}

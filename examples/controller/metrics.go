// metrics.go holds the work queue's metrics provider of this program:
// each queue's seven metrics as expvar variables, which the program serves
// as JSON at /debug/vars (expvar.Handler). Under "workqueue", by queue
// name, with the names kube-controller-manager's Prometheus provider
// gives them: depth, adds_total, queue_duration_seconds,
// work_duration_seconds (each {"count", "sum"}: an observation's count and
// total), unfinished_work_seconds, longest_running_processor_seconds,
// retries_total.
//
// client-go counterpart: a workqueue.MetricsProvider, as
// k8s.io/component-base/metrics/prometheus/workqueue registers one with
// workqueue.SetProvider in kube-controller-manager; this one is on the
// standard library's expvar instead of Prometheus.
//
// Tutorial: 000 §5 (backpressure: a queue that falls behind shows it in
// its depth and latency).

package main

import (
	"expvar"

	"github.com/learn-k8s/informer/workqueue"
)

// expvarProvider makes queue metrics as expvar variables, in vars (by
// queue name). It does not publish vars: main does, once per process.
type expvarProvider struct {
	vars *expvar.Map
}

// newExpvarProvider returns a provider with no queues yet.
func newExpvarProvider() *expvarProvider {
	return &expvarProvider{vars: new(expvar.Map).Init()}
}

// queue returns the variables of the queue name, made on first use.
func (p *expvarProvider) queue(name string) *expvar.Map {
	if m, ok := p.vars.Get(name).(*expvar.Map); ok {
		return m
	}
	m := new(expvar.Map).Init()
	p.vars.Set(name, m)
	return m
}

// intVar, floatVar and observations add one variable to the queue name.
func (p *expvarProvider) intVar(name, metric string) *expvar.Int {
	v := new(expvar.Int)
	p.queue(name).Set(metric, v)
	return v
}

func (p *expvarProvider) floatVar(name, metric string) *expvar.Float {
	v := new(expvar.Float)
	p.queue(name).Set(metric, v)
	return v
}

func (p *expvarProvider) observations(name, metric string) observations {
	m := new(expvar.Map).Init()
	o := observations{count: new(expvar.Int), sum: new(expvar.Float)}
	m.Set("count", o.count)
	m.Set("sum", o.sum)
	p.queue(name).Set(metric, m)
	return o
}

func (p *expvarProvider) NewDepthMetric(name string) workqueue.GaugeMetric {
	return gauge{p.intVar(name, "depth")}
}

func (p *expvarProvider) NewAddsMetric(name string) workqueue.CounterMetric {
	return gauge{p.intVar(name, "adds_total")}
}

func (p *expvarProvider) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return p.observations(name, "queue_duration_seconds")
}

func (p *expvarProvider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return p.observations(name, "work_duration_seconds")
}

func (p *expvarProvider) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.floatVar(name, "unfinished_work_seconds")
}

func (p *expvarProvider) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.floatVar(name, "longest_running_processor_seconds")
}

func (p *expvarProvider) NewRetriesMetric(name string) workqueue.CounterMetric {
	return gauge{p.intVar(name, "retries_total")}
}

// gauge is an expvar.Int as a gauge or a counter.
type gauge struct{ v *expvar.Int }

func (g gauge) Inc() { g.v.Add(1) }
func (g gauge) Dec() { g.v.Add(-1) }

// observations is an expvar count and sum, as a histogram without buckets.
type observations struct {
	count *expvar.Int
	sum   *expvar.Float
}

func (o observations) Observe(v float64) {
	o.count.Add(1)
	o.sum.Add(v)
}

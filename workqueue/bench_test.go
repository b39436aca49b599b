// bench_test.go measures the work queue on the work the comparison with
// client-go's used (docs/controller.md, "How we know"): a burst of adds
// with duplicates taken out by one goroutine, the same with four producers
// and four workers, and a failure sent back with AddRateLimited. Numbers
// depend on the machine; no test asserts them.
//
//	go test -run '^$' -bench . ./workqueue
//
// client-go counterpart: none (client-go's workqueue has no benchmarks).
//
// Tutorial: 000 §5 (backpressure: what a queue entry costs).

package workqueue

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/learn-k8s/informer/internal/walkthrough"
)

// benchKeys are 1,000 keys such as "default/pod-7".
var benchKeys = func() []string {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "default/pod-" + strconv.Itoa(i)
	}
	return keys
}()

// BenchmarkAddGetDone: each op adds 1,000 keys twice (the second round is
// deduplicated), then gets and dones them all, in one goroutine.
func BenchmarkAddGetDone(b *testing.B) {
	q := NewTyped[string]()
	defer q.ShutDown()
	for b.Loop() {
		for range 2 {
			for _, k := range benchKeys {
				q.Add(k)
			}
		}
		for q.Len() > 0 {
			k, _ := q.Get()
			q.Done(k)
		}
	}
}

// BenchmarkWorkers: each op is a burst of 4,000 adds of 1,000 keys from
// four producers while four workers get and done, until the queue drains.
func BenchmarkWorkers(b *testing.B) {
	for b.Loop() {
		q := NewTyped[string]()
		var workers sync.WaitGroup
		for range 4 {
			workers.Go(func() {
				for {
					k, shutdown := q.Get()
					if shutdown {
						return
					}
					q.Done(k)
				}
			})
		}
		var producers sync.WaitGroup
		for p := range 4 {
			producers.Go(func() {
				for _, k := range benchKeys[p*250 : (p+1)*250] {
					for range 4 {
						q.Add(k)
					}
				}
			})
		}
		walkthrough.ReturnsWithin(b, "the producers, the drain and the workers", func() {
			producers.Wait()
			q.ShutDownWithDrain()
			q.ShutDown()
			workers.Wait()
		})
	}
}

// BenchmarkAddRateLimited: each op sends a key back with AddRateLimited
// (the limiter's When, the channel to the waiting goroutine, the heap)
// and Forgets it.
func BenchmarkAddRateLimited(b *testing.B) {
	limiter := NewTypedItemExponentialFailureRateLimiter[string](time.Hour, time.Hour)
	q := NewTypedRateLimitingQueue(limiter)
	defer q.ShutDown()
	i := 0
	for b.Loop() {
		k := benchKeys[i%len(benchKeys)]
		q.AddRateLimited(k)
		q.Forget(k)
		i++
	}
}

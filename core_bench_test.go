// core_bench_test.go holds the benchmarks of the cache core. They measure;
// they assert nothing about speed. Run them with
//
//	go test -run '^$' -bench . -benchmem
//
// BenchmarkKey reproduces tutorial 000 §2.2 (key by concatenation vs
// fmt.Sprintf); BenchmarkStore reproduces 000 §2.4 (our RWMutex + map store
// vs a sync.Map variant, read-heavy and mixed); BenchmarkDeltaFIFOAddPop
// measures one object through the queue.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sinkKey keeps results alive so the compiler cannot drop the work. It is a
// string, not an any: storing a string in an interface would allocate and
// blur the comparison.
var sinkKey string

func BenchmarkKey(b *testing.B) {
	p := &Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "nginx-pod"}}
	b.Run("concat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkKey = p.GetNamespace() + "/" + p.GetName()
		}
	})
	b.Run("sprintf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkKey = fmt.Sprintf("%s/%s", p.GetNamespace(), p.GetName())
		}
	})
	b.Run("MetaNamespaceKeyFunc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkKey, _ = MetaNamespaceKeyFunc(p)
		}
	})
}

// syncMapStore is the sync.Map alternative of 000 §2.4, cut down to what the
// benchmark uses. It is not offered in the package: it cannot keep indexes
// consistent with the items, and it cannot swap its contents atomically.
type syncMapStore struct {
	items   sync.Map
	keyFunc KeyFunc
}

func (s *syncMapStore) Update(obj any) error {
	key, err := s.keyFunc(obj)
	if err != nil {
		return err
	}
	s.items.Store(key, obj)
	return nil
}

func (s *syncMapStore) GetByKey(key string) (any, bool, error) {
	obj, ok := s.items.Load(key)
	return obj, ok, nil
}

// benchStore is what BenchmarkStore needs of either store.
type benchStore interface {
	Update(obj any) error
	GetByKey(key string) (any, bool, error)
}

func BenchmarkStore(b *testing.B) {
	const n = 1000
	pods := make([]*Pod, n)
	keys := make([]string, n)
	for i := range pods {
		pods[i] = &Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "pod-" + strconv.Itoa(i)}}
		keys[i], _ = MetaNamespaceKeyFunc(pods[i])
	}
	stores := []struct {
		name string
		new  func() benchStore
	}{
		{"RWMutex+map", func() benchStore { return NewStore(MetaNamespaceKeyFunc) }},
		{"sync.Map", func() benchStore { return &syncMapStore{keyFunc: MetaNamespaceKeyFunc} }},
	}
	loads := []struct {
		name       string
		readsPer10 int
	}{{"read90", 9}, {"mixed50", 5}}
	for _, load := range loads {
		for _, st := range stores {
			b.Run(load.name+"/"+st.name, func(b *testing.B) {
				s := st.new()
				for _, p := range pods {
					if err := s.Update(p); err != nil {
						b.Fatal(err)
					}
				}
				var seed atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					i := int(seed.Add(7919)) // each goroutine starts elsewhere
					for pb.Next() {
						i++
						if i%10 < load.readsPer10 {
							if _, ok, _ := s.GetByKey(keys[i%n]); !ok {
								b.Error("missing key")
							}
						} else if err := s.Update(pods[i%n]); err != nil {
							b.Error(err)
						}
					}
				})
			})
		}
	}
}

func BenchmarkDeltaFIFOAddPop(b *testing.B) {
	benchAddPop(b, NewDeltaFIFOWithOptions(DeltaFIFOOptions{}))
}

// BenchmarkRealFIFOAddPop is BenchmarkDeltaFIFOAddPop for the RealFIFO as a
// v0.37.2 informer makes it (atomic, bookmarks, unlocking while processing).
func BenchmarkRealFIFOAddPop(b *testing.B) {
	benchAddPop(b, NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, UnlockWhileProcessing: true, EmitDeltaTypeBookmark: true}))
}

// benchAddPop measures one object through q: an Add, then a Pop.
func benchAddPop(b *testing.B, q Queue) {
	pods := make([]*Pod, 1024)
	for i := range pods {
		pods[i] = &Pod{ObjectMeta: ObjectMeta{Namespace: "default", Name: "pod-" + strconv.Itoa(i)}}
	}
	process := func(any, bool) error { return nil }
	guard := startWatchdog(q.Close)
	defer guard.stop()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%len(pods) == 0 {
			guard.feed()
		}
		if err := q.Add(pods[i%len(pods)]); err != nil {
			b.Fatal(err)
		}
		if _, err := q.Pop(process); err != nil {
			guard.fail(b, "the Pop after an Add", err)
		}
		i++
	}
}

// watchdog bounds a benchmark's blocking calls without a timer per call,
// which would weigh on what is measured: unless fed again within waitLimit,
// it calls unblock (a queue's Close, a watcher's Stop), so that a call that
// would wait for ever returns, and the benchmark fails saying what hung.
type watchdog struct {
	timer *time.Timer
	fired atomic.Bool
}

// startWatchdog starts a watchdog; feed it at least every waitLimit, stop
// it when the calls it guards are done.
func startWatchdog(unblock func()) *watchdog {
	w := &watchdog{}
	w.timer = time.AfterFunc(waitLimit, func() {
		w.fired.Store(true)
		unblock()
	})
	return w
}

// feed gives the calls to come another waitLimit.
func (w *watchdog) feed() { w.timer.Reset(waitLimit) }

// stop stops the watchdog.
func (w *watchdog) stop() { w.timer.Stop() }

// fail fails b with err, the failure of a guarded call, saying that what
// did not return in time if the watchdog ended it.
func (w *watchdog) fail(b *testing.B, what string, err error) {
	b.Helper()
	if w.fired.Load() {
		b.Fatalf("%s did not return within %v (the watchdog ended it): %v", what, waitLimit, err)
	}
	b.Fatal(err)
}

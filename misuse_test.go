// misuse_test.go: what a learner may get wrong when using the library,
// table-driven. Each misuse must end in a clear error (or a documented,
// harmless answer), never a panic and never a hang; none may lose data.
// Some misuses also have a story test elsewhere (Run twice and settings
// after start in informer_edge_test.go); here they are all in one place.
//
// Reading 3: the real wire: TLS, Status errors, lossless objects, any kind; chaos, fuzzing and benchmarks over every layer.

package informer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// guarded runs fn, turning a panic into an error and a call that does not
// return within 5 seconds into a test failure.
func guarded(t *testing.T, fn func() error) error {
	t.Helper()
	result := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				result <- fmt.Errorf("panic: %v", p)
			}
		}()
		result <- fn()
	}()
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	select {
	case err := <-result:
		return err
	case <-timer.C:
		t.Fatal("hung: no answer within 5s")
		return nil
	}
}

// errorIndex is an index function that fails for every object.
func errorIndex(any) ([]string, error) { return nil, errors.New("no index for you") }

// runningInformer starts a pod informer on a fresh server and returns it
// once synced; the test stops it at its end.
func runningInformer(t *testing.T) SharedIndexInformer {
	t.Helper()
	s := startServer(t, fakeapi.Options{})
	createPod(t, s, "default", "a", map[string]string{"app": "web"})
	inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	runInformer(t, inf)
	return inf
}

// stoppedInformer is runningInformer, stopped.
func stoppedInformer(t *testing.T) SharedIndexInformer {
	t.Helper()
	s := startServer(t, fakeapi.Options{})
	inf := NewSharedIndexInformer(podsLW(t, s, NamespaceAll), &Pod{}, 0, Indexers{})
	runInformer(t, inf)() // cancel at once; runInformer's cleanup waits for Run to return
	waitFor(t, "the informer to stop", inf.IsStopped)
	return inf
}

func TestMisuse(t *testing.T) {
	for _, c := range []struct {
		name string
		// misuse does the wrong thing and returns what the library answered.
		misuse func(t *testing.T) error
		// want is a piece of the error message; "" means no error is the
		// documented answer (the case checks what matters itself).
		want string
	}{
		{"Pop after Close", func(t *testing.T) error {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
			f.Close()
			_, err := f.Pop(func(any, bool) error { return nil })
			return err
		}, "manipulating with closed queue"},
		{"Pop waiting when Close comes", func(t *testing.T) error {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
			go f.Close() // Pop must wake up, not wait forever
			_, err := f.Pop(func(any, bool) error { return nil })
			return err
		}, "manipulating with closed queue"},
		{"Add to a closed FIFO still drains", func(t *testing.T) error {
			f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
			f.Close()
			if err := f.Add(testPod("ns", "a", "1", nil)); err != nil {
				return err
			}
			if _, err := f.Pop(func(any, bool) error { return nil }); err != nil {
				return fmt.Errorf("the queued object was lost: %w", err)
			}
			_, err := f.Pop(func(any, bool) error { return nil })
			return err
		}, "manipulating with closed queue"},
		{"FIFO Add of something without metadata", func(t *testing.T) error {
			return NewDeltaFIFOWithOptions(DeltaFIFOOptions{}).Add("just a string")
		}, "cannot compute the key"},
		{"Store Add of a nil *Pod", func(t *testing.T) error {
			return NewStore(MetaNamespaceKeyFunc).Add((*Pod)(nil))
		}, "cannot compute the key"},
		{"AddIndexers with a taken name", func(t *testing.T) error {
			idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
			return idx.AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
		}, "already exists"},
		{"AddIndexers with a taken name on a running informer", func(t *testing.T) error {
			return runningInformer(t).AddIndexers(Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
		}, "already exists"},
		{"an index function that errors", func(t *testing.T) error {
			idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{"bad": errorIndex})
			err := idx.Add(testPod("ns", "a", "1", nil))
			if len(idx.List()) != 0 {
				return fmt.Errorf("the object was stored although indexing it failed: %v", err)
			}
			return err
		}, "no index for you"},
		{"an index function that errors on an update keeps the old object", func(t *testing.T) error {
			fail := false
			idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{"sometimes": func(any) ([]string, error) {
				if fail {
					return nil, errors.New("no index for you")
				}
				return []string{"x"}, nil
			}})
			if err := idx.Add(testPod("ns", "a", "1", nil)); err != nil {
				return err
			}
			fail = true
			err := idx.Update(testPod("ns", "a", "2", nil))
			if obj, ok, _ := idx.GetByKey("ns/a"); !ok || versionOf(obj) != "1" {
				return fmt.Errorf("the stored object changed or was lost (%v): %v", err, obj)
			}
			if keys, _ := idx.IndexKeys("sometimes", "x"); len(keys) != 1 {
				return fmt.Errorf("the index lost the object: %v", keys)
			}
			return err
		}, "no index for you"},
		{"an index function added later that errors", func(t *testing.T) error {
			idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
			if err := idx.Add(testPod("ns", "a", "1", nil)); err != nil {
				return err
			}
			return idx.AddIndexers(Indexers{"bad": errorIndex})
		}, "no index for you"},
		{"ByIndex on an unknown index", func(t *testing.T) error {
			_, err := NewIndexer(MetaNamespaceKeyFunc, Indexers{}).ByIndex("nope", "x")
			return err
		}, `index "nope" does not exist`},
		{"nil handler", func(t *testing.T) error {
			_, err := NewSharedIndexInformer(&ListWatch{}, &Pod{}, 0, Indexers{}).AddEventHandler(nil)
			return err
		}, "handler is nil"},
		{"RemoveEventHandler with nil", func(t *testing.T) error {
			return NewSharedIndexInformer(&ListWatch{}, &Pod{}, 0, Indexers{}).RemoveEventHandler(nil)
		}, "not returned by AddEventHandler"},
		{"RemoveEventHandler twice", func(t *testing.T) error {
			inf := NewSharedIndexInformer(&ListWatch{}, &Pod{}, 0, Indexers{})
			reg, err := inf.AddEventHandler(&recorder{})
			if err != nil {
				return err
			}
			if err := inf.RemoveEventHandler(reg); err != nil {
				return err
			}
			return inf.RemoveEventHandler(reg) // documented: fine
		}, ""},
		{"Run twice", func(t *testing.T) error {
			inf := runningInformer(t)
			inf.Run(context.Background()) // returns at once: the first Run goes on
			if !inf.HasSynced() || inf.IsStopped() {
				return errors.New("a second Run disturbed the first")
			}
			return nil
		}, ""},
		{"SetTransform after start", func(t *testing.T) error {
			return runningInformer(t).SetTransform(func(obj any) (any, error) { return obj, nil })
		}, "already started"},
		{"SetWatchErrorHandler after start", func(t *testing.T) error {
			return runningInformer(t).SetWatchErrorHandler(func(*Reflector, error) {})
		}, "already started"},
		{"AddEventHandler after stop", func(t *testing.T) error {
			_, err := stoppedInformer(t).AddEventHandler(&recorder{})
			return err
		}, "stopped already"},
		{"AddIndexers after stop", func(t *testing.T) error {
			return stoppedInformer(t).AddIndexers(Indexers{"by-app": MetaNamespaceIndexFunc})
		}, "stopped already"},
		{"Run with a context already cancelled", func(t *testing.T) error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			inf := NewSharedIndexInformer(&ListWatch{}, &Pod{}, 0, Indexers{})
			inf.Run(ctx)
			if !inf.IsStopped() {
				return errors.New("Run returned but IsStopped is false")
			}
			return nil
		}, ""},
		{"WaitForCacheSync on an informer never run", func(t *testing.T) error {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if WaitForCacheSync(ctx, NewSharedIndexInformer(&ListWatch{}, &Pod{}, 0, Indexers{}).HasSynced) {
				return errors.New("WaitForCacheSync reported a sync that never happened")
			}
			return nil
		}, ""},
		{"a ListWatch without functions", func(t *testing.T) error {
			_, err := (&ListWatch{}).List(context.Background(), ListOptions{})
			return err
		}, "function for this call is nil"},
		{"a ListFunc that answers nil, nil", func(t *testing.T) error {
			lw := &ListWatch{ListFunc: func(context.Context, ListOptions) (*ObjectList, error) { return nil, nil }}
			return NewReflector(lw, &Pod{}, NewStore(MetaNamespaceKeyFunc)).ListAndWatch(context.Background())
		}, "answered no list and no error"},
		{"a WatchFunc that answers nil, nil", func(t *testing.T) error {
			lw := &ListWatch{
				ListFunc:  func(context.Context, ListOptions) (*ObjectList, error) { return &ObjectList{}, nil },
				WatchFunc: func(context.Context, ListOptions) (Watcher, error) { return nil, nil },
			}
			return NewReflector(lw, &Pod{}, NewStore(MetaNamespaceKeyFunc)).ListAndWatch(context.Background())
		}, "answered no watcher and no error"},
		{"a bad key", func(t *testing.T) error {
			_, _, err := SplitMetaNamespaceKey("a/b/c")
			return err
		}, "unexpected key format"},
		{"a REST config without a scheme", func(t *testing.T) error {
			_, err := NewRESTClient(RESTConfig{Host: "127.0.0.1:6443"})
			return err
		}, "must be an http:// or https:// URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkLeaksAtEnd(t)
			err := guarded(t, func() error { return c.misuse(t) })
			switch {
			case c.want == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// Package mutationdetector holds the cache mutation detector, a debugging
// mode that
// catches handlers (or lister users) that change objects they got from
// the cache. The informer hands every reader the same pointer it keeps in its
// Indexer, so such a change silently rewrites the cache, and every other
// handler sees it, without the server ever knowing. The detector keeps a
// deep copy of each object as it enters the cache and, on demand or every
// Period, compares each object with its copy; any difference is a mutation.
//
// It costs a deep copy of every object ever cached and is meant for tests
// and debugging, not production. Attach it to an informer with SetTransform,
// before Run, and run it for as long as the informer runs:
//
//	if mutationdetector.Enabled() { // KUBE_CACHE_MUTATION_DETECTOR=true
//		d := mutationdetector.New("pods")
//		inf.SetTransform(d.Transform(nil)) // or d.Transform(yourTransform)
//		go d.Run(ctx)                      // ends with ctx
//	}
//
// client-go counterpart: k8s.io/client-go/tools/cache mutation_detector.go
// (NewCacheMutationDetector, AddObject, Run). client-go's shared informer
// makes one itself, and it does something only when
// KUBE_CACHE_MUTATION_DETECTOR=true; ours is attached by the caller, as
// above, and Enabled reads the same variable.
//
// Tutorial: 000 §2.3 (deep copy vs shared references on the cache's write
// path). Walkthrough: Step 17 (go test -v -run Step17 ./mutationdetector).
package mutationdetector

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/clock"
)

// defaultMutationCheckPeriod is how often Run compares, as in client-go.
const defaultMutationCheckPeriod = 10 * time.Second

// Enabled reports whether the environment variable
// KUBE_CACHE_MUTATION_DETECTOR is "true", client-go's switch for this mode.
func Enabled() bool {
	on, _ := strconv.ParseBool(os.Getenv("KUBE_CACHE_MUTATION_DETECTOR"))
	return on
}

// MutatedObject describes one cached object that changed after it was
// cached.
type MutatedObject struct {
	// Key is the object's cache key.
	Key string
	// Cached is the object as the cache holds it now (mutated).
	Cached any
	// Original is the copy taken when it entered the cache.
	Original any
	// Changes lists the fields that differ, as "path: before → after".
	Changes []string
}

// String describes the mutation for people.
func (m MutatedObject) String() string {
	return fmt.Sprintf("cached object %s was mutated after it was cached: %v", m.Key, m.Changes)
}

// Detector remembers a deep copy of every object added to it and finds
// those that no longer equal their copy. Set the exported fields before
// Run. It is safe for concurrent use.
type Detector struct {
	// Name appears in reports, e.g. the resource.
	Name string
	// Period is how often Run compares; 10 s when zero.
	Period time.Duration
	// Clock is where Run's time comes from; clock.RealClock when nil.
	Clock clock.Clock
	// FailureFunc is told about each mutated object. When nil, Run panics
	// with the description, as client-go does: the mode exists to make a
	// test run fail loudly.
	FailureFunc func(MutatedObject)

	mu sync.Mutex
	// watched holds the objects not yet found mutated; a mutated one is
	// reported once and dropped.
	watched []watchedObject
	// recorded holds the pointers in watched: an object recorded twice
	// (a streaming list transforms each object twice, as in client-go) is
	// watched once.
	recorded map[informer.Object]struct{}
}

type watchedObject struct {
	key      string
	cached   informer.Object // the pointer the cache shares
	original informer.Object // our own deep copy
}

// New returns a detector named name (client-go's NewCacheMutationDetector).
func New(name string) *Detector {
	return &Detector{Name: name}
}

// AddObject records obj and a deep copy of it. Tombstones and values that
// are not Objects (or are nil pointers) are ignored.
func (d *Detector) AddObject(obj any) {
	o, ok := obj.(informer.Object)
	if v := reflect.ValueOf(obj); !ok || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return
	}
	key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.recorded[o]; dup {
		return
	}
	if d.recorded == nil {
		d.recorded = map[informer.Object]struct{}{}
	}
	d.recorded[o] = struct{}{}
	d.watched = append(d.watched, watchedObject{key: key, cached: o, original: o.DeepCopyObject()})
}

// Transform returns an informer.TransformFunc for SetTransform that applies
// next (when not nil) and records what comes out, which is what the cache
// keeps and hands to handlers.
func (d *Detector) Transform(next informer.TransformFunc) informer.TransformFunc {
	return func(obj any) (any, error) {
		if next != nil {
			var err error
			if obj, err = next(obj); err != nil {
				return nil, err
			}
		}
		d.AddObject(obj)
		return obj, nil
	}
}

// CompareObjects returns every recorded object that differs from its copy,
// and stops watching those (each mutation is reported once).
func (d *Detector) CompareObjects() []MutatedObject {
	d.mu.Lock()
	defer d.mu.Unlock()
	var found []MutatedObject
	d.watched = slices.DeleteFunc(d.watched, func(w watchedObject) bool {
		if reflect.DeepEqual(w.cached, w.original) {
			return false
		}
		delete(d.recorded, w.cached)
		found = append(found, MutatedObject{
			Key: w.key, Cached: w.cached, Original: w.original,
			Changes: fieldChanges(w.original, w.cached),
		})
		return true
	})
	return found
}

// Run compares every Period until ctx ends, telling FailureFunc (or
// panicking) about each mutation found.
func (d *Detector) Run(ctx context.Context) {
	c := d.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	period := d.Period
	if period <= 0 {
		period = defaultMutationCheckPeriod
	}
	informer.RunEvery(ctx, c, period, func() {
		for _, m := range d.CompareObjects() {
			if d.FailureFunc == nil {
				panic(d.Name + ": " + m.String())
			}
			d.FailureFunc(m)
		}
	})
}

// fieldChanges lists the JSON fields that differ between two objects.
func fieldChanges(before, after any) []string {
	var b, a any
	for _, p := range []struct {
		obj any
		out *any
	}{{before, &b}, {after, &a}} {
		data, err := json.Marshal(p.obj)
		if err != nil || json.Unmarshal(data, p.out) != nil {
			return []string{"(cannot encode the object to compare fields)"}
		}
	}
	var changes []string
	compareJSON("", b, a, &changes)
	if len(changes) == 0 { // a difference JSON does not show, e.g. nil vs empty map
		changes = append(changes, "(a change not visible in the JSON form)")
	}
	return changes
}

// compareJSON appends "path: before → after" for every differing leaf.
func compareJSON(path string, before, after any, changes *[]string) {
	bm, bIsMap := before.(map[string]any)
	am, aIsMap := after.(map[string]any)
	if bIsMap && aIsMap {
		keys := slices.Collect(maps.Keys(bm))
		for k := range am {
			if _, inBefore := bm[k]; !inBefore {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			compareJSON(p, bm[k], am[k], changes)
		}
		return
	}
	if !reflect.DeepEqual(before, after) {
		bj, _ := json.Marshal(before)
		aj, _ := json.Marshal(after)
		*changes = append(*changes, fmt.Sprintf("%s: %s → %s", path, bj, aj))
	}
}

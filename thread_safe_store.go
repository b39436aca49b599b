// thread_safe_store.go holds threadSafeStore: a map from key to object behind
// one sync.RWMutex, with secondary indexes kept exact on every write. The
// Store and Indexer of store.go compute keys and delegate here.
//
// client-go counterpart: k8s.io/client-go/tools/cache thread_safe_store.go
// (threadSafeMap and storeIndex).
//
// Tutorial: 000 §1 (a thread-safe map with indexers) and §2.4 (why a plain
// map behind an RWMutex: see BenchmarkStore for the comparison with sync.Map).

package informer

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
)

// indexValues maps an index name to the values one object is filed under.
type indexValues map[string][]string

// threadSafeStore is safe for concurrent use. Readers share the read lock;
// every write holds the write lock for its whole change, so a reader never
// sees an object without its index entries or the other way round.
//
// Writes are all or nothing: every index value is computed before anything
// is changed, so an index function that fails leaves the store as it was.
// (client-go panics in that case; here bad input must never panic.)
type threadSafeStore struct {
	lock  sync.RWMutex
	items map[string]any
	// indexers are the index functions, by index name.
	indexers Indexers
	// indices maps index name → value → set of keys. Invariant: it holds
	// exactly the entries that filed describes, and no empty sets.
	indices Indices
	// filed records, per key, the values each index filed it under. Removal
	// reads them here instead of calling the index functions again, so the
	// indexes stay exact even if a cached object was (wrongly) changed in
	// place. A key with no index values has no entry.
	filed map[string]indexValues
	// rv is the resource version of the last write or bookmark
	// (LastStoreSyncResourceVersion, in store_txn.go).
	rv string
}

func newThreadSafeStore(indexers Indexers) *threadSafeStore {
	return &threadSafeStore{
		items:    map[string]any{},
		indexers: maps.Clone(indexers),
		indices:  Indices{},
		filed:    map[string]indexValues{},
	}
}

func unknownIndex(name string) error {
	return fmt.Errorf("index %q does not exist", name)
}

// computeIndexValues runs every index function of indexers on obj. When
// every function gives the values that old (the values filed for this key)
// already holds, it returns old itself and changed=false: the index entries
// stand as they are, and nothing is allocated (an update usually leaves an
// object's namespace and labels alone). Otherwise it returns a new map that
// shares old's unchanged slices; it returns nil when there are no values.
func computeIndexValues(indexers Indexers, key string, obj any, old indexValues) (values indexValues, changed bool, err error) {
	values = old
	for name, fn := range indexers {
		if fn == nil {
			return nil, false, fmt.Errorf("index %q has no index function", name)
		}
		vs, err := fn(obj)
		if err != nil {
			return nil, false, fmt.Errorf("index %q cannot index %q: %w", name, key, err)
		}
		if slices.Equal(vs, old[name]) {
			continue
		}
		if !changed {
			// Filed slices are never changed in place, so sharing is safe.
			values, changed = maps.Clone(old), true
			if values == nil {
				values = make(indexValues, len(indexers))
			}
		}
		values[name] = slices.Clone(vs) // the function may reuse its slice
	}
	return values, changed, nil
}

// file adds key under each of its values to indices.
func file(indices Indices, key string, values indexValues) {
	for name, vs := range values {
		index := indices[name]
		if index == nil {
			index = Index{}
			indices[name] = index
		}
		for _, v := range vs {
			set := index[v]
			if set == nil {
				set = map[string]struct{}{}
				index[v] = set
			}
			set[key] = struct{}{}
		}
	}
}

// unfile removes key from each of its values in indices, dropping sets that
// become empty so that short-lived values do not pile up.
func unfile(indices Indices, key string, values indexValues) {
	for name, vs := range values {
		index := indices[name]
		for _, v := range vs {
			delete(index[v], key)
			if len(index[v]) == 0 {
				delete(index, v)
			}
		}
	}
}

// Update stores obj under key and re-files it where its index values
// changed. It returns the object it replaced, if there was one.
func (s *threadSafeStore) Update(key string, obj any) (replaced any, existed bool, err error) {
	s.lock.Lock()
	defer s.lock.Unlock()
	replaced, existed, err = s.updateLocked(key, obj)
	if err == nil {
		s.observeLocked(obj)
	}
	return replaced, existed, err
}

// updateLocked is Update for a caller that holds the lock.
func (s *threadSafeStore) updateLocked(key string, obj any) (replaced any, existed bool, err error) {
	old := s.filed[key]
	values, changed, err := computeIndexValues(s.indexers, key, obj, old)
	if err != nil {
		return nil, false, err
	}
	replaced, existed = s.items[key]
	s.items[key] = obj
	if changed {
		unfile(s.indices, key, old)
		file(s.indices, key, values)
		s.filed[key] = values
	}
	return replaced, existed, nil
}

// Delete removes key and its index entries; an absent key is ignored. obj,
// the deleted object as the caller knows it, may be nil.
func (s *threadSafeStore) Delete(key string, obj any) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.deleteLocked(key)
	s.observeLocked(obj)
}

// deleteLocked is Delete for a caller that holds the lock.
func (s *threadSafeStore) deleteLocked(key string) {
	unfile(s.indices, key, s.filed[key])
	delete(s.filed, key)
	delete(s.items, key)
}

// Get returns the object stored under key.
func (s *threadSafeStore) Get(key string) (any, bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	obj, ok := s.items[key]
	return obj, ok
}

// List returns every object.
func (s *threadSafeStore) List() []any {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.AppendSeq(make([]any, 0, len(s.items)), maps.Values(s.items))
}

// ListKeys returns every key.
func (s *threadSafeStore) ListKeys() []string {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.AppendSeq(make([]string, 0, len(s.items)), maps.Keys(s.items))
}

// Replace takes ownership of items and makes it the whole contents. The new
// indexes are built before the swap; if one cannot be, nothing changes.
func (s *threadSafeStore) Replace(items map[string]any, resourceVersion string) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	indices := Indices{}
	filed := map[string]indexValues{}
	for key, obj := range items {
		values, _, err := computeIndexValues(s.indexers, key, obj, nil)
		if err != nil {
			return err
		}
		file(indices, key, values)
		if values != nil {
			filed[key] = values
		}
	}
	s.items, s.indices, s.filed = items, indices, filed
	s.rv = resourceVersion
	return nil
}

// AddIndexers adds index functions and files every stored object in the new
// indexes. A name that already exists is refused, and so is the whole call
// if a new function fails on a stored object.
func (s *threadSafeStore) AddIndexers(newIndexers Indexers) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	var taken []string
	for name := range newIndexers {
		if _, ok := s.indexers[name]; ok {
			taken = append(taken, name)
		}
	}
	if len(taken) > 0 {
		slices.Sort(taken)
		return fmt.Errorf("cannot add indexers: an index named %s already exists", strings.Join(taken, ", "))
	}
	added := make(map[string]indexValues, len(s.items))
	for key, obj := range s.items {
		values, _, err := computeIndexValues(newIndexers, key, obj, nil)
		if err != nil {
			return err
		}
		added[key] = values
	}
	if s.indexers == nil {
		s.indexers = Indexers{}
	}
	maps.Copy(s.indexers, newIndexers)
	for key, values := range added {
		file(s.indices, key, values)
		if s.filed[key] == nil && values != nil {
			s.filed[key] = indexValues{}
		}
		maps.Copy(s.filed[key], values)
	}
	return nil
}

// GetIndexers returns a copy of the index functions.
func (s *threadSafeStore) GetIndexers() Indexers {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return maps.Clone(s.indexers)
}

// Index returns the objects filed under any of the values indexName's
// function computes for obj.
func (s *threadSafeStore) Index(indexName string, obj any) ([]any, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	fn := s.indexers[indexName]
	if fn == nil {
		return nil, unknownIndex(indexName)
	}
	values, err := fn(obj)
	if err != nil {
		return nil, fmt.Errorf("index %q: %w", indexName, err)
	}
	keys := map[string]struct{}{} // an object filed under two values is listed once
	for _, v := range values {
		maps.Copy(keys, s.indices[indexName][v])
	}
	return s.objectsLocked(maps.Keys(keys), len(keys)), nil
}

// keySetLocked returns the set of keys filed under value in indexName.
func (s *threadSafeStore) keySetLocked(indexName, value string) (map[string]struct{}, error) {
	if s.indexers[indexName] == nil {
		return nil, unknownIndex(indexName)
	}
	return s.indices[indexName][value], nil
}

// IndexKeys returns the sorted keys filed under value in indexName.
func (s *threadSafeStore) IndexKeys(indexName, value string) ([]string, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	set, err := s.keySetLocked(indexName, value)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(set)), nil
}

// ByIndex returns the objects filed under value in indexName.
func (s *threadSafeStore) ByIndex(indexName, value string) ([]any, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	set, err := s.keySetLocked(indexName, value)
	if err != nil {
		return nil, err
	}
	return s.objectsLocked(maps.Keys(set), len(set)), nil
}

// ListIndexFuncValues returns the sorted values indexName holds (none for
// an unknown index).
func (s *threadSafeStore) ListIndexFuncValues(indexName string) []string {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.Sorted(maps.Keys(s.indices[indexName]))
}

// objectsLocked looks up the objects of keys; the caller holds the lock.
func (s *threadSafeStore) objectsLocked(keys iter.Seq[string], n int) []any {
	out := make([]any, 0, n)
	for key := range keys {
		out = append(out, s.items[key])
	}
	return out
}

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

// threadSafeStore is safe for concurrent use. Readers share the read lock;
// every write holds the write lock for its whole change, so a reader never
// sees an object without its index entries or the other way round.
//
// Writes are all or nothing: every index value is computed before anything
// is changed, so an index function that fails leaves the store as it was.
// (client-go panics in that case; here bad input must never panic.)
//
// Like client-go, the store keeps no copy of the values each key is filed
// under: it computes them again from the stored object when the key is
// updated or deleted (a copy would cost about 560 bytes per cached object;
// see BenchmarkInformerGeneric). It keeps only a count per key, which tells
// when a cached object was (wrongly) changed in place and its values no
// longer say where it is filed; the key is then looked for everywhere, so
// the indexes stay exact all the same.
type threadSafeStore struct {
	lock  sync.RWMutex
	items map[string]any
	// indexers are the index functions, by index name; names lists them in
	// a fixed order, which the values of one object (a [][]string) follow.
	indexers Indexers
	names    []string
	// indices maps index name → value → set of keys, with no empty sets.
	indices Indices
	// entries counts, per stored key, the index entries that hold it (one
	// per index and distinct value): the key is in exactly that many sets.
	// Most objects have one value per index, so a count of len(names) is
	// the default and is not stored: usually the map stays empty.
	entries map[string]int
	// newValues and oldValues are reused by every write for the values it
	// computes, so that computing them allocates no [][]string.
	newValues, oldValues [][]string
	// rv is the resource version of the last write or bookmark
	// (LastStoreSyncResourceVersion, in store_txn.go).
	rv string
}

func newThreadSafeStore(indexers Indexers) *threadSafeStore {
	return &threadSafeStore{
		items:    map[string]any{},
		indexers: maps.Clone(indexers),
		names:    slices.Sorted(maps.Keys(indexers)),
		indices:  Indices{},
		entries:  map[string]int{},
	}
}

func unknownIndex(name string) error {
	return fmt.Errorf("index %q does not exist", name)
}

// entryCount returns how many index entries hold key, a stored key.
func (s *threadSafeStore) entryCount(key string) int {
	if n, ok := s.entries[key]; ok {
		return n
	}
	return len(s.names)
}

// setEntryCount records that n index entries hold key.
func (s *threadSafeStore) setEntryCount(entries map[string]int, key string, n int) {
	if n == len(s.names) {
		delete(entries, key)
	} else {
		entries[key] = n
	}
}

// refile moves key's index entries from old, the object stored under key
// until now (if existed), to values (nil to delete it). The entries of old are found by
// computing its values again, as client-go does; if that finds fewer than
// the count says (old was changed in place), the key is looked for
// everywhere. An update that leaves every value as it was changes nothing.
func (s *threadSafeStore) refile(key string, old any, existed bool, values [][]string) {
	if n := s.entryCount(key); existed && n > 0 {
		oldValues, err := indexValues(s.indexers, s.names, key, old, s.oldValues[:0])
		s.oldValues = oldValues
		defer clear(oldValues) // keep no slice of an old object alive
		if err == nil && values != nil && slices.EqualFunc(oldValues, values, slices.Equal) &&
			filedExactly(s.indices, s.names, key, oldValues, n) {
			return
		}
		if err != nil || unfile(s.indices, s.names, key, oldValues) != n {
			unfileEverywhere(s.indices, key)
		}
	}
	if values == nil { // a delete
		delete(s.entries, key)
		return
	}
	s.setEntryCount(s.entries, key, file(s.indices, s.names, key, values))
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
	values, err := indexValues(s.indexers, s.names, key, obj, s.newValues[:0])
	s.newValues = values
	defer clear(values)
	if err != nil {
		return nil, false, err
	}
	replaced, existed = s.items[key]
	s.items[key] = obj
	s.refile(key, replaced, existed, values)
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
	if old, ok := s.items[key]; ok {
		s.refile(key, old, true, nil)
		delete(s.items, key)
	}
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
	entries := map[string]int{}
	for key, obj := range items {
		values, err := indexValues(s.indexers, s.names, key, obj, s.newValues[:0])
		s.newValues = values
		if err != nil {
			clear(values)
			return err
		}
		s.setEntryCount(entries, key, file(indices, s.names, key, values))
	}
	clear(s.newValues)
	s.items, s.indices, s.entries = items, indices, entries
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
	// The new indexes are built apart and joined only once all succeeded.
	names := slices.Sorted(maps.Keys(newIndexers))
	added, counts := Indices{}, map[string]int{}
	for key, obj := range s.items {
		values, err := indexValues(newIndexers, names, key, obj, nil)
		if err != nil {
			return err
		}
		counts[key] = s.entryCount(key) + file(added, names, key, values)
	}
	if s.indexers == nil {
		s.indexers = Indexers{}
	}
	maps.Copy(s.indexers, newIndexers)
	s.names = slices.Sorted(maps.Keys(s.indexers))
	maps.Copy(s.indices, added)
	for key, n := range counts { // the default count changed with names
		s.setEntryCount(s.entries, key, n)
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

// observeLocked makes obj's resource version the store's, if obj has one
// (a tombstone or nil has none). The caller holds the lock.
func (s *threadSafeStore) observeLocked(obj any) {
	if o, ok := obj.(Object); ok && !isNilPointer(obj) {
		s.rv = o.GetResourceVersion()
	}
}

// thread_safe_store.go holds threadSafeStore: a map from key to object
// behind one sync.RWMutex, with secondary indexes kept up to date on every
// write. Readers share the lock; a write holds it for its whole change, so a
// reader never sees an object without its index entries.
//
// client-go counterpart: tools/cache thread_safe_store.go (threadSafeMap,
// storeIndex, updateSingleIndex).
//
// Tutorial: 000 §1 (a thread-safe map with indexers), §2.4 (RWMutex + map
// against sync.Map: many readers, few writers).

package informer

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// threadSafeStore is the storage of a cache. Every write is all or nothing:
// the new index values are computed before anything changes, and an index
// function that fails leaves the store as it was (client-go panics there).
//
// As in client-go (TestIndexerMatchesAModelThatKeepsFiledValues), the index
// values an object had are computed again from the stored object when it
// is replaced or deleted. So an object changed in place, which nobody may
// do, leaves stale index entries behind.
type threadSafeStore struct {
	// lock guards every field below: held for reading by every read, for
	// writing by every write, for the whole of the change.
	lock     sync.RWMutex
	items    map[string]any
	indexers Indexers
	// names are the index names, sorted: the order of the [][]string of
	// values that indexValues returns.
	names []string
	// indices maps index name → value → set of keys. A set is never empty:
	// a value with no keys left is removed.
	indices Indices
	// Reading 2: the store's resource version (client-go 1.36+).
	// rv is the resource version of the last Replace, write or Bookmark.
	rv string
	// End of reading 2.
}

func newThreadSafeStore(indexers Indexers) *threadSafeStore {
	s := &threadSafeStore{
		items:    map[string]any{},
		indexers: Indexers{},
		indices:  Indices{},
	}
	// It cannot fail: no name is taken yet and no object is stored.
	s.AddIndexers(indexers)
	return s
}

// indexValues runs the index functions of names on obj, in that order.
func indexValues(indexers Indexers, names []string, key string, obj any) ([][]string, error) {
	values := make([][]string, len(names))
	for i, name := range names {
		if indexers[name] == nil {
			return nil, fmt.Errorf("index %q has no index function", name)
		}
		var err error
		values[i], err = indexers[name](obj)
		if err != nil {
			return nil, fmt.Errorf("index %q cannot index %q: %w", name, key, err)
		}
	}
	return values, nil
}

// updateIndices moves key, in each index of names, from its old values
// (nil for an add) to its new ones (nil for a delete). An index whose
// values did not change is left alone. client-go: updateSingleIndex.
func updateIndices(indices Indices, names []string, key string, oldValues, newValues [][]string) {
	for i, name := range names {
		if indices[name] == nil {
			indices[name] = Index{}
		}
		index := indices[name]
		switch {
		case oldValues == nil:
			index.addKey(key, newValues[i])
		case newValues == nil:
			index.deleteKey(key, oldValues[i])
		case !slices.Equal(oldValues[i], newValues[i]):
			index.deleteKey(key, oldValues[i])
			index.addKey(key, newValues[i])
		}
	}
}

func (index Index) addKey(key string, values []string) {
	for _, v := range values {
		if index[v] == nil {
			index[v] = map[string]struct{}{}
		}
		index[v][key] = struct{}{}
	}
}

// deleteKey takes key out of each of values' sets, and drops a set it leaves
// empty: an index of short-lived objects would otherwise grow for ever.
func (index Index) deleteKey(key string, values []string) {
	for _, v := range values {
		delete(index[v], key)
		if len(index[v]) == 0 {
			delete(index, v)
		}
	}
}

// Update stores obj under key, replacing any object there, with its index
// entries; if obj cannot be indexed, nothing changes.
func (s *threadSafeStore) Update(key string, obj any) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	if err := s.updateLocked(key, obj); err != nil {
		return err
	}
	// Reading 2: the store is now at obj's version.
	s.observeLocked(obj)
	// End of reading 2.
	return nil
}

// updateLocked is Update for a caller holding the write lock.
func (s *threadSafeStore) updateLocked(key string, obj any) error {
	values, err := indexValues(s.indexers, s.names, key, obj)
	if err != nil {
		return err
	}
	// oldValues stays nil (filed as an add) if the old object cannot be
	// indexed again: it was indexed when stored, so only a changed index
	// function can fail here.
	var oldValues [][]string
	if old, existed := s.items[key]; existed {
		oldValues, _ = indexValues(s.indexers, s.names, key, old)
	}
	s.items[key] = obj
	updateIndices(s.indices, s.names, key, oldValues, values)
	return nil
}

// Delete removes key and its index entries.
func (s *threadSafeStore) Delete(key string,
	// Reading 2: the deleted object as the caller knows it (maybe nil), for its version.
	obj any,
	// End of reading 2.
) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.deleteLocked(key)
	// Reading 2: the store is now at the deleted object's version.
	s.observeLocked(obj)
	// End of reading 2.
}

// deleteLocked is Delete for a caller holding the write lock.
func (s *threadSafeStore) deleteLocked(key string) {
	old, ok := s.items[key]
	if !ok {
		return
	}
	if oldValues, err := indexValues(s.indexers, s.names, key, old); err == nil {
		updateIndices(s.indices, s.names, key, oldValues, nil)
	}
	delete(s.items, key)
}

func (s *threadSafeStore) Get(key string) (item any, exists bool) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	item, exists = s.items[key]
	return item, exists
}

// Replace makes items the whole contents (the store keeps the map). Its
// indexes are built first, aside: if one object cannot be indexed, nothing
// changes, and readers see the old contents or the new, never a mix.
func (s *threadSafeStore) Replace(items map[string]any, resourceVersion string) error {
	indices := Indices{}
	s.lock.Lock()
	defer s.lock.Unlock()
	for key, obj := range items {
		values, err := indexValues(s.indexers, s.names, key, obj)
		if err != nil {
			return err
		}
		updateIndices(indices, s.names, key, nil, values)
	}
	s.items = items
	s.indices = indices
	// Reading 2: a relist brings the store to the list's version.
	s.rv = resourceVersion
	// End of reading 2.
	return nil
}

// AddIndexers files every stored object in the new indexes, and adds them
// once all are filed: if one object cannot be, nothing changes. A name
// already taken is refused.
func (s *threadSafeStore) AddIndexers(newIndexers Indexers) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	names := slices.Sorted(maps.Keys(newIndexers))
	for _, name := range names {
		if _, taken := s.indexers[name]; taken {
			return fmt.Errorf("cannot add indexers: an index named %q already exists", name)
		}
	}
	added := Indices{}
	for key, obj := range s.items {
		values, err := indexValues(newIndexers, names, key, obj)
		if err != nil {
			return err
		}
		updateIndices(added, names, key, nil, values)
	}
	maps.Copy(s.indexers, newIndexers)
	maps.Copy(s.indices, added)
	s.names = slices.Sorted(maps.Keys(s.indexers))
	return nil
}

func (s *threadSafeStore) List() []any {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.AppendSeq(make([]any, 0, len(s.items)), maps.Values(s.items))
}

func (s *threadSafeStore) ListKeys() []string {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.AppendSeq(make([]string, 0, len(s.items)), maps.Keys(s.items))
}

func (s *threadSafeStore) GetIndexers() Indexers {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return maps.Clone(s.indexers)
}

// Index returns the objects filed under any value indexName computes for obj.
func (s *threadSafeStore) Index(indexName string, obj any) ([]any, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	indexFunc := s.indexers[indexName]
	if indexFunc == nil {
		return nil, unknownIndex(indexName)
	}
	values, err := indexFunc(obj)
	if err != nil {
		return nil, fmt.Errorf("index %q: %w", indexName, err)
	}
	// A set, so that an object filed under two of the values is listed once.
	keys := map[string]struct{}{}
	for _, v := range values {
		maps.Copy(keys, s.indices[indexName][v])
	}
	return s.objectsLocked(keys), nil
}

func (s *threadSafeStore) IndexKeys(indexName, value string) ([]string, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	if s.indexers[indexName] == nil {
		return nil, unknownIndex(indexName)
	}
	return slices.Sorted(maps.Keys(s.indices[indexName][value])), nil
}

func (s *threadSafeStore) ByIndex(indexName, value string) ([]any, error) {
	s.lock.RLock()
	defer s.lock.RUnlock()
	if s.indexers[indexName] == nil {
		return nil, unknownIndex(indexName)
	}
	return s.objectsLocked(s.indices[indexName][value]), nil
}

func (s *threadSafeStore) ListIndexFuncValues(indexName string) []string {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return slices.Sorted(maps.Keys(s.indices[indexName]))
}

func unknownIndex(name string) error {
	return fmt.Errorf("index %q does not exist", name)
}

// objectsLocked returns the objects of a set of keys; the caller holds the
// lock, at least for reading.
func (s *threadSafeStore) objectsLocked(keys map[string]struct{}) []any {
	out := make([]any, 0, len(keys))
	for key := range keys {
		out = append(out, s.items[key])
	}
	return out
}

// Reading 2: the store's resource version (client-go 1.36+, the AtomicFIFO gate).

// observeLocked makes obj's resource version the store's, if obj has one.
func (s *threadSafeStore) observeLocked(obj any) {
	if o, ok := obj.(Object); ok && !isNilPointer(obj) {
		s.rv = o.GetResourceVersion()
	}
}

func (s *threadSafeStore) resourceVersion() string {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return s.rv
}

func (s *threadSafeStore) bookmark(rv string) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.rv = rv
}

// End of reading 2.

// thread_safe_store.go holds threadSafeStore: a map from key to object behind one
// sync.RWMutex, with secondary indexes updated on every write.
// client-go counterpart: tools/cache thread_safe_store.go.
// Tutorial: 000 §1 (a thread-safe map with indexers), §2.4 (RWMutex + map vs sync.Map).

package informer

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// threadSafeStore: a write holds the write lock for its whole change and is all or nothing
// (the new index values are computed first; where an index function fails client-go
// panics). As in client-go, a key's old index values are computed again from the stored
// object, so an object changed in place, which no one may do, leaves stale entries.
type threadSafeStore struct {
	lock     sync.RWMutex
	items    map[string]any
	indexers Indexers
	names    []string // the index names, sorted: the order of a [][]string of values
	indices  Indices  // index name → value → set of keys, with no empty sets
	rv       string   // the resource version of the last write or Bookmark
}

func newThreadSafeStore(indexers Indexers) *threadSafeStore {
	s := &threadSafeStore{items: map[string]any{}, indexers: Indexers{}, indices: Indices{}}
	s.AddIndexers(indexers) // cannot fail: no name is taken, no object stored
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
		if values[i], err = indexers[name](obj); err != nil {
			return nil, fmt.Errorf("index %q cannot index %q: %w", name, key, err)
		}
	}
	return values, nil
}

// updateIndices moves key, in each index of names, from its old values (nil for an add)
// to its new ones (nil for a delete): client-go's updateSingleIndex.
func updateIndices(indices Indices, names []string, key string, oldValues, newValues [][]string) {
	for i, name := range names {
		if indices[name] == nil {
			indices[name] = Index{}
		}
		switch index := indices[name]; {
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

// addKey files key under each of values.
func (index Index) addKey(key string, values []string) {
	for _, v := range values {
		if index[v] == nil {
			index[v] = map[string]struct{}{}
		}
		index[v][key] = struct{}{}
	}
}

// deleteKey takes key out of each of values' sets, dropping a set left empty.
func (index Index) deleteKey(key string, values []string) {
	for _, v := range values {
		delete(index[v], key)
		if len(index[v]) == 0 {
			delete(index, v)
		}
	}
}

// updateLocked stores obj under key and returns the object it replaced.
func (s *threadSafeStore) updateLocked(key string, obj any) (replaced any, existed bool, err error) {
	values, err := indexValues(s.indexers, s.names, key, obj)
	if err != nil {
		return nil, false, err
	}
	var oldValues [][]string // stays nil (an add) if the old object cannot be indexed again
	if replaced, existed = s.items[key]; existed {
		oldValues, _ = indexValues(s.indexers, s.names, key, replaced)
	}
	s.items[key] = obj
	updateIndices(s.indices, s.names, key, oldValues, values)
	return replaced, existed, nil
}

// deleteLocked removes key and its index entries.
func (s *threadSafeStore) deleteLocked(key string) {
	if old, ok := s.items[key]; ok {
		if oldValues, err := indexValues(s.indexers, s.names, key, old); err == nil {
			updateIndices(s.indices, s.names, key, oldValues, nil)
		}
		delete(s.items, key)
	}
}

// observeLocked makes obj's resource version the store's, if obj has one.
func (s *threadSafeStore) observeLocked(obj any) {
	if o, ok := obj.(Object); ok && !isNilPointer(obj) {
		s.rv = o.GetResourceVersion()
	}
}

// Replace makes items (now the store's) the whole contents, its indexes built first:
// if one cannot be, nothing changes.
func (s *threadSafeStore) Replace(items map[string]any, resourceVersion string) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	indices := Indices{}
	for key, obj := range items {
		values, err := indexValues(s.indexers, s.names, key, obj)
		if err != nil {
			return err
		}
		updateIndices(indices, s.names, key, nil, values)
	}
	s.items, s.indices, s.rv = items, indices, resourceVersion
	return nil
}

// AddIndexers files every stored object in new indexes, joined once all are filed.
// A taken name is refused.
func (s *threadSafeStore) AddIndexers(newIndexers Indexers) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	names, added := slices.Sorted(maps.Keys(newIndexers)), Indices{}
	for _, name := range names {
		if _, taken := s.indexers[name]; taken {
			return fmt.Errorf("cannot add indexers: an index named %q already exists", name)
		}
	}
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
	if s.indexers[indexName] == nil {
		return nil, unknownIndex(indexName)
	}
	values, err := s.indexers[indexName](obj)
	if err != nil {
		return nil, fmt.Errorf("index %q: %w", indexName, err)
	}
	keys := map[string]struct{}{} // an object under two values is listed once
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

func unknownIndex(name string) error { return fmt.Errorf("index %q does not exist", name) }

// objectsLocked returns the objects of a set of keys.
func (s *threadSafeStore) objectsLocked(keys map[string]struct{}) []any {
	out := make([]any, 0, len(keys))
	for key := range keys {
		out = append(out, s.items[key])
	}
	return out
}

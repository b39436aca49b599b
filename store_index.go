// store_index.go holds the index bookkeeping of threadSafeStore: computing
// an object's index values, and filing a key under them or taking it out.
// The store keeps no copy of the values a key is filed under; these
// functions count the entries they add and remove so that the store can
// tell when an object no longer says where its key is filed.
//
// client-go counterpart: storeIndex in k8s.io/client-go/tools/cache
// thread_safe_store.go (updateSingleIndex, addKeyToIndex, deleteKeyFromIndex).
//
// Tutorial: 000 §1 (a thread-safe map with indexers) and §2.3 (why a cached
// object must never be changed in place).

package informer

import (
	"fmt"
	"slices"
)

// indexValues runs the index functions of names on obj and appends what
// each returns to dst, in the order of names.
func indexValues(indexers Indexers, names []string, key string, obj any, dst [][]string) ([][]string, error) {
	for _, name := range names {
		fn := indexers[name]
		if fn == nil {
			return dst, fmt.Errorf("index %q has no index function", name)
		}
		vs, err := fn(obj)
		if err != nil {
			return dst, fmt.Errorf("index %q cannot index %q: %w", name, key, err)
		}
		dst = append(dst, vs)
	}
	return dst, nil
}

// file adds key to the set of each value in values (values[i] belongs to
// index names[i]) and returns how many entries it added: a value given
// twice is one entry.
func file(indices Indices, names []string, key string, values [][]string) (added int) {
	for i, vs := range values {
		index := indices[names[i]]
		if index == nil {
			index = Index{}
			indices[names[i]] = index
		}
		for _, v := range vs {
			set := index[v]
			if set == nil {
				set = map[string]struct{}{}
				index[v] = set
			}
			if _, ok := set[key]; !ok {
				set[key] = struct{}{}
				added++
			}
		}
	}
	return added
}

// unfile removes key from the set of each value in values, dropping sets
// that become empty so that short-lived values do not pile up. It returns
// how many entries it removed.
func unfile(indices Indices, names []string, key string, values [][]string) (removed int) {
	for i, vs := range values {
		index := indices[names[i]]
		for _, v := range vs {
			if _, ok := index[v][key]; ok {
				delete(index[v], key)
				removed++
				if len(index[v]) == 0 {
					delete(index, v)
				}
			}
		}
	}
	return removed
}

// unfileEverywhere removes key from every set of every index. It is the
// slow way, for a key whose object no longer says where it is filed.
func unfileEverywhere(indices Indices, key string) {
	for _, index := range indices {
		for v, set := range index {
			delete(set, key)
			if len(set) == 0 {
				delete(index, v)
			}
		}
	}
}

// filedExactly reports whether key is filed under values and nothing else:
// every entry of values holds key, and they are n, the count of entries
// that hold key. A value given twice is one entry (the slices are short; a
// quadratic look-back is cheapest).
func filedExactly(indices Indices, names []string, key string, values [][]string, n int) bool {
	entries := 0
	for i, vs := range values {
		for j, v := range vs {
			if slices.Contains(vs[:j], v) {
				continue
			}
			if _, ok := indices[names[i]][v][key]; !ok {
				return false
			}
			entries++
		}
	}
	return entries == n
}

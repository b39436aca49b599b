// store.go holds the Store and Indexer interfaces, the index functions, and
// cache: the Store and Indexer every informer keeps, which computes each
// object's key and hands the rest to the thread-safe map behind it
// (thread_safe_store.go).
//
// client-go counterpart: tools/cache store.go (Store, cache, NewStore,
// NewIndexer) and index.go (Indexer, IndexFunc, Indexers, Indices).
//
// Tutorial: 004 §3.3 (Store vs Indexer), 000 §1 (a thread-safe map with
// indexers behind a key function).

package informer

import "fmt"

// Store is a keyed collection of objects. The Indexer behind an informer is
// one; so is each queue, which is why a Reflector can fill either.
// Every method is safe for concurrent use.
//
// The objects a Store hands out are its own, shared with every reader (an
// informer's handlers, listers, other goroutines) and never copied on the
// way out: never change one. Change a DeepCopy, and send that to the
// server; the cache changes when the watch reports the write. This is the
// rule the rest of the package refers to.
type Store interface {
	// Add inserts obj, or replaces the object with obj's key.
	Add(obj any) error
	// Update is the same as Add.
	Update(obj any) error
	// Delete removes the object with obj's key; an absent key is no error.
	Delete(obj any) error
	// List returns every object, in no particular order.
	List() []any
	// ListKeys returns every key, in no particular order.
	ListKeys() []string
	// Get is GetByKey for obj's key; it fails only if the key does.
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)
	// Replace swaps the whole contents for list, listed at resourceVersion.
	Replace(list []any, resourceVersion string) error
	// Resync means something only for a queue: a plain store does nothing.
	Resync() error
	// Reading 2: the store tracks the version it is up to (client-go 1.36+).
	// LastStoreSyncResourceVersion returns the resource version of the last
	// Replace, write or Bookmark. An informer's cache answers "" unless the
	// AtomicFIFO gate is on, as client-go's does.
	LastStoreSyncResourceVersion() string
	// Bookmark records that the store is up to date as of rv, although
	// nothing changed.
	Bookmark(rv string)
	// End of reading 2.
}

// IndexFunc computes the index values of an object, such as its namespace.
// An object may have no value (it is not in the index) or several.
type IndexFunc func(obj any) ([]string, error)

// Indexers maps an index name to the function that computes it.
type Indexers map[string]IndexFunc

// Index maps an index value to the set of keys of the objects that have it.
type Index map[string]map[string]struct{}

// Indices maps an index name to its Index.
type Indices map[string]Index

// Indexer is a Store with secondary indexes: besides by key, objects can be
// found by the values an index function computes for them. Listers read an
// informer's Indexer; every method is safe for concurrent use.
type Indexer interface {
	Store
	// Index returns the objects that share an index value with obj.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys of the objects with the index value, sorted.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value the index holds, sorted.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the objects with the index value; an unknown index
	// name is an error, a value nothing has is an empty list.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns a copy: changing it changes no index.
	GetIndexers() Indexers
	// AddIndexers adds indexes, filing the objects already stored in them.
	// A name already taken is an error.
	AddIndexers(newIndexers Indexers) error
}

// NamespaceIndex is the index name listers look for: with it (computed by
// MetaNamespaceIndexFunc), listing one namespace reads only that namespace.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	o, ok := obj.(namespacedName)
	if !ok || isNilPointer(obj) {
		return nil, errNoMeta
	}
	return []string{o.GetNamespace()}, nil
}

// KeyError reports that the key function failed (Err) for an object (Obj).
type KeyError struct {
	Obj any
	Err error
}

// Error implements error: it names the object's Go type and the cause.
// (client-go prints the whole object with %+v; a Pod's is pages long.)
func (k KeyError) Error() string {
	return fmt.Sprintf("cannot compute the key of a %T: %v", k.Obj, k.Err)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (k KeyError) Unwrap() error {
	return k.Err
}

// cache is the Store and Indexer that NewStore and NewIndexer return. It
// computes keys; the threadSafeStore it embeds does the locking, keeps the
// indexes and serves the reads that need no key (List, ListKeys, indexes).
type cache struct {
	*threadSafeStore
	keyFunc KeyFunc
	// Reading 2: how the AtomicFIFO gate reaches LastStoreSyncResourceVersion.
	// hideStoreVersion makes LastStoreSyncResourceVersion answer "", as
	// client-go's cache does while the AtomicFIFO gate is off. It is set
	// once, before the cache is shared (NewSharedIndexInformerWithOptions).
	hideStoreVersion bool
	// End of reading 2.
}

// NewStore returns an empty Store keyed by keyFunc (MetaNamespaceKeyFunc if nil).
func NewStore(keyFunc KeyFunc) Store {
	return NewIndexer(keyFunc, Indexers{})
}

// NewIndexer returns an empty Indexer keyed by keyFunc (MetaNamespaceKeyFunc
// if nil) that keeps the given indexes.
func NewIndexer(keyFunc KeyFunc, indexers Indexers) Indexer {
	return newCache(keyFunc, indexers)
}

// newCache is NewIndexer, returning the concrete type.
func newCache(keyFunc KeyFunc, indexers Indexers) *cache {
	if keyFunc == nil {
		keyFunc = MetaNamespaceKeyFunc
	}
	return &cache{threadSafeStore: newThreadSafeStore(indexers), keyFunc: keyFunc}
}

func (c *cache) key(obj any) (string, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

// Add stores obj. If its key or one of its index values cannot be
// computed, nothing changes.
func (c *cache) Add(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.threadSafeStore.Update(key, obj)
}

func (c *cache) Update(obj any) error {
	return c.Add(obj)
}

func (c *cache) Delete(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.threadSafeStore.Delete(key,
		// Reading 2: its version becomes the store's.
		obj,
		// End of reading 2.
	)
	return nil
}

func (c *cache) Get(obj any) (item any, exists bool, err error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	return c.GetByKey(key)
}

func (c *cache) GetByKey(key string) (item any, exists bool, err error) {
	item, exists = c.threadSafeStore.Get(key)
	return item, exists, nil
}

// Replace swaps the whole contents for list in one step, so a reader sees
// the old contents or the new, never a mix. If one object has no key or
// cannot be indexed, nothing changes.
func (c *cache) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, err := c.key(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	return c.threadSafeStore.Replace(items, resourceVersion)
}

func (c *cache) Resync() error {
	return nil
}

// Reading 2: the version the cache is up to, with the AtomicFIFO gate.

func (c *cache) LastStoreSyncResourceVersion() string {
	if c.hideStoreVersion {
		return ""
	}
	return c.threadSafeStore.resourceVersion()
}

func (c *cache) Bookmark(rv string) {
	c.threadSafeStore.bookmark(rv)
}

// End of reading 2.

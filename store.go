// store.go holds the cache that readers use: the Store and Indexer
// interfaces, the index functions, and the keyed front (NewStore, NewIndexer)
// over the thread-safe map in thread_safe_store.go.
//
// client-go counterpart: k8s.io/client-go/tools/cache store.go and index.go.
//
// Tutorial: 004 §3.3 (Store vs Indexer), 000 §1 and §2.4 (a thread-safe map
// with indexers; sync.Map vs RWMutex + map).

package informer

import "fmt"

// Store is a keyed collection of objects: the Indexer behind an informer is
// one. The Reflector writes into a Store, or into a queue, through the
// smaller ReflectorStore (controller.go).
type Store interface {
	// Add inserts obj, or replaces the object with the same key.
	Add(obj any) error
	// Update is Add for an object that may already be present.
	Update(obj any) error
	// Delete removes the object with obj's key.
	Delete(obj any) error
	// List returns every object, in no particular order.
	List() []any
	// ListKeys returns every key, in no particular order.
	ListKeys() []string
	// Get returns the object with obj's key.
	Get(obj any) (item any, exists bool, err error)
	// GetByKey returns the object with the given key.
	GetByKey(key string) (item any, exists bool, err error)
	// Replace swaps the whole contents for list, as of resourceVersion.
	Replace(list []any, resourceVersion string) error
	// Resync is meaningful only for queues; a plain store does nothing.
	Resync() error
	// LastStoreSyncResourceVersion is the resource version of the newest
	// state written into the store: the last Replace, write or Bookmark.
	LastStoreSyncResourceVersion() string
	// Bookmark records that the store is up to date as of rv, though no
	// object changed.
	Bookmark(rv string)
}

// IndexFunc computes the index values of an object, such as its namespace.
type IndexFunc func(obj any) ([]string, error)

// Indexers maps an index name to the function that computes it.
type Indexers map[string]IndexFunc

// Index maps an index value to the keys of the objects that have it.
type Index map[string]map[string]struct{}

// Indices maps an index name to its Index.
type Indices map[string]Index

// Indexer is a Store with secondary indexes: ask for every object whose
// index function returned a given value.
type Indexer interface {
	Store
	// Index returns the objects that share an index value with obj.
	Index(indexName string, obj any) ([]any, error)
	// IndexKeys returns the keys of the objects with this index value.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value the named index holds.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the objects with this index value.
	ByIndex(indexName, indexedValue string) ([]any, error)
	// GetIndexers returns the index functions.
	GetIndexers() Indexers
	// AddIndexers adds index functions and indexes the existing objects.
	AddIndexers(newIndexers Indexers) error
}

// NamespaceIndex is the name of the conventional index by namespace.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace.
func MetaNamespaceIndexFunc(obj any) ([]string, error) {
	o, ok := obj.(namespacedName)
	if !ok || isNilPointer(obj) {
		return nil, errNoMeta
	}
	return []string{o.GetNamespace()}, nil
}

// KeyError reports that an object's key could not be computed.
type KeyError struct {
	// Obj is the object that has no key.
	Obj any
	// Err is why the key function failed.
	Err error
}

// Error describes the failure; the object's type is named, not printed,
// because a whole object makes an unreadable message.
func (k KeyError) Error() string {
	return fmt.Sprintf("cannot compute the key of a %T: %v", k.Obj, k.Err)
}

// Unwrap returns the key function's error, for errors.Is and errors.As.
func (k KeyError) Unwrap() error { return k.Err }

// cache is the Store and Indexer behind NewStore and NewIndexer: it computes
// keys and leaves locking and indexing to a threadSafeStore.
type cache struct {
	storage *threadSafeStore
	keyFunc KeyFunc
	// hideStoreVersion makes LastStoreSyncResourceVersion answer "", as
	// client-go's does while its AtomicFIFO gate is off.
	hideStoreVersion bool
}

var _ Indexer = (*cache)(nil)

// NewStore returns an empty thread-safe Store that names objects with
// keyFunc (MetaNamespaceKeyFunc when nil).
func NewStore(keyFunc KeyFunc) Store {
	return NewIndexer(keyFunc, Indexers{})
}

// NewIndexer returns an empty thread-safe Indexer that names objects with
// keyFunc (MetaNamespaceKeyFunc when nil) and maintains the given indexes.
func NewIndexer(keyFunc KeyFunc, indexers Indexers) Indexer {
	if keyFunc == nil {
		keyFunc = MetaNamespaceKeyFunc
	}
	return &cache{storage: newThreadSafeStore(indexers), keyFunc: keyFunc}
}

func (c *cache) key(obj any) (string, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

// Add inserts obj, or replaces the object with the same key, and updates
// the indexes. If the key or an index cannot be computed, nothing changes.
func (c *cache) Add(obj any) error {
	_, _, err := c.swap(obj)
	return err
}

// swap is Add that also returns the object obj replaced, if any: a Get and
// an Add in one step, computing the key once (see addOrUpdate).
func (c *cache) swap(obj any) (replaced any, existed bool, err error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	return c.storage.Update(key, obj)
}

// Update is the same as Add.
func (c *cache) Update(obj any) error { return c.Add(obj) }

// Delete removes the object with obj's key; an absent key is not an error.
func (c *cache) Delete(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.storage.Delete(key, obj)
	return nil
}

// List returns every object, in no particular order.
func (c *cache) List() []any { return c.storage.List() }

// ListKeys returns every key, in no particular order.
func (c *cache) ListKeys() []string { return c.storage.ListKeys() }

// Get returns the object with obj's key.
func (c *cache) Get(obj any) (item any, exists bool, err error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	item, exists = c.storage.Get(key)
	return item, exists, nil
}

// GetByKey returns the object with the given key.
func (c *cache) GetByKey(key string) (item any, exists bool, err error) {
	item, exists = c.storage.Get(key)
	return item, exists, nil
}

// Replace swaps the whole contents for list in one step: a concurrent reader
// sees either the old contents or the new, never a mix. If one object has no
// key or cannot be indexed, nothing changes. resourceVersion becomes the
// LastStoreSyncResourceVersion.
func (c *cache) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, err := c.key(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	return c.storage.Replace(items, resourceVersion)
}

// Resync does nothing: a plain store has no queue to resync.
func (c *cache) Resync() error { return nil }

// Index returns the objects that share an index value with obj.
func (c *cache) Index(indexName string, obj any) ([]any, error) {
	return c.storage.Index(indexName, obj)
}

// IndexKeys returns the sorted keys of the objects with this index value.
func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.storage.IndexKeys(indexName, indexedValue)
}

// ListIndexFuncValues returns every value the named index holds.
func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.storage.ListIndexFuncValues(indexName)
}

// ByIndex returns the objects with this index value.
func (c *cache) ByIndex(indexName, indexedValue string) ([]any, error) {
	return c.storage.ByIndex(indexName, indexedValue)
}

// GetIndexers returns a copy of the index functions.
func (c *cache) GetIndexers() Indexers { return c.storage.GetIndexers() }

// AddIndexers adds index functions and indexes the objects already stored.
func (c *cache) AddIndexers(newIndexers Indexers) error {
	return c.storage.AddIndexers(newIndexers)
}

// LastStoreSyncResourceVersion is the resource version of the newest state
// written into the cache: that of the last Replace, of the last object
// added, updated or deleted, or of the last Bookmark. For the cache of an
// informer run with AtomicFIFO off it is "", as in client-go.
func (c *cache) LastStoreSyncResourceVersion() string {
	if c.hideStoreVersion {
		return ""
	}
	c.storage.lock.RLock()
	defer c.storage.lock.RUnlock()
	return c.storage.rv
}

// Bookmark records that the cache is up to date as of rv.
func (c *cache) Bookmark(rv string) {
	c.storage.lock.Lock()
	defer c.storage.lock.Unlock()
	c.storage.rv = rv
}

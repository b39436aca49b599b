// store.go holds the Store and Indexer interfaces, index functions, and the cache that
// computes keys in front of thread_safe_store.go's map.
// client-go counterpart: tools/cache store.go and index.go.
// Tutorial: 004 §3.3 (Store vs Indexer), 000 §1 (a thread-safe map with indexers).

package informer

import "fmt"

// Store is a keyed collection of objects; the Indexer behind an informer is one.
type Store interface {
	Add(obj any) error    // inserts obj, or replaces the object with its key
	Update(obj any) error // the same as Add
	Delete(obj any) error // removes the object with obj's key
	List() []any          // every object, in no particular order
	ListKeys() []string   // every key, in no particular order
	Get(obj any) (item any, exists bool, err error)
	GetByKey(key string) (item any, exists bool, err error)
	Replace(list []any, resourceVersion string) error // swaps the whole contents for list
	Resync() error                                    // meaningful only for queues
	LastStoreSyncResourceVersion() string             // the version of the last Replace, write or Bookmark
	Bookmark(rv string)                               // the store is up to date as of rv, though nothing changed
}

type (
	// IndexFunc computes the index values of an object, such as its namespace.
	IndexFunc func(obj any) ([]string, error)
	// Indexers maps an index name to the function that computes it.
	Indexers map[string]IndexFunc
	// Index maps an index value to the keys of the objects that have it.
	Index map[string]map[string]struct{}
	// Indices maps an index name to its Index.
	Indices map[string]Index
)

// Indexer is a Store with secondary indexes: the objects whose index function returned a value.
type Indexer interface {
	Store
	Index(indexName string, obj any) ([]any, error)             // the objects sharing a value with obj
	IndexKeys(indexName, indexedValue string) ([]string, error) // the keys of the objects with the value
	ListIndexFuncValues(indexName string) []string              // every value the index holds
	ByIndex(indexName, indexedValue string) ([]any, error)      // the objects with the value
	GetIndexers() Indexers                                      // the index functions
	AddIndexers(newIndexers Indexers) error                     // indexes the objects already stored too
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
	Obj any
	Err error
}

func (k KeyError) Error() string {
	return fmt.Sprintf("cannot compute the key of a %T: %v", k.Obj, k.Err)
}
func (k KeyError) Unwrap() error { return k.Err }

// cache is the Store and Indexer of NewStore and NewIndexer: it computes keys; the
// threadSafeStore it embeds locks, indexes and serves List, ListKeys and the index reads.
type cache struct {
	*threadSafeStore
	keyFunc          KeyFunc
	hideStoreVersion bool // LastStoreSyncResourceVersion says "" (client-go's, AtomicFIFO off)
}

// NewStore returns an empty Store keyed by keyFunc (MetaNamespaceKeyFunc if nil).
func NewStore(keyFunc KeyFunc) Store { return NewIndexer(keyFunc, Indexers{}) }

// NewIndexer returns an empty Indexer keyed by keyFunc (MetaNamespaceKeyFunc if nil)
// that maintains the given indexes.
func NewIndexer(keyFunc KeyFunc, indexers Indexers) Indexer {
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

// Add stores obj; if its key or an index value cannot be computed, nothing changes.
func (c *cache) Add(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if _, _, err = c.updateLocked(key, obj); err == nil {
		c.observeLocked(obj)
	}
	return err
}

func (c *cache) Update(obj any) error { return c.Add(obj) }

// Delete removes the object with obj's key; an absent key is not an error.
func (c *cache) Delete(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	c.deleteLocked(key)
	c.observeLocked(obj) // obj (the deleted object as the caller knows it) may be nil
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
	c.lock.RLock()
	defer c.lock.RUnlock()
	item, exists = c.items[key]
	return item, exists, nil
}

// Replace swaps the whole contents for list in one step, so a reader sees the old
// contents or the new, never a mix; if one object has no key or cannot be indexed,
// nothing changes.
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

// Resync does nothing: a plain store has no queue to resync.
func (c *cache) Resync() error { return nil }

func (c *cache) LastStoreSyncResourceVersion() string {
	if c.hideStoreVersion {
		return ""
	}
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.rv
}

func (c *cache) Bookmark(rv string) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.rv = rv
}

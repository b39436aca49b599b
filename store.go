// store.go holds the cache that readers use: the Store and Indexer
// interfaces and their thread-safe implementation with secondary indexes.
//
// client-go counterpart: k8s.io/client-go/tools/cache store.go, index.go and
// thread_safe_store.go.
//
// Tutorial: 004 §3.3 (Store vs Indexer), 000 §1 and §2.4 (a thread-safe map
// with indexers; sync.Map vs RWMutex + map).
package informer

// Store is a keyed collection of objects. The DeltaFIFO and the Indexer are
// both Stores: the Reflector writes into one through this interface.
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

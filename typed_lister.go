// typed_lister.go holds ResourceIndexer[T]: a generic lister that lists and
// gets objects of type T from an informer's Indexer, in every namespace or
// in one, so code for one kind reads without type assertions.
//
// client-go counterpart: ResourceIndexer[T], New and NewNamespaced in
// k8s.io/client-go/listers generic_helpers.go (v0.37.2). client-go's
// constructor is listers.New; ours is NewResourceIndexer, because New is the
// controller's here, as in tools/cache. It takes the resource's name as a
// string where client-go takes a schema.GroupResource.
//
// Tutorial: 004 §3.1 (generics for type-safe informers).

package informer

import "fmt"

// ResourceIndexer lists and gets objects of type T from an Indexer (an
// informer's GetIndexer()), in every namespace or in one. The objects are
// the cache's own, shared with every reader: DeepCopy before changing one.
// Objects in the Indexer that are not a T are skipped.
type ResourceIndexer[T Object] struct {
	indexer   Indexer
	resource  string // for NotFound messages, e.g. "pod"
	namespace string // NamespaceAll for every namespace
}

// NewResourceIndexer returns a ResourceIndexer over indexer for every
// namespace. resource names the kind in NotFound errors, e.g. "pod".
func NewResourceIndexer[T Object](indexer Indexer, resource string) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns parent restricted to one namespace.
func NewNamespaced[T Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector (nil: all), from the
// namespace index when the indexer has one.
func (l ResourceIndexer[T]) List(selector Selector) ([]T, error) {
	var out []T
	err := ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if t, ok := obj.(T); ok {
			out = append(out, t)
		}
	})
	return out, err
}

// Get returns the named object: name alone for every-namespace (or
// cluster-scoped) indexers, namespace/name once restricted by NewNamespaced.
// A missing object is an error for which IsNotFound is true.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespace != NamespaceAll {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("%s %q in the cache is a %T, not a %T", l.resource, key, obj, zero)
	}
	return t, nil
}

// Package listers holds ResourceIndexer[T]: a generic lister that lists and
// gets objects of type T from an informer's Indexer, in every namespace or
// in one, so code for one kind reads without type assertions.
//
// client-go counterpart: ResourceIndexer[T], New and NewNamespaced in
// k8s.io/client-go/listers generic_helpers.go (v0.37.2). Where ours
// differs: New takes the resource's name as a string ("pod", for NotFound
// errors) where client-go's listers.New[T](indexer, groupResource) takes a
// schema.GroupResource; T is an informer.Object where client-go's is a
// runtime.Object; and List skips objects that are not a T where client-go's
// type assertion would panic.
//
// Tutorial: 004 §3.1 (generics for type-safe informers). Walkthrough: Step
// 18 (go test -v -run Step18 ./typed).
package listers

import (
	"fmt"

	informer "github.com/learn-k8s/informer"
)

// ResourceIndexer lists and gets objects of type T from an Indexer (an
// informer's GetIndexer()), in every namespace or in one. The objects are
// the cache's own, shared with every reader: DeepCopy before changing one.
// Objects in the Indexer that are not a T are skipped.
type ResourceIndexer[T informer.Object] struct {
	indexer   informer.Indexer
	resource  string // for NotFound messages, e.g. "pod"
	namespace string // informer.NamespaceAll for every namespace
}

// New returns a ResourceIndexer over indexer for every namespace. resource
// names the kind in NotFound errors, e.g. "pod".
func New[T informer.Object](indexer informer.Indexer, resource string) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns parent restricted to one namespace.
func NewNamespaced[T informer.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector (nil: all), from the
// namespace index when the indexer has one.
func (l ResourceIndexer[T]) List(selector informer.Selector) ([]T, error) {
	var out []T
	err := informer.ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if t, ok := obj.(T); ok {
			out = append(out, t)
		}
	})
	return out, err
}

// Get returns the named object: name alone for every-namespace (or
// cluster-scoped) indexers, namespace/name once restricted by NewNamespaced.
// A missing object is an error for which informer.IsNotFound is true.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespace != informer.NamespaceAll {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, informer.NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("%s %q in the cache is a %T, not a %T", l.resource, key, obj, zero)
	}
	return t, nil
}

// lister.go holds PodLister, which reads *Pod from an informer's Indexer, and the label Selector.
// client-go counterpart: listers/core/v1, tools/cache's ListAll(ByNamespace), apimachinery's labels.
// Tutorial: 004 §3.3 (Store vs Indexer: the Indexer is what readers use).

package informer

import (
	"maps"
	"slices"
	"strings"
)

// Set is a set of labels.
type Set map[string]string

// Selector decides which label sets it selects.
type Selector interface {
	Matches(labels Set) bool
	Empty() bool    // whether it selects everything
	String() string // in the API's syntax, as ListOptions.LabelSelector sends it
}

// Everything returns the selector that selects every object.
func Everything() Selector { return setSelector(nil) }

// SelectorFromSet selects the objects that have every label of set.
func SelectorFromSet(set Set) Selector { return setSelector(maps.Clone(set)) }

// setSelector selects the label sets that hold each of its labels.
type setSelector Set

func (s setSelector) Empty() bool { return len(s) == 0 }
func (s setSelector) Matches(labels Set) bool {
	for k, v := range s {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
func (s setSelector) String() string {
	parts := make([]string, 0, len(s))
	for _, k := range slices.Sorted(maps.Keys(s)) {
		parts = append(parts, k+"="+s[k])
	}
	return strings.Join(parts, ",")
}

// PodLister lists pods from an Indexer. They are the cache's own: DeepCopy before changing one.
type PodLister interface {
	List(selector Selector) ([]*Pod, error) // every namespace's pods whose labels match
	Pods(namespace string) PodNamespaceLister
}

// PodNamespaceLister lists and gets the pods of one namespace.
type PodNamespaceLister interface {
	List(selector Selector) ([]*Pod, error)
	Get(name string) (*Pod, error) // an error for which IsNotFound is true if absent
}

// NewPodLister returns a PodLister over indexer (an informer's GetIndexer()).
func NewPodLister(indexer Indexer) PodLister { return podLister{indexer, NamespaceAll} }

// podLister is both listers; NamespaceAll lists every namespace.
type podLister struct {
	indexer   Indexer
	namespace string
}

func (l podLister) Pods(namespace string) PodNamespaceLister { return podLister{l.indexer, namespace} }

func (l podLister) List(selector Selector) (pods []*Pod, err error) {
	err = ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if p, ok := obj.(*Pod); ok {
			pods = append(pods, p)
		}
	})
	return pods, err
}

func (l podLister) Get(name string) (*Pod, error) {
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if p, ok := obj.(*Pod); exists && ok {
		return p, nil
	}
	return nil, NewNotFound("pod", name)
}

// ListAll calls appendFn with every object in store whose labels match
// selector (nil selects everything).
func ListAll(store Store, selector Selector, appendFn func(obj any)) error {
	return listMatching(store.List(), "", selector, appendFn)
}

// ListAllByNamespace is ListAll for one namespace (NamespaceAll for all),
// through the namespace index when the indexer has one.
func ListAllByNamespace(indexer Indexer, namespace string, selector Selector, appendFn func(obj any)) error {
	if _, indexed := indexer.GetIndexers()[NamespaceIndex]; !indexed || namespace == NamespaceAll {
		return listMatching(indexer.List(), namespace, selector, appendFn)
	}
	items, err := indexer.ByIndex(NamespaceIndex, namespace)
	if err != nil {
		return err
	}
	return listMatching(items, "", selector, appendFn)
}

// listMatching calls appendFn with each of items whose labels match selector
// and, unless namespace is NamespaceAll, whose namespace is namespace.
func listMatching(items []any, namespace string, selector Selector, appendFn func(obj any)) error {
	for _, obj := range items {
		o, ok := obj.(Object)
		if ok && !isNilPointer(obj) && (namespace == NamespaceAll || o.GetNamespace() == namespace) &&
			(selector == nil || selector.Matches(o.GetLabels())) {
			appendFn(obj)
		}
	}
	return nil
}

// lister.go holds PodLister, which reads *Pod from an informer's Indexer,
// never from the server, and the label Selector it filters with; and
// ListAll and ListAllByNamespace, the helpers every lister is built on.
//
// client-go counterpart: listers/core/v1 (PodLister, PodNamespaceLister),
// tools/cache listers.go (ListAll, ListAllByNamespace), apimachinery's
// labels (Set, Selector, Everything, SelectorFromSet).
//
// Tutorial: 004 §3.3 (Store vs Indexer: the Indexer is what readers use).

package informer

import (
	"maps"
	"slices"
	"strings"
)

// Set is a set of labels, such as {"app": "web"}.
type Set map[string]string

// Selector picks objects by their labels; Everything and SelectorFromSet
// make one.
type Selector interface {
	Matches(labels Set) bool
	// Empty reports whether it selects everything.
	Empty() bool
	// String returns it in the API's syntax, as ListOptions.LabelSelector
	// sends it ("app=web,tier=frontend").
	String() string
}

// Everything returns the selector that selects every object.
func Everything() Selector { return setSelector(nil) }

// SelectorFromSet selects the objects that have every label of set.
func SelectorFromSet(set Set) Selector { return setSelector(maps.Clone(set)) }

type setSelector Set

// Empty implements Selector.
func (s setSelector) Empty() bool {
	return len(s) == 0
}

// Matches implements Selector: every label of s, with its value.
func (s setSelector) Matches(labels Set) bool {
	for k, v := range s {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// String implements Selector, the labels sorted by key.
func (s setSelector) String() string {
	parts := make([]string, 0, len(s))
	for _, k := range slices.Sorted(maps.Keys(s)) {
		parts = append(parts, k+"="+s[k])
	}
	return strings.Join(parts, ",")
}

// PodLister lists pods from an Indexer: the informer's cache, so a read
// costs no request, and may be a little behind the server. The pods are
// the cache's own (see Store).
type PodLister interface {
	// List returns the pods of every namespace whose labels selector
	// matches, in no particular order.
	List(selector Selector) ([]*Pod, error)
	Pods(namespace string) PodNamespaceLister
}

// PodNamespaceLister is a PodLister for one namespace, which can also Get.
type PodNamespaceLister interface {
	List(selector Selector) ([]*Pod, error)
	// Get returns the named pod, or an error for which IsNotFound is true.
	Get(name string) (*Pod, error)
}

// NewPodLister returns a PodLister over indexer (an informer's GetIndexer()).
func NewPodLister(indexer Indexer) PodLister { return podLister{indexer, NamespaceAll} }

// podLister is both listers; NamespaceAll lists every namespace.
type podLister struct {
	indexer   Indexer
	namespace string
}

// Pods implements PodLister.
func (l podLister) Pods(namespace string) PodNamespaceLister {
	return podLister{l.indexer, namespace}
}

// List implements PodLister and PodNamespaceLister.
func (l podLister) List(selector Selector) (pods []*Pod, err error) {
	err = ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if p, ok := obj.(*Pod); ok {
			pods = append(pods, p)
		}
	})
	return pods, err
}

// Get implements PodNamespaceLister: a lookup by key, namespace/name.
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
// through the namespace index when the indexer has one: a cache of many
// namespaces then reads only the one asked for.
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
		if ok && !isNilPointer(obj) &&
			(namespace == NamespaceAll || o.GetNamespace() == namespace) &&
			(selector == nil || selector.Matches(o.GetLabels())) {
			appendFn(obj)
		}
	}
	return nil
}

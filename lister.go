// lister.go holds the typed read side of the cache: PodLister lists and gets
// *Pod straight from an informer's Indexer (no request to the server), by
// label selector, by namespace (through the namespace index when there is
// one) and by name. The label selectors it takes are in selector.go.
//
// client-go counterpart: k8s.io/client-go/listers/core/v1 (PodLister,
// PodNamespaceLister) and ListAll / ListAllByNamespace in tools/cache.
//
// Tutorial: 004 §3.3 (Store vs Indexer: the Indexer is what readers use).

package informer

// PodLister lists pods from an Indexer. The pods are the cache's own: do
// not change them (DeepCopy first).
type PodLister interface {
	// List returns the pods of every namespace whose labels match selector.
	List(selector Selector) ([]*Pod, error)
	// Pods returns a lister for one namespace.
	Pods(namespace string) PodNamespaceLister
}

// PodNamespaceLister lists and gets the pods of one namespace.
type PodNamespaceLister interface {
	// List returns the namespace's pods whose labels match selector.
	List(selector Selector) ([]*Pod, error)
	// Get returns the named pod, or an error for which IsNotFound is true.
	Get(name string) (*Pod, error)
}

// NewPodLister returns a PodLister over indexer (an informer's GetIndexer()).
func NewPodLister(indexer Indexer) PodLister { return podLister{indexer} }

type podLister struct{ indexer Indexer }

func (l podLister) List(selector Selector) ([]*Pod, error) {
	var pods []*Pod
	err := ListAll(l.indexer, selector, func(obj any) {
		if p, ok := obj.(*Pod); ok {
			pods = append(pods, p)
		}
	})
	return pods, err
}

func (l podLister) Pods(namespace string) PodNamespaceLister {
	return podNamespaceLister{l.indexer, namespace}
}

type podNamespaceLister struct {
	indexer   Indexer
	namespace string
}

func (l podNamespaceLister) List(selector Selector) ([]*Pod, error) {
	var pods []*Pod
	err := ListAllByNamespace(l.indexer, l.namespace, selector, func(obj any) {
		if p, ok := obj.(*Pod); ok {
			pods = append(pods, p)
		}
	})
	return pods, err
}

func (l podNamespaceLister) Get(name string) (*Pod, error) {
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	p, ok := obj.(*Pod)
	if !exists || !ok {
		return nil, NewNotFound("pod", name)
	}
	return p, nil
}

// labelsOf returns obj's labels, and false if obj has no metadata.
func labelsOf(obj any) (Set, bool) {
	o, ok := obj.(Object)
	if !ok || isNilPointer(obj) {
		return nil, false
	}
	return Set(o.GetLabels()), true
}

// ListAll calls appendFn with every object in store whose labels match
// selector (nil selects everything).
func ListAll(store Store, selector Selector, appendFn func(obj any)) error {
	if selector == nil {
		selector = Everything()
	}
	for _, obj := range store.List() {
		if labels, ok := labelsOf(obj); ok && selector.Matches(labels) {
			appendFn(obj)
		}
	}
	return nil
}

// ListAllByNamespace is ListAll for one namespace (NamespaceAll for all). It
// uses the namespace index when the indexer has one, and scans otherwise.
func ListAllByNamespace(indexer Indexer, namespace string, selector Selector, appendFn func(obj any)) error {
	if namespace == NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	if selector == nil {
		selector = Everything()
	}
	var items []any
	if _, indexed := indexer.GetIndexers()[NamespaceIndex]; indexed {
		var err error
		if items, err = indexer.ByIndex(NamespaceIndex, namespace); err != nil {
			return err
		}
	} else {
		for _, obj := range indexer.List() {
			if o, ok := obj.(Object); ok && !isNilPointer(obj) && o.GetNamespace() == namespace {
				items = append(items, obj)
			}
		}
	}
	for _, obj := range items {
		if labels, ok := labelsOf(obj); ok && selector.Matches(labels) {
			appendFn(obj)
		}
	}
	return nil
}

// listers_test.go holds the edge cases of ResourceIndexer: objects of
// another type are skipped by List and an error for Get, cluster-scoped
// objects, and a namespace that does not hold the object.

package listers_test

import (
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"github.com/learn-k8s/informer/listers"
)

func TestResourceIndexerScopesAndTypes(t *testing.T) {
	idx := informer.NewIndexer(informer.MetaNamespaceKeyFunc, informer.Indexers{})
	walkthrough.Must(t, idx.Add(walkthrough.Pod("p")))
	node := &informer.Unstructured{Object: map[string]any{"kind": "Node", "metadata": map[string]any{"name": "n1"}}}
	walkthrough.Must(t, idx.Add(node))

	all := listers.New[*informer.Pod](idx, "pod")
	pods, err := all.List(nil)
	walkthrough.Must(t, err)
	if len(pods) != 1 || pods[0].Name != "p" {
		t.Fatalf("List = %v, want only the pod (the node is skipped)", pods)
	}
	if _, err := all.Get("n1"); err == nil || informer.IsNotFound(err) {
		t.Fatalf("Get of a non-pod = %v, want a type error", err)
	}
	nodes := listers.New[*informer.Unstructured](idx, "node")
	if n, err := nodes.Get("n1"); err != nil || n.GetName() != "n1" {
		t.Fatalf("cluster-scoped Get = %v, %v", n, err)
	}
	if _, err := listers.NewNamespaced(all, "other").Get("p"); !informer.IsNotFound(err) {
		t.Fatalf("Get in another namespace = %v, want NotFound", err)
	}
}

// example_test.go holds the runnable examples that `go doc` shows beside
// MetaNamespaceKeyFunc, NewDeltaFIFOWithOptions and NewIndexer. Their
// output is checked by `go test`.

package informer_test

import (
	"fmt"
	"log"
	"slices"
	"time"

	informer "github.com/learn-k8s/informer"
)

func ExampleMetaNamespaceKeyFunc() {
	p := &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: "nginx-pod"}}
	key, _ := informer.MetaNamespaceKeyFunc(p)
	fmt.Println(key)

	ns, name, _ := informer.SplitMetaNamespaceKey(key)
	fmt.Println(ns, name)

	_, err := informer.MetaNamespaceKeyFunc(42)
	fmt.Println(err != nil)
	// Output:
	// default/nginx-pod
	// default nginx-pod
	// true
}

func ExampleNewDeltaFIFOWithOptions() {
	// An example cannot fail its test, but it must not wait for ever either:
	// if a Pop below does not return, this ends the run saying so.
	watchdog := time.AfterFunc(10*time.Second, func() {
		log.Fatal("ExampleNewDeltaFIFOWithOptions: a Pop did not return within 10s")
	})
	defer watchdog.Stop()
	fifo := informer.NewDeltaFIFOWithOptions(informer.DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	web := func(rv string) *informer.Pod {
		return &informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: "default", Name: "web", ResourceVersion: rv}}
	}
	_ = fifo.Add(web("1"))
	_ = fifo.Update(web("2"))
	_ = fifo.Delete(web("2"))

	// One key, three deltas, handed over together.
	_, _ = fifo.Pop(func(obj any, isInInitialList bool) error {
		for _, d := range obj.(informer.Deltas) {
			fmt.Println(d.Type, d.Object.(*informer.Pod).ResourceVersion)
		}
		return nil
	})
	fifo.Close()
	_, err := fifo.Pop(nil)
	fmt.Println(err)
	// Output:
	// Added 1
	// Updated 2
	// Deleted 2
	// DeltaFIFO: manipulating with closed queue
}

func ExampleNewIndexer() {
	indexer := informer.NewIndexer(informer.MetaNamespaceKeyFunc,
		informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})
	for _, id := range [][2]string{{"default", "web"}, {"default", "db"}, {"kube-system", "dns"}} {
		_ = indexer.Add(&informer.Pod{ObjectMeta: informer.ObjectMeta{Namespace: id[0], Name: id[1]}})
	}
	keys, _ := indexer.IndexKeys(informer.NamespaceIndex, "default")
	fmt.Println(keys)

	pods, _ := indexer.ByIndex(informer.NamespaceIndex, "kube-system")
	fmt.Println(len(pods), pods[0].(*informer.Pod).Name)

	namespaces := indexer.ListIndexFuncValues(informer.NamespaceIndex)
	slices.Sort(namespaces)
	fmt.Println(namespaces)
	// Output:
	// [default/db default/web]
	// 1 dns
	// [default kube-system]
}

// doc.go holds the package documentation: what an informer is, the
// pipeline one object travels, and how the package is read.
//
// client-go counterpart: the package doc of k8s.io/client-go/tools/cache.
//
// Tutorial: 004 §1 and §2.1 (what an informer is), 000 §1 (why a cache).

// Package informer is a small, readable re-implementation of the Kubernetes
// client-go informer, written to be read beside a tutorial and then left
// behind for client-go: the names and the behaviour are client-go's.
//
// An informer keeps a local cache of the objects on an API server and tells
// handlers about every change. One object travels this pipeline:
//
//	API server (fakeapi, or a real cluster)
//	  │  HTTP: a list, then a watch stream of JSON events
//	  │                                  restclient.go, watch.go
//	  ▼
//	Reflector      list, watch, relist after a 410, back off
//	  │                                  reflector.go, reflector_watch.go
//	  │  Add / Update / Delete / Replace(list, resourceVersion)
//	  ▼
//	DeltaFIFO      one entry per key, its deltas in order
//	  │                                  delta.go, fifo.go
//	  │  Pop
//	  ▼
//	controller     the run loop and the resync timer
//	  │                                  controller.go
//	  │  process(Deltas)
//	  ▼
//	SharedIndexInformer  update the Indexer, then notify each handler
//	  │                                  informer.go, processor.go
//	  ├─► Indexer  the thread-safe cache listers read
//	  │                                  store.go, thread_safe_store.go, lister.go
//	  └─► handlers OnAdd / OnUpdate / OnDelete, each on its own goroutine
//	                                     informer_handlers.go
//
// That is the first reading: the tutorial's informer, client-go 1.32's
// pipeline, on net/http and encoding/json alone. The package is one source
// read in three layers. Code a first reader skips is marked in place with a
// line "Reading 2: ..." or "Reading 3: ..." (a whole file, in its header;
// or a block, closed by "End of reading N."), and
// `go run ./labs reading 1 DIR` writes the first reading as a module of its
// own, with the marked code removed; it builds and passes its tests alone.
// The second reading is what client-go 1.33–1.37 changed, which v0.37.2
// runs by default and so does this package: a queue of one delta per
// event, in order (a relist is one delta), popped in batches, after a
// streaming list; a pipeline option switches back to 1.32's, per informer.
// The third is the real wire: TLS and pings, how a watch ends, failures as
// client-go reads them, objects of any kind, typed objects that lose
// nothing. The README's reading path lists each reading's files. The
// one-pass JSON decoding (internal/jsonread) exists only for speed: skip it.
//
// `go test -v -run Step .` tells the same story as narrated tests, Step01 to
// Step11; the extras, each in a package of its own (retry, dynamic, diff,
// handlerchain, health, consistencydetector, mutationdetector, typed,
// listers), show theirs in Steps 12 to 18 (`go test -v -run Step ./...`
// runs them all); `go run ./examples/podwatch` shows it running against
// fakeapi, the in-process API server in ./fakeapi.
//
// A minimal informer over HTTP:
//
//	client, _ := informer.NewRESTClient(informer.RESTConfig{Host: "http://127.0.0.1:8001"})
//	lw := informer.NewListWatchFromClient(client,
//		informer.GroupVersionResource{Version: "v1", Resource: "pods"}, informer.NamespaceAll, "")
//	inf := informer.NewSharedIndexInformer(lw, &informer.Pod{}, 0,
//		informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})
//	inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
//		AddFunc: func(obj any) { fmt.Println("ADD event for", obj.(*informer.Pod).Name) },
//	})
//	go inf.Run(ctx)
//	informer.WaitForCacheSync(ctx, inf.HasSynced)
//
// The objects a handler or a lister gets are the cache's own: read the rule
// on Store before changing one.
package informer

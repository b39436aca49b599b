// doc.go holds the package documentation: the pipeline, and the order in
// which to read the files.
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
//	  │  HTTP: a streaming list (or a list), then a watch stream of JSON events
//	  ▼
//	Reflector          list, watch, relist after 410, back off   reflector*.go, restclient.go, watch.go
//	  │  Add / Update / Delete / Replace(list, resourceVersion) / Bookmark
//	  ▼
//	RealFIFO           one delta per event, in order (default)   delta.go, realfifo*.go
//	 or DeltaFIFO      one entry per key (client-go ≤1.32)       fifo*.go
//	  │  PopBatch / Pop
//	  ▼
//	controller         the run loop and the resync timer             controller.go
//	  │  process(Deltas), processBatch([]Delta)
//	  ▼
//	SharedIndexInformer  update the Indexer, then notify each handler  informer*.go, process.go, processor.go
//	  ├─► Indexer      the thread-safe cache that listers read        store.go, thread_safe_store.go, lister.go
//	  └─► handlers     OnAdd / OnUpdate / OnDelete, each with its own buffer and goroutine
//
// The queue is chosen by PipelineGates (features.go), named after client-go's
// feature gates: by default client-go v0.37.2's RealFIFO pipeline;
// PipelineGates132() gives the tutorial's DeltaFIFO pipeline.
//
// Read the files in that order, starting with meta.go (objects and keys) and
// pod.go (the sample kind; lossless.go keeps every field it does not model).
// The one-pass JSON decoding of list and watch bodies lives in
// internal/jsonread, called at one point (newBodyDecoder in restclient.go):
// it is there only for speed, and any reading may skip it.
// `go test -v -run Step` tells the same story as narrated tests, Step01 to Step18
// (informer_test.go); `go run ./examples/podwatch` shows it running against
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
// Objects in the cache are shared with every reader: never change one; call
// DeepCopy first.
package informer

// layers.go plugs the second reading (today's client-go: features.go,
// realfifo*.go, store_txn.go, reflector_watchlist.go) and the third (the
// real wire) into the first, the tutorial's informer. The first reading
// names each step that a later reading changes as a package variable at the
// place it is used; this file, and nothing else, sets them. Delete the later
// readings' files and this one, and the first reading builds and runs on its
// own (bash .ci/run proves it on every change): the pipeline of client-go
// 1.32, which the tutorial teaches. With them, an informer runs client-go
// v0.37.2's by default.
//
// client-go counterpart: none as such. client-go has one pipeline, chosen
// by feature gates inside newQueueFIFO (controller.go) and the Reflector.

package informer

import "net/http"

func init() {
	// The second reading: client-go 1.33–1.37.
	defaultPipelineGates = DefaultPipelineGates() // informer.go
	newQueue = newQueueFIFO                       // informer.go → features.go
	processPop = processDeltasAtomic              // informer.go → realfifo_batch.go
	watchList = (*Reflector).watchList            // reflector.go → reflector_watchlist.go

	// The third reading: the real wire.
	transportFor = func(cfg RESTConfig) (http.RoundTripper, error) { return newTransport(cfg) } // restclient.go → transport.go
	newGenericObject = func() Object { return &Unstructured{} }                                 // restclient.go → unstructured.go
	endsWatchNormally = endsWatchLikeClientGo                                                   // watch.go → watch_end.go

	// Speed: the one call into internal/jsonread.
	newBodyDecoder = newFastBodyDecoder // restclient.go → lossless.go
}

// layers.go plugs the second reading (today's client-go: features.go,
// realfifo*.go, reflector_watchlist.go) into the first, the tutorial's
// informer. The first reading names each step a later reading changes as a
// package variable at the place it is used; this file sets the second
// reading's, and layers_wire.go the third's. Nothing else sets them. Without
// these files the first reading builds and runs on its own (bash .ci/run
// proves it on every change): client-go 1.32's pipeline, which the tutorial
// teaches. With them, an informer runs client-go v0.37.2's by default.
//
// client-go counterpart: none as such. client-go has one pipeline, chosen
// by feature gates inside newQueueFIFO (controller.go) and the Reflector.

package informer

func init() {
	defaultPipelineGates = DefaultPipelineGates() // informer.go
	newQueue = newQueueFIFO                       // informer.go → features.go
	processPop = processDeltasAtomic              // informer.go → realfifo_batch.go
	popAndProcess = popBatch                      // controller.go → realfifo_batch.go
	bookmarkStore = bookmarkIfTaken               // reflector_watch.go → realfifo.go
	watchList = (*Reflector).watchList            // reflector.go → reflector_watchlist.go
	newListPager = newPager                       // reflector.go → reflector_watchlist.go
}

// Package parity runs this repository's informer and client-go v0.37.2's
// side by side on the same scripted servers, and compares, step by step,
// what they do: the requests they send (list or watch, every query
// parameter), the cache and its index, every handler's calls in order
// (type, key, resourceVersion), resyncs, HasSynced, and what is delivered
// after the stop and after RemoveEventHandler.
//
// It is a Go module of its own because it needs client-go, which the
// repository's own module never requires; `go test ./...` at the root does
// not enter it. Run it from this folder:
//
//	cd parity && go test ./...
//
// Each scenario runs in every setting: "first" (our first reading's
// pipeline, a DeltaFIFO that lists then watches, against client-go with the
// feature gates InOrderInformers and WatchListClient off) and "default"
// (our defaults against client-go's). The first reading itself, generated
// by `go run ./labs reading 1 DIR`, is compared by pointing go.mod's
// replace at it and building with the tag reading1 (.ci/run does so):
//
//	go mod edit -replace github.com/learn-k8s/informer=DIR && go test -tags reading1 ./...
//
// Where the files are: fakenet.go (the in-memory network and its faults),
// server.go and serverwatch.go (the scripted server), subject.go (what the
// harness asks of an informer), ours.go and clientgo.go (the two
// informers), scenario.go (the steps), run.go (one run in a
// testing/synctest bubble), compare.go (the first difference), random.go
// (the random scenarios). The named cases are in the _test.go files.
//
// Beside the informer, the queue differential compares the queues and the
// Indexer alone: our DeltaFIFO, RealFIFO and Indexer and client-go's
// tools/cache, driven by the same random sequences of operations, every
// observable compared after every one (queues.go, queues_random.go,
// queues_drive.go, queues_report.go, queues_ours.go, queues_clientgo.go;
// queues_test.go says how many seeds run and how to run more):
//
//	PARITY_QUEUE_SEEDS=2000 go test -run TestQueueDifferential -v .
//
// client-go counterpart: none (test machinery). Tutorial: none.
package parity

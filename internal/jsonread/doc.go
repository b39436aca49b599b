// Package jsonread is the informer's fast path for JSON: it reads the body
// of a list or of a watch stream as it arrives and decodes each item or
// event in one pass over its bytes, into exactly what encoding/json would
// make of them. It is there only for speed, and a learner may skip it: the
// informer calls it at one point (newBodyDecoder in restclient.go), and
// reading that call as "encoding/json decodes this body" loses nothing.
//
// What it does, and what it saves (BenchmarkDecode in the root package
// measures it against the obvious encoding/json code):
//   - Each byte is framed once and decoded once (decoder.go, scan.go);
//     json.Decoder and json.Unmarshal read it three to five times.
//   - A typed struct that keeps the members it does not model (the root's
//     lossless kinds, such as Pod) is walked once, each value read where
//     it stands (structs.go, readers.go); any form the readers do not take
//     (an escape, a float, a time with an offset) sends that level back to
//     the struct's own UnmarshalJSON, which is the reference.
//   - A generic object becomes the maps encoding/json makes with UseNumber
//     (generic.go), its equal strings, numbers and keys shared (shared.go);
//     in a list, a typed struct's equal strings are shared too.
//
// encoding/json is its reference throughout: the tests decode every saved
// object and every fuzzed input both ways and compare. It never imports
// the informer; the informer tells it through a Layout where its objects
// keep what a Go field does not hold.
//
// client-go counterpart: the JSON framing of
// k8s.io/apimachinery/pkg/util/framer (NewJSONFramedReader) and
// runtime/serializer/streaming, the JSON serializer of
// runtime/serializer/json, and for generic objects
// unstructured.UnstructuredJSONScheme with k8s.io/apimachinery/pkg/util/json
// (that is, sigs.k8s.io/json). client-go has no one-pass typed reader.
//
// Tutorial: none; it is there for speed only. The tutorial's Reflector reads
// each event with json.NewDecoder(resp.Body); this package does that job in
// one pass, and a reader loses nothing by reading it as that call.
package jsonread

// Package protobuf is the informer's protobuf wire, for the built-in kinds:
// it decodes the Kubernetes protobuf form of an object, a list and a watch
// stream straight into the caller's Go values, and encodes an object for a
// write. It is there for speed only (the server spends less CPU encoding
// protobuf and the client less decoding it), and a learner may skip it: the
// informer calls it where client-go chooses protobuf, and reading that
// call as "encoding/json decodes this body" loses nothing.
//
// What the bytes are (wire.go, decoder.go):
//   - An object or a list is the four bytes "k8s\x00", then a runtime.Unknown
//     message: its typeMeta (apiVersion, kind) names the message its raw
//     field holds, such as a v1 Pod or PodList.
//   - A watch stream is a run of frames, each a 4-byte big-endian length and
//     a metav1.WatchEvent message (no magic): its type ("ADDED", ...) and
//     its object, which holds an object as above, magic included.
//
// What it gives (typed.go, json.go): the values encoding/json gives for the
// JSON form of the same object. A typed struct that keeps the members it
// does not model (the root's lossless kinds, such as Pod; the rules are at
// the top of the root's lossless.go) gets each modelled field set, and
// every other member kept as the very JSON text a server writes for it:
// the members in the order of the Go fields, encoding/json's omissions and
// escapes, times, quantities and the rest in their own JSON forms. So an
// object read over protobuf equals the same object read over JSON, every
// member, byte for byte (the root's tests compare them, on saved objects
// and against a real kube-apiserver). Any other Go value gets the JSON text
// through its own UnmarshalJSON (encoding/json), the reference.
//
// Which field number is what comes from the real .proto files and the Go
// types' JSON facts, checked in as data in fakeapi/schema and read by both
// sides of the wire; each side has its own codec, so a bug cannot hide on
// both (fakeapi's is in its compat_protobuf*.go files).
//
// client-go counterpart: k8s.io/apimachinery/pkg/runtime/serializer/protobuf
// (Serializer, RawSerializer, LengthDelimitedFramer) and the generated
// Unmarshal and Marshal methods of k8s.io/api (generated.pb.go), with
// k8s.io/client-go/rest/watch's Decoder for watch events.
//
// Tutorial: none; the tutorial reads JSON, which stays the first reading.
package protobuf

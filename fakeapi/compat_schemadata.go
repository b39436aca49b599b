// compat_schemadata.go (compatibility layer): the real schema of the served
// kinds, checked in as data in fakeapi/schema/ (a package of its own, which
// internal/protobuf reads too: one source for both sides of the wire).
//
// fakeapi/schema/ holds, gzipped, what a real server and the Kubernetes
// modules say about the kinds this server serves: the generated.proto files
// of k8s.io/api and k8s.io/apimachinery v0.37.2 (the protobuf wire form,
// compat_protoschema.go), each protobuf field's JSON name and omission rule read
// from their Go types (gofields.txt), and the OpenAPI documents a real
// kube-apiserver v1.37.2 serves (compat_openapi.go). They are Apache-2.0, from
// the Kubernetes project (schema/NOTICE.md); schema/refresh.sh fetches them
// again. Nothing here is retyped by hand.
// Counterparts: the k8s.io/api and k8s.io/apimachinery modules, and the
// kube-apiserver's /openapi/v2 and /openapi/v3 handlers.
// Tutorial: none.

package fakeapi

import "github.com/learn-k8s/informer/fakeapi/schema"

// schemaFile returns the unzipped content of schema/name.
func schemaFile(name string) []byte { return schema.File(name) }

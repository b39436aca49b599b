// compat_schemadata.go (compatibility layer): the real schema of the served
// kinds, checked in as data.
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

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
)

//go:embed schema/*.gz
var schemaFS embed.FS

// schemaFile returns the unzipped content of schema/name. The files are
// part of the binary, so a failure is a broken build: it panics.
func schemaFile(name string) []byte {
	gz, err := schemaFS.ReadFile("schema/" + name)
	if err == nil {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(gz)); err == nil {
			var b []byte
			if b, err = io.ReadAll(zr); err == nil {
				return b
			}
		}
	}
	panic("fakeapi: embedded schema file " + name + ": " + err.Error())
}

// Package schema is the real schema of the built-in kinds, checked in as
// data, and read here once for the two sides of the wire: fakeapi (the
// server) and internal/protobuf (the client). Each has its own codec; this
// package gives them the facts, so no field number is typed twice.
//
// The folder holds, gzipped, what the Kubernetes modules and a real server
// say about the kinds fakeapi serves: the generated.proto files of
// k8s.io/api and k8s.io/apimachinery v0.37.2 (the protobuf wire form), each
// protobuf field's JSON name, omission rule and place among the Go fields
// (gofields.txt, read from their Go types by gofields.go), and the OpenAPI
// documents a real kube-apiserver v1.37.2 serves. They are Apache-2.0, from
// the Kubernetes project (NOTICE.md); refresh.sh fetches them again.
// Nothing here is retyped by hand.
//
// client-go counterpart: the generated.proto files and the json tags of the
// Go types of k8s.io/api and k8s.io/apimachinery (client-go compiles them
// in as generated.pb.go; here they stay data).
// Tutorial: none.
package schema

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"sync"
)

//go:embed *.gz
var files embed.FS

// File returns the unzipped content of name, a file of this folder such as
// "openapi-v2.json.gz". The files are part of the binary, so a failure is
// a broken build: it panics.
func File(name string) []byte {
	gz, err := files.ReadFile(name)
	if err == nil {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(gz)); err == nil {
			var b []byte
			if b, err = io.ReadAll(zr); err == nil {
				return b
			}
		}
	}
	panic("schema: embedded file " + name + ": " + err.Error())
}

// Field is one field of a message: its wire form (from the .proto) and its
// JSON form (from the Go types, gofields.txt).
type Field struct {
	Number   int    // the field number on the wire
	Name     string // the .proto name
	Type     string // a scalar ("string", "int32", ...), a message's full name, or "map"
	Repeated bool   // a repeated field (a Go slice)
	MapValue string // for a map<string, V>: V (Type is then "map")

	// JSON is the member name encoding/json writes; "" for an embedded
	// message whose fields JSON puts in the outer object (Inline).
	JSON string
	// The Go facts: omitempty or omitzero in the json tag; a pointer, a
	// slice, a map, a non-pointer struct; an embedded (inlined) message.
	OmitEmpty, OmitZero, Ptr, Slice, Map, Struct, Inline bool
	// GoType is the field's Go type as Go's errors spell it ("[]v1.Container").
	GoType string
}

// Message is one message: its full name and its fields.
type Message struct {
	Name   string         // "k8s.io.api.core.v1.Pod"
	Fields map[int]*Field // by field number
	Order  []*Field       // in the order of the .proto
	// GoOrder is the order of the Go struct's fields, which is the order in
	// which encoding/json writes the members (fields no Go line names come last).
	GoOrder []*Field
	// OwnJSON is true for the types whose Go form writes JSON of its own
	// (Time, Quantity...: OwnJSON below); their fields keep their .proto names.
	OwnJSON bool
}

// The messages whose Go types write JSON of their own, not one member per
// field; each codec gives them their JSON form.
const (
	MetaPackage  = "k8s.io.apimachinery.pkg.apis.meta.v1."
	Time         = MetaPackage + "Time"      // RFC 3339, whole seconds, UTC; zero: null
	MicroTime    = MetaPackage + "MicroTime" // RFC 3339 with microseconds
	Duration     = MetaPackage + "Duration"  // time.Duration's String, "1m0s"
	FieldsV1     = MetaPackage + "FieldsV1"  // its raw bytes are JSON
	Quantity     = "k8s.io.apimachinery.pkg.api.resource.Quantity"
	IntOrString  = "k8s.io.apimachinery.pkg.util.intstr.IntOrString"
	RawExtension = "k8s.io.apimachinery.pkg.runtime.RawExtension" // its raw bytes are JSON
)

// OwnJSON lists the messages above.
var OwnJSON = map[string]bool{Time: true, MicroTime: true, Duration: true, FieldsV1: true,
	Quantity: true, IntOrString: true, RawExtension: true}

// protoFiles are the .proto files read, every package the served kinds use.
var protoFiles = []string{"core-v1", "apps-v1", "meta-v1", "runtime", "runtime-schema", "resource", "intstr"}

// Messages returns every message of the checked-in .proto files, by full
// name, with the Go facts applied. It is read once; callers must not
// change what it returns.
var Messages = sync.OnceValue(func() map[string]*Message {
	msgs := map[string]*Message{}
	for _, f := range protoFiles {
		if err := parseProto(string(File(f+".proto.gz")), msgs); err != nil {
			panic("schema: " + f + ".proto.gz: " + err.Error())
		}
	}
	if err := applyGoFields(string(File("gofields.txt.gz")), msgs); err != nil {
		panic("schema: gofields.txt.gz: " + err.Error())
	}
	return msgs
})

// MessageOf is the .proto name of a kind's message, such as
// "k8s.io.api.core.v1.Pod" for ("", "v1", "Pod") or
// "k8s.io.api.apps.v1.Deployment" for ("apps", "v1", "Deployment").
func MessageOf(group, version, kind string) string {
	if group == "" {
		group = "core"
	}
	return "k8s.io.api." + group + "." + version + "." + kind
}

// compat_protoschema.go (compatibility layer): the protobuf messages of the
// served kinds, as the schema package reads them from the real
// generated.proto files and the Go types' JSON facts (fakeapi/schema).
// What a .proto cannot say, the Go types can: a field's JSON name (an
// embedded struct's fields are inlined) and whether encoding/json leaves
// out its zero value; schema/gofields.txt carries those facts.
// client-go counterpart: the generated.proto and generated.pb.go files of
// k8s.io/api and k8s.io/apimachinery (gogo-protobuf), and the json tags of
// their Go types. Tutorial: none.

package fakeapi

import (
	"strings"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// protoField and protoMessage are the schema's fields and messages.
type (
	protoField   = schema.Field
	protoMessage = schema.Message
)

// protoSchema is every message of the checked-in .proto files, by full name.
var protoSchema = schema.Messages

// goField is the field with JSON name key of the Go type behind the
// OpenAPI schema named schemaName ("io.k8s.api.core.v1.PodSpec"), looked
// up in its message and the messages it embeds; nil when unknown.
func goField(schemaName, key string) *protoField {
	m := protoSchema()["k8s.io."+strings.TrimPrefix(schemaName, "io.k8s.")]
	return goFieldIn(m, key, 0)
}

func goFieldIn(m *protoMessage, key string, depth int) *protoField {
	if m == nil || depth > 4 {
		return nil
	}
	for _, f := range m.Order {
		if f.JSON == key {
			return f
		}
		if f.Inline {
			if g := goFieldIn(protoSchema()[f.Type], key, depth+1); g != nil {
				return g
			}
		}
	}
	return nil
}

// goFieldType is the Go type of field key of schemaName, as Go's errors
// spell it ("[]v1.Container"); "" when unknown.
func goFieldType(schemaName, key string) string {
	if f := goField(schemaName, key); f != nil {
		return f.GoType
	}
	return ""
}

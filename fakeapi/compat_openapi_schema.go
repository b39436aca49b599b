// compat_openapi_schema.go (compatibility layer): looking up a kind's schema
// in the real OpenAPI v3 documents: the schema of a field, following $ref and
// allOf, for the strategic merge patch (compat_smp.go) and field validation.
// client-go counterparts: k8s.io/kube-openapi's spec3 and the patch-meta
// lookup of k8s.io/apimachinery/pkg/util/strategicpatch
// (PatchMetaFromOpenAPIV3). Tutorial: none.

package fakeapi

import (
	"strings"
	"sync"
)

// openAPISchemas are the component schemas of every served group-version's
// v3 document, by name ("io.k8s.api.core.v1.Pod").
var openAPISchemas = sync.OnceValue(func() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, key := range openAPIKeys() {
		comps, _ := openAPIV3Doc(key)["components"].(map[string]any)
		schemas, _ := comps["schemas"].(map[string]any)
		for name, s := range schemas {
			if m, ok := s.(map[string]any); ok {
				m["$name"] = name // for the lookups that need it (compat_fieldvalidation.go)
				out[name] = m
			}
		}
	}
	return out
})

// kindSchema is the schema of ri's kind, or nil.
func kindSchema(ri *resourceInfo) map[string]any {
	group := ri.Group
	if group == "" {
		group = "core"
	}
	return openAPISchemas()["io.k8s.api."+group+"."+ri.Version+"."+ri.kind]
}

// resolveSchema follows a schema's $ref, alone or as the one element of
// allOf (the form a v3 document gives a field with a description of its
// own), to the named schema. Other schemas are returned as they are.
func resolveSchema(s map[string]any) map[string]any {
	for i := 0; s != nil && i < 8; i++ {
		ref, _ := s["$ref"].(string)
		if all, ok := s["allOf"].([]any); ok && len(all) == 1 && ref == "" {
			m, _ := all[0].(map[string]any)
			ref, _ = m["$ref"].(string)
		}
		if ref == "" {
			return s
		}
		s = openAPISchemas()[strings.TrimPrefix(ref, "#/components/schemas/")]
	}
	return s
}

// propertySchema is the schema of field k of an object schema, as written
// in the object (extensions included, $ref not followed); for a map, the
// schema of its values. nil when unknown.
func propertySchema(schema map[string]any, k string) map[string]any {
	if schema == nil {
		return nil
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		p, _ := props[k].(map[string]any)
		return p
	}
	p, _ := schema["additionalProperties"].(map[string]any)
	return p
}

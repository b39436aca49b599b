// compat_bodycheck.go (compatibility layer): the checks of a write's body that
// come before anything else, answered 400 BadRequest as the real server
// answers a body it cannot decode into its typed object: the kind and
// apiVersion, the namespace and name against the URL, the JSON types of the
// metadata, and base64 where the kind stores bytes. generateName is turned
// into a name here. client-go counterparts: the apiserver's decoding of a
// request body (k8s.io/apiserver/pkg/endpoints/handlers/create.go, update.go)
// and rest.EnsureObjectNamespaceMatchesRequestNamespace. Tutorial: none.

package fakeapi

import (
	"encoding/base64"
	"fmt"
)

// checkBody validates the kind, apiVersion, namespace and name of a body
// sent to w, filling in what the URL implies, as the real server does.
func (w writeRequest) checkBody(body map[string]any, creating bool) *APIError {
	ri := w.ri
	if e := typesErr(ri, body); e != nil {
		return e
	}
	if k, _ := body["kind"].(string); k != "" && k != ri.kind {
		return errBadRequest(fmt.Sprintf("the kind in the data (%s) does not match the expected kind (%s)", k, ri.kind))
	}
	if v, _ := body["apiVersion"].(string); v != "" && v != ri.apiVersion() {
		return errBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", v, ri.apiVersion()))
	}
	body["kind"], body["apiVersion"] = ri.kind, ri.apiVersion()
	meta := metadata(body)
	ns, _ := meta["namespace"].(string)
	switch {
	case !ri.namespaced:
		delete(meta, "namespace")
	case ns == "":
		meta["namespace"] = w.ns
	case ns != w.ns:
		return errBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	name, _ := meta["name"].(string)
	if !creating && name != w.name { // checked first, as the real update handler does
		return errBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, w.name))
	}
	if gen, _ := meta["generateName"].(string); creating && name == "" && gen != "" {
		name = gen + randomSuffix()
		meta["name"] = name
	}
	return nil
}

// typesErr rejects a body whose kind, apiVersion or metadata fields have
// the wrong JSON type: the real server cannot decode it into its typed
// object and answers 400 BadRequest. A stored object therefore always has
// string names and string-to-string labels and annotations.
func typesErr(ri *resourceInfo, body map[string]any) *APIError {
	bad := func(field, want string) *APIError {
		return errBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: json: cannot unmarshal into Go value of type %s (field %s)",
			ri.kind, ri.Version, ri.kind, want, field))
	}
	for _, f := range []string{"kind", "apiVersion"} {
		if _, ok := body[f].(string); body[f] != nil && !ok {
			return bad(f, "string")
		}
	}
	if body["metadata"] == nil {
		return nil
	}
	meta, ok := body["metadata"].(map[string]any)
	if !ok {
		return bad("metadata", "v1.ObjectMeta")
	}
	for _, f := range []string{"name", "namespace", "generateName", "resourceVersion", "uid"} {
		if _, ok := meta[f].(string); meta[f] != nil && !ok {
			return bad("metadata."+f, "string")
		}
	}
	if e := base64Err(ri, body); e != nil {
		return e
	}
	for _, f := range []string{"labels", "annotations"} {
		if meta[f] == nil {
			continue
		}
		m, ok := meta[f].(map[string]any)
		if !ok {
			return bad("metadata."+f, "map[string]string")
		}
		for _, v := range m {
			if _, ok := v.(string); !ok {
				return bad("metadata."+f, "string")
			}
		}
	}
	return nil
}

// base64Err rejects a secret's data or a config map's binaryData that is
// not base64: the real server cannot decode it into bytes (400).
func base64Err(ri *resourceInfo, body map[string]any) *APIError {
	field := map[Resource]string{Secrets: "data", ConfigMaps: "binaryData"}[ri.Resource]
	data, _ := body[field].(map[string]any)
	for _, k := range sortedKeys(data) {
		v, ok := data[k].(string)
		if !ok && data[k] != nil {
			return errBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: json: cannot unmarshal into Go value of type []uint8", ri.kind, ri.Version, ri.kind))
		}
		if _, err := base64.StdEncoding.DecodeString(v); err != nil {
			return errBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", ri.kind, ri.Version, ri.kind, err))
		}
	}
	return nil
}

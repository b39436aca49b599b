// unstructured.go holds Unstructured, the generic object for any kind the
// package has no Go type for (ConfigMaps, Deployments, custom resources...).
// It keeps every field of the JSON it was decoded from and exposes the
// metadata through the Object methods.
//
// client-go counterpart: k8s.io/apimachinery/pkg/apis/meta/v1/unstructured
// (Unstructured, with its Object map).
//
// Tutorial: 004 §3.2 (the minimal metadata contract) and §3.1 (generics vs.
// one type for all kinds).
//
// Reading 3: the real wire (any kind, as client-go's dynamic client reads it).

package informer

import (
	"bytes"
	"encoding/json"
)

// Unstructured is an object of any kind, held as decoded JSON: maps, slices,
// strings, bools, json.Number and nil. Numbers stay json.Number so they
// round-trip exactly. The zero value is an empty object.
type Unstructured struct {
	// Object is the whole JSON object, e.g. Object["metadata"]["name"].
	Object map[string]any
}

// UnmarshalJSON decodes a JSON object, keeping every field.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return err
	}
	u.Object = m
	return nil
}

// MarshalJSON encodes the object with every field it was given.
func (u *Unstructured) MarshalJSON() ([]byte, error) {
	if u.Object == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(u.Object)
}

// GetKind returns the "kind" field.
func (u *Unstructured) GetKind() string { s, _ := u.Object["kind"].(string); return s }

// GetAPIVersion returns the "apiVersion" field.
func (u *Unstructured) GetAPIVersion() string { s, _ := u.Object["apiVersion"].(string); return s }

// metadata returns the "metadata" map, creating it when create is true.
func (u *Unstructured) metadata(create bool) map[string]any {
	m, _ := u.Object["metadata"].(map[string]any)
	if m == nil && create {
		if u.Object == nil {
			u.Object = map[string]any{}
		}
		m = map[string]any{}
		u.Object["metadata"] = m
	}
	return m
}

func (u *Unstructured) metaString(field string) string {
	s, _ := u.metadata(false)[field].(string)
	return s
}

func (u *Unstructured) metaStringMap(field string) map[string]string {
	raw, _ := u.metadata(false)[field].(map[string]any)
	if raw == nil {
		return nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// GetNamespace returns metadata.namespace.
func (u *Unstructured) GetNamespace() string { return u.metaString("namespace") }

// GetName returns metadata.name.
func (u *Unstructured) GetName() string { return u.metaString("name") }

// GetUID returns metadata.uid.
func (u *Unstructured) GetUID() string { return u.metaString("uid") }

// GetResourceVersion returns metadata.resourceVersion.
func (u *Unstructured) GetResourceVersion() string { return u.metaString("resourceVersion") }

// SetResourceVersion sets metadata.resourceVersion.
func (u *Unstructured) SetResourceVersion(version string) {
	u.metadata(true)["resourceVersion"] = version
}

// GetLabels returns a copy of metadata.labels (nil when there are none).
func (u *Unstructured) GetLabels() map[string]string { return u.metaStringMap("labels") }

// GetAnnotations returns a copy of metadata.annotations (nil when there are none).
func (u *Unstructured) GetAnnotations() map[string]string { return u.metaStringMap("annotations") }

// DeepCopy returns a copy of u that shares no memory with it.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	out := &Unstructured{}
	if u.Object != nil {
		out.Object = deepCopyJSON(u.Object).(map[string]any)
	}
	return out
}

// DeepCopyObject implements Object.
func (u *Unstructured) DeepCopyObject() Object { return u.DeepCopy() }

// deepCopyJSON copies a decoded JSON value. Strings, numbers, bools and nil
// are immutable and are returned as they are.
func deepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, val := range v {
			out[k] = deepCopyJSON(val)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, val := range v {
			out[i] = deepCopyJSON(val)
		}
		return out
	default:
		return v
	}
}

// setTypeIfUnset gives u a kind and apiVersion when it has none, as the
// items of a list arrive (restclient.go's list: client-go does the same,
// TestRESTClientGroupResourceIsUnstructured).
func (u *Unstructured) setTypeIfUnset(kind, apiVersion string) {
	if u.Object != nil && u.GetKind() == "" {
		u.Object["kind"] = kind
		u.Object["apiVersion"] = apiVersion
	}
}

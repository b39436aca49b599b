// meta.go holds object metadata, the Object contract and the key functions of a cache.
// client-go counterparts: apimachinery meta/v1; tools/cache's key functions.
// Tutorial: 004 §3.2 (ObjectMeta / TypeMeta), 000 §1, §2.1–2.3 (keys, deep copies).

package informer

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TypeMeta says what kind a JSON document is (often empty inside a typed list).
type TypeMeta struct {
	Kind       string `json:"kind,omitzero"`       // such as "Pod"
	APIVersion string `json:"apiVersion,omitzero"` // such as "v1" or "apps/v1"
}

// ObjectMeta is the metadata every object has, with Kubernetes' JSON names.
type ObjectMeta struct {
	Name                       string            `json:"name,omitzero"`            // unique in its namespace
	GenerateName               string            `json:"generateName,omitzero"`    // prefix of a name the server makes up
	Namespace                  string            `json:"namespace,omitzero"`       // "" for cluster-scoped kinds
	UID                        string            `json:"uid,omitzero"`             // tells apart objects that had the same name
	ResourceVersion            string            `json:"resourceVersion,omitzero"` // opaque: compare for equality only
	Generation                 int64             `json:"generation,omitzero"`      // counts changes to the spec
	CreationTimestamp          time.Time         `json:"creationTimestamp,omitzero"`
	DeletionTimestamp          *time.Time        `json:"deletionTimestamp,omitzero"` // set when a graceful delete begins
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitzero"`
	Labels                     map[string]string `json:"labels,omitzero"`      // what selectors and indexes read
	Annotations                map[string]string `json:"annotations,omitzero"` // for tools; selectors ignore them
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitzero"`
	Finalizers                 []string          `json:"finalizers,omitzero"` // all removed before the delete ends
	unknownFields                                // every other member (managedFields, ...), raw
}

// OwnerReference names an object that owns another, in the same namespace.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion,omitzero"` // the owner's type, e.g. "apps/v1"
	Kind               string `json:"kind,omitzero"`       // and "ReplicaSet"
	Name               string `json:"name,omitzero"`
	UID                string `json:"uid,omitzero"`
	Controller         *bool  `json:"controller,omitzero"`         // true for the one managing owner
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitzero"` // a foreground delete of the owner waits
	unknownFields
}

// Object is what every cached object satisfies: a cut-down metav1.Object + runtime.Object.
type Object interface {
	GetNamespace() string // "" if cluster-scoped
	GetName() string
	GetUID() string
	GetResourceVersion() string
	SetResourceVersion(version string)
	GetLabels() map[string]string
	GetAnnotations() map[string]string
	DeepCopyObject() Object // a copy that shares no changeable memory
}

// These methods give a struct embedding ObjectMeta all of Object but DeepCopyObject.
func (m *ObjectMeta) GetNamespace() string              { return m.Namespace }
func (m *ObjectMeta) GetName() string                   { return m.Name }
func (m *ObjectMeta) GetUID() string                    { return m.UID }
func (m *ObjectMeta) GetResourceVersion() string        { return m.ResourceVersion }
func (m *ObjectMeta) SetResourceVersion(version string) { m.ResourceVersion = version }
func (m *ObjectMeta) GetLabels() map[string]string      { return m.Labels }
func (m *ObjectMeta) GetAnnotations() map[string]string { return m.Annotations }

// DeepCopyInto copies m into out, sharing only the raw unknown members.
func (m *ObjectMeta) DeepCopyInto(out *ObjectMeta) {
	*out = *m
	out.DeletionTimestamp = clonePointer(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = clonePointer(m.DeletionGracePeriodSeconds)
	out.Labels, out.Annotations = maps.Clone(m.Labels), maps.Clone(m.Annotations)
	out.Finalizers = slices.Clone(m.Finalizers)
	out.OwnerReferences = slices.Clone(m.OwnerReferences)
	for i := range out.OwnerReferences {
		m.OwnerReferences[i].DeepCopyInto(&out.OwnerReferences[i])
	}
}

// DeepCopyInto copies r into out.
func (r *OwnerReference) DeepCopyInto(out *OwnerReference) {
	*out = *r
	out.Controller = clonePointer(r.Controller)
	out.BlockOwnerDeletion = clonePointer(r.BlockOwnerDeletion)
}

// unknownFields holds the JSON members a typed struct does not model, raw (lossless.go).
type unknownFields []byte

type (
	// KeyFunc names an object in a cache.
	KeyFunc func(obj any) (string, error)
	// ExplicitKey is a key given instead of an object; key functions return it.
	ExplicitKey string
	// namespacedName is what MetaNamespaceKeyFunc needs of an object.
	namespacedName interface {
		GetNamespace() string
		GetName() string
	}
)

var errNoMeta = errors.New("object has no metadata (it does not implement GetNamespace and GetName)")

// MetaNamespaceKeyFunc is the default KeyFunc: "namespace/name", or "name" if
// cluster-scoped. An ExplicitKey is returned as it is.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	o, ok := obj.(namespacedName)
	if !ok || isNilPointer(obj) {
		return "", errNoMeta
	}
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName(), nil
	}
	return o.GetName(), nil
}

// isNilPointer reports whether obj is a typed nil pointer (methods would panic).
func isNilPointer(obj any) bool {
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// SplitMetaNamespaceKey splits a MetaNamespaceKeyFunc key; more than one "/" is an error.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	switch parts := strings.Split(key, "/"); len(parts) {
	case 1:
		return "", key, nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", errors.New("unexpected key format: " + strconv.Quote(key))
}

// DeletionHandlingMetaNamespaceKeyFunc also takes a tombstone, whose key is its Key.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SliceToMapByKey maps each element's key to it, the later winning (tutorial 000 §2.1).
func SliceToMapByKey[T any, K comparable](slice []T, keyFunc func(T) K) map[K]T {
	m := make(map[K]T, len(slice))
	for _, item := range slice {
		m[keyFunc(item)] = item
	}
	return m
}

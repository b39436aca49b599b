// meta.go holds what every object has: TypeMeta (its kind) and ObjectMeta
// (its name, namespace, resource version, labels...), the Object contract
// the whole pipeline relies on, and the key functions that name an object
// in a cache ("namespace/name").
//
// client-go counterparts: apimachinery pkg/apis/meta/v1 (TypeMeta,
// ObjectMeta, OwnerReference), meta.Accessor and runtime.Object (the Object
// contract); tools/cache store.go and object-names.go (KeyFunc,
// MetaNamespaceKeyFunc, SplitMetaNamespaceKey, ExplicitKey) and
// DeletionHandlingMetaNamespaceKeyFunc (controller.go).
//
// Tutorial: 004 §3.2 (the ObjectMeta / TypeMeta minimal contract); 000 §1
// (the key function of a cache), §2.1 (slice → map by key), §2.2
// ("namespace/name" keys), §2.3 (deep copies).

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

// TypeMeta says what kind of object a JSON document is: its Kind ("Pod")
// and APIVersion, the group and version ("v1", "apps/v1"). The items of a
// list carry none, and typed objects drop it (see withoutTypeMeta), so
// code must not rely on it: the Go type says the kind.
type TypeMeta struct {
	Kind       string `json:"kind,omitzero"`
	APIVersion string `json:"apiVersion,omitzero"`
}

// ObjectMeta is the metadata every object has, with Kubernetes' JSON names.
// The informer reads only a few fields: the namespace and name (the key),
// the resource version (where a watch resumes), and labels (selectors and
// indexes); the rest is there for handlers.
type ObjectMeta struct {
	// Name is unique among the objects of its kind in its namespace.
	Name string `json:"name,omitzero"`
	// GenerateName asks the server to make a name up with this prefix.
	GenerateName string `json:"generateName,omitzero"`
	// Namespace is "" for a cluster-scoped kind.
	Namespace string `json:"namespace,omitzero"`
	// UID tells apart two objects that had the same name at different times.
	UID string `json:"uid,omitzero"`
	// ResourceVersion changes with every write of the object. It is opaque:
	// compare two for equality only, never order them.
	ResourceVersion string `json:"resourceVersion,omitzero"`
	// Generation counts the changes to the object's spec.
	Generation int64 `json:"generation,omitzero"`
	// CreationTimestamp is set by the server; a client's value is ignored.
	CreationTimestamp time.Time `json:"creationTimestamp,omitzero"`
	// DeletionTimestamp is set when a graceful delete begins: the object
	// is still there (an update, not a delete event) until it ends.
	DeletionTimestamp          *time.Time `json:"deletionTimestamp,omitzero"`
	DeletionGracePeriodSeconds *int64     `json:"deletionGracePeriodSeconds,omitzero"`
	// Labels are what selectors and indexes read.
	Labels map[string]string `json:"labels,omitzero"`
	// Annotations are for tools; selectors ignore them.
	Annotations map[string]string `json:"annotations,omitzero"`
	// OwnerReferences are what the garbage collector follows: when every
	// owner is gone, the object is deleted too.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitzero"`
	// Finalizers must all be removed before a delete completes.
	Finalizers []string `json:"finalizers,omitzero"`
	// unknownFields keeps every other member (managedFields...), raw.
	unknownFields
}

// OwnerReference names an object that owns another, in the same namespace
// (or a cluster-scoped one), by APIVersion, Kind ("apps/v1" "ReplicaSet"),
// Name and UID: a new owner with the same name is not it.
type OwnerReference struct {
	APIVersion string `json:"apiVersion,omitzero"`
	Kind       string `json:"kind,omitzero"`
	Name       string `json:"name,omitzero"`
	UID        string `json:"uid,omitzero"`
	// Controller is true for the one owner that manages the object.
	Controller *bool `json:"controller,omitzero"`
	// BlockOwnerDeletion makes a foreground delete of the owner wait for
	// this object to go.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitzero"`
	unknownFields
}

// Object is what every object the informer handles satisfies: a cut-down
// metav1.Object (the metadata getters) and runtime.Object (DeepCopyObject).
// A struct that embeds ObjectMeta has all of it but DeepCopyObject.
type Object interface {
	// GetNamespace returns the namespace; "" for a cluster-scoped object.
	GetNamespace() string
	// GetName returns the name, unique in its namespace.
	GetName() string
	// GetUID returns the UID, which tells apart two objects that had the
	// same name at different times.
	GetUID() string
	// GetResourceVersion returns the resource version: an opaque string,
	// to compare for equality only.
	GetResourceVersion() string
	SetResourceVersion(version string)
	// GetLabels returns the labels; the map is the object's own.
	GetLabels() map[string]string
	// GetAnnotations returns the annotations; the map is the object's own.
	GetAnnotations() map[string]string
	// DeepCopyObject returns a copy that shares no changeable memory.
	DeepCopyObject() Object
}

// GetNamespace implements Object.
func (m *ObjectMeta) GetNamespace() string { return m.Namespace }

// GetName implements Object.
func (m *ObjectMeta) GetName() string { return m.Name }

// GetUID implements Object.
func (m *ObjectMeta) GetUID() string { return m.UID }

// GetResourceVersion implements Object.
func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }

// SetResourceVersion implements Object.
func (m *ObjectMeta) SetResourceVersion(version string) { m.ResourceVersion = version }

// GetLabels implements Object.
func (m *ObjectMeta) GetLabels() map[string]string { return m.Labels }

// GetAnnotations implements Object.
func (m *ObjectMeta) GetAnnotations() map[string]string { return m.Annotations }

// DeepCopyInto copies m into out, sharing only the raw unknown members.
func (m *ObjectMeta) DeepCopyInto(out *ObjectMeta) {
	*out = *m
	out.DeletionTimestamp = clonePointer(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = clonePointer(m.DeletionGracePeriodSeconds)
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.Finalizers = slices.Clone(m.Finalizers)
	out.OwnerReferences = slices.Clone(m.OwnerReferences)
	for i := range out.OwnerReferences {
		m.OwnerReferences[i].DeepCopyInto(&out.OwnerReferences[i])
	}
}

// DeepCopyInto copies r into out; they share no pointer.
func (r *OwnerReference) DeepCopyInto(out *OwnerReference) {
	*out = *r
	out.Controller = clonePointer(r.Controller)
	out.BlockOwnerDeletion = clonePointer(r.BlockOwnerDeletion)
}

// unknownFields holds, raw, the JSON members a typed struct does not model,
// so that an object read and written back loses nothing. Plain
// encoding/json, the first reading's decoder, leaves it empty; the third
// reading's decoder fills it and its encoder writes it back.
type unknownFields []byte

// KeyFunc names an object in a cache: the key under which it is stored.
type KeyFunc func(obj any) (string, error)

// ExplicitKey is a key given instead of an object: key functions return it
// as it is.
type ExplicitKey string

// namespacedName is what MetaNamespaceKeyFunc needs of an object.
type namespacedName interface {
	GetNamespace() string
	GetName() string
}

var errNoMeta = errors.New("object has no metadata " +
	"(it does not implement GetNamespace and GetName)")

// MetaNamespaceKeyFunc is the default KeyFunc: "namespace/name", or "name"
// for a cluster-scoped object. An ExplicitKey is returned as it is. (The
// tutorial's 000 §2.2 times Sprintf against concatenation: concatenation,
// as here and in client-go, is the quicker.)
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

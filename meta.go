// meta.go holds what every stage of the pipeline agrees on: object
// metadata (TypeMeta, ObjectMeta), the Object contract that every cached object
// satisfies, and the key functions that name an object in the cache. The
// sample Pod kind is in pod.go.
//
// client-go counterparts: k8s.io/apimachinery/pkg/apis/meta/v1 (TypeMeta,
// ObjectMeta, OwnerReference), and the key functions of
// k8s.io/client-go/tools/cache (MetaNamespaceKeyFunc, SplitMetaNamespaceKey,
// DeletionHandlingMetaNamespaceKeyFunc, ExplicitKey).
//
// Tutorial: 004 §3.2 (the minimal ObjectMeta / TypeMeta contract), 000 §1 and
// §2.1–2.3 (keys, slice → map by key, shared pointers and deep copies).

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

// TypeMeta says what kind of object a JSON document is. Objects inside a
// typed list usually leave it empty; objects in watch events carry it.
type TypeMeta struct {
	// Kind is the object's type, such as "Pod".
	Kind string `json:"kind,omitzero"`
	// APIVersion is the group and version, such as "v1" or "apps/v1".
	APIVersion string `json:"apiVersion,omitzero"`
}

// ObjectMeta is the metadata every Kubernetes object has. It models the
// fields an informer and a controller read; every other member the server
// sends (managedFields, ...) is kept raw and sent back unchanged (see
// lossless.go). The JSON names are Kubernetes' own.
type ObjectMeta struct {
	// Name is unique within a namespace (or the cluster, for cluster-scoped kinds).
	Name string `json:"name,omitzero"`
	// GenerateName, when Name is empty on create, is the prefix of the name
	// the server makes up.
	GenerateName string `json:"generateName,omitzero"`
	// Namespace is empty for cluster-scoped kinds such as Namespace or Node.
	Namespace string `json:"namespace,omitzero"`
	// UID tells apart two objects that had the same name at different times.
	UID string `json:"uid,omitzero"`
	// ResourceVersion changes on every write. It is opaque: compare it for
	// equality only, never as a number.
	ResourceVersion string `json:"resourceVersion,omitzero"`
	// Generation counts changes to the desired state (the spec).
	Generation int64 `json:"generation,omitzero"`
	// CreationTimestamp is set by the server when the object is created.
	CreationTimestamp time.Time `json:"creationTimestamp,omitzero"`
	// DeletionTimestamp is set by the server when a graceful delete begins.
	DeletionTimestamp *time.Time `json:"deletionTimestamp,omitzero"`
	// DeletionGracePeriodSeconds is the grace period of a delete in progress.
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitzero"`
	// Labels are the key/value pairs that label selectors and indexes use.
	Labels map[string]string `json:"labels,omitzero"`
	// Annotations are key/value pairs for tools; selectors ignore them.
	Annotations map[string]string `json:"annotations,omitzero"`
	// OwnerReferences name the objects this one depends on; the garbage
	// collector deletes it when they are gone.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitzero"`
	// Finalizers must all be removed before the server deletes the object.
	Finalizers []string `json:"finalizers,omitzero"`

	unknownFields // every other member (managedFields, ...), raw
}

// OwnerReference names an object that owns another.
type OwnerReference struct {
	// APIVersion and Kind are the owner's type, e.g. "apps/v1" and "ReplicaSet".
	APIVersion string `json:"apiVersion,omitzero"`
	// Kind is the owner's kind.
	Kind string `json:"kind,omitzero"`
	// Name is the owner's name, in the same namespace.
	Name string `json:"name,omitzero"`
	// UID is the owner's uid.
	UID string `json:"uid,omitzero"`
	// Controller is true for the one owner that manages the object.
	Controller *bool `json:"controller,omitzero"`
	// BlockOwnerDeletion makes a foreground delete of the owner wait for this object.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// Object is the small contract every cached object satisfies: its metadata
// can be read, its resource version set, and it can be deep-copied. It is a
// cut-down blend of client-go's metav1.Object and runtime.Object.
//
// A struct that embeds ObjectMeta gets every method but DeepCopyObject.
type Object interface {
	// GetNamespace returns metadata.namespace ("" if cluster-scoped).
	GetNamespace() string
	// GetName returns metadata.name.
	GetName() string
	// GetUID returns metadata.uid.
	GetUID() string
	// GetResourceVersion returns metadata.resourceVersion (opaque).
	GetResourceVersion() string
	// SetResourceVersion sets metadata.resourceVersion.
	SetResourceVersion(version string)
	// GetLabels returns metadata.labels.
	GetLabels() map[string]string
	// GetAnnotations returns metadata.annotations.
	GetAnnotations() map[string]string
	// DeepCopyObject returns a copy that shares no memory with the original.
	DeepCopyObject() Object
}

// GetNamespace returns the object's namespace ("" if cluster-scoped).
func (m *ObjectMeta) GetNamespace() string { return m.Namespace }

// GetName returns the object's name.
func (m *ObjectMeta) GetName() string { return m.Name }

// GetUID returns the object's unique id.
func (m *ObjectMeta) GetUID() string { return m.UID }

// GetResourceVersion returns the object's opaque resource version.
func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }

// SetResourceVersion sets the object's resource version.
func (m *ObjectMeta) SetResourceVersion(version string) { m.ResourceVersion = version }

// GetLabels returns the object's labels (nil when it has none).
func (m *ObjectMeta) GetLabels() map[string]string { return m.Labels }

// GetAnnotations returns the object's annotations (nil when it has none).
func (m *ObjectMeta) GetAnnotations() map[string]string { return m.Annotations }

// DeepCopyInto copies m into out; the maps, slices and pointers are copied,
// not shared (the raw unknown members are immutable and shared).
func (m *ObjectMeta) DeepCopyInto(out *ObjectMeta) {
	*out = *m
	out.DeletionTimestamp = clonePointer(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = clonePointer(m.DeletionGracePeriodSeconds)
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.OwnerReferences = cloneEach(m.OwnerReferences, (*OwnerReference).DeepCopyInto)
	out.Finalizers = slices.Clone(m.Finalizers)
}

// DeepCopyInto copies r into out.
func (r *OwnerReference) DeepCopyInto(out *OwnerReference) {
	*out = *r
	out.Controller = clonePointer(r.Controller)
	out.BlockOwnerDeletion = clonePointer(r.BlockOwnerDeletion)
}

// clonePointer returns a pointer to a copy of *p (nil for nil).
func clonePointer[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneEach copies a slice (nil stays nil, empty stays empty) and deep-copies
// each element into the copy.
func cloneEach[T any](in []T, deepCopyInto func(in, out *T)) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		deepCopyInto(&in[i], &out[i])
	}
	return out
}

// unknownFields is embedded in every typed struct: it holds the JSON
// members the struct does not model, raw, so that an object read and written
// back is the object the server sent. Plain encoding/json leaves it empty;
// lossless.go and lossless_types.go (the third reading) fill it and write it.
type unknownFields []byte

// KeyFunc names an object in a cache. Keys are strings so that any object
// can be stored in a map.
type KeyFunc func(obj any) (string, error)

// ExplicitKey is a key given directly instead of an object; the key
// functions pass it through unchanged.
type ExplicitKey string

// errNoMeta is returned for an object that has no namespace and name.
var errNoMeta = errors.New("object has no metadata (it does not implement GetNamespace and GetName)")

// namespacedName is what MetaNamespaceKeyFunc needs of an object: any Object
// has it, and so does anything else with these two methods.
type namespacedName interface {
	GetNamespace() string
	GetName() string
}

// MetaNamespaceKeyFunc is the default KeyFunc: "namespace/name", or just
// "name" for a cluster-scoped object. An ExplicitKey is returned as it is.
// The key is built by concatenation, not fmt: it is on every hot path.
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

// isNilPointer reports whether obj is a typed nil pointer, such as a nil
// *Pod: calling its methods would panic, and bad input must not.
func isNilPointer(obj any) bool {
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// SplitMetaNamespaceKey splits a key made by MetaNamespaceKeyFunc into its
// namespace ("" for a cluster-scoped key) and name. A key with more than one
// "/" is an error.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	first := strings.IndexByte(key, '/')
	switch {
	case first < 0:
		return "", key, nil
	case strings.IndexByte(key[first+1:], '/') < 0:
		return key[:first], key[first+1:], nil
	}
	return "", "", errors.New("unexpected key format: " + strconv.Quote(key))
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also
// accepts a DeletedFinalStateUnknown tombstone and returns the key it carries.
// Handlers and indexers that may see deletions use it.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SliceToMapByKey turns a slice into a map from each element's key to the
// element (tutorial 000 §2.1). The map is sized up front, so filling it never
// grows it. When two elements share a key, the later one wins.
func SliceToMapByKey[T any, K comparable](slice []T, keyFunc func(T) K) map[K]T {
	m := make(map[K]T, len(slice))
	for _, item := range slice {
		m[keyFunc(item)] = item
	}
	return m
}

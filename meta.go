// meta.go holds what every stage of the pipeline agrees on: object
// metadata (TypeMeta, ObjectMeta), the Object contract that every cached object
// satisfies, the sample Pod kind, and the key functions that name an object in
// the cache.
//
// client-go counterparts: k8s.io/apimachinery/pkg/apis/meta/v1 (TypeMeta,
// ObjectMeta), k8s.io/api/core/v1 (Pod), and the key functions of
// k8s.io/client-go/tools/cache (MetaNamespaceKeyFunc, SplitMetaNamespaceKey,
// DeletionHandlingMetaNamespaceKeyFunc, ExplicitKey).
//
// Tutorial: 004 §3.2 (the minimal ObjectMeta / TypeMeta contract), 000 §1 and
// §2.1–2.3 (keys, slice → map by key, shared pointers and deep copies).

package informer

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// TypeMeta says what kind of object a JSON document is. Objects inside a
// typed list usually leave it empty; objects in watch events carry it.
type TypeMeta struct {
	// Kind is the object's type, such as "Pod".
	Kind string `json:"kind,omitempty"`
	// APIVersion is the group and version, such as "v1" or "apps/v1".
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata every Kubernetes object has, cut down to the
// fields an informer needs. The JSON names are Kubernetes' own, so the
// metadata of a real object decodes into it.
type ObjectMeta struct {
	// Name is unique within a namespace (or the cluster, for cluster-scoped kinds).
	Name string `json:"name,omitempty"`
	// Namespace is empty for cluster-scoped kinds such as Namespace or Node.
	Namespace string `json:"namespace,omitempty"`
	// UID tells apart two objects that had the same name at different times.
	UID string `json:"uid,omitempty"`
	// ResourceVersion changes on every write. It is opaque: compare it for
	// equality only, never as a number.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation counts changes to the desired state (the spec).
	Generation int64 `json:"generation,omitempty"`
	// CreationTimestamp is set by the server when the object is created.
	CreationTimestamp time.Time `json:"creationTimestamp,omitzero"`
	// DeletionTimestamp is set by the server when a graceful delete begins.
	DeletionTimestamp *time.Time `json:"deletionTimestamp,omitempty"`
	// Labels are the key/value pairs that label selectors and indexes use.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are key/value pairs for tools; selectors ignore them.
	Annotations map[string]string `json:"annotations,omitempty"`
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

// DeepCopyInto copies m into out; the maps and pointers are copied, not shared.
func (m *ObjectMeta) DeepCopyInto(out *ObjectMeta) {
	*out = *m
	if m.DeletionTimestamp != nil {
		t := *m.DeletionTimestamp
		out.DeletionTimestamp = &t
	}
	out.Labels = copyStringMap(m.Labels)
	out.Annotations = copyStringMap(m.Annotations)
}

func copyStringMap(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// Pod is the sample kind: a cut-down core/v1 Pod. It keeps the fields the
// tutorial uses (metadata, spec.nodeName, spec.containers[].name/image,
// status.phase); the JSON names are Kubernetes' own.
type Pod struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
	// Spec is the desired state.
	Spec PodSpec `json:"spec,omitzero"`
	// Status is the observed state, written by the kubelet.
	Status PodStatus `json:"status,omitzero"`
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	// NodeName is the node the pod is bound to ("" while unscheduled).
	NodeName string `json:"nodeName,omitempty"`
	// Containers are the pod's containers.
	Containers []Container `json:"containers"`
}

// Container is one container of a Pod.
type Container struct {
	// Name is unique within the pod.
	Name string `json:"name"`
	// Image is the container image, such as "nginx:1.27".
	Image string `json:"image,omitempty"`
}

// PodStatus is the observed state of a Pod.
type PodStatus struct {
	// Phase is Pending, Running, Succeeded, Failed or Unknown.
	Phase string `json:"phase,omitempty"`
}

// DeepCopy returns a copy of p that shares no memory with it. Objects in the
// cache are shared with every reader: copy before you change one.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	out := new(Pod)
	out.TypeMeta = p.TypeMeta
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.NodeName = p.Spec.NodeName
	if p.Spec.Containers != nil {
		out.Spec.Containers = make([]Container, len(p.Spec.Containers))
		copy(out.Spec.Containers, p.Spec.Containers)
	}
	out.Status = p.Status
	return out
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

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

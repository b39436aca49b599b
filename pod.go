// pod.go holds the sample kind, Pod, and the parts of its spec: the fields
// the tutorial and a typical controller read, with Kubernetes' own JSON
// names. A real pod has many more (probes, affinity, security contexts,
// volume sources, ...); those are kept raw at the level they belong to and
// sent back unchanged (lossless.go), so a Get → change → Update never
// erases them. The status is in pod_status.go.
//
// client-go counterpart: k8s.io/api/core/v1 (Pod, PodSpec, Container,
// ContainerPort, EnvVar, ResourceRequirements, VolumeMount, Volume,
// Toleration) and their generated DeepCopy functions.
//
// Tutorial: 004 §3.2 (a typed kind on the minimal metadata contract) and
// 000 §2.3 (shared pointers and deep copies).

package informer

import (
	"maps"
	"slices"
)

// Pod is the sample kind: a core/v1 Pod, with the fields a controller
// usually reads modeled and every other member kept (see lossless.go).
type Pod struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
	// Spec is the desired state.
	Spec PodSpec `json:"spec,omitzero"`
	// Status is the observed state, written by the kubelet.
	Status PodStatus `json:"status,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// PodSpec is the desired state of a Pod. Affinity, DNS and security
// settings, and the rest, are kept raw.
type PodSpec struct {
	// Volumes can be mounted by the containers.
	Volumes []Volume `json:"volumes,omitzero"`
	// InitContainers run one after the other, to completion, before Containers start.
	InitContainers []Container `json:"initContainers,omitzero"`
	// Containers are the pod's containers.
	Containers []Container `json:"containers,omitzero"`
	// RestartPolicy is Always, OnFailure or Never.
	RestartPolicy string `json:"restartPolicy,omitzero"`
	// TerminationGracePeriodSeconds is how long a delete waits for the containers to stop.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitzero"`
	// NodeSelector restricts the nodes the pod may be scheduled on by their labels.
	NodeSelector map[string]string `json:"nodeSelector,omitzero"`
	// ServiceAccountName is the account the pod's processes run as.
	ServiceAccountName string `json:"serviceAccountName,omitzero"`
	// NodeName is the node the pod is bound to ("" while unscheduled).
	NodeName string `json:"nodeName,omitzero"`
	// Tolerations let the pod be scheduled on nodes with matching taints.
	Tolerations []Toleration `json:"tolerations,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// Container is one container of a Pod. Probes, lifecycle hooks and the
// security context are kept raw.
type Container struct {
	// Name is unique within the pod.
	Name string `json:"name,omitzero"`
	// Image is the container image, such as "nginx:1.27".
	Image string `json:"image,omitzero"`
	// Command replaces the image's entrypoint.
	Command []string `json:"command,omitzero"`
	// Args are the arguments to the entrypoint.
	Args []string `json:"args,omitzero"`
	// Ports are the ports the container listens on (informational).
	Ports []ContainerPort `json:"ports,omitzero"`
	// Env are environment variables set in the container.
	Env []EnvVar `json:"env,omitzero"`
	// Resources are the compute resources requested and allowed.
	Resources ResourceRequirements `json:"resources,omitzero"`
	// VolumeMounts mount the pod's volumes into the container.
	VolumeMounts []VolumeMount `json:"volumeMounts,omitzero"`
	// ImagePullPolicy is Always, Never or IfNotPresent.
	ImagePullPolicy string `json:"imagePullPolicy,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// ContainerPort is one port a container listens on.
type ContainerPort struct {
	// Name, if set, lets a Service refer to the port by name.
	Name string `json:"name,omitzero"`
	// ContainerPort is the port number.
	ContainerPort int32 `json:"containerPort,omitzero"`
	// Protocol is TCP, UDP or SCTP.
	Protocol string `json:"protocol,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// EnvVar is one environment variable. A value taken from elsewhere
// (valueFrom) is kept raw.
type EnvVar struct {
	// Name is the variable's name.
	Name string `json:"name,omitzero"`
	// Value is the variable's value.
	Value string `json:"value,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// ResourceRequirements are the compute resources of a container, such as
// {"cpu": "100m", "memory": "64Mi"}.
type ResourceRequirements struct {
	// Limits are the most the container may use.
	Limits map[string]string `json:"limits,omitzero"`
	// Requests are what the scheduler reserves for the container.
	Requests map[string]string `json:"requests,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// VolumeMount mounts one of the pod's volumes into a container.
type VolumeMount struct {
	// Name is the volume's name.
	Name string `json:"name,omitzero"`
	// MountPath is where the volume appears in the container.
	MountPath string `json:"mountPath,omitzero"`
	// ReadOnly mounts the volume read-only.
	ReadOnly bool `json:"readOnly,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// Volume is a volume of a Pod. Its source (emptyDir, configMap, secret,
// persistentVolumeClaim, ...) is kept raw.
type Volume struct {
	// Name is what the containers' volumeMounts refer to.
	Name string `json:"name,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// Toleration lets a pod be scheduled on a node with a matching taint.
type Toleration struct {
	// Key is the taint key; empty with Operator Exists matches every taint.
	Key string `json:"key,omitzero"`
	// Operator is Exists or Equal.
	Operator string `json:"operator,omitzero"`
	// Value is the taint value compared with Equal.
	Value string `json:"value,omitzero"`
	// Effect is NoSchedule, PreferNoSchedule or NoExecute ("" matches all).
	Effect string `json:"effect,omitzero"`
	// TolerationSeconds is how long a NoExecute taint is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// The JSON methods of every part of a pod: the same two helpers each time.

// UnmarshalJSON decodes the pod, keeping the members it does not model.
func (p *Pod) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the pod with the members it did not model.
func (p Pod) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

// UnmarshalJSON decodes the spec, keeping the members it does not model.
func (s *PodSpec) UnmarshalJSON(data []byte) error { return decodeKeeping(data, s) }

// MarshalJSON encodes the spec with the members it did not model.
func (s PodSpec) MarshalJSON() ([]byte, error) { return encodeKeeping(&s) }

// UnmarshalJSON decodes the container, keeping the members it does not model.
func (c *Container) UnmarshalJSON(data []byte) error { return decodeKeeping(data, c) }

// MarshalJSON encodes the container with the members it did not model.
func (c Container) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// UnmarshalJSON decodes the port, keeping the members it does not model.
func (p *ContainerPort) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the port with the members it did not model.
func (p ContainerPort) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

// UnmarshalJSON decodes the variable, keeping the members it does not model.
func (e *EnvVar) UnmarshalJSON(data []byte) error { return decodeKeeping(data, e) }

// MarshalJSON encodes the variable with the members it did not model.
func (e EnvVar) MarshalJSON() ([]byte, error) { return encodeKeeping(&e) }

// UnmarshalJSON decodes the resources, keeping the members it does not model.
func (r *ResourceRequirements) UnmarshalJSON(data []byte) error {
	return decodeKeeping(data, r)
}

// MarshalJSON encodes the resources with the members it did not model.
func (r ResourceRequirements) MarshalJSON() ([]byte, error) { return encodeKeeping(&r) }

// UnmarshalJSON decodes the mount, keeping the members it does not model.
func (m *VolumeMount) UnmarshalJSON(data []byte) error { return decodeKeeping(data, m) }

// MarshalJSON encodes the mount with the members it did not model.
func (m VolumeMount) MarshalJSON() ([]byte, error) { return encodeKeeping(&m) }

// UnmarshalJSON decodes the volume, keeping its source raw.
func (v *Volume) UnmarshalJSON(data []byte) error { return decodeKeeping(data, v) }

// MarshalJSON encodes the volume with its source.
func (v Volume) MarshalJSON() ([]byte, error) { return encodeKeeping(&v) }

// UnmarshalJSON decodes the toleration, keeping the members it does not model.
func (t *Toleration) UnmarshalJSON(data []byte) error { return decodeKeeping(data, t) }

// MarshalJSON encodes the toleration with the members it did not model.
func (t Toleration) MarshalJSON() ([]byte, error) { return encodeKeeping(&t) }

// DeepCopy returns a copy of p that shares no memory with it (but the raw
// unknown members, which nothing changes). Objects in the cache are shared
// with every reader: copy before you change one.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	out := new(Pod)
	*out = *p
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	p.Spec.DeepCopyInto(&out.Spec)
	p.Status.DeepCopyInto(&out.Status)
	return out
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

// DeepCopyInto copies s into out.
func (s *PodSpec) DeepCopyInto(out *PodSpec) {
	*out = *s
	out.Volumes = slices.Clone(s.Volumes) // a Volume holds no pointers
	out.InitContainers = cloneEach(s.InitContainers, (*Container).DeepCopyInto)
	out.Containers = cloneEach(s.Containers, (*Container).DeepCopyInto)
	out.TerminationGracePeriodSeconds = clonePointer(s.TerminationGracePeriodSeconds)
	out.NodeSelector = maps.Clone(s.NodeSelector)
	out.Tolerations = cloneEach(s.Tolerations, func(in, out *Toleration) {
		*out = *in
		out.TolerationSeconds = clonePointer(in.TolerationSeconds)
	})
}

// DeepCopyInto copies c into out.
func (c *Container) DeepCopyInto(out *Container) {
	*out = *c
	out.Command = slices.Clone(c.Command)
	out.Args = slices.Clone(c.Args)
	out.Ports = slices.Clone(c.Ports) // ports, env vars and mounts hold no pointers
	out.Env = slices.Clone(c.Env)
	out.Resources.Limits = maps.Clone(c.Resources.Limits)
	out.Resources.Requests = maps.Clone(c.Resources.Requests)
	out.VolumeMounts = slices.Clone(c.VolumeMounts)
}

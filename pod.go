// pod.go holds the sample kind, Pod: the fields the tutorial and a typical
// controller read, with Kubernetes' own JSON names, and DeepCopy. A real pod
// has many more (volumes, probes, affinity, container statuses, ...). With
// plain encoding/json they would be dropped; lossless.go (the third reading)
// keeps them raw at the level they belong to and sends them back unchanged,
// so a Get → change → Update never erases them.
//
// client-go counterpart: k8s.io/api/core/v1 (Pod, PodSpec, Container,
// ContainerPort, ResourceRequirements, PodStatus, PodCondition) and their
// generated DeepCopy functions.
//
// Tutorial: 004 §3.2 (a typed kind on the minimal metadata contract) and
// 000 §2.3 (shared pointers and deep copies).

package informer

import (
	"maps"
	"slices"
	"time"
)

// Pod is the sample kind: a core/v1 Pod.
type Pod struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
	// Spec is the desired state.
	Spec PodSpec `json:"spec,omitzero"`
	// Status is the observed state, written by the kubelet.
	Status PodStatus `json:"status,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	// Containers are the pod's containers.
	Containers []Container `json:"containers,omitzero"`
	// RestartPolicy is Always, OnFailure or Never.
	RestartPolicy string `json:"restartPolicy,omitzero"`
	// TerminationGracePeriodSeconds is how long a delete waits for the containers to stop.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitzero"`
	// NodeName is the node the pod is bound to ("" while unscheduled).
	NodeName string `json:"nodeName,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// Container is one container of a Pod.
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
	// Resources are the compute resources requested and allowed.
	Resources ResourceRequirements `json:"resources,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// ContainerPort is one port a container listens on.
type ContainerPort struct {
	// Name, if set, lets a Service refer to the port by name.
	Name string `json:"name,omitzero"`
	// ContainerPort is the port number.
	ContainerPort int32 `json:"containerPort,omitzero"`
	// Protocol is TCP, UDP or SCTP.
	Protocol string `json:"protocol,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// ResourceRequirements are the compute resources of a container, such as
// {"cpu": "100m", "memory": "64Mi"}.
type ResourceRequirements struct {
	// Limits are the most the container may use.
	Limits map[string]string `json:"limits,omitzero"`
	// Requests are what the scheduler reserves for the container.
	Requests map[string]string `json:"requests,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// PodStatus is the observed state of a Pod.
type PodStatus struct {
	// Phase is Pending, Running, Succeeded, Failed or Unknown.
	Phase string `json:"phase,omitzero"`
	// Conditions say which stages the pod has passed (PodScheduled, Ready, ...).
	Conditions []PodCondition `json:"conditions,omitzero"`
	// PodIP is the pod's own address.
	PodIP string `json:"podIP,omitzero"`
	// StartTime is when the kubelet accepted the pod.
	StartTime *time.Time `json:"startTime,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// PodCondition is one condition of a pod, such as Ready.
type PodCondition struct {
	// Type is PodScheduled, Initialized, ContainersReady, Ready, ...
	Type string `json:"type,omitzero"`
	// Status is "True", "False" or "Unknown".
	Status string `json:"status,omitzero"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	// Reason is a one-word, CamelCase cause of the last transition.
	Reason string `json:"reason,omitzero"`
	// Message is for people.
	Message string `json:"message,omitzero"`

	unknownFields // the members no field above models (meta.go)
}

// DeepCopy returns a copy of p that shares nothing changeable with it (the
// raw members, which nothing changes, are shared). Objects in the cache are
// shared with every reader: copy before you change one.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	out := new(Pod)
	*out = *p
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.TerminationGracePeriodSeconds = clonePointer(p.Spec.TerminationGracePeriodSeconds)
	out.Spec.Containers = cloneEach(p.Spec.Containers, func(in, out *Container) {
		*out = *in
		out.Command = slices.Clone(in.Command)
		out.Args = slices.Clone(in.Args)
		out.Ports = slices.Clone(in.Ports) // a port holds no pointers
		out.Resources.Limits = maps.Clone(in.Resources.Limits)
		out.Resources.Requests = maps.Clone(in.Resources.Requests)
	})
	out.Status.Conditions = slices.Clone(p.Status.Conditions) // nor does a condition
	out.Status.StartTime = clonePointer(p.Status.StartTime)
	return out
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

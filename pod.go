// pod.go holds the sample kind, Pod, with the fields the tutorial and a
// typical controller read, and its DeepCopy.
//
// client-go counterpart: k8s.io/api/core/v1 Pod (types.go) and its
// generated DeepCopy (zz_generated.deepcopy.go).
//
// Tutorial: 004 §3.2 (a kind on the minimal metadata contract); 000 §2.3
// (deep copies: cached objects are shared, copy one before changing it).

package informer

import (
	"maps"
	"slices"
	"time"
)

// Pod is a core/v1 Pod, the tutorial's sample kind, with the fields the
// tutorial and a typical controller read. It is not the whole Pod: what no
// field models goes to each struct's unknownFields.
type Pod struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
	// Spec is the desired state, written by whoever creates the pod.
	Spec PodSpec `json:"spec,omitzero"`
	// Status is the observed state, written by the kubelet.
	Status PodStatus `json:"status,omitzero"`
	unknownFields
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	// Containers are the pod's containers; there is at least one.
	Containers []Container `json:"containers,omitzero"`
	// RestartPolicy is Always, OnFailure or Never.
	RestartPolicy string `json:"restartPolicy,omitzero"`
	// TerminationGracePeriodSeconds is how long a delete waits for the
	// containers to stop.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitzero"`
	// NodeName is the node the pod runs on; "" while unscheduled.
	NodeName string `json:"nodeName,omitzero"`
	unknownFields
}

// Container is one container of a Pod.
type Container struct {
	// Name is unique within the pod.
	Name string `json:"name,omitzero"`
	// Image is the container image, such as "nginx:1.27".
	Image string `json:"image,omitzero"`
	// Command replaces the image's entrypoint.
	Command []string `json:"command,omitzero"`
	// Args are the entrypoint's arguments.
	Args []string `json:"args,omitzero"`
	// Ports are the ports the container listens on (informational).
	Ports []ContainerPort `json:"ports,omitzero"`
	// Resources are the compute resources it asks for.
	Resources ResourceRequirements `json:"resources,omitzero"`
	unknownFields
}

// ContainerPort is one port a container listens on.
type ContainerPort struct {
	// Name lets a Service refer to the port by name.
	Name string `json:"name,omitzero"`
	// ContainerPort is the port number.
	ContainerPort int32 `json:"containerPort,omitzero"`
	// Protocol is TCP, UDP or SCTP.
	Protocol string `json:"protocol,omitzero"`
	unknownFields
}

// ResourceRequirements are a container's compute resources, such as
// {"cpu": "100m"}.
type ResourceRequirements struct {
	// Limits are the most the container may use.
	Limits map[string]string `json:"limits,omitzero"`
	// Requests are what the scheduler reserves for it.
	Requests map[string]string `json:"requests,omitzero"`
	unknownFields
}

// PodStatus is the observed state of a Pod.
type PodStatus struct {
	// Phase is Pending, Running, Succeeded, Failed or Unknown.
	Phase string `json:"phase,omitzero"`
	// Conditions are the pod's conditions, such as Ready.
	Conditions []PodCondition `json:"conditions,omitzero"`
	// PodIP is the pod's IP address, once it has one.
	PodIP string `json:"podIP,omitzero"`
	// StartTime is when the kubelet accepted the pod.
	StartTime *time.Time `json:"startTime,omitzero"`
	unknownFields
}

// PodCondition is one condition of a pod, such as Ready.
type PodCondition struct {
	// Type is PodScheduled, Initialized, ContainersReady, Ready...
	Type string `json:"type,omitzero"`
	// Status is "True", "False" or "Unknown".
	Status string `json:"status,omitzero"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	// Reason is a one-word, CamelCase cause.
	Reason string `json:"reason,omitzero"`
	// Message says it for people.
	Message string `json:"message,omitzero"`
	unknownFields
}

// DeepCopy returns a copy of p that shares nothing changeable with it. Cached
// objects are shared by every reader: copy one before you change it.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	out := *p
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.TerminationGracePeriodSeconds = clonePointer(p.Spec.TerminationGracePeriodSeconds)
	out.Spec.Containers = slices.Clone(p.Spec.Containers)
	for i := range out.Spec.Containers {
		c := &out.Spec.Containers[i]
		c.Command = slices.Clone(c.Command)
		c.Args = slices.Clone(c.Args)
		c.Ports = slices.Clone(c.Ports)
		c.Resources.Limits = maps.Clone(c.Resources.Limits)
		c.Resources.Requests = maps.Clone(c.Resources.Requests)
	}
	out.Status.Conditions = slices.Clone(p.Status.Conditions)
	out.Status.StartTime = clonePointer(p.Status.StartTime)
	return &out
}

// clonePointer returns a pointer to a copy of *p (nil for nil).
func clonePointer[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

// pod.go holds the sample kind, Pod, with the fields the tutorial and a
// typical controller read, and its DeepCopy.
//
// client-go counterpart: k8s.io/api/core/v1 Pod (types.go) and its
// generated DeepCopy (zz_generated.deepcopy.go).
//
// Tutorial: 004 §3.2 (a kind on the minimal metadata contract); 000 §2.3
// (deep copies).

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

// PodSpec is what whoever creates a pod asks for.
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

// Container is one container of a Pod: its Name, unique in the pod, its
// Image ("nginx:1.27"), and what it runs.
type Container struct {
	Name  string `json:"name,omitzero"`
	Image string `json:"image,omitzero"`
	// Command replaces the image's entrypoint; Args, its arguments.
	Command []string `json:"command,omitzero"`
	Args    []string `json:"args,omitzero"`
	// Ports are informational: a port not listed is still reachable.
	Ports     []ContainerPort      `json:"ports,omitzero"`
	Resources ResourceRequirements `json:"resources,omitzero"`
	unknownFields
}

// ContainerPort is a port a container listens on. Its Name lets a Service
// refer to the port by name; Protocol is TCP (the default), UDP or SCTP.
type ContainerPort struct {
	Name          string `json:"name,omitzero"`
	ContainerPort int32  `json:"containerPort,omitzero"`
	Protocol      string `json:"protocol,omitzero"`
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

// PodStatus is what the kubelet observed; it is written through the
// status subresource, so an update of the whole pod leaves it as it was.
type PodStatus struct {
	// Phase is Pending, Running, Succeeded, Failed or Unknown.
	Phase      string         `json:"phase,omitzero"`
	Conditions []PodCondition `json:"conditions,omitzero"`
	// PodIP is "" until the pod has an address.
	PodIP string `json:"podIP,omitzero"`
	// StartTime is when the kubelet accepted the pod.
	StartTime *time.Time `json:"startTime,omitzero"`
	unknownFields
}

// PodCondition is one condition of a pod: Type (PodScheduled, Initialized,
// ContainersReady, Ready...) is Status "True", "False" or "Unknown" since
// LastTransitionTime, with a one-word CamelCase Reason for programs and a
// Message for people.
type PodCondition struct {
	Type               string    `json:"type,omitzero"`
	Status             string    `json:"status,omitzero"`
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	Reason             string    `json:"reason,omitzero"`
	Message            string    `json:"message,omitzero"`
	unknownFields
}

// DeepCopy returns a copy of p that shares nothing changeable with it: what
// a handler changes instead of the cache's own Pod (see Store).
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

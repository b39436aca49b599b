// pod.go holds the sample kind, Pod, with the fields the tutorial and a typical controller read.
// client-go counterpart: k8s.io/api/core/v1 Pod and its generated DeepCopy.
// Tutorial: 004 §3.2 (a kind on the minimal metadata contract), 000 §2.3 (deep copies).

package informer

import (
	"maps"
	"slices"
	"time"
)

// Pod is a core/v1 Pod. Each of its structs keeps the members no field models in unknownFields.
type Pod struct {
	TypeMeta
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PodSpec   `json:"spec,omitzero"`   // the desired state
	Status     PodStatus `json:"status,omitzero"` // the observed state, written by the kubelet
	unknownFields
}

// PodSpec is the desired state of a Pod.
type PodSpec struct {
	Containers                    []Container `json:"containers,omitzero"`
	RestartPolicy                 string      `json:"restartPolicy,omitzero"`                 // Always, OnFailure or Never
	TerminationGracePeriodSeconds *int64      `json:"terminationGracePeriodSeconds,omitzero"` // how long a delete waits
	NodeName                      string      `json:"nodeName,omitzero"`                      // "" while unscheduled
	unknownFields
}

// Container is one container of a Pod.
type Container struct {
	Name      string               `json:"name,omitzero"`    // unique within the pod
	Image     string               `json:"image,omitzero"`   // such as "nginx:1.27"
	Command   []string             `json:"command,omitzero"` // replaces the image's entrypoint
	Args      []string             `json:"args,omitzero"`    // the entrypoint's arguments
	Ports     []ContainerPort      `json:"ports,omitzero"`   // informational
	Resources ResourceRequirements `json:"resources,omitzero"`
	unknownFields
}

// ContainerPort is one port a container listens on.
type ContainerPort struct {
	Name          string `json:"name,omitzero"` // lets a Service refer to the port by name
	ContainerPort int32  `json:"containerPort,omitzero"`
	Protocol      string `json:"protocol,omitzero"` // TCP, UDP or SCTP
	unknownFields
}

// ResourceRequirements are a container's compute resources, such as {"cpu": "100m"}.
type ResourceRequirements struct {
	Limits   map[string]string `json:"limits,omitzero"`   // the most the container may use
	Requests map[string]string `json:"requests,omitzero"` // what the scheduler reserves for it
	unknownFields
}

// PodStatus is the observed state of a Pod.
type PodStatus struct {
	Phase      string         `json:"phase,omitzero"` // Pending, Running, Succeeded, Failed or Unknown
	Conditions []PodCondition `json:"conditions,omitzero"`
	PodIP      string         `json:"podIP,omitzero"`
	StartTime  *time.Time     `json:"startTime,omitzero"` // when the kubelet accepted the pod
	unknownFields
}

// PodCondition is one condition of a pod, such as Ready.
type PodCondition struct {
	Type               string    `json:"type,omitzero"`   // PodScheduled, Initialized, ContainersReady, Ready, ...
	Status             string    `json:"status,omitzero"` // "True", "False" or "Unknown"
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	Reason             string    `json:"reason,omitzero"` // a one-word, CamelCase cause
	Message            string    `json:"message,omitzero"`
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
		c.Command, c.Args = slices.Clone(c.Command), slices.Clone(c.Args)
		c.Ports = slices.Clone(c.Ports)
		c.Resources.Limits, c.Resources.Requests = maps.Clone(c.Resources.Limits), maps.Clone(c.Resources.Requests)
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

// pod_status.go holds PodStatus, the observed state of a Pod, as the
// kubelet (or anyone with access to the /status subresource) writes it:
// the phase, the conditions, the addresses and one status per container.
// Container states (waiting, running, terminated) are kept raw, as every
// member the structs do not model (lossless.go).
//
// client-go counterpart: k8s.io/api/core/v1 (PodStatus, PodCondition,
// ContainerStatus).
//
// Tutorial: 004 §3.2 (a typed kind) and 000 §2.3 (deep copies).

package informer

import (
	"slices"
	"time"
)

// PodStatus is the observed state of a Pod.
type PodStatus struct {
	// Phase is Pending, Running, Succeeded, Failed or Unknown.
	Phase string `json:"phase,omitzero"`
	// Conditions say which stages the pod has passed (PodScheduled, Ready, ...).
	Conditions []PodCondition `json:"conditions,omitzero"`
	// HostIP is the address of the pod's node.
	HostIP string `json:"hostIP,omitzero"`
	// PodIP is the pod's own address.
	PodIP string `json:"podIP,omitzero"`
	// StartTime is when the kubelet accepted the pod.
	StartTime *time.Time `json:"startTime,omitzero"`
	// InitContainerStatuses has one entry per init container.
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitzero"`
	// ContainerStatuses has one entry per container.
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
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

	unknownFields // the members no field above models, raw (lossless.go)
}

// ContainerStatus is the observed state of one container.
type ContainerStatus struct {
	// Name is the container's name.
	Name string `json:"name,omitzero"`
	// Ready is true once the container passes its readiness probe.
	Ready bool `json:"ready,omitzero"`
	// RestartCount counts the container's restarts.
	RestartCount int32 `json:"restartCount,omitzero"`
	// Image is the image the container runs.
	Image string `json:"image,omitzero"`
	// ImageID is the image's digest.
	ImageID string `json:"imageID,omitzero"`
	// ContainerID is the runtime's id, such as "containerd://...".
	ContainerID string `json:"containerID,omitzero"`
	// Started is true once the container passed its startup probe.
	Started *bool `json:"started,omitzero"`

	unknownFields // the members no field above models, raw (lossless.go)
}

// UnmarshalJSON decodes the status, keeping the members it does not model.
func (s *PodStatus) UnmarshalJSON(data []byte) error { return decodeKeeping(data, s) }

// MarshalJSON encodes the status with the members it did not model.
func (s PodStatus) MarshalJSON() ([]byte, error) { return encodeKeeping(&s) }

// UnmarshalJSON decodes the condition, keeping the members it does not model.
func (c *PodCondition) UnmarshalJSON(data []byte) error { return decodeKeeping(data, c) }

// MarshalJSON encodes the condition with the members it did not model.
func (c PodCondition) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// UnmarshalJSON decodes the container status, keeping the members it does not model.
func (c *ContainerStatus) UnmarshalJSON(data []byte) error {
	return decodeKeeping(data, c)
}

// MarshalJSON encodes the container status with the members it did not model.
func (c ContainerStatus) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// DeepCopyInto copies s into out.
func (s *PodStatus) DeepCopyInto(out *PodStatus) {
	*out = *s
	out.Conditions = slices.Clone(s.Conditions) // a condition holds no pointers that change
	out.StartTime = clonePointer(s.StartTime)
	out.InitContainerStatuses = cloneEach(s.InitContainerStatuses, (*ContainerStatus).DeepCopyInto)
	out.ContainerStatuses = cloneEach(s.ContainerStatuses, (*ContainerStatus).DeepCopyInto)
}

// DeepCopyInto copies c into out.
func (c *ContainerStatus) DeepCopyInto(out *ContainerStatus) {
	*out = *c
	out.Started = clonePointer(c.Started)
}

// replicaset.go holds the ReplicaSet as this controller reads it: the
// fields of apps/v1 ReplicaSet it needs (replicas, selector, pod template,
// status), decoded from the server's JSON, and the ListWatch that fills an
// informer with them. The template's pod spec is the root package's
// PodSpec, which keeps every member it does not model, so a pod made from
// it carries the whole template.
//
// client-go counterpart: k8s.io/api/apps/v1 ReplicaSet (ReplicaSetSpec,
// ReplicaSetStatus), metav1.LabelSelector and its LabelSelectorAsSelector,
// and the list-watch of k8s.io/client-go/informers/apps/v1
// NewFilteredReplicaSetInformer.
//
// Tutorial: 004 §3.2 (the ObjectMeta/TypeMeta contract every kind meets).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	informer "github.com/learn-k8s/informer"
)

// The resources this controller reads and writes.
var (
	replicaSetsGVR = informer.GroupVersionResource{Group: "apps", Version: "v1",
		Resource: "replicasets"}
	podsGVR = informer.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// ReplicaSet is an apps/v1 ReplicaSet, with the fields this controller
// reads. The controller writes it back only to /status
// (updateReplicaSetStatus), where the server takes the status alone, which
// this type models whole: the spec members it leaves out stay as stored.
//
// Embedding ObjectMeta, as client-go's types do, gives rs.Name and the
// informer.Object methods, and also ObjectMeta's JSON methods, which would
// read and write the whole ReplicaSet as if it were metadata (ObjectMeta's
// UnmarshalJSON refuses a whole object, saying so). So the ReplicaSet has
// JSON methods of its own (through replicaSetWire), which every decoder of
// the root calls, as encoding/json does.
type ReplicaSet struct {
	informer.TypeMeta
	informer.ObjectMeta `json:"metadata,omitzero"`
	Spec                ReplicaSetSpec   `json:"spec,omitzero"`
	Status              ReplicaSetStatus `json:"status,omitzero"`
}

// ReplicaSetSpec is what the user asks for.
type ReplicaSetSpec struct {
	Replicas *int32         `json:"replicas,omitzero"` // nil means 1 (the server defaults it)
	Selector *LabelSelector `json:"selector,omitzero"` // which pods it selects; required
	// MinReadySeconds is how long a pod must have been ready to count as
	// available.
	MinReadySeconds int32           `json:"minReadySeconds,omitzero"`
	Template        PodTemplateSpec `json:"template,omitzero"` // what each pod is made from
}

// PodTemplateSpec is the pod a ReplicaSet makes copies of.
type PodTemplateSpec struct {
	ObjectMeta informer.ObjectMeta `json:"metadata,omitzero"` // labels and annotations of each pod
	Spec       informer.PodSpec    `json:"spec,omitzero"`
}

// ReplicaSetStatus is what the controller last reported: every member of
// apps/v1 ReplicaSetStatus (calculateStatus fills them).
type ReplicaSetStatus struct {
	Replicas             int32 `json:"replicas"`                      // active pods it owns
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitzero"` // of those, with every template label
	ReadyReplicas        int32 `json:"readyReplicas,omitzero"`        // of those, Ready
	AvailableReplicas    int32 `json:"availableReplicas,omitzero"`    // Ready for minReadySeconds
	// TerminatingReplicas counts its pods being deleted that have not
	// finished; nil when the controller does not report it.
	TerminatingReplicas *int32                `json:"terminatingReplicas,omitzero"`
	ObservedGeneration  int64                 `json:"observedGeneration,omitzero"` // the spec generation it acted on
	Conditions          []ReplicaSetCondition `json:"conditions,omitzero"`
}

// ReplicaSetCondition is one condition of a ReplicaSet. The controller
// writes one type, ReplicaFailure: True while creating or deleting pods
// fails (calculateStatus).
type ReplicaSetCondition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"` // "True", "False" or "Unknown"
	LastTransitionTime time.Time `json:"lastTransitionTime,omitzero"`
	Reason             string    `json:"reason,omitzero"`
	Message            string    `json:"message,omitzero"`
}

// LabelSelector is metav1.LabelSelector: every matchLabels pair and every
// matchExpressions requirement must hold.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitzero"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitzero"`
}

// LabelSelectorRequirement is one requirement: key In, NotIn (values),
// Exists or DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitzero"`
}

// replicas is spec.replicas, 1 when unset, as the server defaults it.
func (rs *ReplicaSet) replicas() int {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return int(*rs.Spec.Replicas)
}

// selector turns the ReplicaSet's label selector into an informer.Selector
// through the selector syntax ("app=web,tier in (a,b),!canary"). An empty
// selector selects everything, as in the API (the server refuses a
// ReplicaSet with one); a missing one is an error.
// (client-go: metav1.LabelSelectorAsSelector.)
func (rs *ReplicaSet) selector() (informer.Selector, error) {
	ls := rs.Spec.Selector
	if ls == nil {
		return nil, fmt.Errorf("ReplicaSet %s/%s has no selector", rs.Namespace, rs.Name)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(ls.MatchLabels)) {
		parts = append(parts, k+"="+ls.MatchLabels[k])
	}
	for _, r := range ls.MatchExpressions {
		switch r.Operator {
		case "In":
			parts = append(parts, r.Key+" in ("+strings.Join(r.Values, ",")+")")
		case "NotIn":
			parts = append(parts, r.Key+" notin ("+strings.Join(r.Values, ",")+")")
		case "Exists":
			parts = append(parts, r.Key)
		case "DoesNotExist":
			parts = append(parts, "!"+r.Key)
		default:
			return nil, fmt.Errorf("ReplicaSet %s/%s: %q is not a valid selector operator",
				rs.Namespace, rs.Name, r.Operator)
		}
	}
	return informer.ParseSelector(strings.Join(parts, ","))
}

// DeepCopy returns a copy of rs that shares no memory with it.
func (rs *ReplicaSet) DeepCopy() *ReplicaSet {
	out := *rs
	rs.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Replicas = clone(rs.Spec.Replicas)
	if ls := rs.Spec.Selector; ls != nil {
		copied := LabelSelector{MatchLabels: maps.Clone(ls.MatchLabels)}
		for _, r := range ls.MatchExpressions {
			r.Values = slices.Clone(r.Values)
			copied.MatchExpressions = append(copied.MatchExpressions, r)
		}
		out.Spec.Selector = &copied
	}
	out.Status.TerminatingReplicas = clone(rs.Status.TerminatingReplicas)
	out.Status.Conditions = slices.Clone(rs.Status.Conditions)
	// A Pod's DeepCopy copies metadata and spec: the template is just that.
	asPod := &informer.Pod{ObjectMeta: rs.Spec.Template.ObjectMeta, Spec: rs.Spec.Template.Spec}
	tmpl := asPod.DeepCopy()
	out.Spec.Template = PodTemplateSpec{ObjectMeta: tmpl.ObjectMeta, Spec: tmpl.Spec}
	return &out
}

// clone returns a pointer to a copy of *p (nil for nil).
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopyObject is DeepCopy, for informer.Object.
func (rs *ReplicaSet) DeepCopyObject() informer.Object { return rs.DeepCopy() }

// replicaSetWire is a ReplicaSet's JSON for encoding/json: metadata is a
// named field here, so ObjectMeta's JSON methods apply to it alone.
type replicaSetWire struct {
	informer.TypeMeta
	Metadata informer.ObjectMeta `json:"metadata,omitzero"`
	Spec     ReplicaSetSpec      `json:"spec,omitzero"`
	Status   ReplicaSetStatus    `json:"status,omitzero"`
}

// MarshalJSON writes rs as the API's JSON. (A value receiver: on a
// ReplicaSet value, ObjectMeta's promoted MarshalJSON must not win.)
func (rs ReplicaSet) MarshalJSON() ([]byte, error) {
	wire := replicaSetWire{TypeMeta: rs.TypeMeta, Metadata: rs.ObjectMeta,
		Spec: rs.Spec, Status: rs.Status}
	return json.Marshal(wire)
}

// UnmarshalJSON reads the API's JSON into rs.
func (rs *ReplicaSet) UnmarshalJSON(data []byte) error {
	var w replicaSetWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*rs = ReplicaSet{TypeMeta: w.TypeMeta, ObjectMeta: w.Metadata, Spec: w.Spec, Status: w.Status}
	return nil
}

// newReplicaSet is the object factory the ListWatch decodes into.
func newReplicaSet() informer.Object { return &ReplicaSet{} }

// newReplicaSetListWatch lists and watches the ReplicaSets of namespace
// (informer.NamespaceAll for all), decoding each into a *ReplicaSet.
func newReplicaSetListWatch(c *informer.RESTClient, namespace string) *informer.ListWatch {
	return &informer.ListWatch{
		ListFunc: func(ctx context.Context, o informer.ListOptions) (*informer.ObjectList, error) {
			return c.List(ctx, replicaSetsGVR, namespace, o, newReplicaSet)
		},
		WatchFunc: func(ctx context.Context, o informer.ListOptions) (informer.Watcher, error) {
			return c.Watch(ctx, replicaSetsGVR, namespace, o, newReplicaSet)
		},
	}
}

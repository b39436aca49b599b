// lossless_types.go gives every typed struct of the first reading (the
// metadata, the Pod, the Status of a failure) its two JSON methods: decode
// keeping the members it does not model, and encode them back
// (decodeKeeping and encodeKeeping, lossless.go). Without this file, those
// types decode with plain encoding/json, which drops unmodeled members.
//
// client-go counterpart: none; k8s.io/api's types model every field, and
// client-go's decoders drop unknown ones.
//
// Reading 3: the real wire (objects read and written back lose nothing).

package informer

import (
	"encoding/json"
	"errors"
)

// UnmarshalJSON decodes the metadata, keeping the members it does not model.
//
// A kind of your own that embeds ObjectMeta, as client-go's kinds embed
// metav1.ObjectMeta, also gets this method, promoted: encoding/json would
// then read the whole object as metadata. So a kind that embeds ObjectMeta
// needs JSON methods of its own (examples/controller's ReplicaSet shows
// how); a whole object handed here, which has a "metadata" member, is
// refused with an error that says so.
func (m *ObjectMeta) UnmarshalJSON(data []byte) error {
	if err := decodeKeeping(data, m); err != nil {
		return err
	}
	if m.keepsMember("metadata") {
		*m = ObjectMeta{}
		return errWholeObjectAsMetadata
	}
	return nil
}

// errWholeObjectAsMetadata is ObjectMeta.UnmarshalJSON's error for a whole
// object: a kind that embeds ObjectMeta without UnmarshalJSON of its own.
var errWholeObjectAsMetadata = errors.New(
	"informer.ObjectMeta.UnmarshalJSON was given a whole object (it has a \"metadata\" member): " +
		"a kind that embeds ObjectMeta needs an UnmarshalJSON of its own, or ObjectMeta's, " +
		"promoted, reads the whole object as metadata (see examples/controller's ReplicaSet)")

// keepsMember reports whether m keeps, raw, a member called name.
func (m *ObjectMeta) keepsMember(name string) bool {
	if len(m.unknownFields) == 0 {
		return false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(m.unknownFields, &members) != nil {
		return false
	}
	_, ok := members[name]
	return ok
}

// MarshalJSON encodes the metadata with the members it did not model. A
// kind that embeds ObjectMeta needs a MarshalJSON of its own too: this one,
// promoted, would write the kind as its metadata alone (see UnmarshalJSON).
func (m ObjectMeta) MarshalJSON() ([]byte, error) { return encodeKeeping(&m) }

// UnmarshalJSON decodes the reference, keeping the members it does not model.
func (r *OwnerReference) UnmarshalJSON(data []byte) error { return decodeKeeping(data, r) }

// MarshalJSON encodes the reference with the members it did not model.
func (r OwnerReference) MarshalJSON() ([]byte, error) { return encodeKeeping(&r) }

// UnmarshalJSON decodes the status, keeping the members it does not model.
func (s *Status) UnmarshalJSON(data []byte) error { return decodeKeeping(data, s) }

// MarshalJSON encodes the status with the members it did not model.
func (s Status) MarshalJSON() ([]byte, error) { return encodeKeeping(&s) }

// UnmarshalJSON decodes the details, keeping the members they do not model.
func (d *StatusDetails) UnmarshalJSON(data []byte) error { return decodeKeeping(data, d) }

// MarshalJSON encodes the details with the members they did not model.
func (d StatusDetails) MarshalJSON() ([]byte, error) { return encodeKeeping(&d) }

// UnmarshalJSON decodes the cause, keeping the members it does not model.
func (c *StatusCause) UnmarshalJSON(data []byte) error { return decodeKeeping(data, c) }

// MarshalJSON encodes the cause with the members it did not model.
func (c StatusCause) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// UnmarshalJSON decodes the Pod, keeping the members it does not model.
func (p *Pod) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the Pod with the members it did not model.
func (p Pod) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

// UnmarshalJSON decodes the PodSpec, keeping the members it does not model.
func (p *PodSpec) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the PodSpec with the members it did not model.
func (p PodSpec) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

// UnmarshalJSON decodes the Container, keeping the members it does not model.
func (c *Container) UnmarshalJSON(data []byte) error { return decodeKeeping(data, c) }

// MarshalJSON encodes the Container with the members it did not model.
func (c Container) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// UnmarshalJSON decodes the ContainerPort, keeping the members it does not model.
func (c *ContainerPort) UnmarshalJSON(data []byte) error { return decodeKeeping(data, c) }

// MarshalJSON encodes the ContainerPort with the members it did not model.
func (c ContainerPort) MarshalJSON() ([]byte, error) { return encodeKeeping(&c) }

// UnmarshalJSON decodes the ResourceRequirements, keeping the members it does not model.
func (r *ResourceRequirements) UnmarshalJSON(data []byte) error { return decodeKeeping(data, r) }

// MarshalJSON encodes the ResourceRequirements with the members it did not model.
func (r ResourceRequirements) MarshalJSON() ([]byte, error) { return encodeKeeping(&r) }

// UnmarshalJSON decodes the PodStatus, keeping the members it does not model.
func (p *PodStatus) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the PodStatus with the members it did not model.
func (p PodStatus) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

// UnmarshalJSON decodes the PodCondition, keeping the members it does not model.
func (p *PodCondition) UnmarshalJSON(data []byte) error { return decodeKeeping(data, p) }

// MarshalJSON encodes the PodCondition with the members it did not model.
func (p PodCondition) MarshalJSON() ([]byte, error) { return encodeKeeping(&p) }

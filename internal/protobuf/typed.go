// typed.go decodes a message straight into a typed struct that keeps the
// members it does not model (the root's lossless kinds: Pod, ObjectMeta,
// Status...; the rules are at the top of the root's lossless.go), giving
// exactly what decoding the server's JSON for the same object gives:
//   - a member the JSON would have, whose name is a field's json tag, goes
//     into that field, unless its value is null or zero;
//   - every other member the JSON would have (one no field models, a null,
//     a zero value) is kept raw, as the JSON text json.go writes for it,
//     in the order the server writes it.
//
// Each field is read by a setter chosen for its Go type and message field
// when the pair is first seen (typedPlan): strings, integers, booleans,
// pointers to them, times, lists of strings, maps of strings (quantities
// too) and nested typed structs and lists of them are set from the wire;
// any other field gets its JSON text through encoding/json, the reference,
// and a level whose Go fields name a member of an embedded message is read
// whole that way (its struct's UnmarshalJSON).
//
// client-go counterpart: the generated Unmarshal methods of k8s.io/api
// (generated.pb.go), which fill every field of client-go's structs.
// Tutorial: none.

package protobuf

import (
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// setter is how one Go field is set from its message field.
type setter int

const (
	setRaw       setter = iota // no Go field: the member stays raw
	setString                  // a string (or a named string type) from a string
	setBool                    // a bool from a bool
	setInt                     // a signed integer from an integer
	setPointer                 // a pointer to one of the three above
	setTime                    // a time.Time from a metav1.Time
	setPtrTime                 // a *time.Time from a metav1.Time
	setStrings                 // a []string from a repeated string
	setStringMap               // a map[string]string from a map of strings or quantities
	setStruct                  // a typed struct from a message
	setPtrStruct               // a pointer to a typed struct from a message
	setStructs                 // a slice of typed structs from a repeated message
	setJSON                    // anything else: its JSON text, through encoding/json
)

// typedPlan is how one struct type is read from one message.
type typedPlan struct {
	mp     *msgPlan
	fields []typedField // parallel to mp.fields
	// kind and apiVersion are the Go fields of an object's type (its
	// TypeMeta), set from the envelope; nil when not modelled.
	kind, apiVersion []int
	// whole is true when the level is read as JSON text through the
	// struct's own UnmarshalJSON (its fields name a member of an embedded
	// message, which the setters do not place).
	whole   bool
	unknown func(structPtr any) *[]byte
}

// typedField is one message field as a typed struct takes it.
type typedField struct {
	set    setter
	index  []int      // the Go field's path (through embedded structs)
	sub    *typedPlan // the plan of a nested struct, or of a slice's elements
	isTime bool       // a time.Time or *time.Time, which must read back as written
	// zeroByMethod: the type says by an IsZero method whether it is zero,
	// as `omitzero` asks it (time.Time does).
	zeroByMethod bool
}

// planKey identifies a typedPlan: a struct type read from a message.
type planKey struct {
	t   reflect.Type
	msg string
}

// typedPlans caches the typed plans (planKey → *typedPlan).
var typedPlans sync.Map

var (
	timeType     = reflect.TypeFor[time.Time]()
	stringMap    = reflect.TypeFor[map[string]string]()
	isZeroerType = reflect.TypeFor[interface{ IsZero() bool }]()
)

// typedPlanOf returns the plan of struct type t read from mp; unknown is
// the Layout's, which says whether a struct type keeps unmodelled members.
// The plans it builds (t's, and its nested structs') are published to
// typedPlans only once all of them are whole, so that a decoder on another
// goroutine never loads a plan still being filled in. Two goroutines may
// build the same plans at once; the first to publish a plan wins, and the
// other's copy, as complete and alike, is used once and dropped.
func typedPlanOf(t reflect.Type, mp *msgPlan, unknown func(any) *[]byte) *typedPlan {
	key := planKey{t, mp.msg.Name}
	if tp, ok := typedPlans.Load(key); ok {
		return tp.(*typedPlan)
	}
	b := &planBuilder{unknown: unknown, building: map[planKey]*typedPlan{}}
	tp := b.plan(t, mp)
	for k, built := range b.building {
		typedPlans.LoadOrStore(k, built)
	}
	return tp
}

// planBuilder builds the typed plans of one struct type and those it nests,
// keeping them to itself until they are whole (typedPlanOf).
type planBuilder struct {
	unknown  func(any) *[]byte
	building map[planKey]*typedPlan // plans built here, not yet published
}

// plan returns the plan of struct type t read from mp: a published one, one
// this builder has begun (a message may contain itself), or a new one.
func (b *planBuilder) plan(t reflect.Type, mp *msgPlan) *typedPlan {
	key := planKey{t, mp.msg.Name}
	if tp, ok := typedPlans.Load(key); ok {
		return tp.(*typedPlan)
	}
	if tp, ok := b.building[key]; ok {
		return tp
	}
	tp := &typedPlan{mp: mp, fields: make([]typedField, len(mp.fields)), unknown: b.unknown}
	b.building[key] = tp // before the fields: a message may contain itself
	byName := goFields(t)
	if k, ok := byName["kind"]; ok && k.Type.Kind() == reflect.String {
		tp.kind = k.Index
	}
	if a, ok := byName["apiVersion"]; ok && a.Type.Kind() == reflect.String {
		tp.apiVersion = a.Index
	}
	for i, f := range mp.fields {
		if f.Inline {
			if namesInline(byName, mp.subs[i], 0) {
				tp.whole = true
			}
			continue
		}
		gf, ok := byName[f.JSON]
		if !ok {
			continue
		}
		tp.fields[i] = typedField{index: gf.Index,
			isTime:       gf.Type == timeType || gf.Type == reflect.PointerTo(timeType),
			zeroByMethod: gf.Type.Implements(isZeroerType)}
		tp.fields[i].set, tp.fields[i].sub = b.setterFor(gf.Type, f, mp.subs[i])
	}
	return tp
}

// goFields maps each json name of struct type t to its field, as
// encoding/json sees them: exported, not "-", embedded structs without a
// tag (TypeMeta) giving their fields to the outer object.
func goFields(t reflect.Type) map[string]reflect.StructField {
	byName := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || f.Anonymous && name == "" || !inlined(t, f.Index) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		byName[name] = f
	}
	return byName
}

// inlined reports whether the field at index of t is t's own, or comes
// from exported structs embedded without a json tag.
func inlined(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); !f.IsExported() || name != "" || f.Type.Kind() != reflect.Struct {
			return false
		}
		t = f.Type
	}
	return true
}

// namesInline reports whether a Go field is named after a member of the
// embedded message p (or of one it embeds).
func namesInline(byName map[string]reflect.StructField, p *msgPlan, depth int) bool {
	if p == nil || depth > maxDepth {
		return false
	}
	for i, f := range p.fields {
		if _, ok := byName[f.JSON]; ok && !f.Inline || f.Inline && namesInline(byName, p.subs[i], depth+1) {
			return true
		}
	}
	return false
}

// setterFor chooses how a Go field of type t is set from message field f.
func (b *planBuilder) setterFor(t reflect.Type, f *schemaField, sub *msgPlan) (setter, *typedPlan) {
	unknown := b.unknown
	single := !f.Repeated && f.Type != "map"
	message := sub != nil && !sub.msg.OwnJSON
	switch {
	case single && t.Kind() == reflect.String && f.Type == "string":
		return setString, nil
	case single && t.Kind() == reflect.Bool && f.Type == "bool":
		return setBool, nil
	case single && isInt(t.Kind()) && (f.Type == "int32" || f.Type == "int64"):
		return setInt, nil
	case single && t.Kind() == reflect.Pointer && !f.Ptr:
		// A Go pointer where the message has a value: JSON would set it
		// for a zero value too; leave that to encoding/json.
		return setJSON, nil
	case single && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.String && f.Type == "string",
		single && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Bool && f.Type == "bool",
		single && t.Kind() == reflect.Pointer && isInt(t.Elem().Kind()) && (f.Type == "int32" || f.Type == "int64"):
		return setPointer, nil
	case single && t == timeType && f.Type == schema.Time:
		return setTime, nil
	case single && t == reflect.PointerTo(timeType) && f.Type == schema.Time:
		return setPtrTime, nil
	case f.Repeated && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String && f.Type == "string":
		return setStrings, nil
	case f.Type == "map" && t == stringMap && (f.MapValue == "string" || f.MapValue == schema.Quantity):
		return setStringMap, nil
	case single && message && t.Kind() == reflect.Struct && keepsUnknown(t, unknown):
		return setStruct, b.plan(t, sub)
	case single && message && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && keepsUnknown(t.Elem(), unknown):
		return setPtrStruct, b.plan(t.Elem(), sub)
	case f.Repeated && message && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct && keepsUnknown(t.Elem(), unknown):
		return setStructs, b.plan(t.Elem(), sub)
	}
	return setJSON, nil
}

// isInt reports whether k is a signed integer kind.
func isInt(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64
}

// keepsUnknown reports whether struct type t keeps its unmodelled members,
// asked once per type.
func keepsUnknown(t reflect.Type, unknown func(any) *[]byte) bool {
	if unknown == nil {
		return false
	}
	if keeps, ok := keepsUnknownCache.Load(t); ok {
		return keeps.(bool)
	}
	keeps := unknown(reflect.New(t).Interface()) != nil
	keepsUnknownCache.Store(t, keeps)
	return keeps
}

// keepsUnknownCache caches keepsUnknown (reflect.Type → bool). The
// answer is the Layout's, which must answer by the type alone.
var keepsUnknownCache sync.Map

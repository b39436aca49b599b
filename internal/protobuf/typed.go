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
	"encoding/json"
	"fmt"
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
func typedPlanOf(t reflect.Type, mp *msgPlan, unknown func(any) *[]byte) *typedPlan {
	key := planKey{t, mp.msg.Name}
	if tp, ok := typedPlans.Load(key); ok {
		return tp.(*typedPlan)
	}
	tp := &typedPlan{mp: mp, fields: make([]typedField, len(mp.fields)), unknown: unknown}
	typedPlans.Store(key, tp) // before the fields: a message may contain itself
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
		tp.fields[i].set, tp.fields[i].sub = setterFor(gf.Type, f, mp.subs[i], unknown)
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
func setterFor(t reflect.Type, f *schemaField, sub *msgPlan, unknown func(any) *[]byte) (setter, *typedPlan) {
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
		return setStruct, typedPlanOf(t, sub, unknown)
	case single && message && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct && keepsUnknown(t.Elem(), unknown):
		return setPtrStruct, typedPlanOf(t.Elem(), sub, unknown)
	case f.Repeated && message && t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct && keepsUnknown(t.Elem(), unknown):
		return setStructs, typedPlanOf(t.Elem(), sub, unknown)
	}
	return setJSON, nil
}

// isInt reports whether k is a signed integer kind.
func isInt(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64
}

// keepsUnknown reports whether struct type t keeps its unmodelled members.
func keepsUnknown(t reflect.Type, unknown func(any) *[]byte) bool {
	return unknown != nil && unknown(reflect.New(t).Interface()) != nil
}

// typeMeta is an object's kind and apiVersion, from its envelope.
type typeMeta struct{ apiVersion, kind string }

// decodeStruct decodes message values (one level of tp) into the struct v,
// with tm, when given, as the object's own kind and apiVersion.
func (d *Decoder) decodeStruct(tp *typedPlan, values []occurrence, v reflect.Value, tm *typeMeta, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("protobuf: messages nested deeper than %d", maxDepth)
	}
	v.SetZero() // this also clears the members kept before
	w := &d.w
	rawStart := len(w.raw)
	occStart := len(w.occ)
	defer func() {
		w.raw = w.raw[:rawStart]
		w.occ = w.occ[:occStart]
	}()
	if tp.whole {
		return d.decodeWhole(tp, values, v, tm, depth)
	}
	w.raw = append(w.raw, '{')
	if tm != nil {
		d.setTypeMeta(tp, tm, v, false)
	}
	var err error
	for _, val := range values {
		if w.occ, err = collect(w.occ, tp.mp, val.f.b); err != nil {
			return err
		}
	}
	sortLevel(w.occ, occStart)
	level := w.occ[occStart:]
	for i := range tp.fields {
		var fieldValues []occurrence
		fieldValues, level = valuesOf(level, i)
		typed := false
		if tp.fields[i].set != setRaw {
			if typed, err = d.setField(tp, i, fieldValues, v, depth); err != nil {
				return fmt.Errorf("%s: %w", tp.mp.fields[i].JSON, err)
			}
		}
		if !typed {
			if w.raw, err = w.appendField(w.raw, tp.mp, i, fieldValues, depth); err != nil {
				return err
			}
		}
	}
	if len(w.raw) > rawStart+1 {
		kept := make([]byte, len(w.raw)-rawStart+1) // exactly as long as it needs to be: it may be cached for long
		copy(kept, w.raw[rawStart:])
		kept[len(kept)-1] = '}'
		*tp.unknown(v.Addr().Interface()) = kept
	}
	return nil
}

// setTypeMeta sets the kind and apiVersion fields of v from tm, or keeps
// them raw, first, as the server writes them, when v does not model them
// or when asText (the level is then read as JSON text).
func (d *Decoder) setTypeMeta(tp *typedPlan, tm *typeMeta, v reflect.Value, asText bool) {
	for _, m := range [2]struct {
		name, value string
		index       []int
	}{{"kind", tm.kind, tp.kind}, {"apiVersion", tm.apiVersion, tp.apiVersion}} {
		switch {
		case m.value == "":
		case m.index != nil && !asText:
			v.FieldByIndex(m.index).SetString(m.value)
		default:
			d.w.raw = appendKey(d.w.raw, m.name)
			d.w.raw = appendString(d.w.raw, []byte(m.value))
		}
	}
}

// decodeWhole decodes a level as its JSON text, through the struct's own
// UnmarshalJSON (encoding/json), the reference.
func (d *Decoder) decodeWhole(tp *typedPlan, values []occurrence, v reflect.Value, tm *typeMeta, depth int) error {
	w := &d.w
	start := len(w.raw)
	w.raw = append(w.raw, '{')
	if tm != nil {
		d.setTypeMeta(tp, tm, v, true)
	}
	var err error
	if w.raw, err = w.appendMembers(w.raw, tp.mp, values, depth); err != nil {
		return err
	}
	w.raw = append(w.raw, '}')
	return json.Unmarshal(w.raw[start:], v.Addr().Interface())
}

// setField sets the Go field of message field i from its values; typed is
// false, with the field left zero, when the member must stay raw: JSON
// would leave it out, or write it as null or as a zero value.
func (d *Decoder) setField(tp *typedPlan, i int, values []occurrence, v reflect.Value, depth int) (typed bool, err error) {
	tf := &tp.fields[i]
	f := tp.mp.fields[i]
	sub := tp.mp.subs[i]
	written, null := presence(f, sub, values)
	if !written || null {
		return false, nil
	}
	fv := v.FieldByIndex(tf.index)
	var last field // absent: the zero value
	if len(values) > 0 {
		last = values[len(values)-1].f
	}
	switch tf.set {
	case setString:
		if len(last.b) == 0 {
			return false, nil
		}
		fv.SetString(string(last.b))
	case setBool:
		if last.u == 0 {
			return false, nil
		}
		fv.SetBool(true)
	case setInt:
		n := intValue(f.Type, last.u)
		if n == 0 {
			return false, nil
		}
		if fv.OverflowInt(n) {
			return false, fmt.Errorf("protobuf: %d overflows %s", n, fv.Type())
		}
		fv.SetInt(n)
	case setPointer:
		p := reflect.New(fv.Type().Elem())
		switch e := p.Elem(); e.Kind() {
		case reflect.String:
			e.SetString(string(last.b))
		case reflect.Bool:
			e.SetBool(last.u != 0)
		default:
			n := intValue(f.Type, last.u)
			if e.OverflowInt(n) {
				return false, fmt.Errorf("protobuf: %d overflows %s", n, e.Type())
			}
			e.SetInt(n)
		}
		fv.Set(p)
	case setTime, setPtrTime:
		t, err := timeOf(sub, last.b, false)
		if err != nil {
			return false, err
		}
		if t.IsZero() {
			return false, nil // JSON's null
		}
		if t.Year() < 0 || t.Year() > 9999 {
			return d.setFromJSON(tf, f, sub, values, fv, depth) // a year JSON cannot write back
		}
		if tf.set == setPtrTime {
			fv.Set(reflect.ValueOf(&t))
		} else {
			fv.Set(reflect.ValueOf(t))
		}
	case setStrings:
		list := make([]string, len(values))
		for j, val := range values {
			list[j] = string(val.f.b)
		}
		fv.Set(reflect.ValueOf(list))
	case setStringMap:
		m, err := d.stringMap(f, sub, values)
		if err != nil {
			return false, err
		}
		fv.Set(reflect.ValueOf(m))
	case setStruct:
		if err := d.decodeStruct(tf.sub, values, fv, nil, depth+1); err != nil {
			return false, err
		}
		if fv.IsZero() {
			fv.SetZero()
			return false, nil
		}
	case setPtrStruct:
		p := reflect.New(fv.Type().Elem())
		if err := d.decodeStruct(tf.sub, values, p.Elem(), nil, depth+1); err != nil {
			return false, err
		}
		fv.Set(p)
	case setStructs:
		list := reflect.MakeSlice(fv.Type(), len(values), len(values))
		for j := range values {
			if err := d.decodeStruct(tf.sub, values[j:j+1], list.Index(j), nil, depth+1); err != nil {
				return false, err
			}
		}
		fv.Set(list)
	default:
		return d.setFromJSON(tf, f, sub, values, fv, depth)
	}
	return true, nil
}

// intValue is an integer field's value as its Go type holds it.
func intValue(typ string, u uint64) int64 {
	if typ == "int32" {
		return int64(int32(u))
	}
	return int64(u)
}

// stringMap reads a map of strings, or of quantities as their strings
// (their JSON form), keys given twice keeping their last value.
func (d *Decoder) stringMap(f *schemaField, sub *msgPlan, values []occurrence) (map[string]string, error) {
	m := make(map[string]string, len(values))
	for _, val := range values {
		var key, value []byte
		for b := val.f.b; len(b) > 0; {
			e, rest, err := nextField(b)
			if err != nil {
				return nil, err
			}
			b = rest
			switch {
			case e.wt != wireBytes:
				return nil, fmt.Errorf("protobuf: map %s: entry field %d has wire type %d", f.Name, e.num, e.wt)
			case e.num == 1:
				key = e.b
			case e.num == 2:
				value = e.b
			}
		}
		if sub != nil { // a Quantity: the string its JSON holds
			q, err := quantityText(sub, value)
			if err != nil {
				return nil, err
			}
			value = q
		}
		m[string(key)] = string(value)
	}
	return m, nil
}

// setFromJSON sets a field from its JSON text as the root's lossless.go
// does: through encoding/json, a zero value or a time that would not be
// written back as it came staying raw.
func (d *Decoder) setFromJSON(tf *typedField, f *schemaField, sub *msgPlan, values []occurrence, fv reflect.Value, depth int) (bool, error) {
	w := &d.w
	start := len(w.raw)
	defer func() { w.raw = w.raw[:start] }()
	var err error
	if w.raw, err = w.appendValue(w.raw, f, sub, values, depth); err != nil {
		return false, err
	}
	text := w.raw[start:]
	if err := json.Unmarshal(text, fv.Addr().Interface()); err != nil {
		fv.SetZero()
		return false, err
	}
	if isZero(tf, fv) || tf.isTime && !readsBack(fv, text) {
		fv.SetZero()
		return false, nil
	}
	return true, nil
}

// isZero reports whether field is zero as `omitzero` decides it.
func isZero(tf *typedField, field reflect.Value) bool {
	if tf.zeroByMethod && (field.Kind() != reflect.Pointer || !field.IsNil()) {
		return field.Interface().(interface{ IsZero() bool }).IsZero()
	}
	return field.IsZero()
}

// readsBack reports whether a time field encodes back to text.
func readsBack(field reflect.Value, text []byte) bool {
	again, err := json.Marshal(field.Interface())
	return err == nil && string(again) == string(text)
}

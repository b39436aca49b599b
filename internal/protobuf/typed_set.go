// typed_set.go sets a typed struct's fields from a message, level by
// level (decodeStruct), following the rules at the top of typed.go: each
// field by the setter its plan chose, the members it does not take kept
// raw as json.go writes them.
//
// client-go counterpart: the generated Unmarshal methods of k8s.io/api
// (generated.pb.go).
// Tutorial: none.

package protobuf

import (
	"encoding/json"
	"fmt"
	"reflect"
)

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
	runStart := len(w.runs)
	defer func() {
		w.raw = w.raw[:rawStart]
		w.closeLevel(occStart, runStart)
	}()
	if tp.whole {
		return d.decodeWhole(tp, values, v, tm, depth)
	}
	w.raw = append(w.raw, '{')
	if tm != nil {
		d.setTypeMeta(tp, tm, v, false)
	}
	lv, err := w.openLevel(tp.mp, values)
	if err != nil {
		return err
	}
	for i := range tp.fields {
		if lv.skips(tp.mp, i) {
			continue
		}
		fieldValues := lv.values(i)
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
	written, null := presence(f, tp.mp.infos[i].shape, sub, values)
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
		fv.SetString(d.shared.str(last.b))
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
			e.SetString(d.shared.str(last.b))
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
			list[j] = d.shared.str(val.f.b)
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
		m[d.shared.str(key)] = d.shared.str(value)
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

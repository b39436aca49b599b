// lossless.go makes the typed kinds (Pod, ObjectMeta, Status, ...) lossless:
// decoding an object the server sent and encoding it again gives back every
// member it had, including those the Go structs do not model. Each struct
// keeps, beside its fields, the members it does not know as one raw JSON
// object (unknownFields), one per nesting level: a container keeps its own
// unknown members, its pod spec keeps its own. So a Get → change a label →
// Update sends back the container's probes, the volumes and the affinity,
// even though no Go field holds them.
//
// The rules, which every typed kind follows through two helpers:
//   - A member whose name is exactly a field's json tag (case matters, as in
//     client-go's decoder) goes into that field; any other member is kept raw.
//   - The encoder leaves a field out when it is zero, as `omitzero` says.
//     So a known member that decodes to its zero value (`""`, `0`, `false`,
//     `null`, `{}`) is kept raw as well, and comes back exactly as it came;
//     a time that would not be written back in the same text is kept raw too.
//   - When a field is set, it wins over a raw member of the same name: a
//     caller who fills in a field the server sent as `{}` sends the new value.
//
// Each level reads its members in one pass (lossless_scan.go) and hands a
// nested typed object's text straight to its UnmarshalJSON.
//
// client-go counterpart: none. client-go's typed structs (k8s.io/api/core/v1)
// model every field of their API version and drop members they do not know
// (sigs.k8s.io/json, used by k8s.io/apimachinery/pkg/runtime/serializer/json);
// the dynamic client's Unstructured (unstructured.go) keeps everything. Go's
// Protocol Buffers structs keep unknown fields the same way as here.
//
// Tutorial: 004 §3.2 (the metadata contract) and 000 §3.3 (read, change,
// write back: why a client must not drop what it does not understand).

package informer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// unknownFields holds the members of one JSON object that its Go struct does
// not model, as one raw, compact JSON object such as {"hostname":"web-0"}; it
// is nil when there are none, so a fully modeled object pays one empty slice
// header. It is never changed in place, so copies of an object share it.
type unknownFields []byte

// jsonField is one field of a typed struct as the JSON codec sees it.
type jsonField struct {
	name   string // the member name, from the json tag
	index  []int  // the path to the field, through embedded structs (TypeMeta)
	isTime bool   // a time.Time or *time.Time, which must read back as written
	// plainElems is true for a list or map of plain values ([]string,
	// map[string]string): a null inside would decode to "" and be lost.
	plainElems bool
}

// fieldTable lists a struct type's fields in declaration order, with an
// index by member name.
type fieldTable struct {
	fields []jsonField
	byName map[string]int
}

// fieldTables caches one fieldTable per struct type (reflect.Type → *fieldTable).
var fieldTables sync.Map

var timeType = reflect.TypeFor[time.Time]()

// fieldsOf returns the fieldTable of struct type t, built once from its tags.
func fieldsOf(t reflect.Type) *fieldTable {
	if table, ok := fieldTables.Load(t); ok {
		return table.(*fieldTable)
	}
	table := &fieldTable{byName: map[string]int{}}
	table.collect(t, nil)
	fieldTables.Store(t, table)
	return table
}

// collect adds t's exported, tagged fields; an embedded struct without a tag
// (TypeMeta) gives its own fields, which JSON puts in the outer object.
func (table *fieldTable) collect(t reflect.Type, prefix []int) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		index := append(append([]int(nil), prefix...), i)
		switch {
		case !f.IsExported() || name == "-":
		case f.Anonymous && name == "":
			table.collect(f.Type, index)
		default:
			table.byName[name] = len(table.fields)
			k := f.Type.Kind()
			table.fields = append(table.fields, jsonField{name: name, index: index,
				isTime:     f.Type == timeType || f.Type == reflect.PointerTo(timeType),
				plainElems: (k == reflect.Slice || k == reflect.Map) && f.Type.Elem().Kind() != reflect.Struct})
		}
	}
}

// isZero reports whether v is zero as `omitzero` decides it: by its
// IsZero method (time.Time has one), else by reflect.
func isZero(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		return z.IsZero()
	}
	return v.IsZero()
}

// decodeKeeping decodes the JSON object data into the struct obj points to,
// following the rules at the top of this file, and stores the members it
// keeps raw in *unknown. A null is no object: it is an error here (a member
// whose value is null never gets this far; it is kept raw).
func decodeKeeping(data []byte, obj any, unknown *unknownFields) error {
	v := reflect.ValueOf(obj).Elem()
	v.SetZero() // this also clears *unknown, a field of the same struct
	table := fieldsOf(v.Type())
	var kept bytes.Buffer // the members kept raw, comma-separated
	err := eachMember(data, func(name string, value []byte) error {
		if i, known := table.byName[name]; known {
			typed, err := table.fields[i].set(v, value)
			if err != nil || typed {
				return err
			}
		}
		if kept.Len() > 0 {
			kept.WriteByte(',')
		}
		kept.Write(quote(name))
		kept.WriteByte(':')
		if err := json.Compact(&kept, value); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
	if errors.Is(err, errBadJSON) {
		return fmt.Errorf("a %s must be a JSON object: %w", v.Type().Name(), err)
	}
	if err == nil && kept.Len() > 0 { // exactly as long as it needs to be: it may be cached for long
		raw := make(unknownFields, 0, kept.Len()+2)
		*unknown = append(append(append(raw, '{'), kept.Bytes()...), '}')
	}
	return err
}

// set decodes value, the JSON text of the member, into f's field of v. It
// reports false, with the field left zero, when the member must stay raw
// instead: a null, a zero value, or a time written in another form.
func (f jsonField) set(v reflect.Value, value []byte) (typed bool, err error) {
	field := v.FieldByIndex(f.index)
	field.SetZero() // a repeated member replaces, never merges
	if string(value) == "null" {
		return false, nil
	}
	if f.plainElems && hasNull(value) {
		return false, fmt.Errorf("%s: a null inside a list or map of plain values would come back as \"\"", f.name)
	}
	if err := decodeInto(value, field.Addr()); err != nil {
		return false, fmt.Errorf("%s: %w", f.name, err)
	}
	if isZero(field) || (f.isTime && !readsBack(field, value)) {
		field.SetZero()
		return false, nil
	}
	return true, nil
}

// decodeInto decodes value into the variable ptr points to. A typed struct
// (one that keeps its unknown members), or a list of them, gets the text
// straight, element by element: encoding/json would scan it again first.
// Anything else (strings, numbers, maps, times) goes to encoding/json.
func decodeInto(value []byte, ptr reflect.Value) error {
	t := ptr.Elem().Type()
	if u, ok := ptr.Interface().(json.Unmarshaler); ok && t.Kind() == reflect.Struct && t != timeType {
		return u.UnmarshalJSON(value)
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct && t.Elem() != timeType &&
		reflect.PointerTo(t.Elem()).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		list := reflect.MakeSlice(t, 0, 0) // [] stays an empty list, not nil
		err := eachElement(value, func(elem []byte) error {
			list = reflect.Append(list, reflect.Zero(t.Elem()))
			return list.Index(list.Len() - 1).Addr().Interface().(json.Unmarshaler).UnmarshalJSON(elem)
		})
		ptr.Elem().Set(list)
		return err
	}
	return json.Unmarshal(value, ptr.Interface())
}

// hasNull reports whether the JSON text holds a null outside its strings.
func hasNull(value []byte) bool {
	inString, escaped := false, false
	for _, c := range value {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == 'n':
			return true
		}
	}
	return false
}

// readsBack reports whether a time field encodes back to value, the JSON
// text it was decoded from (e.g. "+00:00" would come back as "Z").
func readsBack(field reflect.Value, value []byte) bool {
	again, err := json.Marshal(field.Interface())
	return err == nil && bytes.Equal(again, value)
}

// encodeKeeping encodes the struct obj points to: each field that is not
// zero, then each member of unknown whose field (if it has one) is zero.
func encodeKeeping(obj any, unknown unknownFields) ([]byte, error) {
	v := reflect.ValueOf(obj).Elem()
	table := fieldsOf(v.Type())
	buf := []byte{'{'}
	for _, f := range table.fields {
		field := v.FieldByIndex(f.index)
		if isZero(field) {
			continue
		}
		value, err := json.Marshal(field.Interface())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		buf = appendMember(buf, f.name, value)
	}
	if len(unknown) > 0 {
		dec := json.NewDecoder(bytes.NewReader(unknown))
		_, _ = dec.Token() // the opening '{'
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			name, _ := tok.(string)
			var value json.RawMessage
			if err := dec.Decode(&value); err != nil {
				return nil, err
			}
			if i, known := table.byName[name]; known && !isZero(v.FieldByIndex(table.fields[i].index)) {
				continue // the field is set: it wins
			}
			buf = appendMember(buf, name, value)
		}
	}
	return append(buf, '}'), nil
}

// appendMember appends `"name":value` to an object being written.
func appendMember(buf []byte, name string, value []byte) []byte {
	if len(buf) > 1 {
		buf = append(buf, ',')
	}
	buf = append(buf, quote(name)...)
	buf = append(buf, ':')
	return append(buf, value...)
}

// quote returns name as a JSON string.
func quote(name string) []byte {
	key, _ := json.Marshal(name) // a string always encodes
	return key
}

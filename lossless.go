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
// A struct takes part by embedding unknownFields and giving UnmarshalJSON
// and MarshalJSON as one-liners that call decodeKeeping and encodeKeeping.
// The whole object is decoded in one pass over its text
// (lossless_decode.go), encoded by encoding/json field by field (here).
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
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// unknownFields (meta.go) holds the members of one JSON object that its Go
// struct does not model, as one raw, compact JSON object such as
// {"hostname":"web-0"}; it is nil when there are none, so a fully modeled
// object pays one empty slice header. It is never changed in place, so
// copies of an object share it. Every typed struct embeds it (which gives
// the struct the method kept).

// kept returns where the struct that embeds u keeps its raw members.
func (u *unknownFields) kept() *unknownFields { return u }

// lossless is a pointer to a typed struct: one that embeds unknownFields.
type lossless interface{ kept() *unknownFields }

// jsonField is one field of a typed struct as the JSON codec sees it.
type jsonField struct {
	name   string // the member name, from the json tag
	index  []int  // the path to the field, through embedded structs (TypeMeta)
	isTime bool   // a time.Time or *time.Time, which must read back as written
	// plainElems is true for a list or map of plain values ([]string,
	// map[string]string): a null inside would decode to "" and be lost.
	plainElems bool
	// zeroByMethod is true when the type says by an IsZero method whether
	// it is zero (time.Time does), as `omitzero` asks it.
	zeroByMethod bool
	// read decodes the usual forms of the field's JSON in one pass
	// (lossless_decode.go); nil for types it does not know.
	read fastReader
}

// fieldTable lists a struct type's fields in declaration order, with an
// index by member name.
type fieldTable struct {
	fields []jsonField
	byName map[string]int
}

// fieldTables caches one fieldTable per struct type (reflect.Type → *fieldTable).
var fieldTables sync.Map

var (
	timeType            = reflect.TypeFor[time.Time]()
	isZeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
	losslessType        = reflect.TypeFor[lossless]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

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
				isTime:       f.Type == timeType || f.Type == reflect.PointerTo(timeType),
				plainElems:   (k == reflect.Slice || k == reflect.Map) && f.Type.Elem().Kind() != reflect.Struct,
				zeroByMethod: f.Type.Implements(isZeroerType),
				read:         fastReaderFor(f.Type)})
		}
	}
}

// isZero reports whether field, the field f describes, is zero as
// `omitzero` decides it: by the type's IsZero method (time.Time has one; a
// nil pointer is zero without asking), else by reflect.
func (f *jsonField) isZero(field reflect.Value) bool {
	if f.zeroByMethod && (field.Kind() != reflect.Pointer || !field.IsNil()) {
		return field.Interface().(interface{ IsZero() bool }).IsZero()
	}
	return field.IsZero()
}

// encodeKeeping encodes the struct obj points to: each field that is not
// zero, then each member kept raw whose field (if it has one) is zero.
func encodeKeeping(obj lossless) ([]byte, error) {
	v := reflect.ValueOf(obj).Elem()
	table := fieldsOf(v.Type())
	unknown := *obj.kept()
	buf := []byte{'{'}
	for i := range table.fields {
		f := &table.fields[i]
		field := v.FieldByIndex(f.index)
		if f.isZero(field) {
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
			if i, known := table.byName[name]; known && !table.fields[i].isZero(v.FieldByIndex(table.fields[i].index)) {
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

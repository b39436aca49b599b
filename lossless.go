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
//     client-go's decoder: TestMemberNamesMatchExactly) goes into that
//     field; any other member is kept raw.
//   - The encoder leaves a field out when it is zero, as `omitzero` says.
//     So a known member that decodes to its zero value (`""`, `0`, `false`,
//     `null`, `{}`) is kept raw as well, and comes back exactly as it came;
//     a time that would not be written back in the same text is kept raw too.
//   - When a field is set, it wins over a raw member of the same name: a
//     caller who fills in a field the server sent as `{}` sends the new value.
//
// A struct takes part by embedding unknownFields and giving UnmarshalJSON
// and MarshalJSON as one-liners that call decodeKeeping and encodeKeeping,
// which apply the rules with encoding/json, field by field (here). The
// items of lists and watch events take a faster road to the same objects
// (newBodyDecoder, watch.go), which a first reading may skip.
//
// client-go counterpart: none. client-go's typed structs (k8s.io/api/core/v1)
// model every field of their API version and drop members they do not know
// (sigs.k8s.io/json, used by k8s.io/apimachinery/pkg/runtime/serializer/json);
// the dynamic client's Unstructured (unstructured.go) keeps everything. Go's
// Protocol Buffers structs keep unknown fields the same way as here.
//
// Tutorial: 000 §3.3 (read, change,
// write back: why a client must not drop what it does not understand).
//
// Reading 3: the real wire (objects read and written back lose nothing).

package informer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/learn-k8s/informer/internal/jsonread"
	"github.com/learn-k8s/informer/internal/protobuf"
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
	timeType     = reflect.TypeFor[time.Time]()
	isZeroerType = reflect.TypeFor[interface{ IsZero() bool }]()
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
			isList := k == reflect.Slice || k == reflect.Map
			table.fields = append(table.fields, jsonField{
				name:         name,
				index:        index,
				isTime:       f.Type == timeType || f.Type == reflect.PointerTo(timeType),
				plainElems:   isList && f.Type.Elem().Kind() != reflect.Struct,
				zeroByMethod: f.Type.Implements(isZeroerType),
			})
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
			i, known := table.byName[name]
			if known && !table.fields[i].isZero(v.FieldByIndex(table.fields[i].index)) {
				continue // the field is set: it wins
			}
			buf = appendMember(buf, name, value)
		}
	}
	return append(buf, '}'), nil
}

// decodeKeeping decodes the JSON object data into the struct obj points to,
// following the rules at the top of this file: each member goes into its
// field or is kept raw. A null is no object: it is an error here (a member
// whose value is null never gets this far; it is kept raw).
func decodeKeeping(data []byte, obj lossless) error {
	v := reflect.ValueOf(obj).Elem()
	dec := json.NewDecoder(bytes.NewReader(data))
	if open, err := dec.Token(); err != nil || open != json.Delim('{') {
		return fmt.Errorf("a %s must be a JSON object", v.Type().Name())
	}
	v.SetZero() // this also clears the members kept before
	table := fieldsOf(v.Type())
	kept := []byte{'{'}
	for dec.More() {
		token, err := dec.Token() // a member name, or an error
		name, _ := token.(string)
		var value json.RawMessage
		if err == nil {
			err = dec.Decode(&value)
		}
		if err != nil {
			return err
		}
		if i, known := table.byName[name]; known {
			f := &table.fields[i]
			if typed, err := f.set(value, v.FieldByIndex(f.index)); err != nil || typed {
				if err != nil {
					return fmt.Errorf("%s: %w", f.name, err)
				}
				continue
			}
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, value); err != nil {
			return err
		}
		kept = appendMember(kept, name, compact.Bytes())
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF { // and nothing after it
		return fmt.Errorf("a %s must be one JSON object", v.Type().Name())
	}
	if len(kept) > 1 {
		*obj.kept() = bytes.Clone(append(kept, '}')) // it may be cached for long: no spare room
	}
	return nil
}

// set decodes value into field with encoding/json (a typed struct through
// its UnmarshalJSON). It reports false, with the field zero, when the
// member must stay raw instead: a null, a zero value (as `omitzero` would
// leave it out), or a time that would not be written back as value.
func (f *jsonField) set(value []byte, field reflect.Value) (typed bool, err error) {
	field.SetZero() // a repeated member replaces, never merges
	if string(value) == "null" {
		return false, nil
	}
	if f.plainElems && hasNull(value) {
		return false, errors.New(
			`a null inside a list or map of plain values would come back as ""`)
	}
	if err := json.Unmarshal(value, field.Addr().Interface()); err != nil {
		return false, err
	}
	if f.isZero(field) || (f.isTime && !readsBack(field, value)) {
		field.SetZero()
		return false, nil
	}
	return true, nil
}

// hasNull reports whether the JSON text holds a null outside its strings.
func hasNull(value []byte) bool {
	inString := false // inside a JSON string
	escaped := false  // just after a backslash in one
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

// decodeInOnePass chooses how watch.go's newBodyDecoder reads list and watch
// bodies: true, with internal/jsonread, which decodes the server's JSON in
// one pass and shares equal strings between objects, only for speed; false,
// with encoding/json, as the first reading does. Both give exactly the same
// objects (internal/jsonread's tests compare the two on every saved answer
// and on fuzzed input), so flipping it changes the speed and nothing else.
const decodeInOnePass = true

// newFastBodyDecoder returns the decoder of a list or watch body on
// internal/jsonread: the one call into that package. On a first reading,
// skip it: read it as json.NewDecoder(body). The Layout
// says where our objects keep what no Go field holds: an Unstructured's
// whole JSON object, and the members a typed kind does not model
// (lossless.go).
func newFastBodyDecoder(body io.Reader) bodyDecoder {
	return fastBodyDecoder{jsonread.NewDecoder(body, jsonread.Layout{
		Content: func(obj any) *map[string]any {
			if u, ok := obj.(*Unstructured); ok {
				return &u.Object
			}
			return nil
		},
		Unknown: unknownOf,
	})}
}

// newProtobufBodyDecoder returns the decoder of a list or watch body the
// server sent in Kubernetes protobuf: the one call into internal/protobuf,
// which decodes it straight into the same objects the JSON of the same
// body gives (its tests, and this package's, compare them on objects saved
// from a real kube-apiserver). On a first reading, skip it too.
func newProtobufBodyDecoder(body io.Reader) bodyDecoder {
	return fastBodyDecoder{protobuf.NewDecoder(body, protobuf.Layout{Unknown: unknownOf})}
}

// decodeProtobufObject decodes one object the server sent in protobuf (a
// Get's or a write's answer, or a Status).
func decodeProtobufObject(raw []byte, obj any) error {
	d := protobuf.NewDecoder(bytes.NewReader(raw), protobuf.Layout{Unknown: unknownOf})
	return d.Decode(obj)
}

// unknownOf is, for a pointer to a typed struct, where it keeps the members
// it does not model (the Layouts of both decoders); nil for anything else.
// Only a struct that embeds unknownFields itself counts: a kind of the
// user's that embeds ObjectMeta has ObjectMeta's kept method too, promoted,
// but its members are not ObjectMeta's; the decoders read it as
// encoding/json does, by its own UnmarshalJSON.
func unknownOf(structPtr any) *[]byte {
	l, ok := structPtr.(lossless)
	if !ok || !keepsItsOwn(reflect.TypeOf(structPtr)) {
		return nil
	}
	return (*[]byte)(l.kept())
}

// ownUnknownFields caches keepsItsOwn's answer per pointer type.
var ownUnknownFields sync.Map

// keepsItsOwn reports whether the struct ptrType points to embeds
// unknownFields at its own level.
func keepsItsOwn(ptrType reflect.Type) bool {
	if own, ok := ownUnknownFields.Load(ptrType); ok {
		return own.(bool)
	}
	own := false
	t := ptrType.Elem()
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous && f.Type == reflect.TypeFor[unknownFields]() {
			own = true
		}
	}
	ownUnknownFields.Store(ptrType, own)
	return own
}

// fastBodyDecoder is bodyDecoder on internal/jsonread or internal/protobuf, which read a
// list member by member: each top-level one into the target member returns (nil: skip it),
// each item into the object newItem returns.
type fastBodyDecoder struct {
	memberDecoder interface {
		DecodeList(member func(name string) any, newItem func() any) error
		DecodeEvent(newObject func(eventType string) any) (string, any, error)
	}
}

func (d fastBodyDecoder) DecodeEvent(newObject func(eventType string) any) (string, any, error) {
	return d.memberDecoder.DecodeEvent(newObject)
}

func (d fastBodyDecoder) DecodeList(list *ObjectList, newObject func() Object) error {
	return d.memberDecoder.DecodeList(func(name string) any {
		switch name {
		case "items":
			list.Items = nil // a second "items" replaces the first
		case "kind":
			return &list.Kind
		case "apiVersion":
			return &list.APIVersion
		case "metadata":
			return &list.ListMeta
		}
		return nil
	}, func() any {
		obj := newObject()
		list.Items = append(list.Items, obj)
		return obj
	})
}

// plan.go turns the schema's messages (fakeapi/schema) into plans the
// decoder follows: each message's fields in the order encoding/json writes
// them (the order of the Go struct's fields), found by field number in one
// step, each with the plan of its own message and what JSON makes of it. A
// message's fields arrive on the wire in field-number order, which is not
// always the Go order (PodSpec's initContainers, field 20, is written
// before containers, field 2), so a level is read in two steps: its fields
// are collected (openLevel), then visited in Go order, the values of each
// field together.
//
// client-go counterpart: none; the generated code of k8s.io/api knows each
// message's fields at compile time.
// Tutorial: none.

package protobuf

import (
	"fmt"
	"slices"
	"sync"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// schemaField is a field of the schema.
type schemaField = schema.Field

// msgPlan is one message as the decoder reads it.
type msgPlan struct {
	msg    *schema.Message
	fields []*schemaField // in Go order (schema.Message.GoOrder)
	// byNumber maps a field number to its index in fields, +1 (0: a field
	// this schema does not know, which is skipped, as client-go skips it).
	byNumber []int32
	subs     []*msgPlan  // per field: the plan of its message, or of its map's value; nil for scalars
	infos    []fieldInfo // per field: what the wire and JSON make of it
}

// shape is what JSON makes of a field's Go type.
type shape uint8

const (
	shapeScalar  shape = iota // a string, number or bool
	shapeBytes                // a []byte: base64, null when nil
	shapeMessage              // a struct held by value
	shapeList                 // a slice: null when nil
	shapeMap                  // a map: null when nil
	shapePointer              // a pointer: null when nil
	shapeInline               // an embedded struct: its members in the outer object
)

// fieldInfo is what the decoder needs to know of a field at every value,
// worked out once.
type fieldInfo struct {
	shape shape
	wire  int // the wire type of one value
	// packable: a repeated number, which may come packed (wire type 2).
	packable bool
	// absentLeftOut: JSON has no member for the field when the wire has no
	// value for it (omitempty, or omitzero on a struct), so a level skips it.
	absentLeftOut bool
	key           []byte // `"name":`, the member's name written out
}

// plans are every message's plan, by full name, built once.
var plans = sync.OnceValue(func() map[string]*msgPlan {
	msgs := schema.Messages()
	out := make(map[string]*msgPlan, len(msgs))
	for name, m := range msgs {
		p := &msgPlan{msg: m, fields: m.GoOrder}
		for i, f := range m.GoOrder {
			for f.Number >= len(p.byNumber) {
				p.byNumber = append(p.byNumber, 0)
			}
			p.byNumber[f.Number] = int32(i + 1)
		}
		out[name] = p
	}
	for _, p := range out {
		p.subs = make([]*msgPlan, len(p.fields))
		p.infos = make([]fieldInfo, len(p.fields))
		for i, f := range p.fields {
			p.subs[i] = out[f.Type]
			if f.Type == "map" {
				p.subs[i] = out[f.MapValue]
			}
			p.infos[i] = infoOf(f, p.subs[i])
		}
	}
	return out
})

// infoOf works out a field's fieldInfo.
func infoOf(f *schemaField, sub *msgPlan) fieldInfo {
	info := fieldInfo{wire: wireTypeOf(f.Type), key: append(appendString(nil, []byte(f.JSON)), ':')}
	switch {
	case f.Inline:
		info.shape = shapeInline
	case f.Type == "map":
		info.shape, info.wire = shapeMap, wireBytes
	case f.Repeated:
		info.shape = shapeList
		info.packable = info.wire != wireBytes
	case f.Ptr:
		info.shape = shapePointer
	case sub != nil:
		info.shape = shapeMessage
	case f.Type == "bytes":
		info.shape = shapeBytes
	}
	switch info.shape {
	case shapeMessage:
		info.absentLeftOut = f.OmitZero
	case shapeInline:
	default:
		info.absentLeftOut = f.OmitEmpty
	}
	return info
}

// planOf returns the plan of the message named name.
func planOf(name string) (*msgPlan, error) {
	if p := plans()[name]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("protobuf: message %s is not in the schema", name)
}

// index returns the index in p.fields of field number num, or -1.
func (p *msgPlan) index(num int) int {
	if num < len(p.byNumber) {
		return int(p.byNumber[num]) - 1
	}
	return -1
}

// occurrence is one field of a level, collected: the field's index in the
// plan and its value on the wire.
type occurrence struct {
	index int
	f     field
}

// maxDepth bounds the nesting of messages, so that hostile input cannot
// recurse without end.
const maxDepth = 64

// run is where one field's values are in a level: occ[start:start+n].
type run struct{ start, n int32 }

// level is one message being read: its fields as collected from the wire,
// and for each field of its plan, where its values are.
type level struct {
	occ  []occurrence
	runs []run
}

// values returns the values of field index i, in the order they came.
func (lv level) values(i int) []occurrence {
	r := lv.runs[i]
	return lv.occ[r.start : r.start+r.n]
}

// skips reports whether field i of p needs no work at this level: it has
// no value and JSON then writes no member for it.
func (lv level) skips(p *msgPlan, i int) bool {
	return lv.runs[i].n == 0 && p.infos[i].absentLeftOut
}

// openLevel collects the fields of message p, given as the values of one
// field (several are merged, as protobuf merges them), skipping the fields
// p does not know. Its slices live on w's stacks until closeLevel.
func (w *writer) openLevel(p *msgPlan, values []occurrence) (level, error) {
	occStart := len(w.occ)
	runStart := len(w.runs)
	w.runs = slices.Grow(w.runs, len(p.fields))[:runStart+len(p.fields)]
	runs := w.runs[runStart:]
	clear(runs)
	grouped := true // each field's values are next to each other
	last := -1
	for _, v := range values {
		for b := v.f.b; len(b) > 0; {
			f, rest, err := nextField(b)
			if err != nil {
				return level{}, err
			}
			b = rest
			i := p.index(f.num)
			if i < 0 {
				continue
			}
			if info := &p.infos[i]; f.wt != info.wire && !(info.packable && f.wt == wireBytes) {
				return level{}, fmt.Errorf("protobuf: %s.%s: wire type %d, want %d", p.msg.Name, p.fields[i].Name, f.wt, info.wire)
			}
			if r := &runs[i]; r.n == 0 {
				r.start = int32(len(w.occ) - occStart)
			} else if last != i {
				grouped = false
			}
			runs[i].n++
			last = i
			w.occ = append(w.occ, occurrence{index: i, f: f})
		}
	}
	lv := level{occ: w.occ[occStart:], runs: runs}
	if !grouped { // a field given in two places: bring its values together
		slices.SortStableFunc(lv.occ, func(a, b occurrence) int { return a.index - b.index })
		clear(runs)
		for j, o := range lv.occ {
			if runs[o.index].n == 0 {
				runs[o.index].start = int32(j)
			}
			runs[o.index].n++
		}
	}
	return lv, nil
}

// closeLevel gives back the stack space of lv and of every level opened
// after it.
func (w *writer) closeLevel(occStart, runStart int) {
	w.occ = w.occ[:occStart]
	w.runs = w.runs[:runStart]
}

// plan.go turns the schema's messages (fakeapi/schema) into plans the
// decoder follows: each message's fields in the order encoding/json writes
// them (the order of the Go struct's fields), found by field number in one
// step, each with the plan of its own message. A message's fields arrive
// on the wire in field-number order, which is not always the Go order
// (PodSpec's initContainers, field 20, is written before containers, field
// 2), so a level is read in two steps: its fields are collected
// (collect), then visited in Go order, the values of each field together.
//
// client-go counterpart: none; the generated code of k8s.io/api knows each
// message's fields at compile time.
// Tutorial: none.

package protobuf

import (
	"fmt"
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
	subs     []*msgPlan // per field: the plan of its message, or of its map's value; nil for scalars
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
		for i, f := range p.fields {
			p.subs[i] = out[f.Type]
			if f.Type == "map" {
				p.subs[i] = out[f.MapValue]
			}
		}
	}
	return out
})

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

// collect appends to occ the fields of message bytes b (a level of p), each
// with its index in p.fields, skipping the fields p does not know. A level
// may come in several parts (a message field given twice is merged, as
// protobuf merges it); sortLevel then puts the level in Go order. The
// caller truncates occ back when done with the level.
func collect(occ []occurrence, p *msgPlan, b []byte) ([]occurrence, error) {
	for len(b) > 0 {
		f, rest, err := nextField(b)
		if err != nil {
			return occ, err
		}
		b = rest
		i := p.index(f.num)
		if i < 0 {
			continue
		}
		sf := p.fields[i]
		want := wireTypeOf(sf.Type)
		if sf.Type == "map" {
			want = wireBytes
		}
		if f.wt != want && !(sf.Repeated && f.wt == wireBytes && want != wireBytes) {
			return occ, fmt.Errorf("protobuf: %s.%s: wire type %d, want %d", p.msg.Name, sf.Name, f.wt, want)
		}
		occ = append(occ, occurrence{index: i, f: f})
	}
	return occ, nil
}

// sortLevel sorts occ[start:] into Go order, stable, so that the values of
// a repeated field keep their order. It is an insertion sort: the wire
// order is field-number order, which is mostly the Go order already.
func sortLevel(occ []occurrence, start int) {
	for i := start + 1; i < len(occ); i++ {
		for j := i; j > start && occ[j-1].index > occ[j].index; j-- {
			occ[j-1], occ[j] = occ[j], occ[j-1]
		}
	}
}

// valuesOf returns the occurrences of field index i at the start of occ
// (sorted by collect), and the rest.
func valuesOf(occ []occurrence, i int) (values, rest []occurrence) {
	n := 0
	for n < len(occ) && occ[n].index == i {
		n++
	}
	return occ[:n], occ[n:]
}

// compat_protomessage.go (compatibility layer): one protobuf message to the
// JSON encoding/json would write for the Go struct it came from.
//
// gogo-protobuf writes every non-pointer field, zero or not; encoding/json
// leaves a zero one out only when its tag says omitempty (a struct, unless
// omitzero, never). So each field's Go facts (compat_protoschema.go) decide what
// is kept: a pointer that is on the wire is kept even when zero ("replicas":
// 0), a zero omitempty string is dropped, and a field that is missing but
// not omitempty gets its zero value, as the Go struct would have had it.
// client-go counterpart: the generated Unmarshal methods (generated.pb.go)
// followed by encoding/json. Tutorial: none.

package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// decodeMessage decodes b as message m at nesting depth.
func decodeMessage(m *protoMessage, b []byte, depth int) (map[string]any, error) {
	if depth > maxProtoDepth {
		return nil, fmt.Errorf("messages nested deeper than %d", maxProtoDepth)
	}
	values := map[int]any{}
	for len(b) > 0 {
		wf, rest, err := nextWireField(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		b = rest
		f := m.Fields[wf.num]
		if f == nil {
			return nil, fmt.Errorf("field number %d (wire type %d) of message %s is not in the schema", wf.num, wf.wt, m.Name)
		}
		switch {
		case f.Type == "map":
			k, v, err := mapEntry(f, wf, depth)
			if err != nil {
				return nil, err
			}
			mv, _ := values[f.Number].(map[string]any)
			if mv == nil {
				mv = map[string]any{}
				values[f.Number] = mv
			}
			mv[k] = v
		case f.Repeated && wf.wt == 2 && packable(f.Type):
			for p := wf.b; len(p) > 0; {
				n := 0
				wf.wt, wf.u, n = packedWireType(f.Type), 0, 0
				if wf.wt == 0 {
					wf.u, n = uvarint(p)
				} else if n = 8; wf.wt == 5 {
					n = 4
				}
				if n <= 0 || n > len(p) {
					return nil, fmt.Errorf("%s.%s: malformed packed field", m.Name, f.Name)
				}
				if wf.wt != 0 {
					for i := n - 1; i >= 0; i-- {
						wf.u = wf.u<<8 | uint64(p[i])
					}
				}
				p = p[n:]
				v, err := wireValue(m, f, f.Type, wf, depth)
				if err != nil {
					return nil, err
				}
				list, _ := values[f.Number].([]any)
				values[f.Number] = append(list, v)
			}
		default:
			v, err := wireValue(m, f, f.Type, wf, depth)
			if err != nil {
				return nil, err
			}
			if f.Repeated {
				list, _ := values[f.Number].([]any)
				v = append(list, v)
			}
			values[f.Number] = v
		}
	}
	out := map[string]any{}
	for _, f := range m.Order {
		v, present := values[f.Number]
		if !present {
			if f.Ptr || f.OmitEmpty && (f.Slice || f.Map || !f.Struct) || f.OmitZero {
				continue // left out when nil or zero
			}
			var err error
			if v, err = zeroJSON(f, depth); err != nil {
				return nil, err
			}
		} else if !f.Ptr && (f.OmitEmpty && !f.Struct || f.OmitZero) && isZeroJSON(v) {
			continue
		}
		if f.Inline {
			if sub, ok := v.(map[string]any); ok {
				for k, x := range sub {
					out[k] = x
				}
			}
			continue
		}
		out[f.JSON] = v
	}
	return out, nil
}

// mapEntry decodes one entry of a map<string, V> field.
func mapEntry(f *protoField, wf wireField, depth int) (string, any, error) {
	if wf.wt != 2 {
		return "", nil, fmt.Errorf("map field %s: wrong wire type %d", f.Name, wf.wt)
	}
	var key string
	var val any
	valueField := &protoField{Number: 2, Name: f.Name + " value", Type: f.MapValue}
	seenValue := false
	for b := wf.b; len(b) > 0; {
		e, rest, err := nextWireField(b)
		if err != nil {
			return "", nil, err
		}
		b = rest
		switch {
		case e.num == 1 && e.wt == 2:
			key = string(e.b)
		case e.num == 2:
			if val, err = wireValue(nil, valueField, f.MapValue, e, depth); err != nil {
				return "", nil, err
			}
			seenValue = true
		default:
			return "", nil, fmt.Errorf("map field %s: entry field number %d is not in the schema", f.Name, e.num)
		}
	}
	if !seenValue { // an absent value is the zero value
		var err error
		if val, err = zeroJSON(valueField, depth); err != nil {
			return "", nil, err
		}
	}
	return key, val, nil
}

// wireValue converts one value of type typ from the wire to JSON.
func wireValue(m *protoMessage, f *protoField, typ string, wf wireField, depth int) (any, error) {
	want := 2
	switch typ {
	case "bool", "int32", "int64", "uint32", "uint64":
		want = 0
	case "double":
		want = 1
	case "float":
		want = 5
	}
	if wf.wt != want {
		where := f.Name
		if m != nil {
			where = m.Name + "." + f.Name
		}
		return nil, fmt.Errorf("%s: wrong wire type %d (want %d)", where, wf.wt, want)
	}
	switch typ {
	case "string":
		return string(wf.b), nil
	case "bytes":
		return base64.StdEncoding.EncodeToString(wf.b), nil
	case "bool":
		return wf.u != 0, nil
	case "int32":
		return json.Number(strconv.FormatInt(int64(int32(wf.u)), 10)), nil
	case "int64":
		return json.Number(strconv.FormatInt(int64(wf.u), 10)), nil
	case "uint32":
		return json.Number(strconv.FormatUint(uint64(uint32(wf.u)), 10)), nil
	case "uint64":
		return json.Number(strconv.FormatUint(wf.u, 10)), nil
	case "double":
		return math.Float64frombits(wf.u), nil
	case "float":
		return float64(math.Float32frombits(uint32(wf.u))), nil
	}
	sub := protoSchema()[typ]
	if sub == nil {
		return nil, fmt.Errorf("message type %s is not in the schema", typ)
	}
	if (typ == pbTime || typ == pbMicroTime) && len(wf.b) == 0 {
		return nil, nil // the zero time: JSON null
	}
	v, err := decodeMessage(sub, wf.b, depth+1)
	if err != nil {
		return nil, err
	}
	return specialJSON(typ, v)
}

// specialJSON turns the decoded fields of a type with its own JSON form
// into that form; other messages are returned as they are.
func specialJSON(typ string, v map[string]any) (any, error) {
	num := func(k string) int64 {
		n, _ := v[k].(json.Number)
		i, _ := n.Int64()
		return i
	}
	switch typ {
	case pbTime, pbMicroTime: // both seconds and nanos live under their .proto names
		secs, nanos := num("seconds"), num("nanos")
		if typ == pbTime {
			nanos = 0 // metav1.Time keeps whole seconds
		}
		t := time.Unix(secs, nanos-nanos%1000).UTC()
		if t.IsZero() {
			return nil, nil
		}
		if typ == pbTime {
			return t.Format(time.RFC3339), nil
		}
		return t.Format("2006-01-02T15:04:05.000000Z07:00"), nil
	case pbDuration:
		return time.Duration(num("duration")).String(), nil
	case pbQuantity:
		s, _ := v["string"].(string)
		if s == "" {
			s = "0"
		}
		return s, nil
	case pbIntOrString:
		if num("type") == 1 {
			s, _ := v["strVal"].(string)
			return s, nil
		}
		return json.Number(strconv.FormatInt(num("intVal"), 10)), nil
	case pbRawExtension, pbFieldsV1:
		s, _ := v["raw"].(string) // the raw bytes, base64 as decoded
		if typ == pbFieldsV1 {
			s, _ = v["Raw"].(string)
		}
		raw, _ := base64.StdEncoding.DecodeString(s)
		if len(raw) == 0 {
			return nil, nil
		}
		return embeddedJSON(raw)
	}
	return v, nil
}

// embeddedJSON parses the JSON inside a RawExtension or FieldsV1.
func embeddedJSON(raw []byte) (any, error) {
	var x any
	obj, e := decodeObject(raw)
	if e == nil {
		return obj, nil
	}
	if err := json.Unmarshal(raw, &x); err != nil {
		return nil, fmt.Errorf("embedded object is not JSON: %v", err)
	}
	return x, nil
}

// zeroJSON is the JSON of field f's Go zero value.
func zeroJSON(f *protoField, depth int) (any, error) {
	switch {
	case f.Repeated || f.Slice || f.Map || f.Type == "map" || f.Type == "bytes":
		return nil, nil
	case f.Type == "string":
		return "", nil
	case f.Type == "bool":
		return false, nil
	case f.Type == "double" || f.Type == "float":
		return 0.0, nil
	case schema.IsScalar(f.Type):
		return json.Number("0"), nil
	}
	return wireValue(nil, f, f.Type, wireField{wt: 2}, depth)
}

// isZeroJSON reports whether v is the JSON of a zero scalar, or an empty
// list or map, which encoding/json's omitempty leaves out.
func isZeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case json.Number:
		return v == "0"
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// packable reports whether a repeated field of typ may be packed.
func packable(typ string) bool {
	return packedWireType(typ) >= 0
}

// packedWireType is the wire type of one packed element of typ, or -1.
func packedWireType(typ string) int {
	switch typ {
	case "bool", "int32", "int64", "uint32", "uint64":
		return 0
	case "double":
		return 1
	case "float":
		return 5
	}
	return -1
}

// compat_protoschema.go (compatibility layer): the protobuf messages of the
// served kinds, read from the real generated.proto files (schema/*.proto.gz)
// by a small parser.
//
// A Kubernetes .proto file is simple proto2: a package, imports, and
// messages whose fields are "optional T name = N;", "repeated T name = N;"
// or "map<K, V> name = N;". The parser reads exactly that and refuses
// anything else. What a .proto cannot say, the Go types can: a field's JSON
// name (an embedded struct's fields are inlined) and whether encoding/json
// leaves out its zero value. schema/gofields.txt carries those facts, one
// line per field, generated from the Go sources (schema/gofields.go).
// client-go counterpart: the generated.proto and generated.pb.go files of
// k8s.io/api and k8s.io/apimachinery (gogo-protobuf), and the json tags of
// their Go types. Tutorial: none.

package fakeapi

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// protoField is one field of a message: its wire form (from the .proto)
// and its JSON form (from the Go types).
type protoField struct {
	number   int
	name     string // the .proto name
	typ      string // a scalar type ("string", "int32", ...) or a message's full name
	repeated bool
	mapValue string // for a map<string, V>: V (typ is then "map")

	json string // the JSON name; "" for an inlined (embedded) message
	// Go facts (gofields.txt): omitempty or omitzero in the json tag, a
	// pointer, a slice, a map, or a non-pointer struct.
	omitEmpty, omitZero, ptr, slice, isMap, isStruct, inline bool
	goType                                                   string // "[]v1.Container", as Go's errors spell it
}

// protoMessage is a message: its full name and fields by number.
type protoMessage struct {
	name   string // "k8s.io.api.core.v1.Pod"
	fields map[int]*protoField
	order  []*protoField // in the order of the .proto
}

// protoSchema is every message of the checked-in .proto files, by full name.
var protoSchema = sync.OnceValue(func() map[string]*protoMessage {
	msgs := map[string]*protoMessage{}
	for _, f := range []string{"core-v1", "apps-v1", "meta-v1", "runtime", "runtime-schema", "resource", "intstr"} {
		if err := parseProto(string(schemaFile(f+".proto.gz")), msgs); err != nil {
			panic("fakeapi: schema/" + f + ".proto.gz: " + err.Error())
		}
	}
	if err := applyGoFields(string(schemaFile("gofields.txt.gz")), msgs); err != nil {
		panic("fakeapi: schema/gofields.txt.gz: " + err.Error())
	}
	return msgs
})

// protoScalars are the scalar types Kubernetes messages use.
var protoScalars = map[string]bool{"string": true, "bytes": true, "bool": true,
	"int32": true, "int64": true, "uint32": true, "uint64": true, "double": true, "float": true}

// parseProto adds the messages of one .proto file to msgs.
func parseProto(src string, msgs map[string]*protoMessage) error {
	toks := protoTokens(src)
	pkg := ""
	next := func() string {
		if len(toks) == 0 {
			return ""
		}
		t := toks[0]
		toks = toks[1:]
		return t
	}
	expect := func(want string) error {
		if t := next(); t != want {
			return fmt.Errorf("want %q, found %q", want, t)
		}
		return nil
	}
	resolve := func(t string) string {
		if protoScalars[t] {
			return t
		}
		if full, ok := strings.CutPrefix(t, "."); ok {
			return full
		}
		return pkg + "." + t
	}
	for len(toks) > 0 {
		switch t := next(); t {
		case "syntax", "option", "import", "package":
			var stmt []string
			for len(toks) > 0 && toks[0] != ";" {
				stmt = append(stmt, next())
			}
			if t == "package" && len(stmt) == 1 {
				pkg = stmt[0]
			}
			next()
		case "message":
			m := &protoMessage{name: pkg + "." + next(), fields: map[int]*protoField{}}
			if err := expect("{"); err != nil {
				return err
			}
			for len(toks) > 0 && toks[0] != "}" {
				f := &protoField{}
				switch label := next(); label {
				case "optional", "repeated":
					f.repeated = label == "repeated"
					f.typ = resolve(next())
				case "map":
					if err := expect("<"); err != nil {
						return err
					}
					if k := next(); k != "string" {
						return fmt.Errorf("%s: map key %q: only string keys are known", m.name, k)
					}
					if err := expect(","); err != nil {
						return err
					}
					f.typ, f.mapValue = "map", resolve(next())
					if err := expect(">"); err != nil {
						return err
					}
				default:
					return fmt.Errorf("%s: unexpected %q", m.name, label)
				}
				f.name = next()
				if err := expect("="); err != nil {
					return err
				}
				n, err := strconv.Atoi(next())
				if err != nil || n <= 0 || m.fields[n] != nil {
					return fmt.Errorf("%s.%s: bad field number", m.name, f.name)
				}
				f.number, f.json, f.omitEmpty = n, f.name, true
				if err := expect(";"); err != nil {
					return err
				}
				m.fields[n] = f
				m.order = append(m.order, f)
			}
			if err := expect("}"); err != nil {
				return err
			}
			msgs[m.name] = m
		default:
			return fmt.Errorf("unexpected %q", t)
		}
	}
	return nil
}

// protoTokens splits a .proto file into identifiers, numbers, strings and
// punctuation, leaving out comments.
func protoTokens(src string) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return toks
			}
			i += j
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return toks
			}
			i += j + 4
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return append(toks, src[i:])
			}
			toks = append(toks, src[i:i+j+2])
			i += j + 2
		case unicode.IsSpace(rune(c)):
			i++
		case c == '_' || c == '.' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '.' || unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j]))) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

// specialJSONTypes are the messages whose Go types write JSON of their own
// (compat_protomessage.go): their fields keep their .proto names.
var specialJSONTypes = map[string]bool{pbTime: true, pbMicroTime: true, pbDuration: true,
	pbFieldsV1: true, pbQuantity: true, pbIntOrString: true, pbRawExtension: true}

// applyGoFields records each field's JSON name and omission rule, from
// lines "pkg.Message number jsonName flags...". A field the lines do not
// name keeps its .proto name and is left out when unset.
func applyGoFields(src string, msgs map[string]*protoMessage) error {
	for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
		w := strings.Fields(line)
		if len(w) < 3 {
			return fmt.Errorf("bad line %q", line)
		}
		m := msgs[w[0]]
		n, _ := strconv.Atoi(w[1])
		if m == nil || m.fields[n] == nil || specialJSONTypes[w[0]] {
			continue // a Go field of a type no .proto here declares, or JSON of its own
		}
		f := m.fields[n]
		f.json, f.omitEmpty = w[2], false
		for _, flag := range w[3:] {
			switch flag {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero = true
			case "ptr":
				f.ptr = true
			case "slice":
				f.slice = true
			case "map":
				f.isMap = true
			case "struct":
				f.isStruct = true
			case "inline":
				f.inline, f.json = true, ""
			default:
				f.goType, _ = strings.CutPrefix(flag, "go=")
			}
		}
	}
	return nil
}

// goField is the field with JSON name key of the Go type behind the
// OpenAPI schema named schemaName ("io.k8s.api.core.v1.PodSpec"), looked
// up in its message and the messages it embeds; nil when unknown.
func goField(schemaName, key string) *protoField {
	m := protoSchema()["k8s.io."+strings.TrimPrefix(schemaName, "io.k8s.")]
	return goFieldIn(m, key, 0)
}

func goFieldIn(m *protoMessage, key string, depth int) *protoField {
	if m == nil || depth > 4 {
		return nil
	}
	for _, f := range m.order {
		if f.json == key {
			return f
		}
		if f.inline {
			if g := goFieldIn(protoSchema()[f.typ], key, depth+1); g != nil {
				return g
			}
		}
	}
	return nil
}

// goFieldType is the Go type of field key of schemaName, as Go's errors
// spell it ("[]v1.Container"); "" when unknown.
func goFieldType(schemaName, key string) string {
	if f := goField(schemaName, key); f != nil {
		return f.goType
	}
	return ""
}

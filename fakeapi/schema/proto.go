// proto.go reads the checked-in .proto files and gofields.txt into Messages.
//
// A Kubernetes .proto file is simple proto2: a package, imports, and
// messages whose fields are "optional T name = N;", "repeated T name = N;"
// or "map<K, V> name = N;". The parser reads exactly that and refuses
// anything else. What a .proto cannot say, the Go types can: a field's JSON
// name (an embedded struct's fields are inlined), whether encoding/json
// leaves out its zero value, and where the field stands among the Go
// fields. gofields.txt carries those facts, one line per field.
// client-go counterpart: none (protoc and go-to-protobuf read these files
// when k8s.io/api is generated). Tutorial: none.

package schema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// scalars are the scalar types Kubernetes messages use.
var scalars = map[string]bool{"string": true, "bytes": true, "bool": true,
	"int32": true, "int64": true, "uint32": true, "uint64": true, "double": true, "float": true}

// IsScalar reports whether typ, a Field's Type, is a scalar, not a message or a map.
func IsScalar(typ string) bool { return scalars[typ] }

// parseProto adds the messages of one .proto file to msgs.
func parseProto(src string, msgs map[string]*Message) error {
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
		if scalars[t] {
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
			m := &Message{Name: pkg + "." + next(), Fields: map[int]*Field{}}
			m.OwnJSON = OwnJSON[m.Name]
			if err := expect("{"); err != nil {
				return err
			}
			for len(toks) > 0 && toks[0] != "}" {
				f := &Field{}
				switch label := next(); label {
				case "optional", "repeated":
					f.Repeated = label == "repeated"
					f.Type = resolve(next())
				case "map":
					if err := expect("<"); err != nil {
						return err
					}
					if k := next(); k != "string" {
						return fmt.Errorf("%s: map key %q: only string keys are known", m.Name, k)
					}
					if err := expect(","); err != nil {
						return err
					}
					f.Type = "map"
					f.MapValue = resolve(next())
					if err := expect(">"); err != nil {
						return err
					}
				default:
					return fmt.Errorf("%s: unexpected %q", m.Name, label)
				}
				f.Name = next()
				if err := expect("="); err != nil {
					return err
				}
				n, err := strconv.Atoi(next())
				if err != nil || n <= 0 || m.Fields[n] != nil {
					return fmt.Errorf("%s.%s: bad field number", m.Name, f.Name)
				}
				f.Number = n
				f.JSON = f.Name
				f.OmitEmpty = true
				if err := expect(";"); err != nil {
					return err
				}
				m.Fields[n] = f
				m.Order = append(m.Order, f)
			}
			if err := expect("}"); err != nil {
				return err
			}
			msgs[m.Name] = m
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
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
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

// isWordByte reports whether c may be part of an identifier, a dotted
// name or a number.
func isWordByte(c byte) bool {
	return c == '_' || c == '.' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

// applyGoFields records each field's JSON name, omission rule and Go
// order, from lines "pkg.Message number jsonName flags..." (a message's
// lines in the order of its Go fields). A field the lines do not name
// keeps its .proto name, is left out when unset, and comes last.
func applyGoFields(src string, msgs map[string]*Message) error {
	for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
		w := strings.Fields(line)
		if len(w) < 3 {
			return fmt.Errorf("bad line %q", line)
		}
		m := msgs[w[0]]
		n, _ := strconv.Atoi(w[1])
		if m == nil || m.Fields[n] == nil || m.OwnJSON {
			continue // a Go field of a type no .proto here declares, or JSON of its own
		}
		f := m.Fields[n]
		f.JSON = w[2]
		f.OmitEmpty = false
		for _, flag := range w[3:] {
			switch flag {
			case "omitempty":
				f.OmitEmpty = true
			case "omitzero":
				f.OmitZero = true
			case "ptr":
				f.Ptr = true
			case "slice":
				f.Slice = true
			case "map":
				f.Map = true
			case "struct":
				f.Struct = true
			case "inline":
				f.Inline = true
				f.JSON = ""
			default:
				f.GoType, _ = strings.CutPrefix(flag, "go=")
			}
		}
		m.GoOrder = append(m.GoOrder, f)
	}
	for _, m := range msgs {
		named := map[*Field]bool{}
		for _, f := range m.GoOrder {
			named[f] = true
		}
		for _, f := range m.Order {
			if !named[f] {
				m.GoOrder = append(m.GoOrder, f)
			}
		}
	}
	return nil
}

// compat_fieldvalidation.go (compatibility layer): what the real server does
// with fields a kind's schema does not have, with fields sent twice, and with
// values of the wrong type.
//
// The fieldValidation parameter of a write (compat_options.go) decides:
//   - Strict: an unknown or duplicated field refuses the write: 400
//     BadRequest for a create or update ("Pod in version "v1" cannot be
//     handled as a Pod: strict decoding error: unknown field "spec.foo""),
//     422 Invalid for a patch;
//   - Warn, and the default: the write goes on, each field is named in a
//     Warning header (299 - "unknown field \"spec.foo\"");
//   - Ignore: the write goes on silently.
//
// Whatever the level, unknown fields are dropped, never stored (a
// duplicated field keeps its last value), and a value of the wrong type
// ("replicas": "3") refuses the write with the real decoder's 400. The
// fields are found by walking the body's JSON in order against the real
// OpenAPI schema (compat_openapi_schema.go), so they are named in the order sent.
// Counterparts: the apiserver's strict decoding
// (k8s.io/apimachinery/pkg/runtime/serializer/json with sigs.k8s.io/json)
// and its warning headers (k8s.io/apiserver/pkg/warning).
// Tutorial: none.

package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// checkFields applies the request's fieldValidation level to body, the
// decoded form of raw: it refuses a body with a mistyped value, and one
// with unknown or duplicated fields under Strict; otherwise it names them
// in Warning headers (unless Ignore) and drops the unknown fields from
// body. A patch (of ri's objects) is checked the same way; its "$"
// directives are not fields.
func checkFields(w http.ResponseWriter, r *http.Request, ri *resourceInfo, raw []byte, body map[string]any) *APIError {
	patch := r.Method == http.MethodPatch
	problems, typeErr := fieldProblems(raw, ri, patch)
	cannot := fmt.Sprintf("%s in version %q cannot be handled as a %s: ", ri.kind, ri.Version, ri.kind)
	if typeErr != "" {
		return errBadRequest(cannot + typeErr)
	}
	level := r.URL.Query().Get("fieldValidation")
	if len(problems) > 0 && level == "Strict" {
		msg := "strict decoding error: " + strings.Join(problems, ", ")
		if !patch {
			return errBadRequest(cannot + msg)
		}
		// The real server shows the strategic patch as Go prints a map,
		// and a merge patch's result as JSON (here: the patch itself).
		value := jsonText(body)
		if mediaType(r) == "application/strategic-merge-patch+json" {
			value = fmt.Sprint(body)
		}
		return errInvalid("", "", "", "patch", "FieldValueInvalid", fmt.Sprintf("Invalid value: %q: %s", value, msg))
	}
	if level != "Ignore" {
		for _, p := range problems {
			w.Header().Add("Warning", "299 - "+strconv.Quote(p))
		}
	}
	pruneUnknown(body, kindSchema(ri), patch)
	return nil
}

// pruneUnknown deletes the fields schema does not have from v, at every
// depth; keepDirectives keeps a patch's "$" keys.
func pruneUnknown(v any, schema map[string]any, keepDirectives bool) {
	schema = resolveSchema(schema)
	if schema == nil {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		props, isStruct := schema["properties"].(map[string]any)
		values, isMap := schema["additionalProperties"].(map[string]any)
		for k, x := range v {
			switch {
			case keepDirectives && strings.HasPrefix(k, "$"):
			case isStruct && props[k] == nil:
				delete(v, k)
			case isStruct:
				pruneUnknown(x, props[k].(map[string]any), keepDirectives)
			case isMap:
				pruneUnknown(x, values, keepDirectives)
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for _, x := range v {
				pruneUnknown(x, items, keepDirectives)
			}
		}
	}
}

// fieldProblems walks raw (a JSON object of ri's kind) and returns the
// unknown and duplicated fields, in the order met, and the first value of
// the wrong type as the real decoder words it ("" if none).
func fieldProblems(raw []byte, ri *resourceInfo, directives bool) (problems []string, typeErr string) {
	w := &fieldWalker{dec: json.NewDecoder(bytes.NewReader(raw)), directives: directives}
	w.dec.UseNumber()
	w.value(kindSchema(ri), "", "", ri.kind, "")
	return w.problems, w.typeErr
}

// fieldWalker reads one JSON value at a time and checks it against a schema.
type fieldWalker struct {
	dec        *json.Decoder
	directives bool // a patch: its "$" keys are not fields
	problems   []string
	typeErr    string
}

// value checks the next value against schema (nil: anything goes). path
// names it with list indexes ("spec.containers[0]"); goPath without
// ("spec.containers"); owner is the Go struct holding the field and goType
// the field's Go type, as the real decoder's type errors say them.
func (w *fieldWalker) value(schema map[string]any, path, goPath, owner, goType string) {
	tok, err := w.dec.Token()
	if err != nil {
		return
	}
	schema = resolveSchema(schema)
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			w.list(schema, path, goPath, owner, goType)
		} else {
			w.object(schema, path, goPath, owner, goType)
		}
	default:
		w.scalar(tok, schema, goPath, owner, goType)
	}
}

func (w *fieldWalker) object(schema map[string]any, path, goPath, owner, goType string) {
	props, isStruct := schema["properties"].(map[string]any)
	values, isMap := schema["additionalProperties"].(map[string]any)
	if schema != nil && schema["type"] != "object" && !isStruct && !isMap {
		w.mistyped("object", schema, goPath, owner, goType)
	}
	name, _ := schema["$name"].(string)
	seen := map[string]int{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return
		}
		key, _ := tok.(string)
		sub := joinPath(path, key)
		seen[key]++
		if seen[key] == 2 {
			w.problems = append(w.problems, fmt.Sprintf("duplicate field %q", sub))
		}
		switch {
		case w.directives && strings.HasPrefix(key, "$"):
			w.value(nil, sub, "", "", "")
		case isStruct && props[key] == nil:
			if seen[key] == 1 {
				w.problems = append(w.problems, fmt.Sprintf("unknown field %q", sub))
			}
			w.value(nil, sub, "", "", "")
		case isStruct && path == "" && (key == "kind" || key == "apiVersion"):
			w.value(nil, sub, "", "", "") // read before the object: see typesErr (compat_writes.go)
		case isStruct:
			w.value(props[key].(map[string]any), sub, joinPath(goPath, key), name[strings.LastIndex(name, ".")+1:], goFieldType(name, key))
		case isMap:
			_, elem, _ := strings.Cut(goType, "]")
			w.value(values, sub, goPath, owner, elem)
		default:
			w.value(nil, sub, "", "", "")
		}
	}
	_, _ = w.dec.Token() // the closing brace
}

func (w *fieldWalker) list(schema map[string]any, path, goPath, owner, goType string) {
	items, ok := schema["items"].(map[string]any)
	if schema != nil && !ok {
		w.mistyped("array", schema, goPath, owner, goType)
	}
	for i := 0; w.dec.More(); i++ {
		w.value(items, fmt.Sprintf("%s[%d]", path, i), goPath, owner, strings.TrimPrefix(goType, "[]"))
	}
	_, _ = w.dec.Token() // the closing bracket
}

// quantityPattern is the form a Quantity string must have.
var quantityPattern = regexp.MustCompile(`^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`)

func (w *fieldWalker) scalar(tok any, schema map[string]any, goPath, owner, goType string) {
	if schema == nil || tok == nil {
		return // null decodes into anything
	}
	if schema["$name"] == "io.k8s.apimachinery.pkg.api.resource.Quantity" {
		if s, ok := tok.(string); ok && !quantityPattern.MatchString(s) && w.typeErr == "" {
			w.typeErr = "quantities must match the regular expression '" + quantityPattern.String() + "'"
		}
		return
	}
	if schema["x-kubernetes-int-or-string"] == true || schema["format"] == "int-or-string" {
		return
	}
	got := ""
	switch tok := tok.(type) {
	case string:
		if schema["type"] != "string" {
			got = "string"
		}
	case bool:
		if schema["type"] != "boolean" {
			got = "bool"
		}
	case json.Number:
		switch schema["type"] {
		case "number":
		case "integer":
			bits := 64
			if schema["format"] == "int32" {
				bits = 32
			}
			if _, err := strconv.ParseInt(tok.String(), 10, bits); err != nil {
				got = "number " + tok.String()
			}
		default:
			got = "number"
		}
	}
	if got != "" {
		w.mistyped(got, schema, goPath, owner, goType)
	}
}

// mistyped records the real decoder's words for a value of JSON type got
// where schema wants another, if it is the first such value.
func (w *fieldWalker) mistyped(got string, schema map[string]any, goPath, owner, goType string) {
	if w.typeErr != "" {
		return
	}
	if goType == "" { // a type the Go facts do not name: spell the schema's
		switch schema["type"] {
		case "integer":
			goType = schema["format"].(string)
		case "boolean":
			goType = "bool"
		case "number":
			goType = "float64"
		default:
			goType, _ = schema["type"].(string)
		}
	}
	into := "Go value"
	if goPath != "" {
		into = "Go struct field " + owner + "." + goPath
	}
	w.typeErr = fmt.Sprintf("json: cannot unmarshal %s into %s of type %s", got, into, goType)
}

// joinPath appends a field name to a dotted path.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// compat_jsonpatch.go (compatibility layer): JSON patch (RFC 6902), the third
// patch type of the server.
//
// A JSON patch is a list of operations applied in order to the stored
// object: add, remove, replace, move, copy and test, each at a JSON
// pointer (RFC 6901: "/metadata/labels/app", "~1" for '/', "~0" for '~',
// "-" for the end of a list). If any operation fails (a missing path, a
// failed test) the whole patch is refused and nothing changes.
// client-go counterparts: types.JSONPatchType; the apiserver applies it
// with github.com/evanphx/json-patch (k8s.io/apiserver/pkg/endpoints/handlers/patch.go).
// Tutorial: none.

package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// jsonPatchOp is one operation of a JSON patch.
type jsonPatchOp struct {
	Op    string           `json:"op"`
	Path  *string          `json:"path"`
	From  *string          `json:"from"`
	Value *json.RawMessage `json:"value"`
}

// jsonPatch is a parsed JSON patch.
type jsonPatch []jsonPatchOp

// parseJSONPatch decodes raw as a list of operations.
func parseJSONPatch(raw []byte) (jsonPatch, *APIError) {
	var p jsonPatch
	if err := json.Unmarshal(raw, &p); err != nil {
		// worded as the real server's decoder words it
		return nil, errBadRequest("error decoding patch: " + strings.ReplaceAll(err.Error(), "fakeapi.jsonPatch", "[]handlers.jsonPatchOp"))
	}
	return p, nil
}

// errPatch is the real server's answer to a patch that cannot be applied:
// it does not say why (fakeapi's reason, err, is dropped to answer the same).
func errPatch(error) *APIError {
	return &APIError{Code: http.StatusUnprocessableEntity, Reason: "Invalid",
		Message: "the server rejected our request due to an error in our request", emptyDetails: true}
}

// apply applies the operations to a copy of target, in order.
func (p jsonPatch) apply(target map[string]any) (map[string]any, *APIError) {
	var doc any = deepCopy(target)
	for _, op := range p {
		var err error
		doc, err = op.apply(doc)
		if err != nil {
			return nil, errPatch(err)
		}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, errBadRequest("the patch replaced the object with something that is not an object")
	}
	return m, nil
}

func (op jsonPatchOp) value() (any, error) {
	if op.Value == nil {
		return nil, fmt.Errorf("missing value")
	}
	dec := json.NewDecoder(bytes.NewReader(*op.Value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return canonNumbers(v), nil
}

func (op jsonPatchOp) apply(doc any) (any, error) {
	if op.Path == nil {
		return nil, fmt.Errorf("operation missing path")
	}
	path := *op.Path
	switch op.Op {
	case "add":
		v, err := op.value()
		if err != nil {
			return nil, err
		}
		return pointerSet(doc, path, v, true)
	case "remove":
		_, doc, err := pointerRemove(doc, path)
		return doc, err
	case "replace":
		v, err := op.value()
		if err != nil {
			return nil, err
		}
		return pointerSet(doc, path, v, false) // a missing key of an object is added, as by the real server
	case "move", "copy":
		if op.From == nil {
			return nil, fmt.Errorf("operation missing from")
		}
		v, err := pointerGet(doc, *op.From)
		if err != nil {
			return nil, err
		}
		if op.Op == "move" {
			if _, doc, err = pointerRemove(doc, *op.From); err != nil {
				return nil, err
			}
		} else {
			v = deepCopy(v)
		}
		return pointerSet(doc, path, v, true)
	case "test":
		want, err := op.value()
		if err != nil {
			return nil, err
		}
		got, err := pointerGet(doc, path)
		if err != nil || !reflect.DeepEqual(got, want) {
			return nil, fmt.Errorf("testing value %s failed: test failed", path)
		}
		return doc, nil
	}
	return nil, fmt.Errorf("unexpected kind: %s", op.Op)
}

// splitPointer splits a JSON pointer into unescaped tokens.
func splitPointer(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("invalid path %s", path)
	}
	parts := strings.Split(path[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// pointerGet reads the value at path.
func pointerGet(doc any, path string) (any, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, p := range parts {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("unable to get nonexistent key: %s: missing value", p)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("unable to access invalid index: %s: invalid index referenced", p)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("unable to get nonexistent key: %s: missing value", p)
		}
	}
	return cur, nil
}

// pointerSet sets (insert: adds) v at path and returns the new document.
func pointerSet(doc any, path string, v any, insert bool) (any, error) {
	parts, err := splitPointer(path)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return v, nil
	}
	parent, err := pointerGet(doc, joinPointer(parts[:len(parts)-1]))
	if err != nil {
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q: missing value", path)
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]any:
		c[last] = v
		return doc, nil
	case []any:
		i := len(c)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(c) || !insert && i == len(c) {
				return nil, fmt.Errorf("unable to access invalid index: %s: invalid index referenced", last)
			}
		}
		var out []any
		if insert {
			out = append(append(append(out, c[:i]...), v), c[i:]...)
		} else {
			out = append(out, c...)
			out[i] = v
		}
		return pointerSet(doc, joinPointer(parts[:len(parts)-1]), out, false)
	}
	return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q: missing value", path)
}

// pointerRemove removes the value at path; it returns it and the new document.
func pointerRemove(doc any, path string) (any, any, error) {
	parts, err := splitPointer(path)
	if err != nil || len(parts) == 0 {
		return nil, nil, fmt.Errorf("unable to remove the whole document")
	}
	v, err := pointerGet(doc, path)
	if err != nil {
		return nil, nil, fmt.Errorf("remove operation does not apply: doc is missing path: %q: missing value", path)
	}
	parentPath := joinPointer(parts[:len(parts)-1])
	parent, _ := pointerGet(doc, parentPath)
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]any:
		delete(c, last)
		return v, doc, nil
	case []any:
		i, _ := strconv.Atoi(last)
		out := append(append([]any(nil), c[:i]...), c[i+1:]...)
		doc, err = pointerSet(doc, parentPath, out, false)
		return v, doc, err
	}
	return nil, nil, fmt.Errorf("remove operation does not apply: doc is missing path: %q: missing value", path)
}

func joinPointer(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

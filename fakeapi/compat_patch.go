// compat_patch.go (compatibility layer): JSON merge patch (RFC 7386) and
// strategic merge patch, the two patch types kubectl sends (kubectl patch
// --type merge; kubectl apply and kubectl patch's default, strategic).
//
// A merge patch is a partial object: maps merge key by key, null deletes a
// key, anything else (lists included) replaces. A strategic merge patch
// differs where the kind's schema says so: a list whose field has
// x-kubernetes-patch-strategy "merge" merges element by element, matched
// on its x-kubernetes-patch-merge-key (containers on "name", container
// ports on "containerPort", service ports on "port"), or, for a list of
// strings such as finalizers, as a set; and the patch may carry directives:
// "$patch": "replace" or "delete" (in a map or a list element),
// "$setElementOrder/<list>" (the order of the result), "$retainKeys" (a
// union field such as a deployment's strategy keeps only the named keys)
// and "$deleteFromPrimitiveList/<list>". The merge keys and strategies come
// from the real OpenAPI documents (compat_openapi.go); compat_smp.go and compat_smp_order.go
// do the merging. client-go counterparts:
// k8s.io/apimachinery/pkg/util/strategicpatch (StrategicMergeMapPatch, as
// the apiserver calls it) and github.com/evanphx/json-patch (MergePatch).
// Tutorial: none.

package fakeapi

import "strings"

// patchFunc applies a decoded patch to a copy of the stored object.
type patchFunc func(target, patch map[string]any) (map[string]any, *APIError)

// mergePatch applies an RFC 7386 merge patch to target and returns the
// result. target may be changed in place.
func mergePatch(target, patch map[string]any) (map[string]any, *APIError) {
	if target == nil {
		target = map[string]any{}
	}
	for k, pv := range patch {
		switch pv := pv.(type) {
		case nil:
			delete(target, k)
		case map[string]any:
			tv, _ := target[k].(map[string]any)
			target[k], _ = mergePatch(tv, pv)
		default:
			target[k] = pv
		}
	}
	return target, nil
}

// mergePatchOf is the merge patch of ri's objects: the result loses the
// empty fields the real server would not store (a patch that removes the
// last annotation leaves no "annotations": {}).
func mergePatchOf(ri *resourceInfo) patchFunc {
	return func(target, patch map[string]any) (map[string]any, *APIError) {
		out, _ := mergePatch(target, patch)
		dropEmpty(out, kindSchema(ri))
		return out, nil
	}
}

// strategicMergePatch is the strategic merge patch of ri's objects, driven
// by the schema of ri's kind.
func strategicMergePatch(ri *resourceInfo) patchFunc {
	return func(target, patch map[string]any) (map[string]any, *APIError) {
		out, err := smpMergeMap(target, patch, kindSchema(ri))
		if err != nil {
			return nil, err.status()
		}
		// Directives left in new fields, and fields the kind lacks, are
		// not stored: the real server decodes the result into its Go type.
		pruneUnknown(out, kindSchema(ri), false)
		dropEmpty(out, kindSchema(ri))
		return out, nil
	}
}

// dropEmpty removes what encoding/json would leave out when the real
// server stores the object: a field whose Go tag says omitempty and whose
// value is null, an empty map or an empty list (a patch can leave
// "annotations": {} behind, which the real server does not keep).
func dropEmpty(v any, schema map[string]any) {
	schema = resolveSchema(schema)
	switch v := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		name, _ := schema["$name"].(string)
		for k, x := range v {
			sub, _ := props[k].(map[string]any)
			dropEmpty(x, sub)
			f := goField(name, k)
			if f == nil || !f.OmitEmpty || f.Struct && !f.Ptr {
				continue
			}
			if x == nil || kindOf(x) != "scalar" && isZeroJSON(x) {
				delete(v, k)
			}
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		for _, x := range v {
			dropEmpty(x, items)
		}
	}
}

// smpError is a failed strategic merge: the message of the real one, and
// whether the real server answers 400 (a badly formed directive) or, as
// it does for every other failure, 500.
type smpError struct {
	msg        string
	badRequest bool
}

func (e *smpError) status() *APIError {
	if e.badRequest {
		return errBadRequest(e.msg)
	}
	return &APIError{Code: 500, Message: e.msg}
}

// The strategic merge patch's directive keys and values.
const (
	smpDirective    = "$patch"
	smpRetainKeys   = "$retainKeys"
	smpSetOrder     = "$setElementOrder/"
	smpDeleteFromPL = "$deleteFromPrimitiveList/"
)

// Errors whose words are the real ones (k8s.io/apimachinery/pkg/util/mergepatch).
var (
	errSMPRetainKeys = &smpError{"invalid patch format of retainKeys", true}
	errSMPSetOrder   = &smpError{"invalid patch format of setElementOrder list", true}
	errSMPListOfList = &smpError{msg: "lists of lists are not supported"}
)

// kindOf groups JSON values as the merge compares them: "map", "list" or
// "scalar" (numbers of any Go type are one kind).
func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map"
	case []any:
		return "list"
	}
	return "scalar"
}

// withoutDirectives is v without its directives: a map carrying "$patch"
// is dropped (ok false), as is a list element carrying one.
func withoutDirectives(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[smpDirective]; ok {
			return nil, false
		}
		for k, x := range v {
			if nx, keep := withoutDirectives(x); keep {
				v[k] = nx
			} else {
				delete(v, k)
			}
		}
		return v, true
	case []any:
		out := []any{}
		for _, x := range v {
			if nx, keep := withoutDirectives(x); keep {
				out = append(out, nx)
			}
		}
		return out, true
	}
	return v, true
}

// withoutNulls removes the null values of a patch's maps, at every depth:
// a null that has nothing to delete is dropped, not stored.
func withoutNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				withoutNulls(x)
			}
		}
	case []any:
		for _, x := range v {
			withoutNulls(x)
		}
	}
}

// sameKey reports whether two merge-key values are equal; numbers compare
// by their decimal text, whichever Go type holds them.
func sameKey(a, b any) bool {
	if kindOf(a) != "scalar" || kindOf(b) != "scalar" {
		return false
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return scalarText(a) == scalarText(b)
}

// scalarText is the text of a JSON scalar, with its type, so "80" and 80
// differ but json.Number("80"), int64(80) and float64(80) do not.
func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return "s" + v
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	s := strings.TrimSuffix(jsonText(v), ".0")
	return "n" + s
}

// patch.go: JSON merge patch (RFC 7386) and a simplified strategic merge patch.
//
// A merge patch is a partial object: maps merge key by key, null deletes a
// key, anything else (lists included) replaces. kubectl's client-side apply
// sends a strategic merge patch for built-in kinds, which differs for lists
// of objects: they merge element by element on a key ("name" for
// containers, ports, env...). We support that simple case: lists whose
// elements all have a "name" merge by name, "$patch": "delete" inside such
// an element removes it, and the other "$..." directives are dropped
// (so $setElementOrder does not reorder). Lists of anything else replace.
// client-go counterparts: k8s.io/apimachinery/pkg/util/strategicpatch and
// github.com/evanphx/json-patch (MergePatch). Tutorial: 000 §2.5.

package fakeapi

import "strings"

// mergePatch applies an RFC 7386 merge patch to target and returns the
// result. target may be changed in place.
func mergePatch(target, patch map[string]any) map[string]any {
	return mergeMaps(target, patch, false)
}

// strategicMergePatch applies a strategic merge patch, simplified as the
// file comment describes.
func strategicMergePatch(target, patch map[string]any) map[string]any {
	return mergeMaps(target, patch, true)
}

func mergeMaps(target, patch map[string]any, strategic bool) map[string]any {
	if target == nil {
		target = map[string]any{}
	}
	for k, pv := range patch {
		if strategic && strings.HasPrefix(k, "$") {
			continue // a directive such as $setElementOrder/..., $retainKeys
		}
		if pv == nil {
			delete(target, k)
			continue
		}
		switch pv := pv.(type) {
		case map[string]any:
			tv, _ := target[k].(map[string]any)
			target[k] = mergeMaps(tv, pv, strategic)
		case []any:
			tv, _ := target[k].([]any)
			if strategic && namedList(pv) && namedList(tv) {
				target[k] = mergeNamedLists(tv, pv)
			} else {
				target[k] = stripDirectives(pv, strategic)
			}
		default:
			target[k] = pv
		}
	}
	return target
}

// namedList reports whether every element is an object with a string "name".
func namedList(list []any) bool {
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["name"].(string); !ok {
			return false
		}
	}
	return true
}

// mergeNamedLists merges patch elements into target elements with the same
// name, appends new ones, and removes those marked "$patch": "delete".
func mergeNamedLists(target, patch []any) []any {
	out := append([]any(nil), target...)
	index := func(name string) int {
		for i, x := range out {
			if x.(map[string]any)["name"] == name {
				return i
			}
		}
		return -1
	}
	for _, x := range patch {
		pm := x.(map[string]any)
		i := index(pm["name"].(string))
		switch {
		case pm["$patch"] == "delete":
			if i >= 0 {
				out = append(out[:i], out[i+1:]...)
			}
		case i >= 0:
			out[i] = mergeMaps(out[i].(map[string]any), pm, true)
		default:
			out = append(out, mergeMaps(nil, pm, true))
		}
	}
	return out
}

// stripDirectives removes "$..." keys from the objects of a list that
// replaces a target list (in a strategic patch), leaving the list otherwise as sent.
func stripDirectives(list []any, strategic bool) []any {
	if !strategic {
		return list
	}
	out := make([]any, 0, len(list))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			if m["$patch"] == "delete" {
				continue
			}
			x = mergeMaps(nil, m, true)
		}
		out = append(out, x)
	}
	return out
}

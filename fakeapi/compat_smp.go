// compat_smp.go (compatibility layer): the strategic merge of maps and lists
// (compat_patch.go says what the patch type is), following the schema's patch
// strategies and merge keys.
//
// The steps and their order are the real server's, so the result is its
// result, list order included: a map's "$patch" directive first, then
// "$retainKeys", then every "$setElementOrder/<list>", then the other keys
// one by one. A list merges only when its field's strategy is "merge";
// other lists are replaced as sent. client-go counterpart: mergeMap and
// mergeSlice in k8s.io/apimachinery/pkg/util/strategicpatch/patch.go.
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"strings"
)

// smpMergeMap merges patch into original (which it may change) following
// schema (the resolved schema of the map; nil when unknown).
func smpMergeMap(original, patch map[string]any, schema map[string]any) (map[string]any, *smpError) {
	if d, ok := patch[smpDirective]; ok {
		switch d {
		case "replace":
			delete(patch, smpDirective)
			return patch, nil
		case "delete":
			return map[string]any{}, nil
		}
		return nil, &smpError{msg: fmt.Sprintf("unknown patch type: %v in map: %v", d, patch)}
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := smpRetain(original, patch); err != nil {
		return nil, err
	}
	if err := smpSetOrders(original, patch, schema); err != nil {
		return nil, err
	}
	for k, pv := range patch {
		deleteList := false
		if field, ok := strings.CutPrefix(k, smpDeleteFromPL); ok {
			k, deleteList = field, true
		} else if strings.HasPrefix(k, "$") && strings.Contains(k, "/") {
			return nil, &smpError{"invalid patch format of primitive list", true}
		}
		if pv == nil {
			delete(original, k)
			continue
		}
		ov, found := original[k]
		if !found || kindOf(ov) != kindOf(pv) {
			if !deleteList {
				withoutNulls(pv)
				if v, keep := withoutDirectives(pv); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		strategy, mergeKey, sub := patchMeta(schema, k)
		var err *smpError
		switch ov := ov.(type) {
		case map[string]any:
			if strategy == "replace" {
				original[k] = pv
			} else {
				original[k], err = smpMergeMap(ov, pv.(map[string]any), sub)
			}
		case []any:
			if strategy == "merge" || deleteList {
				original[k], err = smpMergeList(ov, pv.([]any), sub, mergeKey, deleteList)
			} else {
				original[k] = pv
			}
		default:
			if v, keep := withoutDirectives(pv); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// smpRetain applies "$retainKeys": every key the patch sets must be listed,
// and the original keeps only the listed keys.
func smpRetain(original, patch map[string]any) *smpError {
	v, ok := patch[smpRetainKeys]
	if !ok {
		return nil
	}
	delete(patch, smpRetainKeys)
	list, ok := v.([]any)
	if !ok {
		return errSMPRetainKeys
	}
	listed := func(k string) bool {
		for _, x := range list {
			if x == k {
				return true
			}
		}
		return false
	}
	for k, pv := range patch {
		if pv != nil && !strings.HasPrefix(k, smpDeleteFromPL) && !strings.HasPrefix(k, smpSetOrder) && !listed(k) {
			return errSMPRetainKeys
		}
	}
	for k := range original {
		if !listed(k) {
			delete(original, k)
		}
	}
	return nil
}

// smpSetOrders applies every "$setElementOrder/<list>" of patch: the list
// is merged, then ordered as the directive says, and the patch's own entry
// for the list is consumed.
func smpSetOrders(original, patch map[string]any, schema map[string]any) *smpError {
	var keys []string
	for k := range patch {
		if strings.HasPrefix(k, smpSetOrder) {
			keys = append(keys, k)
		}
	}
	for _, key := range keys {
		order, ok := patch[key].([]any)
		delete(patch, key)
		if !ok {
			return &smpError{msg: fmt.Sprintf("expected a []interface {}, but received a %T", patch[key])}
		}
		field := strings.TrimPrefix(key, smpSetOrder)
		if field == "" {
			return errSMPSetOrder
		}
		ov, inOriginal := original[field]
		pv, inPatch := patch[field]
		origList, ok1 := ov.([]any)
		patchList, ok2 := pv.([]any)
		if inOriginal && !ok1 || inPatch && !ok2 {
			return &smpError{msg: fmt.Sprintf("expected a []interface {}, but received a %T", pv)}
		}
		strategy, mergeKey, sub := patchMeta(schema, field)
		if err := checkSetOrder(patchList, order, mergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case inOriginal && !inPatch:
			merged = origList
		case !inOriginal && inPatch:
			v, keep := withoutDirectives(patchList)
			if !keep {
				continue
			}
			merged = v.([]any)
		case inOriginal && inPatch:
			var err *smpError
			if strategy == "merge" {
				merged, err = smpMergeList(origList, patchList, sub, mergeKey, false)
			} else {
				merged = patchList
			}
			if err != nil {
				return err
			}
		default:
			continue
		}
		inOrder, serverOnly, err := partitionByPresence(merged, order, mergeKey)
		if err != nil {
			return err
		}
		isMap, err := elementsAreMaps(origList, patchList)
		if err != nil {
			return err
		}
		if original[field], err = normalizeOrder(inOrder, serverOnly, order, origList, mergeKey, isMap); err != nil {
			return err
		}
		delete(patch, field)
	}
	return nil
}

// smpMergeList merges a patch list into an original list with the "merge"
// strategy: lists of scalars as sets, lists of maps by mergeKey.
func smpMergeList(original, patch []any, schema map[string]any, mergeKey string, deleteList bool) ([]any, *smpError) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	isMap, err := elementsAreMaps(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if !isMap {
		if deleteList {
			return removeScalars(original, patch), nil
		}
		merged = dedupeScalars(append(original, patch...))
		mergeKey = ""
	} else {
		if mergeKey == "" {
			return nil, &smpError{msg: "cannot merge lists without merge key"}
		}
		if original, patch, err = listDirectives(original, patch, mergeKey); err != nil {
			return nil, err
		}
		merged = original
		for _, x := range patch {
			pm := x.(map[string]any)
			kv, ok := pm[mergeKey]
			if !ok {
				return nil, errNoMergeKey(pm, mergeKey)
			}
			i, err := findByKey(merged, mergeKey, kv)
			if err != nil {
				return nil, err
			}
			if i < 0 {
				merged = append(merged, x)
				continue
			}
			if merged[i], err = smpMergeMap(merged[i].(map[string]any), pm, schema); err != nil {
				return nil, err
			}
		}
		// The original's order is that of the list before the new
		// elements were appended (they share storage, not length).
		original = merged[:len(original):len(original)]
	}
	inPatch, serverOnly, err := partitionByPresence(merged, patch, mergeKey)
	if err != nil {
		return nil, err
	}
	return normalizeOrder(inPatch, serverOnly, patch, original, mergeKey, isMap)
}

// listDirectives applies the "$patch" elements of a patch list of maps:
// "delete" removes the original elements with that merge key, "replace"
// makes the patch's other elements the whole list. It returns the new
// original and the patch without them.
func listDirectives(original, patch []any, mergeKey string) ([]any, []any, *smpError) {
	rest := []any{}
	replace := false
	for _, x := range patch {
		pm := x.(map[string]any)
		d, ok := pm[smpDirective]
		if !ok {
			rest = append(rest, x)
			continue
		}
		switch d {
		case "delete":
			kv, ok := pm[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(pm, mergeKey)
			}
			kept := original[:0:0]
			for _, o := range original {
				if om, _ := o.(map[string]any); om == nil || !sameKey(om[mergeKey], kv) {
					kept = append(kept, o)
				}
			}
			original = kept
		case "replace":
			replace = true
		case "merge":
			return nil, nil, &smpError{msg: "merging lists cannot yet be specified in the patch"}
		default:
			return nil, nil, &smpError{msg: fmt.Sprintf("unknown patch type: %v in map: %v", d, pm)}
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// patchMeta is the patch strategy ("merge", "replace" or ""), merge key
// and value schema of field k of a map whose schema is schema.
func patchMeta(schema map[string]any, k string) (strategy, mergeKey string, sub map[string]any) {
	prop := propertySchema(schema, k)
	for _, s := range strings.Split(str(prop["x-kubernetes-patch-strategy"]), ",") {
		if s == "merge" || s == "replace" {
			strategy = s
		}
	}
	mergeKey = str(prop["x-kubernetes-patch-merge-key"])
	if items, ok := prop["items"].(map[string]any); ok {
		return strategy, mergeKey, resolveSchema(items)
	}
	return strategy, mergeKey, resolveSchema(prop)
}

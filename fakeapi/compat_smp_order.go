// compat_smp_order.go (compatibility layer): the order of a strategically
// merged list, and the small list helpers of the merge (compat_smp.go).
//
// The real server orders a merged list in two groups: the elements the
// patch named, sorted by the patch's order (or its $setElementOrder
// directive), and the elements only the server had, in their old order;
// then it interleaves the two by the server's old positions. The sort is
// Go's stable sort with the real server's comparison, so ties fall the
// same way. client-go counterpart: normalizeElementOrder, mergeSortedSlice
// and deduplicateScalars in k8s.io/apimachinery/pkg/util/strategicpatch.
// Tutorial: none.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"sort"
)

// normalizeOrder sorts inPatch by patchOrder and serverOnly by
// serverOrder, then merges the two by their positions in serverOrder.
func normalizeOrder(inPatch, serverOnly, patchOrder, serverOrder []any, mergeKey string, isMap bool) ([]any, *smpError) {
	inPatch, err := sortByOrder(inPatch, patchOrder, mergeKey, isMap)
	if err != nil {
		return nil, err
	}
	if serverOnly, err = sortByOrder(serverOnly, serverOrder, mergeKey, isMap); err != nil {
		return nil, err
	}
	out := make([]any, 0, len(inPatch)+len(serverOnly))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(inPatch) {
		switch {
		case j >= len(inPatch):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, inPatch[j])
			j++
		default:
			li, ri := indexOf(serverOrder, serverOnly[i], mergeKey, isMap), indexOf(serverOrder, inPatch[j], mergeKey, isMap)
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, inPatch[j])
				j++
			}
		}
	}
	return out, nil
}

// sortByOrder sorts list stably by the positions of its elements in order;
// for maps, elements marked "$patch": "delete" go last.
func sortByOrder(list, order []any, mergeKey string, isMap bool) ([]any, *smpError) {
	var deleted []any
	if isMap {
		for _, l := range [][]any{list, order} {
			for _, x := range l {
				m, ok := x.(map[string]any)
				if !ok {
					return nil, &smpError{msg: fmt.Sprintf("expected a map[string]interface {}, but received a %T", x)}
				}
				if _, ok := m[mergeKey]; !ok {
					return nil, errNoMergeKey(m, mergeKey)
				}
			}
		}
		kept := make([]any, 0, len(list))
		for _, x := range list {
			if x.(map[string]any)[smpDirective] == "delete" {
				deleted = append(deleted, x)
			} else {
				kept = append(kept, x)
			}
		}
		list = kept
	}
	// The comparison is the real one, which is not a strict order (an
	// element missing from order sorts before anything): keep it as is.
	sort.SliceStable(list, func(a, b int) bool {
		if ia := indexOf(order, list[a], mergeKey, isMap); ia >= 0 {
			if ib := indexOf(order, list[b], mergeKey, isMap); ib >= 0 {
				return ia < ib
			}
		}
		return true
	})
	return append(list, deleted...), nil
}

// indexOf is the position in list of the element equal to x (for maps:
// with the same merge key value), or -1.
func indexOf(list []any, x any, mergeKey string, isMap bool) int {
	val := func(v any) any {
		if !isMap {
			return v
		}
		m, _ := v.(map[string]any)
		return m[mergeKey]
	}
	for i, v := range list {
		if sameKey(val(x), val(v)) {
			return i
		}
	}
	return -1
}

// partitionByPresence splits merged into the elements present in by (for
// maps: by merge key) and the others, each in merged's order.
func partitionByPresence(merged, by []any, mergeKey string) (present, absent []any, err *smpError) {
	present, absent = make([]any, 0, len(merged)), make([]any, 0, len(merged))
	for _, x := range merged {
		var i int
		if mergeKey == "" {
			i = indexOf(by, x, "", false)
		} else {
			m, ok := x.(map[string]any)
			if !ok {
				return nil, nil, &smpError{msg: fmt.Sprintf("expected a map[string]interface {}, but received a %T", x)}
			}
			kv, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			if i, err = findByKey(by, mergeKey, kv); err != nil {
				return nil, nil, err
			}
		}
		if i >= 0 {
			present = append(present, x)
		} else {
			absent = append(absent, x)
		}
	}
	return present, absent, nil
}

// findByKey is the position of the map in list whose mergeKey is kv, or -1.
func findByKey(list []any, mergeKey string, kv any) (int, *smpError) {
	for i, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return 0, &smpError{msg: fmt.Sprintf("value for key %v is not a map", i)}
		}
		if v, ok := m[mergeKey]; ok && sameKey(v, kv) {
			return i, nil
		}
	}
	return -1, nil
}

// elementsAreMaps reports whether the elements of the lists are maps; they
// must all be of one kind, and lists of lists are refused.
func elementsAreMaps(lists ...[]any) (bool, *smpError) {
	kind := ""
	for _, l := range lists {
		for _, x := range l {
			k := kindOf(x)
			if k == "list" {
				return false, errSMPListOfList
			}
			if kind != "" && k != kind {
				return false, &smpError{msg: fmt.Sprintf("list element types are not identical: %v", lists)}
			}
			kind = k
		}
	}
	if kind == "" {
		return false, &smpError{msg: "no elements in any of the given slices"}
	}
	return kind == "map", nil
}

// dedupeScalars removes repeated scalars the way the real server does: a
// repeat is overwritten by the list's last element, so the order changes
// (the sort that follows puts it right).
func dedupeScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if sameKey(s[i], s[j]) {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

// removeScalars is list without the values of remove
// ($deleteFromPrimitiveList).
func removeScalars(list, remove []any) []any {
	out := make([]any, 0, len(list))
	for _, x := range list {
		if indexOf(remove, x, "", false) < 0 {
			out = append(out, x)
		}
	}
	return out
}

// checkSetOrder refuses a $setElementOrder list that leaves out, or
// misorders, an element the patch list sets.
func checkSetOrder(patchList, order []any, mergeKey string) *smpError {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	var set []any
	for _, x := range patchList {
		if m, ok := x.(map[string]any); mergeKey != "" && ok && m[smpDirective] == "delete" {
			continue
		}
		set = append(set, x)
	}
	p, o := 0, 0
	for p < len(set) && o < len(order) {
		if m, ok := set[p].(map[string]any); ok && m[smpDirective] != nil {
			p++
			continue
		}
		if mergeKey == "" {
			if sameKey(set[p], order[o]) {
				p++
			}
		} else {
			pm, ok1 := set[p].(map[string]any)
			om, ok2 := order[o].(map[string]any)
			if !ok1 || !ok2 {
				return &smpError{msg: "expected a map[string]interface {}"}
			}
			if _, ok := pm[mergeKey]; !ok {
				return errNoMergeKey(pm, mergeKey)
			}
			if _, ok := om[mergeKey]; !ok {
				return errNoMergeKey(om, mergeKey)
			}
			if sameKey(pm[mergeKey], om[mergeKey]) {
				p++
			}
		}
		o++
	}
	if p < len(set) && o >= len(order) {
		return &smpError{msg: fmt.Sprintf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, "$setElementOrder", order)}
	}
	return nil
}

// errNoMergeKey is the real message for a list element without its key.
func errNoMergeKey(m map[string]any, key string) *smpError {
	return &smpError{msg: fmt.Sprintf("map: %v does not contain declared merge key: %s", m, key)}
}

// jsonText is v as JSON text.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

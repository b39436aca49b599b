// shared_values.go holds sharedValues: the generic objects that one decoder
// makes share their equal strings and numbers, instead of each holding its
// own copy. Thousands of cached objects of one kind repeat the same values
// ("Running", "TCP", "IfNotPresent", an image, a label, "0"...); each copy
// costs an allocation for the bytes and one for the interface box, about
// 30 bytes. On the benchmark pods it saves about 12% of the heap of a
// generic cache (BenchmarkDecode, B/obj of Unstructured/list).
//
// What a user sees does not change: the maps hold the same values of the
// same types (string, json.Number), in the same places. Strings cannot be
// changed in place, so sharing them is invisible.
//
// client-go counterpart: none; client-go's unstructured objects each keep
// their own copies.
//
// Tutorial: 004 §3.1 (one type for all kinds, and what it costs).

package informer

import "encoding/json"

const (
	// maxSharedLen is the longest value shared: long strings (certificates,
	// scripts, JSON in annotations) are rarely repeated.
	maxSharedLen = 128
	// maxShared bounds the table; when it is full it starts again empty, so
	// values that only come later still get shared, and memory stays bounded.
	maxShared = 4096
)

// sharedValues maps a value to the one boxed copy of it that every object
// decoded afterwards gets. Not safe for concurrent use: one per decoder.
type sharedValues struct {
	strings map[string]any // string → the shared any holding it
	numbers map[string]any // json.Number → the shared any holding it
}

func newSharedValues() *sharedValues {
	return &sharedValues{strings: map[string]any{}, numbers: map[string]any{}}
}

// shareIn replaces, in place, every string and number inside the decoded
// JSON value v with its shared copy.
func (t *sharedValues) shareIn(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := t.share(e); ok {
				v[k] = s // k is already there: the map does not grow
			}
		}
	case []any:
		for i, e := range v {
			if s, ok := t.share(e); ok {
				v[i] = s
			}
		}
	}
}

// share returns the shared copy of e if e is a string or a number (and
// remembers e as the shared copy if there is none yet); it descends into
// maps and slices and returns false for them, and for other values.
func (t *sharedValues) share(e any) (any, bool) {
	var table map[string]any
	var s string
	switch e := e.(type) {
	case string:
		table, s = t.strings, e
	case json.Number:
		table, s = t.numbers, string(e)
	case map[string]any, []any:
		t.shareIn(e)
		return nil, false
	default:
		return nil, false
	}
	if len(s) > maxSharedLen {
		return nil, false
	}
	if shared, ok := table[s]; ok {
		return shared, true
	}
	if len(t.strings)+len(t.numbers) >= maxShared {
		clear(t.strings)
		clear(t.numbers)
	}
	table[s] = e
	return nil, false
}

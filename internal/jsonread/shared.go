// shared.go holds sharedValues: the objects that one decoder makes share
// their equal strings (and, in generic objects, numbers and map keys)
// instead of each holding its own copy. Thousands of cached objects of one
// kind repeat the same keys ("metadata", "containerPort"...) and values
// ("Running", "TCP", an image, a label, "0"...); each copy of a value costs
// an allocation for the bytes, and in a generic object one more for the
// interface box, about 30 bytes. The readers (generic.go, and readers.go
// for typed structs) ask the table before they allocate, so a value seen
// before costs nothing. On the benchmark pods it saves about 22% of the
// heap of a generic cache (the root's BenchmarkDecode, B/obj of
// Unstructured/list), and 8% of a typed one listed, with half the
// allocations per Pod (typed objects share only in lists: decodeItem says
// why).
//
// What a user sees does not change: fields and maps hold the same values
// of the same types (string, json.Number), in the same places, under the
// same keys (which are shared too). Strings cannot be changed in place, so
// sharing them is invisible.
//
// client-go counterpart: none; client-go's objects, typed or unstructured,
// each keep their own copies.
//
// Tutorial: none; this package is there for speed only (see doc.go).

package jsonread

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

// str returns text as a string in an any: the shared one when an equal
// string was seen before. A nil table shares nothing.
func (t *sharedValues) str(text []byte) any {
	if t == nil || len(text) > maxSharedLen {
		return string(text)
	}
	if shared, ok := t.strings[string(text)]; ok { // no allocation for the lookup
		return shared
	}
	v := any(string(text))
	t.remember(t.strings, v.(string), v)
	return v
}

// text returns text as a string, the shared one when an equal string was
// seen before: str for a typed struct's string field, map or list.
func (t *sharedValues) text(text []byte) string {
	if t == nil || len(text) > maxSharedLen {
		return string(text)
	}
	if shared, ok := t.strings[string(text)]; ok {
		return shared.(string)
	}
	s := string(text)
	t.remember(t.strings, s, s)
	return s
}

// num returns text, a JSON number, as a json.Number in an any, shared as
// str shares strings.
func (t *sharedValues) num(text []byte) any {
	if t == nil || len(text) > maxSharedLen {
		return json.Number(text)
	}
	if shared, ok := t.numbers[string(text)]; ok {
		return shared
	}
	n := json.Number(text)
	v := any(n)
	t.remember(t.numbers, string(n), v)
	return v
}

// remember stores v under s in table, first emptying both tables when they
// are full.
func (t *sharedValues) remember(table map[string]any, s string, v any) {
	if len(t.strings)+len(t.numbers) >= maxShared {
		clear(t.strings)
		clear(t.numbers)
	}
	table[s] = v
}

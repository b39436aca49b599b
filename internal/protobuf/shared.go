// shared.go holds sharedStrings: the objects one decoder makes share their
// equal strings (a namespace, a label, "Running", "TCP", an image...)
// instead of each holding its own copy, as internal/jsonread's do. A
// string seen before costs no allocation and no heap; what a user sees does
// not change, since strings cannot be changed in place.
//
// client-go counterpart: none; client-go's objects keep their own copies.
// Tutorial: none.

package protobuf

const (
	// maxSharedLen is the longest string shared: long ones (certificates,
	// scripts, JSON in annotations) are rarely repeated.
	maxSharedLen = 128
	// maxShared bounds the table; when it is full it starts again empty, so
	// strings that come later get shared too, and memory stays bounded.
	maxShared = 4096
)

// sharedStrings maps a string to the one copy of it a decoder hands out.
// Not safe for concurrent use: one per decoder.
type sharedStrings map[string]string

// str returns b as a string: the shared copy when an equal one was seen
// before.
func (t *sharedStrings) str(b []byte) string {
	if len(b) > maxSharedLen {
		return string(b)
	}
	if s, ok := (*t)[string(b)]; ok { // no allocation for the look-up
		return s
	}
	if *t == nil || len(*t) >= maxShared {
		*t = make(sharedStrings, 256)
	}
	s := string(b)
	(*t)[s] = s
	return s
}

// compat_object.go (compatibility layer): the helpers every write uses on a
// stored object: deep copies, uids, the random suffix of a generated name,
// and reading a JSON number (store.go stamps a body with its version). client-go counterparts:
// metav1.ObjectMeta accessors, runtime.DeepCopy, the apiserver's
// names.SimpleNameGenerator. Tutorial: none.

package fakeapi

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
)

// deepCopy copies a decoded JSON value, so a stored body is never shared
// with code that may change it.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}

// newUID returns a random RFC 4122 version-4 UUID, the form of a real uid.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// randomSuffix is the 5 characters the real server appends to generateName.
func randomSuffix() string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

// toInt reads a JSON number (as decoded by the store or a client) as int64.
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		return int64(n), n == float64(int64(n))
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

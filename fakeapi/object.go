// object.go: the helpers every write uses on a stored object: stamping a
// body with its version, its metadata, deep copies, uids and the random
// suffix of a generated name. client-go counterparts: metav1.ObjectMeta
// accessors, runtime.DeepCopy, the apiserver's names.SimpleNameGenerator.
// Tutorial: 000 §2.5.

package fakeapi

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// newObject stamps body with version rv and indexes its metadata.
func newObject(body map[string]any, rv uint64) *object {
	meta := metadata(body)
	meta["resourceVersion"] = strconv.FormatUint(rv, 10)
	o := &object{rv: rv, body: body, labels: map[string]string{},
		json:     sync.OnceValues(func() ([]byte, error) { return json.Marshal(body) }),
		itemJSON: sync.OnceValues(func() ([]byte, error) { return json.Marshal(listItem(body)) }),
	}
	o.name, _ = meta["name"].(string)
	o.ns, _ = meta["namespace"].(string)
	o.key = objectKey(o.ns, o.name)
	if labels, ok := meta["labels"].(map[string]any); ok {
		for k, v := range labels {
			o.labels[k], _ = v.(string)
		}
	}
	return o
}

// metadata returns body's metadata map, creating it if missing or malformed.
func metadata(body map[string]any) map[string]any {
	m, ok := body["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		body["metadata"] = m
	}
	return m
}

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

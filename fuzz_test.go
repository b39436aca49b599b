// fuzz_test.go: fuzz targets for the client side's parsers of untrusted
// text. Plain `go test` runs the seeds and the corpus in testdata/fuzz/;
// `go test -run=^$ -fuzz=FuzzSplitMetaNamespaceKey -fuzztime=5m -parallel=1 .`
// searches for more (figures in /work/notes/chaos-readme.md).
package informer

import (
	"strings"
	"testing"
)

// FuzzSplitMetaNamespaceKey checks that splitting a key never panics, fails
// exactly when the key has more than one '/', and otherwise gives parts that
// join back into the key (a leading '/' means "no namespace", as in client-go).
func FuzzSplitMetaNamespaceKey(f *testing.F) {
	for _, k := range []string{"", "name", "ns/name", "/name", "ns/", "/", "a/b/c", "//", "ns/na me", "é/ü"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		ns, name, err := SplitMetaNamespaceKey(key)
		slashes := strings.Count(key, "/")
		switch {
		case slashes > 1:
			if err == nil {
				t.Fatalf("%q: split into %q, %q; want an error", key, ns, name)
			}
		case err != nil:
			t.Fatalf("%q: %v", key, err)
		case strings.Contains(ns, "/") || strings.Contains(name, "/"):
			t.Fatalf("%q: parts %q, %q contain '/'", key, ns, name)
		case slashes == 0 && (ns != "" || name != key):
			t.Fatalf("%q: split into %q, %q; want \"\", %q", key, ns, name, key)
		case slashes == 1 && ns+"/"+name != key:
			t.Fatalf("%q: split into %q, %q, which do not join back", key, ns, name)
		}
	})
}

// watch_decode_test.go checks how list bodies are decoded: as client-go's
// decoder reads them, member names exactly, typed items without a kind.
//
// client-go counterpart: apimachinery's JSON serializer (case-sensitive
// member names) and the typed decoders' empty TypeMeta.
//
// Tutorial: 004 §4.1 (the Reflector over HTTP).

package informer

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestDecodeListMemberNamesAreExact decodes list bodies as client-go's
// decoder does: member names match exactly ("Items" is not "items"), and a
// typed item keeps no kind, even when the body gives it one.
func TestDecodeListMemberNamesAreExact(t *testing.T) {
	decode := func(body string) *ObjectList {
		t.Helper()
		resp := &http.Response{Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}
		list, err := decodeList(newBodyDecoder(resp), func() Object { return &Pod{} })
		if err != nil {
			t.Fatalf("decoding %s: %v", body, err)
		}
		return list
	}
	item := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"default"}}`
	if list := decode(`{"kind":"PodList","apiVersion":"v1","Items":[` + item + `]}`); len(list.Items) != 0 {
		t.Errorf(`"Items" was read as "items": %d items`, len(list.Items))
	}
	list := decode(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[` + item + `]}`)
	if len(list.Items) != 1 || list.ResourceVersion != "5" {
		t.Fatalf("got %d items at %q, want 1 at 5", len(list.Items), list.ResourceVersion)
	}
	if p := list.Items[0].(*Pod); p.Kind != "" || p.APIVersion != "" || p.Name != "a" {
		t.Errorf("a typed item should keep no kind: %q %q, name %q", p.Kind, p.APIVersion, p.Name)
	}
}

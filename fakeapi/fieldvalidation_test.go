// fieldvalidation_test.go: unknown, duplicated and mistyped fields, with
// each fieldValidation level and verb, answered as a real kube-apiserver
// v1.37.2 answered the same requests: testdata/fieldvalidation.json holds
// its codes, Warning headers, messages and stored objects (captured by
// testdata/fieldvalidation-capture.py against a real server).

package fakeapi

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// fieldValidationCase is one captured request and the real answer.
type fieldValidationCase struct {
	Name, Method, Path, ContentType, Body string
	Code                                  int
	Warnings                              []string
	Reason, Message                       string
	Stored                                map[string]any
}

func TestFieldValidationAsReal(t *testing.T) {
	raw, err := os.ReadFile("testdata/fieldvalidation.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []fieldValidationCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Options{})
	for _, c := range cases {
		code, body, h := callRaw(t, c.Method, s.URL()+c.Path, c.ContentType, c.Body)
		var got map[string]any
		_ = json.Unmarshal(body, &got)
		if code != c.Code {
			t.Errorf("%s: %d %s, the real server %d %s", c.Name, code, body, c.Code, c.Message)
			continue
		}
		if w := h.Values("Warning"); !reflect.DeepEqual(w, c.Warnings) && len(w)+len(c.Warnings) > 0 {
			t.Errorf("%s: warnings\n%q\nthe real server's\n%q", c.Name, w, c.Warnings)
		}
		if c.Message != "" {
			msg, _ := got["message"].(string)
			want := c.Message
			if c.ContentType == "application/merge-patch+json" {
				// The real message shows the patched object, with fields
				// only the real server has: compare what follows it.
				_, want, _ = strings.Cut(want, "}\": ")
				_, msg, _ = strings.Cut(msg, "\": ")
			}
			if msg != want || got["reason"] != c.Reason {
				t.Errorf("%s: %v %q\nthe real server's: %s %q", c.Name, got["reason"], msg, c.Reason, want)
			}
		}
		if c.Stored != nil {
			// What the fake stored is what the real server stored, but
			// for the fields the real server sets itself (defaults,
			// managedFields) and the server-owned metadata values.
			for _, k := range []string{"spec", "data"} {
				if gv, ok := got[k]; ok && !subsetJSON(plainJSON(t, gv), c.Stored[k]) {
					t.Errorf("%s: stored %s\n%s\nnot within the real server's\n%s", c.Name, k, jsonText(gv), jsonText(c.Stored[k]))
				}
			}
			for k := range meta(got) {
				if _, ok := meta(c.Stored)[k]; !ok {
					t.Errorf("%s: stored metadata.%s, the real server did not", c.Name, k)
				}
			}
		}
	}
}

// subsetJSON reports whether every field of got is in want with the same
// value (lists element by element).
func subsetJSON(got, want any) bool {
	switch g := got.(type) {
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range g {
			if !subsetJSON(v, w[k]) {
				return false
			}
		}
		return true
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range g {
			if !subsetJSON(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// unit_test.go: the label selector parser and the two patch flavours.

package fakeapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestLabelSelectorParse(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front"}
	get := func(k string) (string, bool) { v, ok := labels[k]; return v, ok }
	for sel, want := range map[string]bool{
		"":                               true,
		"app=web":                        true,
		"app = web":                      true,
		"app==db":                        false,
		"app!=db":                        true,
		"missing!=x":                     true,
		"app in (db, web)":               true,
		"app notin (web)":                false,
		"tier,app":                       true,
		"!missing":                       true,
		"!app":                           false,
		"app in (web),tier notin (back)": true,
	} {
		s, err := parseLabelSelector(sel)
		if err != nil {
			t.Errorf("%q: %v", sel, err)
			continue
		}
		if got := s.matches(get); got != want {
			t.Errorf("%q matches %v = %v, want %v", sel, labels, got, want)
		}
	}
	for _, bad := range []string{"app in web", "a b", "=x", "app in (x"} {
		if _, err := parseLabelSelector(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestPatches(t *testing.T) {
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	target := `{"a":{"b":1,"c":2},"list":[{"name":"x","v":1},{"name":"y","v":2}],"keep":true}`
	for _, c := range []struct {
		name  string
		apply patchFunc
		patch string
		want  string
	}{
		{"merge: nested, null deletes, lists replace", mergePatch,
			`{"a":{"c":null,"d":3},"list":[{"name":"y","v":9}]}`,
			`{"a":{"b":1,"d":3},"list":[{"name":"y","v":9}],"keep":true}`},
	} {
		got, _ := c.apply(decode(target), decode(c.patch))
		if want := decode(c.want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", c.name, got, want)
		}
	}
}

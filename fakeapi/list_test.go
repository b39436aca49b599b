// list_test.go: selectors, paging with continue tokens, and the
// resourceVersion / resourceVersionMatch semantics of lists.

package fakeapi

import (
	"net/url"
	"slices"
	"testing"
)

// names lists the names of a list answer's items, in order.
func names(list map[string]any) []string {
	var out []string
	items, _ := list["items"].([]any)
	for _, it := range items {
		out = append(out, meta(it.(map[string]any))["name"].(string))
	}
	return out
}

func TestListSelectors(t *testing.T) {
	s := startServer(t, Options{})
	mustCreatePod(t, s, "a", "app=x,tier=web")
	mustCreatePod(t, s, "b", "app=y,tier=db")
	mustCreatePod(t, s, "c", "app=z")
	u := s.URL() + "/api/v1/namespaces/default/pods?"
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"labelSelector=app=x", []string{"a"}},
		{"labelSelector=app==y", []string{"b"}},
		{"labelSelector=app!=x", []string{"b", "c"}},
		{"labelSelector=app in (x, z)", []string{"a", "c"}},
		{"labelSelector=app notin (x,z)", []string{"b"}},
		{"labelSelector=tier", []string{"a", "b"}},
		{"labelSelector=!tier", []string{"c"}},
		{"labelSelector=app in (x,y),tier!=db", []string{"a"}},
		{"fieldSelector=metadata.name=b", []string{"b"}},
		{"fieldSelector=metadata.name!=b,metadata.namespace=default", []string{"a", "c"}},
		{"fieldSelector=metadata.namespace=other", nil},
		{"fieldSelector=status.phase=Pending&labelSelector=app=z", []string{"c"}},
	} {
		q, _ := url.ParseQuery(c.query)
		code, got := call(t, "GET", u+q.Encode(), "", "")
		if code != 200 || !slices.Equal(names(got), c.want) {
			t.Errorf("%s: %d %v, want %v", c.query, code, names(got), c.want)
		}
	}
	for _, bad := range []string{"labelSelector=app in x", "labelSelector=a b c", "fieldSelector=spec.foo=x", "labelSelector=!", "fieldSelector=metadata.name in (a)"} {
		q, _ := url.ParseQuery(bad)
		if code, got := call(t, "GET", u+q.Encode(), "", ""); code != 400 || got["reason"] != "BadRequest" {
			t.Errorf("%s: %d %v, want 400 BadRequest", bad, code, got)
		}
	}
}

func TestListPaging(t *testing.T) {
	s := startServer(t, Options{})
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		mustCreatePod(t, s, n, "app=demo")
	}
	u := s.URL() + "/api/v1/namespaces/default/pods?limit=2"
	_, p1 := call(t, "GET", u, "", "")
	rv := rvOf(p1)
	mustCreatePod(t, s, "aa", "app=demo") // written between pages: not in this list
	var got []string
	page := p1
	for {
		got = append(got, names(page)...)
		if rvOf(page) != rv {
			t.Errorf("page at rv %s, want every page at %s", rvOf(page), rv)
		}
		cont, _ := meta(page)["continue"].(string)
		if cont == "" {
			break
		}
		var code int
		code, page = call(t, "GET", u+"&continue="+url.QueryEscape(cont), "", "")
		if code != 200 {
			t.Fatalf("next page: %d %v", code, page)
		}
	}
	if !slices.Equal(got, []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("pages = %v", got)
	}
	cont := meta(p1)["continue"].(string)
	if code, got := call(t, "GET", u+"&resourceVersion=1&continue="+url.QueryEscape(cont), "", ""); code != 400 {
		t.Errorf("continue with resourceVersion: %d %v, want 400", code, got)
	}
	if code, got := call(t, "GET", u+"&resourceVersion=0&continue="+url.QueryEscape(cont), "", ""); code != 200 || !slices.Equal(names(got), []string{"c", "d"}) {
		t.Errorf("continue with resourceVersion=0 (allowed, as on the real server): %d %v", code, names(got))
	}
	if code, got := call(t, "GET", u+"&continue=garbage!", "", ""); code != 400 {
		t.Errorf("bad continue: %d %v, want 400", code, got)
	}

	// Compacted: 410 with a fresh token that continues at the newest version.
	s.Compact(0)
	code, gone := call(t, "GET", u+"&continue="+url.QueryEscape(cont), "", "")
	fresh, _ := meta(gone)["continue"].(string)
	if code != 410 || gone["reason"] != "Expired" || fresh == "" {
		t.Fatalf("compacted continue: %d %v", code, gone)
	}
	_, rest := call(t, "GET", s.URL()+"/api/v1/namespaces/default/pods?limit=10&continue="+url.QueryEscape(fresh), "", "")
	if !slices.Equal(names(rest), []string{"c", "d", "e"}) || rvOf(rest) != s.ResourceVersion() {
		t.Errorf("fresh token: %v at %s", names(rest), rvOf(rest))
	}
}

func TestListResourceVersions(t *testing.T) {
	s := startServer(t, Options{VersionWait: 20e6}) // 20ms
	u := s.URL() + "/api/v1/namespaces/default/pods"
	first := mustCreatePod(t, s, "a", "")
	mustCreatePod(t, s, "b", "")
	for _, q := range []string{"", "?resourceVersion=0", "?resourceVersion=" + rvOf(first), "?resourceVersion=" + rvOf(first) + "&resourceVersionMatch=NotOlderThan"} {
		_, got := call(t, "GET", u+q, "", "")
		if len(names(got)) != 2 || rvOf(got) != s.ResourceVersion() {
			t.Errorf("list%s: %v at %s, want both at the newest version", q, names(got), rvOf(got))
		}
	}
	_, exact := call(t, "GET", u+"?resourceVersionMatch=Exact&resourceVersion="+rvOf(first), "", "")
	if !slices.Equal(names(exact), []string{"a"}) || rvOf(exact) != rvOf(first) {
		t.Errorf("exact list: %v at %s, want [a] at %s", names(exact), rvOf(exact), rvOf(first))
	}
	if code, got := call(t, "GET", u+"?resourceVersion=999", "", ""); code != 504 || got["reason"] != "Timeout" {
		t.Errorf("future version: %d %v, want 504 Timeout", code, got)
	}
	for _, q := range []string{"?resourceVersionMatch=Exact", "?resourceVersion=0&resourceVersionMatch=Exact",
		"?resourceVersion=1&resourceVersionMatch=Newest", "?sendInitialEvents=true", "?watch=1&resourceVersionMatch=NotOlderThan",
		"?watch=1&sendInitialEvents=true", "?watch=1&sendInitialEvents=true&resourceVersionMatch=Exact"} {
		code, got := call(t, "GET", u+q, "", "")
		details, _ := got["details"].(map[string]any)
		causes, _ := details["causes"].([]any)
		if code != 422 || got["reason"] != "Invalid" || details["kind"] != "ListOptions" || len(causes) == 0 {
			t.Errorf("%s: %d %v, want 422 Invalid about ListOptions, with causes", q, code, got)
		}
	}
	for _, q := range []string{"?resourceVersion=abc", "?limit=-1", "?watch=maybe", "?timeoutSeconds=x"} {
		if code, _ := call(t, "GET", u+q, "", ""); code != 400 {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
}

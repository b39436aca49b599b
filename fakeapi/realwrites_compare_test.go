// realwrites_compare_test.go: how TestWritesLikeReal compares fakeapi's
// answers with the real server's: normalised (uids, times, resource
// versions, cluster IPs masked, managedFields dropped), a failure's Status
// whole, a success at the scenario's paths.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var (
	uuidRE   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	recordRE = regexp.MustCompile(`(in record|in the precondition) \(\d+\)`)
)

// compareAnswer compares a Status whole, events by type and cmp paths, and
// any other answer at its cmp paths.
func compareAnswer(t *testing.T, what string, st wstep, got, want any) {
	t.Helper()
	g, _ := got.(map[string]any)
	w, _ := want.(map[string]any)
	switch {
	case w["kind"] == "Status" && w["status"] == "Failure":
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: Status differs\nfake: %s\nreal: %s", what, show(g), show(w))
		}
	case st.method == "EVENTS":
		if !reflect.DeepEqual(g["types"], w["types"]) {
			t.Errorf("%s: events %v, real server %v", what, g["types"], w["types"])
			return
		}
		gs, ws := g["objects"].([]any), w["objects"].([]any)
		for i := range ws {
			for _, p := range st.cmp {
				comparePath(t, fmt.Sprintf("%s: event %d", what, i), p, gs[i], ws[i])
			}
		}
	default:
		for _, p := range st.cmp {
			comparePath(t, what, p, g, w)
		}
	}
}

func comparePath(t *testing.T, what, path string, got, want any) {
	t.Helper()
	if gv, wv := atPath(got, path), atPath(want, path); !reflect.DeepEqual(gv, wv) {
		t.Errorf("%s: %q differs\nfake: %s\nreal: %s", what, path, show(gv), show(wv))
	}
}

// atPath reads a dotted path ("" = v itself); a missing field is nil. A number
// indexes a list; "*" takes the rest of the path in every element.
func atPath(v any, path string) any {
	if path == "" {
		return v
	}
	p, rest, _ := strings.Cut(path, ".")
	switch l, _ := v.([]any); {
	case p == "*":
		out := []any{}
		for _, x := range l {
			out = append(out, atPath(x, rest))
		}
		return out
	case l != nil:
		var i int
		if _, err := fmt.Sscan(p, &i); err != nil || i < 0 || i >= len(l) {
			return nil
		}
		return atPath(l[i], rest)
	}
	m, _ := v.(map[string]any)
	return atPath(m[p], rest)
}

func show(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// normalize replaces what differs between two servers and two runs (uids,
// times, resource versions, cluster IPs) with placeholders, and drops
// managedFields (fakeapi does not keep them; see the docs).
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "managedFields":
				continue
			case "uid", "creationTimestamp", "deletionTimestamp", "resourceVersion", "lastTransitionTime", "lastUpdateTime", "time":
				if s, ok := x.(string); ok && s != "" {
					x = "<" + k + ">"
				}
			case "clusterIP":
				if s, _ := x.(string); s != "" && s != "None" {
					x = "<ip>"
				}
			case "clusterIPs":
				if l, ok := x.([]any); ok && len(l) > 0 && l[0] != "None" {
					x = []any{"<ip>"}
				}
			default:
				x = normalize(x)
			}
			out[k] = x
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case string:
		return recordRE.ReplaceAllString(uuidRE.ReplaceAllString(v, "<uid>"), "$1 (<n>)")
	}
	return v
}

// comparable drops what fakeapi words differently on purpose: a forbidden
// pod update ends with a Go diff of the spec on the real server (fakeapi
// lists the changed fields instead; the docs say so).
func comparable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = comparable(x)
		}
	case []any:
		for i, x := range v {
			v[i] = comparable(x)
		}
	case string:
		if i := strings.Index(v, "\n"); i >= 0 && strings.Contains(v, "pod updates may not change fields other than") {
			return v[:i] + "\n<diff>"
		}
	}
	return v
}

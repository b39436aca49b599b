// compat_fieldselectors.go (compatibility layer): field selectors, as the real
// server supports them per kind: metadata.name and metadata.namespace
// everywhere, and the fields each kind offers (pods: spec.nodeName,
// spec.restartPolicy, spec.schedulerName, spec.serviceAccountName,
// spec.hostNetwork, status.phase, status.podIP, status.nominatedNodeName;
// nodes: spec.unschedulable; namespaces: status.phase; secrets: type;
// services: spec.clusterIP, spec.type; events: involvedObject.*, reason, type,
// source, reportingComponent), on lists, watches and deletecollection.
// client-go counterparts: k8s.io/apimachinery/pkg/fields; the apiserver's
// per-kind field label conversions and ToSelectableFields
// (k8s.io/kubernetes/pkg/apis/core/v1/conversion.go, pkg/registry).
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"strings"
)

// selectableFields are the fields each kind can be selected by, besides
// metadata.name (and metadata.namespace for namespaced kinds), each with
// how the real server reads its value ("" when the field is missing).
var selectableFields = map[Resource]map[string]func(body map[string]any) string{
	Pods: {
		"spec.nodeName":            path("spec.nodeName"),
		"spec.restartPolicy":       path("spec.restartPolicy"),
		"spec.schedulerName":       path("spec.schedulerName"),
		"spec.serviceAccountName":  path("spec.serviceAccountName"),
		"spec.hostNetwork":         boolPath("spec.hostNetwork"),
		"status.phase":             path("status.phase"),
		"status.podIP":             path("status.podIPs.0.ip"),
		"status.nominatedNodeName": path("status.nominatedNodeName"),
	},
	Nodes:      {"spec.unschedulable": boolPath("spec.unschedulable")},
	Namespaces: {"status.phase": path("status.phase"), "name": path("metadata.name")},
	Secrets:    {"type": path("type")},
	Services:   {"spec.clusterIP": path("spec.clusterIP"), "spec.type": path("spec.type")},
	{Group: "", Version: "v1", Resource: "events"}: {
		"involvedObject.kind": path("involvedObject.kind"), "involvedObject.namespace": path("involvedObject.namespace"),
		"involvedObject.name": path("involvedObject.name"), "involvedObject.uid": path("involvedObject.uid"),
		"involvedObject.apiVersion": path("involvedObject.apiVersion"), "involvedObject.resourceVersion": path("involvedObject.resourceVersion"),
		"involvedObject.fieldPath": path("involvedObject.fieldPath"), "reason": path("reason"),
		"reportingComponent": path("reportingComponent"), "type": path("type"),
		"source": func(b map[string]any) string {
			if s := path("source.component")(b); s != "" {
				return s
			}
			return path("reportingComponent")(b)
		},
	},
}

// path reads a dotted path (a number indexes a list) as a string.
func path(p string) func(map[string]any) string {
	return func(body map[string]any) string {
		s, _ := at(body, p).(string)
		return s
	}
}

// boolPath reads a boolean field as "true" or "false".
func boolPath(p string) func(map[string]any) string {
	return func(body map[string]any) string { return fmt.Sprint(at(body, p) == true) }
}

// at reads a dotted path from a decoded JSON value; a number indexes a
// list; a missing field is nil.
func at(v any, p string) any {
	for _, part := range strings.Split(p, ".") {
		switch c := v.(type) {
		case map[string]any:
			v = c[part]
		case []any:
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// fieldFunc returns how to read field key of ri, or nil if it cannot be selected on.
func fieldFunc(ri *resourceInfo, key string) func(map[string]any) string {
	switch {
	case key == "metadata.name", key == "metadata.namespace" && ri.namespaced:
		return path(key)
	case key == "spec.host" && ri.Resource == Pods: // an old name of spec.nodeName
		return path("spec.nodeName")
	}
	return selectableFields[ri.Resource][key]
}

// parseFieldSelector parses the fieldSelector query value for ri.
func parseFieldSelector(ri *resourceInfo, s string) (selector, error) {
	var sel selector
	for _, part := range splitUnescaped(s, ',') {
		if part == "" {
			continue
		}
		var r requirement
		for _, op := range []string{"!=", "==", "="} {
			if k, v, ok := strings.Cut(part, op); ok {
				r = requirement{key: k, op: "=", values: []string{v}}
				if op == "!=" {
					r.op = "!="
				}
				break
			}
		}
		if r.op == "" {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		v, err := unescapeFieldValue(r.values[0])
		if err != nil {
			return nil, fmt.Errorf("invalid field selector: %v", err)
		}
		r.values[0] = v
		if fieldFunc(ri, r.key) == nil {
			if selectableFields[ri.Resource] == nil { // a kind the real server converts no field labels for
				return nil, fmt.Errorf("%q is not a known field selector: only \"metadata.name\", \"metadata.namespace\"", r.key)
			}
			return nil, fmt.Errorf("field label not supported: %s", r.key)
		}
		sel = append(sel, r)
	}
	return sel, nil
}

// splitUnescaped splits s at every sep not preceded by a backslash.
func splitUnescaped(s string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unescapeFieldValue reads a field selector value: '\\', '\\,' and '\\='
// stand for the character; a bare ',' or '=' is an error.
func unescapeFieldValue(v string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			if i+1 >= len(v) || !strings.ContainsRune(`\\,=`, rune(v[i+1])) {
				return "", fmt.Errorf("invalid escape sequence: %q", v[i:])
			}
			i++
			b.WriteByte(v[i])
		case ',', '=':
			return "", fmt.Errorf("unescaped character in value: %d", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

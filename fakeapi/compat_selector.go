// compat_selector.go (compatibility layer): label and field selectors, parsed
// from a request's query.
//
// Supported label syntax: "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a,b)",
// "k" (exists) and "!k" (does not exist), joined by commas (all must hold).
// Field selectors: metadata.name, metadata.namespace and the fields each
// kind offers (selectableFields, as the real server's), with =, == and !=.
// client-go counterpart: k8s.io/apimachinery/pkg/labels and pkg/fields.
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"strings"
)

// requirement is one condition of a selector.
type requirement struct {
	key    string
	op     string // "=", "!=", "in", "notin", "exists", "!"
	values []string
}

// selector is a parsed label or field selector; empty matches everything.
type selector []requirement

// matches reports whether every requirement holds for the values get finds.
func (sel selector) matches(get func(key string) (string, bool)) bool {
	for _, r := range sel {
		v, ok := get(r.key)
		switch r.op {
		case "exists":
			if !ok {
				return false
			}
		case "!":
			if ok {
				return false
			}
		case "=", "in":
			if !ok || !contains(r.values, v) {
				return false
			}
		case "!=", "notin":
			// like the real server: a missing label satisfies != and notin
			if ok && contains(r.values, v) {
				return false
			}
		}
	}
	return true
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// parseLabelSelector parses the labelSelector query value.
func parseLabelSelector(s string) (selector, error) {
	var sel selector
	for _, part := range splitTopLevel(s) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, err := parseRequirement(part)
		if err == nil {
			err = valuesErr(r)
		}
		if err != nil {
			return nil, fmt.Errorf("unable to parse requirement: %v", err)
		}
		sel = append(sel, r)
	}
	return sel, nil
}

// valuesErr checks the values of a label requirement as the real server
// does: each one a valid label value, and a set never empty.
func valuesErr(r requirement) error {
	if (r.op == "in" || r.op == "notin") && len(r.values) == 0 {
		return fmt.Errorf("for 'in', 'notin' operators, values set can't be empty")
	}
	for _, v := range r.values {
		if v != "" && !validLabelName(v) {
			return fmt.Errorf("invalid label value: %q: %s", v, labelRule)
		}
	}
	return nil
}

// splitTopLevel splits at commas that are not inside parentheses.
func splitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func parseRequirement(p string) (requirement, error) {
	if strings.HasPrefix(p, "!") {
		k := strings.TrimSpace(p[1:])
		return requirement{key: k, op: "!"}, keyErr(k)
	}
	for _, op := range []string{"==", "!=", "="} {
		if i := strings.Index(p, op); i >= 0 {
			k, v := strings.TrimSpace(p[:i]), strings.TrimSpace(p[i+len(op):])
			if err := keyErr(k); err != nil {
				return requirement{}, err
			}
			if strings.ContainsAny(v, "=!() ") {
				return requirement{}, fmt.Errorf("invalid label value: %q", v)
			}
			if op == "==" {
				op = "="
			}
			return requirement{key: k, op: op, values: []string{v}}, nil
		}
	}
	fields := strings.Fields(p)
	if len(fields) == 1 {
		return requirement{key: fields[0], op: "exists"}, keyErr(fields[0])
	}
	if len(fields) < 2 || (fields[1] != "in" && fields[1] != "notin") {
		return requirement{}, fmt.Errorf("found %q, expected: in, notin, =, ==, !=", p)
	}
	k, op := fields[0], fields[1]
	rest := strings.TrimSpace(strings.Join(fields[2:], " "))
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
		return requirement{}, fmt.Errorf("found %q, expected: '(' values ')'", rest)
	}
	var vals []string
	if inner := strings.TrimSpace(rest[1 : len(rest)-1]); inner != "" { // "()" is an empty set
		for _, v := range strings.Split(inner, ",") {
			vals = append(vals, strings.TrimSpace(v))
		}
	}
	return requirement{key: k, op: op, values: vals}, keyErr(k)
}

// keyErr rejects a key that is not a qualified name: an optional DNS
// subdomain prefix and "/", then a name following labelRule.
func keyErr(k string) error {
	prefix, name, hasPrefix := strings.Cut(k, "/")
	if !hasPrefix {
		prefix, name = "", k
	}
	if !validLabelName(name) || hasPrefix && !validName(prefix) {
		return fmt.Errorf("invalid label key %q: %s, with an optional DNS subdomain prefix and '/'", k, labelRule)
	}
	return nil
}

// labelRule is the real server's rule for label names and values.
const labelRule = "must be 63 characters or less and consist of alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character"

// validLabelName reports whether s follows labelRule (and is not empty).
func validLabelName(s string) bool {
	if len(s) == 0 || len(s) > 63 || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// filter is the combined label and field selector of one request.
type filter struct {
	labels, fields selector
	ri             *resourceInfo // whose fields the field selector reads
}

// matches reports whether o passes both selectors.
func (f filter) matches(o *object) bool {
	return f.labels.matches(func(k string) (string, bool) { v, ok := o.labels[k]; return v, ok }) &&
		f.fields.matches(func(k string) (string, bool) { return fieldFunc(f.ri, k)(o.body), true })
}

// selector.go holds the label selector parser: ParseSelector reads the forms
// "k=v", "k==v", "k!=v", "k in (a,b)", "k notin (a,b)", "k" and "!k", joined
// by commas (all must hold), into a Selector (lister.go) whose String() is
// what a ListOptions.LabelSelector sends to the server. It checks the
// characters of keys and values, not their lengths and shapes, which the
// server checks again anyway.
//
// client-go counterpart: k8s.io/apimachinery/pkg/labels (Parse, Requirement).
//
// Tutorial: 004 §3.3 (reading the cache through listers).
//
// Reading 3: the real wire (label selectors as the API writes them).

package informer

import (
	"errors"
	"slices"
	"strings"
)

// requirement is one condition of a selector: key op values.
type requirement struct {
	key string
	// op is "=", "!=", "in", "notin", "exists" (the key alone) or "!" (the
	// key must be absent). "==" is read as "=".
	op string
	// values are the value of "=" and "!=" (one), or the set of "in" and
	// "notin".
	values []string
}

// matches reports whether labels meet the requirement. As in the API, "!="
// and "notin" also select the objects that do not have the key at all.
func (r requirement) matches(labels Set) bool {
	v, has := labels[r.key]
	switch r.op {
	case "=", "in":
		return has && slices.Contains(r.values, v)
	case "!=", "notin":
		return !has || !slices.Contains(r.values, v)
	case "exists":
		return has
	case "!":
		return !has
	}
	return false
}

// String returns the requirement in the API's syntax.
func (r requirement) String() string {
	switch r.op {
	case "exists":
		return r.key
	case "!":
		return "!" + r.key
	case "in", "notin":
		return r.key + " " + r.op + " (" + strings.Join(r.values, ",") + ")"
	}
	return r.key + r.op + r.values[0]
}

// requirements is a Selector: every requirement must hold.
type requirements []requirement

// Matches implements Selector: labels meet every requirement.
func (rs requirements) Matches(labels Set) bool {
	for _, r := range rs {
		if !r.matches(labels) {
			return false
		}
	}
	return true
}

// Empty implements Selector: no requirement selects everything.
func (rs requirements) Empty() bool {
	return len(rs) == 0
}

// String implements Selector: the requirements, joined by commas.
func (rs requirements) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// ParseSelector parses a label selector as the API writes it, such as
// "app=web,tier in (a,b),!canary" ("" selects everything). A malformed one
// is an error naming the requirement at fault.
func ParseSelector(selector string) (Selector, error) {
	var reqs requirements
	for _, part := range splitTopLevel(selector) {
		part = strings.TrimSpace(part)
		if part == "" {
			// "" selects everything; an empty part between two commas is a
			// mistake the server would refuse too.
			if strings.TrimSpace(selector) == "" {
				continue
			}
			return nil, errors.New("label selector " + selector + ": empty requirement")
		}
		r, err := parseRequirement(part)
		if err != nil {
			return nil, errors.New("label selector " + selector + ": " + err.Error())
		}
		reqs = append(reqs, r)
	}
	return reqs, nil
}

// splitTopLevel splits at the commas that are not inside parentheses.
func splitTopLevel(s string) []string {
	var parts []string
	depth := 0 // how many parentheses are open
	start := 0 // where the current part starts
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

// parseRequirement parses one requirement. The operators are tried longest
// first, so that "!=" is not read as "=" with a key ending in "!".
func parseRequirement(s string) (requirement, error) {
	if key, ok := strings.CutPrefix(s, "!"); ok {
		return keyOnly(strings.TrimSpace(key), "!")
	}
	for _, op := range []string{"!=", "==", "="} {
		if key, value, ok := strings.Cut(s, op); ok {
			key = strings.TrimSpace(key)
			value = strings.TrimSpace(value)
			if !validLabelPart(key) || (value != "" && !validLabelPart(value)) {
				return requirement{}, errors.New("bad requirement " + s)
			}
			if op == "==" {
				op = "="
			}
			return requirement{key: key, op: op, values: []string{value}}, nil
		}
	}
	// "key in (a, b)": the set may be written with or without spaces.
	fields := strings.Fields(strings.Replace(s, "(", " (", 1))
	if len(fields) >= 3 && (fields[1] == "in" || fields[1] == "notin") {
		// The set is "(a,b)", maybe spread over several fields: join them
		// back, then take the parentheses off.
		set := strings.Join(fields[2:], "")
		inner, ok := strings.CutPrefix(set, "(")
		if inner, ok2 := strings.CutSuffix(inner, ")"); ok && ok2 && validLabelPart(fields[0]) {
			var values []string
			for _, v := range strings.Split(inner, ",") {
				if v = strings.TrimSpace(v); v != "" && !validLabelPart(v) {
					return requirement{}, errors.New("bad value " + v)
				}
				values = append(values, strings.TrimSpace(v))
			}
			return requirement{key: fields[0], op: fields[1], values: values}, nil
		}
		return requirement{}, errors.New("bad set requirement " + s)
	}
	// No operator: a bare key, which must exist.
	return keyOnly(s, "exists")
}

// keyOnly makes an "exists" or "!" requirement of a bare key.
func keyOnly(key, op string) (requirement, error) {
	if !validLabelPart(key) {
		return requirement{}, errors.New("bad label key " + key)
	}
	return requirement{key: key, op: op}, nil
}

// validLabelPart accepts the characters of label keys and values: letters,
// digits, '-', '_', '.', and '/' (for a key's prefix).
func validLabelPart(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		ok := c == '-' || c == '_' || c == '.' || c == '/' ||
			('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}

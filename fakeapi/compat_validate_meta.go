// compat_validate_meta.go (compatibility layer): the checks every object's
// metadata gets on a write: name and generateName (by the kind's naming rule),
// labels, annotations and finalizers, and what an update may not change.
//
// The rules and their messages are the real server's; Go's regexp runs the
// same patterns. client-go counterparts: k8s.io/apimachinery's
// pkg/api/validation (ValidateObjectMeta, ValidateObjectMetaUpdate) and
// pkg/util/validation (IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue).
// Tutorial: none.

package fakeapi

import (
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"
)

var (
	dns1123LabelRE     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	labelKeyRE         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRE       = regexp.MustCompile("^" + labelValueFmt + "$")
)

// regexError words a failed pattern as the real server does.
func regexError(msg, pattern string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + pattern + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + pattern + "')"
}

func maxLenError(n int) string { return "must be no more than " + strconv.Itoa(n) + " characters" }

// dns1123Subdomain is the naming rule of most kinds; it returns what is
// wrong with name, one message per problem.
func dns1123Subdomain(name string) []string {
	var errs []string
	if len(name) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !dns1123SubdomainRE.MatchString(name) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// dns1123Label is the naming rule of namespaces and services.
func dns1123Label(name string) []string {
	var errs []string
	if len(name) > 63 {
		errs = append(errs, maxLenError(63))
	}
	switch {
	case dns1123LabelRE.MatchString(name):
	case dns1123SubdomainRE.MatchString(name):
		errs = append(errs, "must not contain dots")
	default:
		errs = append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// qualifiedName checks a label key (or annotation or finalizer name): an
// optional DNS subdomain prefix and '/', then a name of at most 63 characters.
func qualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range dns1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a valid label key "+regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxLenError(63))
	}
	if !labelKeyRE.MatchString(name) {
		errs = append(errs, "name part "+regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// labelValue checks a label value.
func labelValue(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, "must be no more than 63 bytes")
	}
	if !labelValueRE.MatchString(v) {
		errs = append(errs, regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// totalAnnotationSize is the real server's limit on all annotations of one object.
const totalAnnotationSize = 256 * 1024

// validateObjectMeta checks the metadata of an object of ri on a write.
func validateObjectMeta(ri *resourceInfo, st *strategy, meta map[string]any, create bool) fieldErrors {
	var errs fieldErrors
	rule := dns1123Subdomain
	if st.nameRule != nil {
		rule = st.nameRule
	}
	name, _ := meta["name"].(string)
	if gen, _ := meta["generateName"].(string); gen != "" && create {
		for _, m := range rule(maskTrailingDash(gen)) {
			errs = append(errs, invalid("metadata.generateName", gen, m))
		}
	}
	if name == "" {
		errs = append(errs, required("metadata.name", "name or generateName is required"))
	} else {
		for _, m := range rule(name) {
			errs = append(errs, invalid("metadata.name", name, m))
		}
	}
	errs = append(errs, validateLabels(meta["labels"], "metadata.labels")...)
	annotations, _ := meta["annotations"].(map[string]any)
	size := 0
	for _, k := range sortedKeys(annotations) {
		for _, m := range qualifiedName(strings.ToLower(k)) {
			errs = append(errs, invalid("metadata.annotations", k, m))
		}
		v, _ := annotations[k].(string)
		size += len(k) + len(v)
	}
	if size > totalAnnotationSize {
		errs = append(errs, tooLong("metadata.annotations", totalAnnotationSize))
	}
	return errs
}

// maskTrailingDash is what the real server checks of a generateName
// ending in '-' (it drops two characters and appends an "a").
func maskTrailingDash(gen string) string {
	if len(gen) > 1 && strings.HasSuffix(gen, "-") {
		return gen[:len(gen)-2] + "a"
	}
	return gen
}

// sortedKeys returns m's keys in order, so errors come in a stable order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validateLabels checks a label map at field.
func validateLabels(v any, field string) fieldErrors {
	var errs fieldErrors
	labels, _ := v.(map[string]any)
	for _, k := range sortedKeys(labels) {
		for _, m := range qualifiedName(k) {
			errs = append(errs, invalid(field, k, m))
		}
		val, _ := labels[k].(string)
		for _, m := range labelValue(val) {
			errs = append(errs, invalid(field, val, m))
		}
	}
	return errs
}

// validateMetaUpdate checks what an update may not change in metadata.
func validateMetaUpdate(meta, old map[string]any) fieldErrors {
	var errs fieldErrors
	for _, f := range []string{"name", "namespace", "uid"} {
		if !reflect.DeepEqual(meta[f], old[f]) {
			errs = append(errs, invalid("metadata."+f, meta[f], "field is immutable"))
		}
	}
	return errs
}

// compat_validate_kinds.go (compatibility layer): what the real server checks
// in the body of each kind fakeapi validates: pods (containers, restartPolicy,
// ports, and on update the immutable spec), config maps and secrets (key
// names, the 1 MiB limit, immutable data), and workloads (a selector that
// matches the pod template's labels). Other fields are kept as sent, unchecked
// (the docs list this). client-go counterparts: ValidatePod,
// ValidatePodUpdate, ValidateConfigMap, ValidateSecret
// (k8s.io/kubernetes/pkg/apis/core/validation) and ValidateDeployment and
// friends (pkg/apis/apps/validation). Tutorial: none.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// maxDataSize is the limit on a config map's or secret's data (1 MiB).
const maxDataSize = 1 << 20

var restartPolicies = []string{"Always", "OnFailure", "Never"}

// validatePod checks a pod's spec.
func validatePod(body map[string]any) fieldErrors {
	spec, _ := body["spec"].(map[string]any)
	return validatePodSpec(spec, "spec")
}

func validatePodSpec(spec map[string]any, path string) fieldErrors {
	var errs fieldErrors
	names := map[string]bool{}
	for _, list := range []string{"initContainers", "containers"} {
		cs, _ := spec[list].([]any)
		if list == "containers" && len(cs) == 0 {
			errs = append(errs, required(path+".containers", ""))
		}
		for i, c := range cs {
			c, _ := c.(map[string]any)
			errs = append(errs, validateContainer(c, fmt.Sprintf("%s.%s[%d]", path, list, i), names)...)
		}
	}
	rp, _ := spec["restartPolicy"].(string)
	found := false
	for _, p := range restartPolicies {
		found = found || p == rp
	}
	if !found {
		errs = append(errs, notSupported(path+".restartPolicy", rp, restartPolicies...))
	}
	return errs
}

func validateContainer(c map[string]any, path string, names map[string]bool) fieldErrors {
	var errs fieldErrors
	name, _ := c["name"].(string)
	switch {
	case name == "":
		errs = append(errs, required(path+".name", ""))
	case names[name]:
		errs = append(errs, duplicate(path+".name", name))
	default:
		for _, m := range dns1123Label(name) {
			errs = append(errs, invalid(path+".name", name, m))
		}
	}
	names[name] = true
	if image, _ := c["image"].(string); strings.TrimSpace(image) == "" {
		errs = append(errs, required(path+".image", ""))
	}
	ports, _ := c["ports"].([]any)
	for i, p := range ports {
		p, _ := p.(map[string]any)
		pp := fmt.Sprintf("%s.ports[%d].containerPort", path, i)
		switch n, _ := toInt(p["containerPort"]); {
		case n == 0:
			errs = append(errs, required(pp, ""))
		case n < 1 || n > 65535:
			errs = append(errs, invalid(pp, n, "must be between 1 and 65535, inclusive"))
		}
	}
	return errs
}

// podSpecUpdatable lists what an update of a pod's spec may change, in the
// real server's words.
const podSpecUpdatable = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodUpdate refuses a change to the parts of a pod's spec that
// cannot change. The real message ends with a Go diff of the spec; this one
// ends with the fields that differ.
func validatePodUpdate(body, old map[string]any) fieldErrors {
	spec, _ := deepCopy(body["spec"]).(map[string]any)
	oldSpec, _ := old["spec"].(map[string]any)
	if reflect.DeepEqual(spec, oldSpec) {
		return nil
	}
	for _, list := range []string{"containers", "initContainers"} {
		cs, _ := spec[list].([]any)
		ocs, _ := oldSpec[list].([]any)
		for i, c := range cs {
			if c, ok := c.(map[string]any); ok && i < len(ocs) {
				if oc, ok := ocs[i].(map[string]any); ok {
					c["image"] = oc["image"]
				}
			}
		}
	}
	for _, f := range []string{"activeDeadlineSeconds", "tolerations"} {
		if v, ok := oldSpec[f]; ok {
			spec[f] = v
		} else {
			delete(spec, f)
		}
	}
	if reflect.DeepEqual(spec, oldSpec) {
		return nil
	}
	var changed []string
	for k := range spec {
		if !reflect.DeepEqual(spec[k], oldSpec[k]) {
			changed = append(changed, "spec."+k)
		}
	}
	for k := range oldSpec {
		if _, ok := spec[k]; !ok {
			changed = append(changed, "spec."+k)
		}
	}
	sort.Strings(changed)
	return fieldErrors{forbidden("spec", "pod updates may not change fields other than "+podSpecUpdatable+"\n(fakeapi) changed: "+strings.Join(changed, ", "))}
}

const (
	configMapKeyFmt = `[-._a-zA-Z0-9]+`
	configMapKeyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
)

var configMapKeyRE = regexp.MustCompile("^" + configMapKeyFmt + "$")

// dataKey checks a key of a config map's or secret's data.
func dataKey(key string) []string {
	var errs []string
	if len(key) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !configMapKeyRE.MatchString(key) {
		errs = append(errs, regexError(configMapKeyMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case key == ".":
		errs = append(errs, `must not be '.'`)
	case key == "..":
		errs = append(errs, `must not be '..'`)
	case strings.HasPrefix(key, ".."):
		errs = append(errs, `must not start with '..'`)
	}
	return errs
}

// validateConfigMap checks keys and the total size of data and binaryData.
func validateConfigMap(body map[string]any) fieldErrors {
	var errs fieldErrors
	data, _ := body["data"].(map[string]any)
	bin, _ := body["binaryData"].(map[string]any)
	size := 0
	for _, k := range sortedKeys(data) {
		for _, m := range dataKey(k) {
			errs = append(errs, invalid("data["+k+"]", k, m))
		}
		if _, dup := bin[k]; dup {
			errs = append(errs, invalid("data["+k+"]", k, "duplicate of key present in binaryData"))
		}
		v, _ := data[k].(string)
		size += len(v)
	}
	for _, k := range sortedKeys(bin) {
		for _, m := range dataKey(k) {
			errs = append(errs, invalid("binaryData["+k+"]", k, m))
		}
		size += decodedLen(bin[k])
	}
	if size > maxDataSize {
		errs = append(errs, tooLong("[]", maxDataSize)) // the real field name of the whole object
	}
	return errs
}

// decodedLen is the length of base64 data once decoded.
func decodedLen(v any) int {
	var b []byte
	raw, _ := json.Marshal(v)
	_ = json.Unmarshal(raw, &b)
	return len(b)
}

// validateImmutableData refuses a change to the data of an immutable
// config map or secret.
func validateImmutableData(body, old map[string]any) fieldErrors {
	if old["immutable"] != true {
		return nil
	}
	var errs fieldErrors
	if body["immutable"] != true {
		errs = append(errs, forbidden("immutable", "field is immutable when `immutable` is set"))
	}
	for _, f := range []string{"data", "binaryData"} {
		if !reflect.DeepEqual(body[f], old[f]) {
			errs = append(errs, forbidden(f, "field is immutable when `immutable` is set"))
		}
	}
	return errs
}

// foldStringData moves a secret's stringData into data (base64 encoded
// there), as the real server does on every write: stringData is never stored.
func foldStringData(body map[string]any) {
	sd, _ := body["stringData"].(map[string]any)
	if len(sd) > 0 {
		data := child(body, "data")
		for k, v := range sd {
			b, _ := json.Marshal([]byte(fmt.Sprint(v)))
			var enc string
			_ = json.Unmarshal(b, &enc)
			data[k] = enc
		}
	}
	delete(body, "stringData")
}

// validateSecret checks a secret's keys, size and the keys its type needs.
func validateSecret(body map[string]any) fieldErrors {
	var errs fieldErrors
	data, _ := body["data"].(map[string]any)
	size := 0
	for _, k := range sortedKeys(data) {
		for _, m := range dataKey(k) {
			errs = append(errs, invalid("data["+k+"]", k, m))
		}
		size += decodedLen(data[k])
	}
	if size > maxDataSize {
		errs = append(errs, tooLong("data", maxDataSize))
	}
	if body["type"] == "kubernetes.io/tls" {
		for _, k := range []string{"tls.crt", "tls.key"} {
			if _, ok := data[k]; !ok {
				errs = append(errs, required("data["+k+"]", ""))
			}
		}
	}
	return errs
}

// validateSecretUpdate: a secret's type cannot change, nor an immutable
// secret's data.
func validateSecretUpdate(body, old map[string]any) fieldErrors {
	var errs fieldErrors
	if !reflect.DeepEqual(body["type"], old["type"]) {
		errs = append(errs, invalid("type", body["type"], "field is immutable"))
	}
	return append(errs, validateImmutableData(body, old)...)
}

// validateWorkload checks a deployment, replica set, stateful set or daemon
// set: replicas, a selector that matches the template's labels, the template.
func validateWorkload(body map[string]any) fieldErrors {
	var errs fieldErrors
	spec, _ := body["spec"].(map[string]any)
	if r, ok := toInt(spec["replicas"]); ok && r < 0 {
		errs = append(errs, invalid("spec.replicas", r, "must be greater than or equal to 0"))
	}
	tmpl, _ := spec["template"].(map[string]any)
	tmeta, _ := tmpl["metadata"].(map[string]any)
	labels, _ := tmeta["labels"].(map[string]any)
	sel, _ := spec["selector"].(map[string]any)
	ml, _ := sel["matchLabels"].(map[string]any)
	switch {
	case sel == nil:
		errs = append(errs, required("spec.selector", ""),
			invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"))
	case len(ml) == 0 && sel["matchExpressions"] == nil:
		errs = append(errs, invalid("spec.selector", sel, "empty selector is invalid for deployment"))
	case !selectorMatches(sel, labels):
		errs = append(errs, invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"))
	}
	tspec, _ := tmpl["spec"].(map[string]any)
	return append(errs, validatePodSpec(tspec, "spec.template.spec")...)
}

// validateWorkloadUpdate: an apps/v1 workload's selector cannot change.
func validateWorkloadUpdate(body, old map[string]any) fieldErrors {
	sel, oldSel := at(body, "spec.selector"), at(old, "spec.selector")
	if !reflect.DeepEqual(sel, oldSel) {
		return fieldErrors{invalid("spec.selector", sel, "field is immutable")}
	}
	return nil
}

// selectorMatches reports whether a label selector's matchLabels all hold
// for labels (matchExpressions are not checked).
func selectorMatches(sel, labels map[string]any) bool {
	ml, _ := sel["matchLabels"].(map[string]any)
	for k, v := range ml {
		if labels[k] != v {
			return false
		}
	}
	return true
}

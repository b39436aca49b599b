// compat_resources.go (compatibility layer): what the real server knows
// about a kind beyond where it lives (routes.go): whether its objects carry
// metadata.generation, the phase a new object starts in, the group/versions
// discovery lists, and the rule for object names.
//
// client-go counterparts: the discovery documents
// (k8s.io/apimachinery/pkg/apis/meta/v1.APIResource) and apimachinery's
// validation.IsDNS1123Subdomain. Tutorial: none.

package fakeapi

import "strings"

// hasGeneration reports whether objects of this kind carry
// metadata.generation. The real server sets it on kinds with a spec.
func (ri *resourceInfo) hasGeneration(body map[string]any) bool {
	_, ok := body["spec"]
	return ok
}

// initialPhase is the status.phase the real server gives a new object that
// has no status: a namespace is Active at once, and a pod stays Pending on
// a cluster without a scheduler or kubelet.
var initialPhase = map[Resource]string{Pods: "Pending", Namespaces: "Active"}

// groupVersions lists the group/versions of the catalog, core group first,
// each once, in catalog order: ("", "v1"), ("apps", "v1").
func groupVersions() [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, ri := range catalog {
		k := ri.Group + "/" + ri.Version
		if !seen[k] {
			seen[k] = true
			out = append(out, [2]string{ri.Group, ri.Version})
		}
	}
	return out
}

// validName reports whether name is a DNS-1123 subdomain, the rule the real
// server applies to most object names.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// compat_services.go (compatibility layer): a service's defaults, its cluster
// IP, and its validation.
//
// A new service of type ClusterIP, NodePort or LoadBalancer gets a cluster
// IP from 10.0.0.0/24 (the range kit/start.sh's kube-apiserver has; .1 is
// the "kubernetes" service's), chosen at random as the real allocator does,
// and a NodePort service a node port from 30000-32767. Its ports default to
// protocol TCP and a targetPort equal to the port.
// client-go counterparts: SetDefaults_Service (k8s.io/kubernetes/pkg/apis/core/v1),
// the service REST storage and IP allocator (pkg/registry/core/service),
// ValidateService (pkg/apis/core/validation). Tutorial: none.

package fakeapi

import (
	"fmt"
	"math/rand/v2"
	"reflect"
)

var serviceTypes = []string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}

// serviceDefaults fills in a service spec.
func serviceDefaults(body map[string]any) {
	spec := child(body, "spec")
	setDefault(spec, "type", "ClusterIP")
	setDefault(spec, "sessionAffinity", "None")
	typ := spec["type"]
	if typ != "ExternalName" {
		setDefault(spec, "internalTrafficPolicy", "Cluster")
	}
	if typ == "NodePort" || typ == "LoadBalancer" {
		setDefault(spec, "externalTrafficPolicy", "Cluster")
	}
	ports, _ := spec["ports"].([]any)
	for _, p := range ports {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
			if p["targetPort"] == nil || p["targetPort"] == int64(0) || p["targetPort"] == "" {
				p["targetPort"] = p["port"]
			}
		}
	}
}

// allocateServiceLocked gives a new service its cluster IP and node
// ports, as the real service storage does on create.
func (s *store) allocateServiceLocked(body map[string]any) {
	spec := child(body, "spec")
	typ, _ := spec["type"].(string)
	if typ == "ExternalName" {
		return
	}
	ip, _ := spec["clusterIP"].(string)
	if ip == "" {
		used := map[string]bool{"10.0.0.1": true}
		for _, o := range s.objects[lookup(Services)] {
			if sp, _ := o.body["spec"].(map[string]any); sp != nil {
				used[fmt.Sprint(sp["clusterIP"])] = true
			}
		}
		for ip == "" || used[ip] {
			ip = fmt.Sprintf("10.0.0.%d", 2+rand.IntN(253))
		}
		spec["clusterIP"] = ip
	}
	spec["clusterIPs"] = []any{ip}
	if sel, _ := spec["selector"].(map[string]any); ip == "None" && len(sel) == 0 {
		// a headless service without a selector may list endpoints of both families
		setDefault(spec, "ipFamilies", []any{"IPv4", "IPv6"})
		setDefault(spec, "ipFamilyPolicy", "RequireDualStack")
	}
	setDefault(spec, "ipFamilies", []any{"IPv4"})
	setDefault(spec, "ipFamilyPolicy", "SingleStack")
	if typ == "NodePort" || typ == "LoadBalancer" {
		ports, _ := spec["ports"].([]any)
		for _, p := range ports {
			if p, ok := p.(map[string]any); ok && p["nodePort"] == nil {
				p["nodePort"] = int64(30000 + rand.IntN(2768))
			}
		}
	}
}

// keepServiceAllocations is a service update's part of the real strategy's
// PrepareForUpdate (its patchAllocatedValues): what the server allocated
// and the new body leaves out is kept, if both the old and the new type
// need it: the cluster IP and cluster IPs, and the node port of a port
// with the same number and protocol (unless another port took it).
func keepServiceAllocations(body, old map[string]any) {
	spec, oldSpec := child(body, "spec"), child(deepCopy(old).(map[string]any), "spec")
	if needsClusterIP(oldSpec) && needsClusterIP(spec) {
		if ip, _ := spec["clusterIP"].(string); ip == "" && oldSpec["clusterIP"] != nil {
			spec["clusterIP"] = oldSpec["clusterIP"]
		}
		if ips, _ := spec["clusterIPs"].([]any); len(ips) == 0 && oldSpec["clusterIPs"] != nil {
			spec["clusterIPs"] = oldSpec["clusterIPs"]
		}
		// a new clusterIP beside the old clusterIPs is the client's wish
		// (NormalizeClusterIPs): validateServiceUpdate refuses it
		ip, _ := spec["clusterIP"].(string)
		if ip != "" && ip != oldSpec["clusterIP"] && reflect.DeepEqual(spec["clusterIPs"], oldSpec["clusterIPs"]) {
			spec["clusterIPs"] = []any{ip}
		}
	}
	if !needsNodePorts(oldSpec) || !needsNodePorts(spec) {
		return
	}
	ports, _ := spec["ports"].([]any)
	oldPorts, _ := oldSpec["ports"].([]any)
	taken := map[any]bool{}
	for _, p := range ports {
		if p, ok := p.(map[string]any); ok && p["nodePort"] != nil {
			taken[p["nodePort"]] = true
		}
	}
	for _, p := range ports {
		p, ok := p.(map[string]any)
		if !ok || p["nodePort"] != nil {
			continue
		}
		for _, op := range oldPorts {
			op, _ := op.(map[string]any)
			if np := op["nodePort"]; np != nil && !taken[np] && op["port"] == p["port"] && op["protocol"] == p["protocol"] {
				p["nodePort"], taken[np] = np, true
				break
			}
		}
	}
}

// needsClusterIP: every type but ExternalName has a cluster IP.
func needsClusterIP(spec map[string]any) bool { return spec["type"] != "ExternalName" }

// needsNodePorts: NodePort and LoadBalancer services have node ports.
func needsNodePorts(spec map[string]any) bool {
	return spec["type"] == "NodePort" || spec["type"] == "LoadBalancer"
}

// validateServiceUpdate: a service's primary cluster IP may not change,
// unless the service is or becomes an ExternalName one.
func validateServiceUpdate(body, old map[string]any) fieldErrors {
	spec, _ := body["spec"].(map[string]any)
	oldSpec, _ := old["spec"].(map[string]any)
	if !needsClusterIP(spec) || !needsClusterIP(oldSpec) {
		return nil
	}
	ips, _ := spec["clusterIPs"].([]any)
	oldIPs, _ := oldSpec["clusterIPs"].([]any)
	if len(ips) > 0 && len(oldIPs) > 0 && ips[0] != oldIPs[0] {
		return fieldErrors{invalid("spec.clusterIPs[0]", ips, "may not change once set")}
	}
	return nil
}

// validateServiceStatus: only a LoadBalancer service has ingress points.
func validateServiceStatus(body map[string]any) fieldErrors {
	spec, _ := body["spec"].(map[string]any)
	if ingress, _ := at(body, "status.loadBalancer.ingress").([]any); len(ingress) > 0 && spec["type"] != "LoadBalancer" {
		return fieldErrors{forbidden("status.loadBalancer.ingress", "may only be used when `spec.type` is 'LoadBalancer'")}
	}
	return nil
}

// validateService checks a service's spec.
func validateService(body map[string]any) fieldErrors {
	var errs fieldErrors
	spec, _ := body["spec"].(map[string]any)
	typ, _ := spec["type"].(string)
	headless := spec["clusterIP"] == "None"
	ports, _ := spec["ports"].([]any)
	if len(ports) == 0 && !headless && typ != "ExternalName" {
		errs = append(errs, required("spec.ports", ""))
	}
	names := map[string]bool{}
	for i, p := range ports {
		p, _ := p.(map[string]any)
		path := fmt.Sprintf("spec.ports[%d]", i)
		name, _ := p["name"].(string)
		if len(ports) > 1 && name == "" {
			errs = append(errs, required(path+".name", ""))
		} else if name != "" {
			for _, m := range dns1123Label(name) {
				errs = append(errs, invalid(path+".name", name, m))
			}
			if names[name] {
				errs = append(errs, duplicate(path+".name", name))
			}
			names[name] = true
		}
		port, _ := toInt(p["port"])
		if port < 1 || port > 65535 {
			errs = append(errs, invalid(path+".port", port, "must be between 1 and 65535, inclusive"))
		}
		switch proto, _ := p["protocol"].(string); proto {
		case "TCP", "UDP", "SCTP":
		default:
			errs = append(errs, notSupported(path+".protocol", proto, "SCTP", "TCP", "UDP"))
		}
		if tp, ok := toInt(p["targetPort"]); ok && (tp < 1 || tp > 65535) {
			errs = append(errs, invalid(path+".targetPort", tp, "must be between 1 and 65535, inclusive"))
		}
	}
	errs = append(errs, validateLabels(spec["selector"], "spec.selector")...)
	found := false
	for _, t := range serviceTypes {
		found = found || t == typ
	}
	if !found {
		errs = append(errs, notSupported("spec.type", typ, serviceTypes...))
	}
	return errs
}

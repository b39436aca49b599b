// compat_defaults.go (compatibility layer): the fields the real server fills
// in when a client leaves them out, per kind, and the status a new pod starts
// with.
//
// These are what `kubectl get -o yaml` shows on a real cluster and a client
// never sent: a pod's restartPolicy, dnsPolicy, schedulerName,
// terminationGracePeriodSeconds, its containers' imagePullPolicy and
// terminationMessagePath/Policy, its probes' timeouts and thresholds, an
// HTTP GET's scheme and path, a fieldRef's apiVersion, a volume's
// defaultMode, serviceAccount (from serviceAccountName), the two
// not-ready/unreachable tolerations, priority, and its status (Pending, with
// a qosClass), a spec's zero omitempty members dropped as the Go struct
// drops them; a service's type,
// sessionAffinity, ports' protocol and targetPort and a clusterIP from
// 10.0.0.0/24; a deployment's strategy, revisionHistoryLimit and
// progressDeadlineSeconds; a secret's type. Defaults apply to every write
// (an update that leaves a defaulted field out gets it back).
// client-go counterparts: the SetDefaults_* functions of
// k8s.io/kubernetes/pkg/apis/core/v1 and apps/v1, the Priority and
// DefaultTolerationSeconds admission plugins, and the service IP allocator.
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/learn-k8s/informer/fakeapi/schema"
)

// setDefault sets m[k] to v unless it is already there.
func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// child returns m[k] as a map, creating it if missing.
func child(m map[string]any, k string) map[string]any {
	c, ok := m[k].(map[string]any)
	if !ok {
		c = map[string]any{}
		m[k] = c
	}
	return c
}

// podSpecDefaults fills in a pod spec (a pod's or a template's).
func podSpecDefaults(spec map[string]any) {
	setDefault(spec, "restartPolicy", "Always")
	setDefault(spec, "terminationGracePeriodSeconds", int64(30))
	setDefault(spec, "dnsPolicy", "ClusterFirst")
	setDefault(spec, "securityContext", map[string]any{})
	setDefault(spec, "schedulerName", "default-scheduler")
	if sa, ok := spec["serviceAccountName"].(string); ok && sa != "" {
		setDefault(spec, "serviceAccount", sa) // the deprecated name, kept in step
	}
	for _, list := range []string{"initContainers", "containers", "ephemeralContainers"} {
		cs, _ := spec[list].([]any)
		for _, c := range cs {
			if c, ok := c.(map[string]any); ok {
				containerDefaults(c)
			}
		}
	}
	vols, _ := spec["volumes"].([]any)
	for _, v := range vols {
		v, _ := v.(map[string]any)
		for _, kind := range []string{"configMap", "secret", "downwardAPI", "projected"} {
			if src, ok := v[kind].(map[string]any); ok {
				setDefault(src, "defaultMode", int64(0o644))
				fieldRefDefaults(src)
			}
		}
	}
	dropOmittedZeros(protoSchema()[schema.MessageOf("", "v1", "PodSpec")], spec, 0)
}

// fieldRefDefaults gives every fieldRef under v (an env var's, a downward
// API file's) its apiVersion, "v1".
func fieldRefDefaults(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if ref, ok := x.(map[string]any); ok && k == "fieldRef" {
				setDefault(ref, "apiVersion", "v1")
			}
			fieldRefDefaults(x)
		}
	case []any:
		for _, x := range v {
			fieldRefDefaults(x)
		}
	}
}

// probeDefaults fills in a probe, and the scheme and path of an HTTP GET
// (a probe's or a lifecycle hook's).
func probeDefaults(c map[string]any) {
	for _, name := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if p, ok := c[name].(map[string]any); ok {
			setDefault(p, "timeoutSeconds", int64(1))
			setDefault(p, "periodSeconds", int64(10))
			setDefault(p, "successThreshold", int64(1))
			setDefault(p, "failureThreshold", int64(3))
			httpGetDefaults(p)
		}
	}
	if l, ok := c["lifecycle"].(map[string]any); ok {
		for _, hook := range []string{"postStart", "preStop"} {
			if h, ok := l[hook].(map[string]any); ok {
				httpGetDefaults(h)
			}
		}
	}
}

// httpGetDefaults fills in a handler's HTTP GET.
func httpGetDefaults(handler map[string]any) {
	if g, ok := handler["httpGet"].(map[string]any); ok {
		setDefault(g, "path", "/")
		setDefault(g, "scheme", "HTTP")
	}
}

// dropOmittedZeros removes the members of v (a JSON object of message m)
// that the Go struct drops when it writes JSON: a zero string, number or
// bool, or an empty list or map, whose json tag says omitempty. A real
// server decodes every object into its Go struct and encodes it again, so
// "priorityClassName": "" is never stored.
func dropOmittedZeros(m *protoMessage, v map[string]any, depth int) {
	if m == nil || depth > maxProtoDepth {
		return
	}
	for _, f := range m.Order {
		if f.Inline {
			dropOmittedZeros(protoSchema()[f.Type], v, depth+1)
			continue
		}
		x, ok := v[f.JSON]
		if !ok {
			continue
		}
		if f.OmitEmpty && !f.Ptr && !f.Struct && isZeroJSON(x) && x != nil {
			delete(v, f.JSON)
			continue
		}
		sub := protoSchema()[f.Type]
		switch x := x.(type) {
		case map[string]any:
			if f.Type != "map" {
				dropOmittedZeros(sub, x, depth+1)
			}
		case []any:
			for _, item := range x {
				if item, ok := item.(map[string]any); ok {
					dropOmittedZeros(sub, item, depth+1)
				}
			}
		}
	}
}

// containerDefaults fills in one container.
func containerDefaults(c map[string]any) {
	res := child(c, "resources")
	if limits, ok := res["limits"].(map[string]any); ok {
		req := child(res, "requests")
		for k, v := range limits {
			setDefault(req, k, v)
		}
	}
	setDefault(c, "terminationMessagePath", "/dev/termination-log")
	setDefault(c, "terminationMessagePolicy", "File")
	image, _ := c["image"].(string)
	policy := "IfNotPresent"
	if name, _, _ := strings.Cut(image, "@"); !strings.Contains(image, "@") && (!hasTag(name) || strings.HasSuffix(name, ":latest")) {
		policy = "Always"
	}
	setDefault(c, "imagePullPolicy", policy)
	probeDefaults(c)
	fieldRefDefaults(c["env"])
	ports, _ := c["ports"].([]any)
	for _, p := range ports {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
		}
	}
}

// hasTag reports whether an image reference names a tag ("busybox:1.36",
// not "localhost:5000/busybox").
func hasTag(image string) bool {
	i := strings.LastIndex(image, ":")
	return i > strings.LastIndex(image, "/")
}

// podDefaults fills in a pod, including what the admission plugins add.
func podDefaults(body map[string]any) {
	spec := child(body, "spec")
	podSpecDefaults(spec)
	setDefault(spec, "enableServiceLinks", true)
	setDefault(spec, "priority", int64(0))
	setDefault(spec, "preemptionPolicy", "PreemptLowerPriority")
	tolerations, _ := spec["tolerations"].([]any)
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		found := false
		for _, t := range tolerations {
			if t, _ := t.(map[string]any); t["key"] == key && (t["effect"] == "NoExecute" || t["effect"] == nil) {
				found = true
			}
		}
		if !found {
			tolerations = append(tolerations, map[string]any{"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(300)})
		}
	}
	spec["tolerations"] = tolerations
	if status, _ := body["status"].(map[string]any); status["podIP"] != nil && status["podIPs"] == nil {
		status["podIPs"] = []any{map[string]any{"ip": status["podIP"]}}
	}
}

// podStatus is a new pod's status: Pending (no scheduler or kubelet moves
// it on), with its quality-of-service class.
func podStatus(body map[string]any) any {
	return map[string]any{"phase": "Pending", "qosClass": qosClass(child(body, "spec"))}
}

// qosClass is Guaranteed when every container has cpu and memory limits
// equal to its requests, BestEffort when none has any, else Burstable.
func qosClass(spec map[string]any) string {
	some, guaranteed := false, true
	for _, list := range []string{"initContainers", "containers"} {
		cs, _ := spec[list].([]any)
		for _, c := range cs {
			c, _ := c.(map[string]any)
			res, _ := c["resources"].(map[string]any)
			req, _ := res["requests"].(map[string]any)
			lim, _ := res["limits"].(map[string]any)
			if len(req) > 0 || len(lim) > 0 {
				some = true
			}
			for _, r := range []string{"cpu", "memory"} {
				if lim[r] == nil || req[r] != lim[r] {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !some:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

// templateDefaults fills in the pod template of a workload.
func templateDefaults(spec map[string]any) {
	tmpl := child(spec, "template")
	podSpecDefaults(child(tmpl, "spec"))
}

func deploymentDefaults(body map[string]any) {
	spec := child(body, "spec")
	setDefault(spec, "replicas", int64(1))
	strategy := child(spec, "strategy")
	setDefault(strategy, "type", "RollingUpdate")
	if strategy["type"] == "RollingUpdate" {
		ru := child(strategy, "rollingUpdate")
		setDefault(ru, "maxUnavailable", "25%")
		setDefault(ru, "maxSurge", "25%")
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	setDefault(spec, "progressDeadlineSeconds", int64(600))
	templateDefaults(spec)
}

func replicaSetDefaults(body map[string]any) {
	spec := child(body, "spec")
	setDefault(spec, "replicas", int64(1))
	templateDefaults(spec)
}

func statefulSetDefaults(body map[string]any) {
	spec := child(body, "spec")
	setDefault(spec, "replicas", int64(1))
	setDefault(spec, "podManagementPolicy", "OrderedReady")
	setDefault(spec, "serviceName", "")
	us := child(spec, "updateStrategy")
	setDefault(us, "type", "RollingUpdate")
	if us["type"] == "RollingUpdate" {
		ru := child(us, "rollingUpdate")
		setDefault(ru, "partition", int64(0))
		setDefault(ru, "maxUnavailable", int64(1))
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	pvc := child(spec, "persistentVolumeClaimRetentionPolicy")
	setDefault(pvc, "whenDeleted", "Retain")
	setDefault(pvc, "whenScaled", "Retain")
	templateDefaults(spec)
}

func daemonSetDefaults(body map[string]any) {
	spec := child(body, "spec")
	us := child(spec, "updateStrategy")
	setDefault(us, "type", "RollingUpdate")
	if us["type"] == "RollingUpdate" {
		ru := child(us, "rollingUpdate")
		setDefault(ru, "maxUnavailable", int64(1))
		setDefault(ru, "maxSurge", int64(0))
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	templateDefaults(spec)
}

// templateGeneration is the annotation in which a daemon set counts the
// changes of its pod template.
const templateGeneration = "deprecated.daemonset.template.generation"

// bumpTemplateGeneration counts a change of a daemon set's template.
func bumpTemplateGeneration(body, old map[string]any) {
	annotations, _ := metadata(old)["annotations"].(map[string]any)
	n, _ := strconv.Atoi(fmt.Sprint(annotations[templateGeneration]))
	if !reflect.DeepEqual(at(body, "spec.template"), at(old, "spec.template")) {
		n++
	}
	child(metadata(body), "annotations")[templateGeneration] = strconv.Itoa(n)
}

func secretDefaults(body map[string]any) {
	setDefault(body, "type", "Opaque")
}

// namespaceDefaults labels a namespace with its own name, on every write.
func namespaceDefaults(body map[string]any) {
	meta := metadata(body)
	if name, _ := meta["name"].(string); name != "" {
		child(meta, "labels")["kubernetes.io/metadata.name"] = name
	}
}

// validateNamespaceStatus: a namespace is Terminating only once deleted.
func validateNamespaceStatus(body map[string]any) fieldErrors {
	if phase, _ := at(body, "status.phase").(string); phase == "Terminating" && metadata(body)["deletionTimestamp"] == nil {
		return fieldErrors{invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")}
	}
	return nil
}

// nodeDefaults fills in a node's status: allocatable as its capacity, and
// the empty daemonEndpoints and nodeInfo a node without a kubelet shows.
func nodeDefaults(body map[string]any) {
	status := child(body, "status")
	if c, ok := status["capacity"]; ok {
		setDefault(status, "allocatable", deepCopy(c))
	}
	setDefault(child(child(status, "daemonEndpoints"), "kubeletEndpoint"), "Port", int64(0))
	info := child(status, "nodeInfo")
	for _, f := range []string{"architecture", "bootID", "containerRuntimeVersion", "kernelVersion", "kubeProxyVersion",
		"kubeletVersion", "machineID", "operatingSystem", "osImage", "systemUUID"} {
		setDefault(info, f, "")
	}
}

// nodeTaint is what the TaintNodesByCondition admission plugin does to a
// new node: it is not ready until its kubelet says so.
func nodeTaint(body map[string]any) {
	spec := child(body, "spec")
	taints, _ := spec["taints"].([]any)
	for _, t := range taints {
		if t, _ := t.(map[string]any); t["key"] == "node.kubernetes.io/not-ready" {
			return
		}
	}
	spec["taints"] = append(taints, map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
}

// namespaceFinalizer gives a new namespace the "kubernetes" finalizer the
// namespace controller removes once it has emptied it.
func namespaceFinalizer(body map[string]any) {
	spec := child(body, "spec")
	fins := stringList(spec["finalizers"])
	for _, f := range fins {
		if f == "kubernetes" {
			return
		}
	}
	spec["finalizers"] = toAnyList(append(fins, "kubernetes"))
}

// keepNamespaceFinalizers: an update of a namespace cannot change its
// spec.finalizers (the /finalize subresource does, which fakeapi does not serve).
func keepNamespaceFinalizers(body, old map[string]any) {
	spec := child(body, "spec")
	oldSpec, _ := old["spec"].(map[string]any)
	if f, ok := oldSpec["finalizers"]; ok {
		spec["finalizers"] = deepCopy(f)
	} else {
		delete(spec, "finalizers")
	}
}

// compat_printers_core.go (compatibility layer): the columns of `kubectl get`
// for the core kinds beyond pods and namespaces: config maps, secrets,
// services, service accounts, events and nodes. The apps kinds are in
// compat_printers_apps.go.
//
// The column lists are data: names, types and priorities as a v1.37
// kube-apiserver sends them (testdata/printers-real.json holds its answers).
// The cells read the stored JSON. Where the real server fills in what this
// fake does not (a service's type and clusterIPs, a port's protocol, a
// secret's type, stringData folded into data), the cell shows what it would
// have filled in, so an object prints as it would on a real cluster.
// Counterpart: the apiserver's printers (kubernetes/pkg/printers/internalversion).
// Tutorial: none.

package fakeapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

var configMapPrinter = &printer{
	columns: []column{nameColumn, text("Data", "How many keys data and binaryData hold."), ageColumn},
	cells: func(cm map[string]any, now time.Time) []any {
		return []any{name(cm), int64(len(obj(cm["data"])) + len(obj(cm["binaryData"]))), age(cm, now)}
	},
}

var secretPrinter = &printer{
	columns: []column{nameColumn, text("Type", "The secret's type."), text("Data", "How many keys data holds."), ageColumn},
	cells:   secretCells,
}

var servicePrinter = &printer{
	columns: []column{
		nameColumn,
		text("Type", "How the service is exposed."),
		text("Cluster-IP", "The service's virtual IP inside the cluster."),
		text("External-IP", "Addresses that reach the service from outside the cluster."),
		text("Port(s)", "The service's ports, with node ports."),
		ageColumn,
		wide("Selector", "The labels of the pods that receive the service's traffic."),
	},
	cells: serviceCells,
}

var serviceAccountPrinter = &printer{
	columns: []column{nameColumn, ageColumn},
	cells: func(sa map[string]any, now time.Time) []any {
		return []any{name(sa), age(sa, now)}
	},
}

// eventPrinter shows an event's own name only with -o wide: the object it
// is about matters more.
var eventPrinter = &printer{
	columns: []column{
		text("Last Seen", "How long ago the event last happened."),
		text("Type", "Normal or Warning."),
		text("Reason", "A short, machine-readable cause."),
		text("Object", "The object the event is about."),
		wide("Subobject", "The part of the object, such as a container."),
		wide("Source", "The component that reported the event, and where."),
		text("Message", "What happened, for humans."),
		wide("First Seen", "How long ago the event first happened."),
		wide("Count", "How many times the event happened."),
		{Name: "Name", Type: "string", Format: "name", Description: nameColumn.Description, Priority: 1},
	},
	cells: eventCells,
}

var nodePrinter = &printer{
	columns: []column{
		nameColumn,
		text("Status", "Ready, NotReady or Unknown, and whether pods may be scheduled."),
		text("Roles", "The roles in the node's node-role.kubernetes.io/ labels."),
		ageColumn,
		text("Version", "The kubelet's version."),
		wide("Internal-IP", "The node's first internal address."),
		wide("External-IP", "The node's first external address."),
		wide("OS-Image", "The operating system image."),
		wide("Kernel-Version", "The kernel version, and the architecture."),
		wide("Container-Runtime", "The container runtime and its version."),
	},
	cells: nodeCells,
}

// secretCells fills a secret's row. The real server folds the write-only
// stringData into data, so DATA counts the keys of both, once each.
func secretCells(sec map[string]any, now time.Time) []any {
	typ := str(sec["type"])
	if typ == "" {
		typ = "Opaque"
	}
	keys := map[string]bool{}
	for _, field := range []string{"data", "stringData"} {
		for k := range obj(sec[field]) {
			keys[k] = true
		}
	}
	return []any{name(sec), typ, int64(len(keys)), age(sec, now)}
}

// serviceCells fills a service's row. The real server copies clusterIP into
// clusterIPs and defaults the type to ClusterIP and each protocol to TCP.
func serviceCells(svc map[string]any, now time.Time) []any {
	spec := obj(svc["spec"])
	typ := str(spec["type"])
	if typ == "" {
		typ = "ClusterIP"
	}
	clusterIP := str(spec["clusterIP"])
	if ips := list(spec["clusterIPs"]); len(ips) > 0 {
		clusterIP = str(ips[0])
	}
	var ports []string
	for _, p := range list(spec["ports"]) {
		port := obj(p)
		protocol := str(port["protocol"])
		if protocol == "" {
			protocol = "TCP"
		}
		if node := num(port["nodePort"]); node > 0 {
			ports = append(ports, fmt.Sprintf("%d:%d/%s", num(port["port"]), node, protocol))
		} else {
			ports = append(ports, fmt.Sprintf("%d/%s", num(port["port"]), protocol))
		}
	}
	return []any{name(svc), typ, orNone(clusterIP), externalIP(svc, typ),
		orNone(strings.Join(ports, ",")), age(svc, now), labelsString(obj(spec["selector"]))}
}

// externalIP is a service's EXTERNAL-IP: its externalIPs, and for a load
// balancer the addresses in its status first ("<pending>" while there are
// none); for an ExternalName service, the name.
func externalIP(svc map[string]any, typ string) string {
	var ips []string
	for _, ip := range list(dig(svc, "spec", "externalIPs")) {
		ips = append(ips, str(ip))
	}
	switch typ {
	case "ClusterIP", "NodePort":
		return orNone(strings.Join(ips, ","))
	case "LoadBalancer":
		// The balancer's addresses are a sorted set: each once.
		var balancers []string
		for _, in := range list(dig(svc, "status", "loadBalancer", "ingress")) {
			if addr := cmp.Or(str(obj(in)["ip"]), str(obj(in)["hostname"])); addr != "" {
				balancers = append(balancers, addr)
			}
		}
		slices.Sort(balancers)
		all := strings.Join(append(slices.Compact(balancers), ips...), ",")
		if all == "" {
			return "<pending>"
		}
		return all
	case "ExternalName":
		return str(dig(svc, "spec", "externalName"))
	}
	return "<unknown>"
}

// eventCells fills an event's row. Events written with the newer API carry
// eventTime and series instead of the first and last timestamps and count;
// a single such event happened once.
func eventCells(ev map[string]any, now time.Time) []any {
	first := since(ev["firstTimestamp"], now)
	if first == "<unknown>" {
		first = since(ev["eventTime"], now)
	}
	last := since(ev["lastTimestamp"], now)
	if last == "<unknown>" {
		last = first
	}
	count := num(ev["count"])
	if series := obj(ev["series"]); series != nil {
		last, count = since(series["lastObservedTime"], now), num(series["count"])
	} else if count == 0 {
		count = 1
	}
	involved := obj(ev["involvedObject"])
	object := strings.ToLower(str(involved["kind"]))
	if n := str(involved["name"]); n != "" {
		object += "/" + n
	}
	source := cmp.Or(str(dig(ev, "source", "component")), str(ev["reportingComponent"]))
	if host := cmp.Or(str(dig(ev, "source", "host")), str(ev["reportingInstance"])); host != "" {
		source += ", " + host
	}
	return []any{last, str(ev["type"]), str(ev["reason"]), object, str(involved["fieldPath"]),
		source, strings.TrimSpace(str(ev["message"])), first, count, name(ev)}
}

// nodeCells fills a node's row. STATUS comes from the Ready condition alone;
// ROLES from node-role.kubernetes.io/<role> label keys and the older
// kubernetes.io/role label's value.
func nodeCells(node map[string]any, now time.Time) []any {
	status := "Unknown"
	for _, c := range list(dig(node, "status", "conditions")) {
		if cond := obj(c); str(cond["type"]) == "Ready" {
			status = "NotReady"
			if str(cond["status"]) == "True" {
				status = "Ready"
			}
		}
	}
	if dig(node, "spec", "unschedulable") == true {
		status += ",SchedulingDisabled"
	}
	var roles []string
	for k, v := range obj(dig(node, "metadata", "labels")) {
		if role, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && role != "" {
			roles = append(roles, role)
		} else if k == "kubernetes.io/role" && str(v) != "" {
			roles = append(roles, str(v))
		}
	}
	slices.Sort(roles)
	address := func(typ string) string {
		for _, a := range list(dig(node, "status", "addresses")) {
			if str(obj(a)["type"]) == typ {
				return str(obj(a)["address"])
			}
		}
		return "<none>"
	}
	info := obj(dig(node, "status", "nodeInfo"))
	unknown := func(s string) string { return cmp.Or(s, "<unknown>") }
	kernel := unknown(str(info["kernelVersion"]))
	if arch := str(info["architecture"]); arch != "" {
		kernel += " (" + arch + ")"
	}
	return []any{name(node), status, orNone(strings.Join(slices.Compact(roles), ",")), age(node, now),
		str(info["kubeletVersion"]), address("InternalIP"), address("ExternalIP"),
		unknown(str(info["osImage"])), kernel, unknown(str(info["containerRuntimeVersion"]))}
}

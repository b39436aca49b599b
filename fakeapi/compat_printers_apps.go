// compat_printers_apps.go (compatibility layer): the columns of `kubectl get`
// for the apps kinds: deployments, replica sets, stateful sets and daemon
// sets, and the label and selector text they (and services) print.
//
// The real server defaults an unset spec.replicas to 1; these printers read
// it that way, so a workload prints as it would on a real cluster.
// Counterparts: the apiserver's printers (kubernetes/pkg/printers/internalversion),
// apimachinery's labels.FormatLabels and metav1.FormatLabelSelector.
// Tutorial: none.

package fakeapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// The -o wide columns every workload has: its pod template's containers.
var (
	containersColumn = wide("Containers", "The pod template's container names.")
	imagesColumn     = wide("Images", "The pod template's container images.")
)

var deploymentPrinter = &printer{
	columns: []column{
		nameColumn,
		text("Ready", "Ready replicas out of the desired number."),
		text("Up-to-date", "Replicas running the newest pod template."),
		text("Available", "Replicas available to users."),
		ageColumn,
		containersColumn, imagesColumn,
		wide("Selector", "The label selector of the deployment's pods."),
	},
	cells: func(d map[string]any, now time.Time) []any {
		spec, status := obj(d["spec"]), obj(d["status"])
		names, images := containers(spec)
		return []any{name(d), fmt.Sprintf("%d/%d", num(status["readyReplicas"]), replicas(spec)),
			num(status["updatedReplicas"]), num(status["availableReplicas"]),
			age(d, now), names, images, selectorString(obj(spec["selector"]))}
	},
}

var replicaSetPrinter = &printer{
	columns: []column{
		nameColumn,
		integer("Desired", "The number of pods wanted."),
		integer("Current", "The number of pods there are."),
		integer("Ready", "The number of pods that are ready."),
		ageColumn,
		containersColumn, imagesColumn,
		wide("Selector", "The label selector of the replica set's pods."),
	},
	cells: func(rs map[string]any, now time.Time) []any {
		spec, status := obj(rs["spec"]), obj(rs["status"])
		names, images := containers(spec)
		return []any{name(rs), replicas(spec), num(status["replicas"]), num(status["readyReplicas"]),
			age(rs, now), names, images, selectorString(obj(spec["selector"]))}
	},
}

var statefulSetPrinter = &printer{
	columns: []column{
		nameColumn,
		text("Ready", "Ready pods out of the desired number."),
		ageColumn,
		containersColumn, imagesColumn,
	},
	cells: func(sts map[string]any, now time.Time) []any {
		spec := obj(sts["spec"])
		names, images := containers(spec)
		ready := fmt.Sprintf("%d/%d", num(dig(sts, "status", "readyReplicas")), replicas(spec))
		return []any{name(sts), ready, age(sts, now), names, images}
	},
}

var daemonSetPrinter = &printer{
	columns: []column{
		nameColumn,
		integer("Desired", "Nodes that should run the daemon pod."),
		integer("Current", "Nodes that run it."),
		integer("Ready", "Nodes where it is ready."),
		integer("Up-to-date", "Nodes that run the newest pod template."),
		integer("Available", "Nodes where it is available."),
		text("Node Selector", "The labels a node needs to run the pod."),
		ageColumn,
		containersColumn, imagesColumn,
		wide("Selector", "The label selector of the daemon set's pods."),
	},
	cells: func(ds map[string]any, now time.Time) []any {
		spec, status := obj(ds["spec"]), obj(ds["status"])
		names, images := containers(spec)
		return []any{name(ds),
			num(status["desiredNumberScheduled"]), num(status["currentNumberScheduled"]), num(status["numberReady"]),
			num(status["updatedNumberScheduled"]), num(status["numberAvailable"]),
			labelsString(obj(dig(spec, "template", "spec", "nodeSelector"))),
			age(ds, now), names, images, selectorString(obj(spec["selector"]))}
	},
}

// replicas is spec.replicas, or 1 when unset, the real server's default.
func replicas(spec map[string]any) int64 {
	if v, ok := spec["replicas"]; ok && v != nil {
		return num(v)
	}
	return 1
}

// containers lists the pod template's container names and images, each
// comma-separated.
func containers(spec map[string]any) (names, images string) {
	var n, i []string
	for _, c := range list(dig(spec, "template", "spec", "containers")) {
		n = append(n, str(obj(c)["name"]))
		i = append(i, str(obj(c)["image"]))
	}
	return strings.Join(n, ","), strings.Join(i, ",")
}

// labelsString renders labels as "k1=v1,k2=v2", sorted by key, or "<none>".
func labelsString(labels map[string]any) string {
	var pairs []string
	for k, v := range labels {
		pairs = append(pairs, k+"="+str(v))
	}
	slices.Sort(pairs)
	return orNone(strings.Join(pairs, ","))
}

// selectorString renders a label selector as kubectl shows one: its
// matchLabels and matchExpressions as requirements sorted by key
// ("app=web,!canary,tier in (be,fe)"), "<none>" for an empty selector, and
// "<error>" for an expression the real server would reject.
func selectorString(selector map[string]any) string {
	type requirement struct{ key, text string }
	var reqs []requirement
	for k, v := range obj(selector["matchLabels"]) {
		reqs = append(reqs, requirement{k, k + "=" + str(v)})
	}
	for _, e := range list(selector["matchExpressions"]) {
		key, values := str(obj(e)["key"]), []string{}
		for _, v := range list(obj(e)["values"]) {
			values = append(values, str(v))
		}
		slices.Sort(values)
		in := " (" + strings.Join(values, ",") + ")"
		switch op := str(obj(e)["operator"]); {
		case op == "In" && len(values) > 0:
			reqs = append(reqs, requirement{key, key + " in" + in})
		case op == "NotIn" && len(values) > 0:
			reqs = append(reqs, requirement{key, key + " notin" + in})
		case op == "Exists" && len(values) == 0:
			reqs = append(reqs, requirement{key, key})
		case op == "DoesNotExist" && len(values) == 0:
			reqs = append(reqs, requirement{key, "!" + key})
		default:
			return "<error>"
		}
	}
	// Stable, so a key's matchLabels entry stays before its expressions.
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].key < reqs[j].key })
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.text
	}
	return orNone(strings.Join(texts, ","))
}

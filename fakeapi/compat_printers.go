// compat_printers.go (compatibility layer): the columns of `kubectl get`,
// worked out on the server.
//
// Each kind has a printer: its column definitions and a function that fills
// one row's cells from a stored object. Every kind this server serves gets
// the columns a real kube-apiserver sends (pods and namespaces here, the
// other core kinds in compat_printers_core.go, the apps kinds in compat_printers_apps.go);
// a kind without a printer would get the apiserver's default table, Name and
// "Created At". Cells are read from the JSON maps, so an object missing a
// field prints what the real server prints for an unset one ("0/N",
// "<none>", "<unknown>").
// Counterparts: the apiserver's printers (kubernetes/pkg/printers/internalversion)
// and its default table convertor (k8s.io/apiserver/pkg/registry/rest/table.go);
// the AGE format is apimachinery's duration.HumanDuration. Tutorial: none.

package fakeapi

import (
	"encoding/json"
	"fmt"
	"time"
)

// column is one TableColumnDefinition, its fields in the real server's order.
type column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int    `json:"priority"` // 0: always shown; 1: with -o wide
}

// printer turns objects of one kind into table rows.
type printer struct {
	columns []column
	cells   func(body map[string]any, now time.Time) []any
}

var (
	nameColumn = column{Name: "Name", Type: "string", Format: "name", Description: "The object's name, unique within its namespace."}
	ageColumn  = column{Name: "Age", Type: "string", Description: "How long ago the object was created (metadata.creationTimestamp)."}
)

// text and integer are columns shown by default; wide is a string column
// shown only with -o wide.
func text(name, description string) column {
	return column{Name: name, Type: "string", Description: description}
}

func integer(name, description string) column {
	return column{Name: name, Type: "integer", Description: description}
}

func wide(name, description string) column {
	return column{Name: name, Type: "string", Description: description, Priority: 1}
}

var podPrinter = &printer{
	columns: []column{
		nameColumn,
		text("Ready", "Ready containers out of all the pod's containers."),
		text("Status", "The pod's phase, or why it is not running."),
		text("Restarts", "How many times the pod's containers have restarted, and when last."),
		ageColumn,
		wide("IP", "The pod's IP address (status.podIP)."),
		wide("Node", "The node the pod is scheduled on (spec.nodeName)."),
		wide("Nominated Node", "The node the scheduler means to use after preemption."),
		wide("Readiness Gates", "Readiness gates whose condition is True, out of all of them."),
	},
	cells: podCells,
}

var namespacePrinter = &printer{
	columns: []column{nameColumn, text("Status", "The namespace's phase."), ageColumn},
	cells: func(ns map[string]any, now time.Time) []any {
		return []any{name(ns), str(dig(ns, "status", "phase")), age(ns, now)}
	},
}

// defaultPrinter is the apiserver's table for kinds without a printer of
// their own: the creation time printed as it is stored, not as an age.
var defaultPrinter = &printer{
	columns: []column{nameColumn, {Name: "Created At", Type: "date", Description: "When the object was created (metadata.creationTimestamp)."}},
	cells: func(body map[string]any, _ time.Time) []any {
		created, _ := time.Parse(time.RFC3339, str(dig(body, "metadata", "creationTimestamp")))
		return []any{name(body), created.UTC().Format(time.RFC3339)}
	},
}

// printers maps a kind to its printer; the others get defaultPrinter.
var printers = map[string]*printer{
	"Pod": podPrinter, "ConfigMap": configMapPrinter, "Secret": secretPrinter,
	"Service": servicePrinter, "ServiceAccount": serviceAccountPrinter, "Event": eventPrinter,
	"Namespace": namespacePrinter, "Node": nodePrinter, "Deployment": deploymentPrinter,
	"ReplicaSet": replicaSetPrinter, "StatefulSet": statefulSetPrinter, "DaemonSet": daemonSetPrinter,
}

// printerFor returns the printer of ri's kind.
func printerFor(ri *resourceInfo) *printer {
	if p, ok := printers[ri.kind]; ok {
		return p
	}
	return defaultPrinter
}

// podCells fills a pod's row. STATUS is the phase, replaced by the pod's
// reason, then by the first container that is waiting or has ended, then
// by "Terminating" once the pod is being deleted.
func podCells(pod map[string]any, now time.Time) []any {
	spec, status := obj(pod["spec"]), obj(pod["status"])
	reason := str(status["phase"])
	if r := str(status["reason"]); r != "" {
		reason = r
	}
	ready, restarts, why := 0, int64(0), ""
	var lastRestart time.Time
	for _, c := range list(status["containerStatuses"]) {
		cs := obj(c)
		if cs["ready"] == true {
			ready++
		}
		restarts += num(cs["restartCount"])
		if t, err := time.Parse(time.RFC3339, str(dig(cs, "lastState", "terminated", "finishedAt"))); err == nil && t.After(lastRestart) {
			lastRestart = t
		}
		if why == "" {
			why = containerReason(obj(cs["state"]))
		}
	}
	if why != "" {
		reason = why
	}
	if dig(pod, "metadata", "deletionTimestamp") != nil {
		reason = "Terminating"
	}
	restartCell := fmt.Sprint(restarts)
	if restarts > 0 && !lastRestart.IsZero() {
		restartCell += " (" + humanDuration(now.Sub(lastRestart)) + " ago)"
	}
	gates := "<none>"
	if g := list(spec["readinessGates"]); len(g) > 0 {
		isTrue := map[string]bool{}
		for _, c := range list(status["conditions"]) {
			isTrue[str(obj(c)["type"])] = str(obj(c)["status"]) == "True"
		}
		n := 0
		for _, gate := range g {
			if isTrue[str(obj(gate)["conditionType"])] {
				n++
			}
		}
		gates = fmt.Sprintf("%d/%d", n, len(g))
	}
	return []any{
		name(pod),
		fmt.Sprintf("%d/%d", ready, len(list(spec["containers"]))),
		reason, restartCell, age(pod, now),
		orNone(str(status["podIP"])), orNone(str(spec["nodeName"])),
		orNone(str(status["nominatedNodeName"])), gates,
	}
}

// containerReason says why a container is not running, or "".
func containerReason(state map[string]any) string {
	if r := str(dig(state, "waiting", "reason")); r != "" {
		return r
	}
	term := obj(state["terminated"])
	switch {
	case term == nil:
		return ""
	case str(term["reason"]) != "":
		return str(term["reason"])
	case num(term["signal"]) != 0:
		return fmt.Sprintf("Signal:%d", num(term["signal"]))
	}
	return fmt.Sprintf("ExitCode:%d", num(term["exitCode"]))
}

// age is the AGE cell: the time since metadata.creationTimestamp.
func age(body map[string]any, now time.Time) string {
	return since(dig(body, "metadata", "creationTimestamp"), now)
}

// since renders the time since timestamp t as an age, "<unknown>" when t
// is unset or not a time.
func since(t any, now time.Time) string {
	when, err := time.Parse(time.RFC3339, str(t))
	if err != nil {
		return "<unknown>"
	}
	return humanDuration(now.Sub(when))
}

// humanDuration renders d as kubectl's AGE column does: in one or two
// units, coarser as d grows ("45s", "3m20s", "5h", "3d4h", "400d", "2y30d").
// A clock up to a second behind is forgiven ("0s").
func humanDuration(d time.Duration) string {
	secs := int64(d / time.Second)
	mins, hours := secs/60, secs/3600
	days := hours / 24
	switch {
	case secs < -1:
		return "<invalid>"
	case secs < 0:
		return "0s"
	case secs < 2*60:
		return fmt.Sprintf("%ds", secs)
	case mins < 10:
		return twoUnits(mins, "m", secs%60, "s")
	case mins < 3*60:
		return fmt.Sprintf("%dm", mins)
	case hours < 8:
		return twoUnits(hours, "h", mins%60, "m")
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case days < 8:
		return twoUnits(days, "d", hours%24, "h")
	case days < 2*365:
		return fmt.Sprintf("%dd", days)
	case days < 8*365:
		return twoUnits(days/365, "y", days%365, "d")
	}
	return fmt.Sprintf("%dy", days/365)
}

// twoUnits renders "3m20s", or "3m" when the smaller part is zero.
func twoUnits(big int64, bigUnit string, small int64, smallUnit string) string {
	if small == 0 {
		return fmt.Sprintf("%d%s", big, bigUnit)
	}
	return fmt.Sprintf("%d%s%d%s", big, bigUnit, small, smallUnit)
}

// The readers below take whatever a client stored and never panic: a field
// of the wrong type reads as unset.

// dig follows keys through nested objects; nil if any is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		v = obj(v)[k]
	}
	return v
}

// name is the object's metadata.name.
func name(body map[string]any) string { return str(dig(body, "metadata", "name")) }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func list(v any) []any         { l, _ := v.([]any); return l }
func str(v any) string         { s, _ := v.(string); return s }

// num reads an integer however it was decoded (json.Number over HTTP).
func num(v any) int64 {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case int:
		n = int64(x)
	case float64:
		n = int64(x)
	case json.Number:
		n, _ = x.Int64()
	}
	return n
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

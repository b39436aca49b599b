// compare.go compares two traces of one scenario, step by step, and names
// the first difference.
//
// What must be equal after every step: the requests (verb and every query
// parameter, timeoutSeconds checked to be in client-go's range), the cache,
// the index, HasSynced of the informer and of every registration,
// LastSyncResourceVersion, whether Run has returned, the panics recovered,
// and every handler's calls. A handler's calls are compared object by
// object, in order: the SharedInformer promises the order of one object's
// notifications, not the order between objects, and client-go itself
// orders some batches by a map (the tombstones of a relist, a resync).
//
// Where client-go's own outcome is not fixed (the stop, RemoveEventHandler:
// a listener's pop goroutine picks at random between handing out the next
// buffered notification and seeing its channel closed), a step is lenient:
// for each handler and object, one side's calls need only be a prefix of
// the other's.
//
// client-go counterpart: none (test machinery).

package parity

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// byKey splits calls by object key, keeping each object's order.
func byKey(notes []note) map[string][]string {
	m := map[string][]string{}
	for _, n := range notes {
		m[n.Key] = append(m[n.Key], n.String())
	}
	return m
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []string) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// diffNotes compares one handler's calls in one step.
func diffNotes(a, b []note, lenient bool) string {
	ka, kb := byKey(a), byKey(b)
	keys := slices.Sorted(maps.Keys(ka))
	for k := range kb {
		if _, ok := ka[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, y := ka[k], kb[k]
		if slices.Equal(x, y) || lenient && (isPrefix(x, y) || isPrefix(y, x)) {
			continue
		}
		return fmt.Sprintf("calls for %s: %s ≠ %s", k, list(x), list(y))
	}
	return ""
}

// list writes strings as a list for a report.
func list(s []string) string {
	if len(s) == 0 {
		return "[]"
	}
	return "[" + strings.Join(s, "; ") + "]"
}

// diffStep compares one step's observations.
func diffStep(a, b seen, lenient bool) string {
	check := func(field string, x, y any) string {
		if fmt.Sprint(x) != fmt.Sprint(y) {
			return fmt.Sprintf("%s: %v ≠ %v", field, x, y)
		}
		return ""
	}
	for _, d := range []string{
		check("step", a.What, b.What),
		check("error", a.Err, b.Err),
		check("requests", list(a.Requests), list(b.Requests)),
	} {
		if d != "" {
			return d
		}
	}
	names := slices.Sorted(maps.Keys(a.HandlerSynced))
	for _, name := range names {
		if d := diffNotes(a.Notes[name], b.Notes[name], lenient); d != "" {
			return "handler " + name + ": " + d
		}
	}
	for _, d := range []string{
		check("cache", list(a.Cache), list(b.Cache)),
		check("index byApp", list(a.Index), list(b.Index)),
		check("HasSynced", a.Synced, b.Synced),
		check("registrations' HasSynced", a.HandlerSynced, b.HandlerSynced),
		check("LastSyncResourceVersion", a.LastRV, b.LastRV),
		check("Run returned", a.Returned, b.Returned),
		check("panics", list(a.Panics), list(b.Panics)),
	} {
		if d != "" {
			return d
		}
	}
	return ""
}

// difference is the first difference between two traces of a scenario.
type difference struct {
	Step   int // 1-based; 0 when the runs themselves failed
	What   string
	Detail string
}

// firstDifference compares a (ours) and b (client-go), step by step.
func firstDifference(sc scenario, a, b trace) *difference {
	if a.Fatal != "" || b.Fatal != "" {
		return &difference{Detail: fmt.Sprintf("a run failed: ours %q, client-go %q", a.Fatal, b.Fatal)}
	}
	for i := range max(len(a.Steps), len(b.Steps)) {
		if i >= len(a.Steps) || i >= len(b.Steps) {
			return &difference{Step: i + 1, Detail: fmt.Sprintf("ours ran %d steps, client-go %d",
				len(a.Steps), len(b.Steps))}
		}
		if d := diffStep(a.Steps[i], b.Steps[i], a.Steps[i].Lenient); d != "" {
			return &difference{Step: i + 1, What: a.Steps[i].What, Detail: d}
		}
	}
	return nil
}

// report writes a difference with the steps that led to it, and both
// sides' view of the step, for a person to read.
func report(sc scenario, setting string, d *difference, a, b trace) string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s, setting %q: first difference at step %d (%s): %s (ours ≠ client-go)\n",
		sc.name, setting, d.Step, d.What, d.Detail)
	if d.Step == 0 {
		return w.String()
	}
	w.WriteString("steps:\n")
	for i := range d.Step {
		if i < len(a.Steps) {
			fmt.Fprintf(&w, "  %3d. %s\n", i+1, a.Steps[i].What)
		}
	}
	for _, t := range []trace{a, b} {
		if d.Step-1 < len(t.Steps) {
			s := t.Steps[d.Step-1]
			fmt.Fprintf(&w, "%s at step %d: requests %s; calls %v; cache %s; synced %v\n",
				t.Side, d.Step, list(s.Requests), s.Notes, list(s.Cache), s.Synced)
		}
	}
	return w.String()
}

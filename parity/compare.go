// compare.go compares two traces of one scenario, step by step, and names
// the first difference.
//
// What must be equal after every step: the requests (verb and every query
// parameter, timeoutSeconds checked to be in client-go's range), the cache,
// the index, HasSynced of the informer and of every registration (of a
// slow handler in a call: once it is idle),
// LastSyncResourceVersion, whether Run has returned, the panics recovered,
// and every handler's calls. A handler's calls are compared object by
// object, in order: the SharedInformer promises the order of one object's
// notifications, not the order between objects, and client-go itself
// orders some batches by a map (the tombstones of a relist, a resync, a
// streaming list's objects). See firstDifference for slow handlers.
//
// Where client-go's own outcome is not fixed (the stop, RemoveEventHandler:
// a listener's pop goroutine picks at random between handing out the next
// buffered notification and seeing its channel closed), a step is lenient:
// for each handler and object, one side's calls need only be a prefix of
// the other's.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// calls is what one side's handlers have been called with so far: handler
// → object key → the calls, in order.
type calls map[string]map[string][]string

// add appends a step's calls.
func (c calls) add(notes map[string][]note) {
	for h, ns := range notes {
		if c[h] == nil {
			c[h] = map[string][]string{}
		}
		for _, n := range ns {
			c[h][n.Key] = append(c[h][n.Key], n.String())
		}
	}
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []string) bool {
	return len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// diffCalls compares one handler's calls so far, object by object: equal
// when exact, else one side's a prefix of the other's.
func diffCalls(a, b map[string][]string, exact bool) string {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, y := a[k], b[k]
		if slices.Equal(x, y) || !exact && (isPrefix(x, y) || isPrefix(y, x)) {
			continue
		}
		return fmt.Sprintf("calls for %s so far: %s ≠ %s", k, list(x), list(y))
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
func diffStep(a, b seen) string {
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
	for _, d := range []string{
		check("cache", list(a.Cache), list(b.Cache)),
		check("index byApp", list(a.Index), list(b.Index)),
		check("HasSynced", a.Synced, b.Synced),
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
//
// A handler's calls are compared as they have accumulated, object by
// object. After a step, a handler that is idle on both sides has had every
// call it will get for what happened so far: its calls must be equal. A
// slow handler still in a call on either side has a backlog whose order
// between objects client-go does not fix (a relist's batch comes from a
// map), and which it works through at a pace a random backoff may have
// shifted: then each object's calls need only be one side's a prefix of
// the other's, until it is idle on both. From a lenient step on, a handler
// it loosens (removed, or every handler at the stop) is held to the prefix
// rule only.
func firstDifference(sc scenario, a, b trace) *difference {
	if a.Fatal != "" || b.Fatal != "" {
		return &difference{Detail: fmt.Sprintf("a run failed: ours %q, client-go %q", a.Fatal, b.Fatal)}
	}
	ca, cb := calls{}, calls{}
	loose := map[string]bool{}
	// cutShort holds the handlers a lenient step loosened while they were
	// in a call on either side: where the stop or the removal cut their
	// initial adds is no longer fixed, nor is their HasSynced.
	cutShort := map[string]bool{}
	var prevA, prevB seen
	for i := range max(len(a.Steps), len(b.Steps)) {
		if i >= len(a.Steps) || i >= len(b.Steps) {
			return &difference{Step: i + 1, Detail: fmt.Sprintf("ours ran %d steps, client-go %d",
				len(a.Steps), len(b.Steps))}
		}
		sa, sb := a.Steps[i], b.Steps[i]
		fail := func(detail string) *difference { return &difference{Step: i + 1, What: sa.What, Detail: detail} }
		if d := diffStep(sa, sb); d != "" {
			return fail(d)
		}
		ca.add(sa.Notes)
		cb.add(sb.Notes)
		for _, name := range slices.Sorted(maps.Keys(sa.HandlerSynced)) {
			if sa.Loosens == name || sa.Loosens == "*" {
				loose[name] = true
				cutShort[name] = cutShort[name] || prevA.Busy[name] || prevB.Busy[name]
			}
			idle := !sa.Busy[name] && !sb.Busy[name]
			if idle && !cutShort[name] && sa.HandlerSynced[name] != sb.HandlerSynced[name] {
				// (A busy handler may still be in its initial adds, which it
				// works through at a pace a random backoff may have shifted.)
				return fail(fmt.Sprintf("handler %s: its registration's HasSynced %v ≠ %v", name,
					sa.HandlerSynced[name], sb.HandlerSynced[name]))
			}
			exact := !loose[name] && !sa.Lenient && idle
			if d := diffCalls(ca[name], cb[name], exact); d != "" {
				return fail("handler " + name + ": " + d)
			}
		}
		prevA, prevB = sa, sb
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

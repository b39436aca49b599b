// tables.go prints what the driver measured as the Markdown tables of
// docs/measured-numbers.md: ours over client-go per cell (medians of the
// rounds), the absolute medians, the spread of the events ratio over the
// rounds, and whether issue 35's floor holds (sync ≤ 0.5×, heap ≤ 0.8×,
// events/s ≥ 3×).
//
// client-go counterpart: none (a benchmark).
//
// Tutorial: none (a benchmark).

package main

import (
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// medians is the median of each figure over runs.
func medians(runs []run) result {
	m := func(f func(result) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r.r)
		}
		slices.Sort(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return result{
		SyncMS:      m(func(r result) float64 { return r.SyncMS }),
		SyncCPUMS:   m(func(r result) float64 { return r.SyncCPUMS }),
		HeapPerObj:  m(func(r result) float64 { return r.HeapPerObj }),
		EventsPerS:  m(func(r result) float64 { return r.EventsPerS }),
		CPUPerEvent: m(func(r result) float64 { return r.CPUPerEvent }),
	}
}

// label names a size as the docs do: 10k, 50k.
func label(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// thousands prints v rounded, with a comma every three digits.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// commit names the repository's commit, if git can tell.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}

// printTables prints the tables of runs.
func printTables(w io.Writer, sizes []int, events, rounds int, runs map[int]map[variant][]run, began, ended time.Time) {
	lo, hi := 1e9, -1e9
	for _, byVariant := range runs {
		for _, rs := range byVariant {
			for _, r := range rs {
				lo, hi = min(lo, r.loadBefore, r.loadAfter), max(hi, r.loadBefore, r.loadAfter)
			}
		}
	}
	fmt.Fprintf(w, "Measured %s–%s UTC on %s, %s, %d CPUs; %d MODIFIED events after the sync; medians of %d rounds; "+
		"1-minute load average %.2f–%.2f before and after the runs.\n\n",
		began.Format("2006-01-02 15:04"), ended.Format("15:04"), commit(), runtime.Version(), runtime.NumCPU(), events, rounds, lo, hi)

	modes := []string{"paged", "streaming"}
	objects := []string{"typed", "generic"}
	cell := func(n int, object, mode string) (ours, theirs result) {
		return medians(runs[n][variant{"ours", object, mode}]), medians(runs[n][variant{"client-go", object, mode}])
	}

	fmt.Fprint(w, "| ours ÷ client-go: sync wall (CPU), heap per object, events/s (CPU per event, client-go's ÷ ours) |")
	for _, mode := range modes {
		for _, n := range sizes {
			fmt.Fprintf(w, " %s, %s list |", label(n), mode)
		}
	}
	fmt.Fprint(w, "\n|---|")
	for range len(modes) * len(sizes) {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	var misses []string
	for _, object := range objects {
		fmt.Fprintf(w, "| %s |", object)
		for _, mode := range modes {
			for _, n := range sizes {
				o, c := cell(n, object, mode)
				sync, syncCPU, heap := o.SyncMS/c.SyncMS, o.SyncCPUMS/c.SyncCPUMS, o.HeapPerObj/c.HeapPerObj
				ev, evCPU := o.EventsPerS/c.EventsPerS, c.CPUPerEvent/o.CPUPerEvent
				fmt.Fprintf(w, " %.2f (%.2f), %.2f, %.2f× (%.2f×) |", sync, syncCPU, heap, ev, evCPU)
				where := fmt.Sprintf("%s %s %s", object, label(n), mode)
				if sync > 0.5 {
					misses = append(misses, fmt.Sprintf("%s: sync %.2f > 0.5", where, sync))
				}
				if heap > 0.8 {
					misses = append(misses, fmt.Sprintf("%s: heap %.2f > 0.8", where, heap))
				}
				if ev < 3 {
					misses = append(misses, fmt.Sprintf("%s: events/s %.2f× < 3×", where, ev))
				}
			}
		}
		fmt.Fprintln(w)
	}

	fmt.Fprint(w, "\nAbsolute medians (sync ms, heap B per object, events/s, µs of CPU per event):\n\n")
	fmt.Fprintln(w, "| | ours, typed | client-go, typed | ours, generic | client-go, generic |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, mode := range modes {
		for _, n := range sizes {
			fmt.Fprintf(w, "| %s, %s |", label(n), mode)
			for _, object := range objects {
				o, c := cell(n, object, mode)
				for _, r := range []result{o, c} {
					fmt.Fprintf(w, " %s, %s, %s, %.1f |", thousands(r.SyncMS), thousands(r.HeapPerObj), thousands(r.EventsPerS), r.CPUPerEvent)
				}
			}
			fmt.Fprintln(w)
		}
	}

	fmt.Fprint(w, "\nEvents/s, ours ÷ client-go, round by round:")
	for _, mode := range modes {
		for _, n := range sizes {
			for _, object := range objects {
				o, c := runs[n][variant{"ours", object, mode}], runs[n][variant{"client-go", object, mode}]
				var rs []string
				for i := range min(len(o), len(c)) {
					rs = append(rs, fmt.Sprintf("%.2f", o[i].r.EventsPerS/c[i].r.EventsPerS))
				}
				fmt.Fprintf(w, " %s %s %s %s;", object, label(n), mode, strings.Join(rs, ", "))
			}
		}
	}
	fmt.Fprintln(w)

	if len(misses) == 0 {
		fmt.Fprintln(w, "\nIssue 35's floor (sync ≤ 0.5×, heap ≤ 0.8×, events/s ≥ 3×) holds in every cell, by the medians.")
	} else {
		fmt.Fprintf(w, "\nIssue 35's floor (sync ≤ 0.5×, heap ≤ 0.8×, events/s ≥ 3×) is missed: %s.\n", strings.Join(misses, "; "))
	}
}

// normalise.go holds what may differ between two honest runs of the same
// command, and the line diff shown when a sample does not match. It has no
// client-go counterpart and teaches no tutorial section.

package main

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A rule replaces what varies from run to run with a placeholder. The rules
// are applied to the sample and to the real output alike, in this order; the
// README of the checker (the comment at the top of main.go) lists them.
type rule struct {
	re   *regexp.Regexp
	with string
}

var rules = []rule{
	// Object uids: 81de109c-1917-404b-aebd-4dd89fcb0fb2.
	{regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "<uid>"},
	// Dates and times of day: 2026-12-02T14:41:30.136Z, 2026/12/02, 14:41:05.892.
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?`), "<date-time>"},
	{regexp.MustCompile(`\b\d{4}[/-]\d\d[/-]\d\d\b`), "<date>"},
	{regexp.MustCompile(`\b\d\d:\d\d:\d\d(\.\d+)?\b`), "<time>"},
	// Loopback ports: 127.0.0.1:41599, localhost:8080, [::1]:1234.
	{regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`), "$1:<port>"},
	// Durations as Go and go test print them: 4.077s, 150ms, 1m2.5s, 6.659018ms, (cached).
	{regexp.MustCompile(`\b(\d+(\.\d+)?(h|m|s|ms|µs|us|ns))+\b`), "<duration>"},
	{regexp.MustCompile(`\(cached\)`), "<duration>"},
	// Go versions: go1.26.8, go1.25.
	{regexp.MustCompile(`\bgo1\.\d+(\.\d+)?\b`), "go<version>"},
	// Line numbers in file positions: informer_test.go:174, main.go:12:3.
	{regexp.MustCompile(`(\.go):\d+(:\d+)?`), "$1:<line>"},
	// Temporary directories: /tmp/docscheck123/..., $TMPDIR/go-build....
	{regexp.MustCompile(`/tmp/[^\s"':]*`), "<tmp>"},
	// The watch timeout a Reflector picks at random (client-go: 5 to 10 minutes).
	{regexp.MustCompile(`timeoutSeconds=\d+`), "timeoutSeconds=<random>"},
	// Runs of spaces (column alignment shifts when a number grows a digit).
	{regexp.MustCompile(`[ \t]+`), " "},
}

// timedLineRE is a line that starts with a time of day, after normalising: an
// event line of podwatch. Goroutines print them, so within a run of such
// lines the order is the scheduler's (or a map's), not the program's.
var timedLineRE = regexp.MustCompile(`^<time> `)

// normalise returns the lines with every rule applied, trailing blank lines
// dropped, and each run of consecutive timed lines sorted.
func normalise(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		for _, r := range rules {
			l = r.re.ReplaceAllString(l, r.with)
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && timedLineRE.MatchString(out[j]) {
			j++
		}
		if j > i {
			sort.Strings(out[i:j])
			i = j
		} else {
			i++
		}
	}
	return out
}

// selectLines returns the lines of out that spec names ("1-12,20-25": 1-based,
// inclusive; "" means all), with a "..." line wherever lines were left out.
func selectLines(out []string, spec string) ([]string, error) {
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if spec == "" {
		return out, nil
	}
	var sel []string
	next := 1
	for _, part := range strings.Split(spec, ",") {
		lo, hi, ok := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if ok {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < next || b < a {
			return nil, fmt.Errorf("bad lines spec %q", spec)
		}
		if a > next {
			sel = append(sel, "...")
		}
		for n := a; n <= b && n <= len(out); n++ {
			sel = append(sel, out[n-1])
		}
		next = b + 1
	}
	if next <= len(out) {
		sel = append(sel, "...")
	}
	return sel, nil
}

// diff returns a line diff of want (the sample) and got (the real output), as
// "- " and "+ " lines with two lines of context, from a longest common
// subsequence (the samples are short).
func diff(want, got []string) string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		mark byte
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			ops = append(ops, op{' ', want[i]})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', got[j]})
			j++
		default:
			ops = append(ops, op{'-', want[i]})
			i++
		}
	}
	var b strings.Builder
	for k, o := range ops {
		near := false
		for d := -2; d <= 2; d++ {
			if k+d >= 0 && k+d < len(ops) && ops[k+d].mark != ' ' {
				near = true
			}
		}
		if near {
			fmt.Fprintf(&b, "    %c %s\n", o.mark, o.text)
		}
	}
	return b.String()
}

// apart moves the lines re matches to the end, sorted, after a line that
// says so: they are compared as a set, the others in order.
func apart(lines []string, re *regexp.Regexp) []string {
	var in, out []string
	for _, l := range lines {
		if re.MatchString(l) {
			out = append(out, l)
		} else {
			in = append(in, l)
		}
	}
	sort.Strings(out)
	return append(append(in, "(in any order:)"), out...)
}

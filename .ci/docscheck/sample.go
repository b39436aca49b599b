// sample.go compares a sample with what its command printed: a command that
// has ended, or one still running in the background, whose output is awaited
// until it matches. It has no client-go counterpart and teaches no tutorial
// section.

package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// liveTimeout is how long a sample of a background command waits for the
// lines it shows.
const liveTimeout = time.Minute

// sample compares a sample block with the output of its command.
func (r *fileRun) sample(b block) {
	if b.markers.notRun != "" {
		r.t.notRun++
		return
	}
	if b.markers.outputOf == "" {
		r.t.problem(b, "a sample with no marker: say which command prints it (<!-- output of: ... -->) or why it is not run (<!-- not run: ... -->)")
		return
	}
	if b.markers.outputOf == "above" {
		b.markers.outputOf = r.above
	}
	k := key(b.markers.outputOf)
	if why, ok := r.skipped[k]; ok {
		r.t.note("docs: skipped %s:%d: %s", b.file, b.line, why)
		r.t.skipped++
		return
	}
	r.t.samples++
	var out []string
	if p, ok := r.live[k]; ok {
		// Still running: wait until the lines it printed so far look like
		// the sample (with -update: until there are as many).
		out, _ = p.waitFor(func(out []string) bool {
			shown, want, got, err := shape(b, out)
			return err != nil || equal(want, got) || *update && len(shown) >= len(b.body)
		}, liveTimeout)
	} else {
		res, ok := r.outputs[k]
		if !ok {
			res = runCommands(r.dir, r.env, []string{b.markers.outputOf}, *timeout)[0]
			r.outputs[k] = res
		}
		if res.err != nil {
			r.t.problem(b, "`%s`: %v; it printed:\n%s", b.markers.outputOf, res.err, tail(res.output, 20))
			return
		}
		out = res.output
	}
	shown, want, got, err := shape(b, out)
	switch {
	case err != nil:
		r.t.problem(b, "%v", err)
	case equal(want, got):
		r.t.matched++
	case *update:
		r.t.note("docs: updated %s:%d (`%s`):\n%s", b.file, b.line, b.markers.outputOf, diff(want, got))
		with := make([]string, len(shown))
		for i, l := range shown {
			with[i] = b.indent + l
		}
		r.edits = append(r.edits, edit{b.first, len(b.body), with})
		r.t.updated++
		r.t.matched++
	default:
		r.t.problem(b, "the sample of `%s` differs from a real run (- sample, + real, normalised):\n%s", b.markers.outputOf, diff(want, got))
	}
}

// shape returns the lines of out the sample shows (its "lines" and
// "columns"), and the sample and those lines normalised for comparing.
func shape(b block, out []string) (shown, want, got []string, err error) {
	if shown, err = selectLines(out, b.markers.lines); err != nil {
		return nil, nil, nil, err
	}
	if b.markers.columns != "" {
		n, err := strconv.Atoi(b.markers.columns)
		if err != nil || n < 10 {
			return nil, nil, nil, fmt.Errorf("bad columns %q", b.markers.columns)
		}
		shown = cut(shown, n)
	}
	want, got = normalise(b.body), normalise(shown)
	if b.markers.varies != "" {
		re, err := regexp.Compile(b.markers.varies)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("varies: %v", err)
		}
		want, got = mask(want, re), mask(got, re)
	}
	if b.markers.unordered != "" {
		re, err := regexp.Compile(b.markers.unordered)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("unordered: %v", err)
		}
		want, got = apart(want, re), apart(got, re)
	}
	return shown, want, got, nil
}

// cut shortens every line longer than n characters: it keeps the first n,
// back to the last comma among them if there is one (JSON is cut between
// two members), and adds "...".
func cut(lines []string, n int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if utf8.RuneCountInString(l) <= n {
			out[i] = l
			continue
		}
		l = string([]rune(l)[:n])
		if c := strings.LastIndex(l, ","); c > 0 {
			l = l[:c+1]
		}
		out[i] = l + "..."
	}
	return out
}

// mask replaces what re matches (its first group, if it has one) with
// "<varies>".
func mask(lines []string, re *regexp.Regexp) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		var b strings.Builder
		last := 0
		for _, m := range re.FindAllStringSubmatchIndex(l, -1) {
			from, to := m[0], m[1]
			if len(m) > 2 && m[2] >= 0 {
				from, to = m[2], m[3]
			}
			b.WriteString(l[last:from])
			b.WriteString("<varies>")
			last = to
		}
		b.WriteString(l[last:])
		out[i] = b.String()
	}
	return out
}

// equal reports whether two normalised outputs are the same.
func equal(want, got []string) bool {
	return strings.Join(want, "\n") == strings.Join(got, "\n")
}

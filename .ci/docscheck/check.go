// check.go runs one Markdown file's command blocks and compares its samples
// (the conventions are in main.go's comment). It has no client-go
// counterpart and teaches no tutorial section.

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// trailingCommentRE is a comment after a command ("go test ./...   # check it").
var trailingCommentRE = regexp.MustCompile(`\s+#\s.*$`)

// key is how a command is recognised between a command block and a sample's
// "output of" marker: without its trailing comment, spaces collapsed.
func key(command string) string {
	return strings.Join(strings.Fields(trailingCommentRE.ReplaceAllString(command, "")), " ")
}

// checkFile runs the command blocks of one Markdown file and compares its
// samples, rewriting them with -update.
func checkFile(t *tally, file, dir string, env []string) {
	lines, blocks, err := parseBlocks(file)
	if err != nil {
		t.problems = append(t.problems, err.Error())
		return
	}
	outputs := map[string]result{}
	skipped := map[string]string{} // command key → why it was skipped
	var srv *server
	above := "" // the last command of the last command block
	stopServer := func() {
		if srv != nil {
			srv.stop()
			srv = nil
		}
	}
	defer stopServer()
	type edit struct {
		at, n int
		with  []string
	}
	var edits []edit
	for _, b := range blocks {
		switch {
		case commandLangs[b.lang]:
			stopServer()
			if b.markers.notRun != "" {
				t.notRun++
				continue
			}
			cmds := commands(b.body)
			if len(cmds) > 0 {
				above = cmds[len(cmds)-1]
			}
			if why := unmet(b.markers.needs); why != "" {
				t.note("docs: skipped %s:%d: %s", b.file, b.line, why)
				t.skipped++
				for _, c := range cmds {
					skipped[key(c)] = why
				}
				continue
			}
			if b.markers.with != "" {
				if srv, err = startServer(dir, env, b.markers.with, 3*time.Minute); err != nil {
					t.problem(b, "could not start the server: %v", err)
					continue
				}
			}
			t.run++
			for i, r := range runCommands(dir, env, cmds, *timeout) {
				outputs[key(cmds[i])] = r
				if r.err != nil {
					t.problem(b, "`%s`: %v; it printed:\n%s", cmds[i], r.err, tail(r.output, 20))
					break
				}
			}
		case sampleLangs[b.lang]:
			if b.markers.notRun != "" {
				t.notRun++
				continue
			}
			if b.markers.outputOf == "" {
				t.problem(b, "a sample with no marker: say which command prints it (<!-- output of: ... -->) or why it is not run (<!-- not run: ... -->)")
				continue
			}
			if b.markers.outputOf == "above" {
				b.markers.outputOf = above
			}
			k := key(b.markers.outputOf)
			if why, ok := skipped[k]; ok {
				t.note("docs: skipped %s:%d: %s", b.file, b.line, why)
				t.skipped++
				continue
			}
			t.samples++
			r, ok := outputs[k]
			if !ok {
				r = runCommands(dir, env, []string{b.markers.outputOf}, *timeout)[0]
				outputs[k] = r
			}
			if r.err != nil {
				t.problem(b, "`%s`: %v; it printed:\n%s", b.markers.outputOf, r.err, tail(r.output, 20))
				continue
			}
			real, err := selectLines(r.output, b.markers.lines)
			if err != nil {
				t.problem(b, "%v", err)
				continue
			}
			want, got := normalise(b.body), normalise(real)
			if b.markers.unordered != "" {
				re, err := regexp.Compile(b.markers.unordered)
				if err != nil {
					t.problem(b, "unordered: %v", err)
					continue
				}
				want, got = apart(want, re), apart(got, re)
			}
			if strings.Join(want, "\n") == strings.Join(got, "\n") {
				t.matched++
				continue
			}
			if *update {
				t.note("docs: updated %s:%d (`%s`):\n%s", b.file, b.line, b.markers.outputOf, diff(want, got))
				with := make([]string, len(real))
				for i, l := range real {
					with[i] = b.indent + l
				}
				edits = append(edits, edit{b.first, len(b.body), with})
				t.updated++
				t.matched++
				continue
			}
			t.problem(b, "the sample of `%s` differs from a real run (- sample, + real, normalised):\n%s", b.markers.outputOf, diff(want, got))
		}
	}
	if len(edits) == 0 {
		return
	}
	if now, err := os.ReadFile(file); err != nil || string(now) != strings.Join(lines, "\n") {
		t.problems = append(t.problems, file+": changed while the check ran; samples not updated, run -update again")
		return
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		lines = append(lines[:e.at], append(e.with, lines[e.at+e.n:]...)...)
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.problems = append(t.problems, err.Error())
	}
}

// unmet returns why a "needs" marker is not met, or "" when it is.
func unmet(needs string) string {
	var missing []string
	for _, n := range strings.Split(needs, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
		case strings.HasPrefix(n, "$"):
			if os.Getenv(n[1:]) == "" {
				missing = append(missing, n+" is not set")
			}
		case strings.HasPrefix(n, ":"):
			if !portFree(n) {
				missing = append(missing, "port "+n[1:]+" is in use")
			}
		default:
			if _, err := exec.LookPath(n); err != nil {
				missing = append(missing, n+" is not on PATH")
			}
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return "needs " + needs + ": " + strings.Join(missing, ", ")
}

// tail returns the last n lines, indented, for a failure message.
func tail(lines []string, n int) string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

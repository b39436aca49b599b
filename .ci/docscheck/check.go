// check.go runs one Markdown file's command blocks, in order, with the
// servers and background commands they need (the conventions are in
// main.go's comment). It has no client-go counterpart and teaches no
// tutorial section.

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

// startTimeout is how long a server or background command may take to print
// the line it is waited for (go run builds it first).
const startTimeout = 3 * time.Minute

// A fileRun is the state of one file's check: what each command printed,
// what runs in the background, and the samples to rewrite.
type fileRun struct {
	t        *tally
	dir      string
	env      []string
	outputs  map[string]result   // command key → what it printed (commands that ended)
	live     map[string]*process // command key → a background command still running
	skipped  map[string]string   // command key → why it was skipped
	srv      *process            // the "with" server of the last command block
	bg       []*process          // the section's background commands
	held     bool                // ports is held
	section  int                 // the section of the last block
	skipRest string              // why the rest of the section is skipped
	above    string              // the last command of the last command block
	edits    []edit
}

// An edit replaces n lines at index at of the file with a real output.
type edit struct {
	at, n int
	with  []string
}

// checkFile runs the command blocks of one Markdown file and compares its
// samples, rewriting them with -update.
func checkFile(t *tally, file, dir string, env []string) {
	lines, blocks, err := parseBlocks(file)
	if err != nil {
		t.problems = append(t.problems, err.Error())
		return
	}
	r := &fileRun{t: t, dir: dir, env: env, outputs: map[string]result{}, live: map[string]*process{},
		skipped: map[string]string{}}
	defer r.endSection()
	for _, b := range blocks {
		if b.section != r.section {
			r.endSection()
			r.section = b.section
		}
		switch {
		case commandLangs[b.lang]:
			r.commandBlock(b)
		case sampleLangs[b.lang]:
			r.sample(b)
		}
	}
	r.endSection()
	if len(r.edits) == 0 {
		return
	}
	if now, err := os.ReadFile(file); err != nil || string(now) != strings.Join(lines, "\n") {
		t.problems = append(t.problems, file+": changed while the check ran; samples not updated, run -update again")
		return
	}
	for i := len(r.edits) - 1; i >= 0; i-- {
		e := r.edits[i]
		lines = append(lines[:e.at], append(e.with, lines[e.at+e.n:]...)...)
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.problems = append(t.problems, err.Error())
	}
}

// commandBlock runs a command block: in the foreground (with its "with"
// server), or in the background until the section ends.
func (r *fileRun) commandBlock(b block) {
	r.stopServer()
	if b.markers.notRun != "" {
		r.t.notRun++
		return
	}
	cmds := commands(b.body)
	if len(cmds) > 0 {
		r.above = cmds[len(cmds)-1]
	}
	if b.markers.with != "" || b.markers.background != "" || strings.Contains(b.markers.needs, ":") {
		r.holdPorts() // before the port is checked: the other language may be using it
	}
	why := r.skipRest
	if why == "" {
		why = unmet(b.markers.needs)
	}
	if why != "" {
		r.t.note("docs: skipped %s:%d: %s", b.file, b.line, why)
		r.t.skipped++
		for _, c := range cmds {
			r.skipped[key(c)] = why
		}
		// Later blocks of a section that keeps something running build on
		// this one: they are skipped too, for the same reason.
		if b.markers.background != "" || len(r.bg) > 0 {
			r.skipRest = why
		}
		r.releasePorts()
		return
	}
	if b.markers.background != "" {
		r.background(b, cmds)
		return
	}
	if b.markers.with != "" {
		var err error
		if r.srv, err = startProcess(r.dir, r.env, b.markers.with, regexp.MustCompile(`^`), startTimeout); err != nil {
			r.t.problem(b, "could not start the server: %v", err)
			r.releasePorts()
			return
		}
	}
	r.t.run++
	for i, res := range runCommands(r.dir, r.env, cmds, *timeout) {
		r.outputs[key(cmds[i])] = res
		if res.err != nil {
			r.t.problem(b, "`%s`: %v; it printed:\n%s", cmds[i], res.err, tail(res.output, 20))
			break
		}
	}
}

// background starts each command of a "background" block and waits, if
// the block says so, for the line that shows it is ready.
func (r *fileRun) background(b block, cmds []string) {
	var wait *regexp.Regexp
	if b.markers.waitFor != "" {
		var err error
		if wait, err = regexp.Compile(b.markers.waitFor); err != nil {
			r.t.problem(b, "wait for: %v", err)
			return
		}
	}
	r.t.run++
	for _, c := range cmds {
		p, err := startProcess(r.dir, r.env, c, wait, startTimeout)
		if err != nil {
			r.t.problem(b, "%v", err)
			r.skipRest = "a background command of the section failed"
			return
		}
		r.bg = append(r.bg, p)
		r.live[key(c)] = p
	}
}

// holdPorts takes the ports for this file until its servers have stopped.
func (r *fileRun) holdPorts() {
	if !r.held {
		ports.Lock()
		r.held = true
	}
}

// releasePorts lets the other language's servers start, once none of this
// file's runs.
func (r *fileRun) releasePorts() {
	if r.held && r.srv == nil && len(r.bg) == 0 {
		ports.Unlock()
		r.held = false
	}
}

// stopServer stops the "with" server of the last command block.
func (r *fileRun) stopServer() {
	if r.srv != nil {
		r.srv.stop()
		r.srv = nil
	}
	r.releasePorts()
}

// endSection stops everything the section left running, keeping what each
// printed for a later sample.
func (r *fileRun) endSection() {
	r.stopServer()
	for _, p := range r.bg {
		p.stop()
		r.outputs[key(p.command)] = result{output: p.output()}
		delete(r.live, key(p.command))
	}
	r.bg, r.skipRest = nil, ""
	r.releasePorts()
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

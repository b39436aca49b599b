// Docscheck runs the book: it executes the shell blocks of README.md,
// README.zh-CN.md and docs/*.md in a fresh copy of the repository and
// compares every printed sample with what the command really prints. It is
// run by .ci/run as `go run ./.ci/docscheck`; `-update` rewrites the samples
// from a real run (samples are never edited by hand); `-file docs/x.md` checks
// one file. It has no client-go counterpart and teaches no tutorial section.
//
// The conventions, for whoever writes a chapter:
//   - A ```sh (or bash, shell) block is commands. Each runs with bash in the
//     copy, in order, in one shell (a variable set by one is seen by the
//     next); a line ending in `\` continues; a command that exits non-zero
//     fails the check. English files run with LANG=C.UTF-8, *.zh-CN.md files
//     with LANG=zh_CN.UTF-8 (LC_ALL, LANGUAGE, INFORMER_LANG and
//     INFORMER_PIPELINE unset), each language in its own fresh copy.
//   - A ```text (or ```, console, json) block is a sample: what a command
//     prints. The line right before it says which command:
//     <!-- output of: go run ./examples/podwatch -->. If a block of the same
//     file already ran that command, its output is used, else it runs now;
//     <!-- output of: above --> names the last command of the command block
//     above. <!-- lines: 1-12,30-34 --> shows only those lines of the output (a "..."
//     line stands for the lines left out). <!-- unordered: REGEXP --> compares
//     the lines the expression matches (after normalising) as a set, apart
//     from the others: lines a goroutine prints whenever the scheduler lets it
//     (podwatch's slow handler).
//   - A block not meant to run or compare says why, visibly in the source:
//     <!-- not run: it needs a second terminal -->. A sample with neither
//     marker fails the check. go, yaml and mermaid blocks are listings and
//     are neither run nor compared.
//   - <!-- needs: kubectl, $KUBECONFIG, :8080 --> skips the block, with the
//     reason printed, unless the program is on PATH, the variable is set and
//     the port is free. <!-- with: go run ./fakeapi/cmd/fakeapi --> starts a
//     server before the block (waiting for its first line) and stops it
//     before the next command block.
//
// Before comparing, both sides are normalised, so that only what the book
// promises is compared: dates and times of day, loopback ports, durations
// (and "(cached)"), Go versions, line numbers after ".go:", paths under /tmp,
// the watch timeout a Reflector picks at random (timeoutSeconds=N), and runs
// of spaces become placeholders; trailing blank lines go; and each
// run of consecutive lines that start with a time of day (podwatch's events,
// printed by goroutines) is compared in sorted order.
//
// It also checks that every "Tutorial: 00x §n" citation in a Go file's
// header names a section that the seed guide maps to that file's topic
// (citations.go).

package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

var (
	update    = flag.Bool("update", false, "rewrite every sample that does not match from the real output")
	only      = flag.String("file", "", "check only this Markdown file")
	seedGuide = flag.String("seeds", "", "the seed guide (default: ../shared/seeds/README.md or ../../shared/seeds/README.md from the repository; citations are not checked when it is absent)")
	parallel  = flag.Bool("parallel", false, "run the two languages side by side (faster on an idle machine)")
	timeout   = flag.Duration("timeout", 10*time.Minute, "how long one block may run")
)

// notYet are chapters whose blocks are not marked yet: their owners mark them
// (a server that runs until Ctrl-C needs <!-- not run: ... -->), then remove
// them from here.
var notYet = map[string]string{
	"docs/liveview.md":       "not marked yet (its `go run ./examples/liveview` serves until Ctrl-C)",
	"docs/liveview.zh-CN.md": "not marked yet (its `go run ./examples/liveview` serves until Ctrl-C)",
}

// tally counts what the run did, for the summary line.
type tally struct {
	run, notRun, skipped, samples, matched, updated int
	notes, problems                                 []string
}

func (t *tally) add(u tally) {
	t.run += u.run
	t.notRun += u.notRun
	t.skipped += u.skipped
	t.samples += u.samples
	t.matched += u.matched
	t.updated += u.updated
	t.notes, t.problems = append(t.notes, u.notes...), append(t.problems, u.problems...)
}

func (t *tally) note(format string, args ...any) {
	t.notes = append(t.notes, fmt.Sprintf(format, args...))
}

func (t *tally) problem(b block, format string, args ...any) {
	t.problems = append(t.problems, fmt.Sprintf("%s:%d: %s", b.file, b.line, fmt.Sprintf(format, args...)))
}

func main() {
	flag.Parse()
	start := time.Now()
	root, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	files := []string{"README.md", "README.zh-CN.md"}
	more, _ := filepath.Glob("docs/*.md")
	sort.Strings(more)
	files = append(files, more...)
	if *only != "" {
		files = []string{*only}
	}
	files = slices.DeleteFunc(files, func(f string) bool {
		if why, ok := notYet[f]; ok {
			fmt.Printf("docs: skipped %s: %s\n", f, why)
			return true
		}
		return false
	})
	// Each language runs in its own copy (so Go's test cache of one does not
	// answer for the other); one after the other, unless -parallel: the
	// docs run the whole test suite, whose timeouts a doubled load can trip.
	var tallies [2]tally
	var wg sync.WaitGroup
	for i, chinese := range []bool{false, true} {
		language := func() {
			t := &tallies[i]
			dir, err := freshCopy(root)
			defer os.RemoveAll(dir)
			if err != nil {
				t.problems = append(t.problems, err.Error())
				return
			}
			for _, f := range files {
				if strings.HasSuffix(f, ".zh-CN.md") == chinese {
					checkFile(t, f, dir, environ(chinese))
				}
			}
		}
		if *parallel {
			wg.Go(language)
		} else {
			language()
		}
	}
	wg.Wait()
	t := tallies[0]
	t.add(tallies[1])
	for _, n := range t.notes {
		fmt.Println(n)
	}
	guide := *seedGuide
	if guide == "" {
		guide = filepath.Join(root, "../shared/seeds/README.md")
		if _, err := os.Stat(guide); err != nil {
			guide = filepath.Join(root, "../../shared/seeds/README.md")
		}
	}
	t.problems = append(t.problems, checkCitations(root, guide)...)
	for _, p := range t.problems {
		fmt.Println(p)
	}
	fmt.Printf("docs: %d blocks run, %d samples match (%d samples; %d blocks not run, %d skipped; %d updated) in %s\n",
		t.run, t.matched, t.samples, t.notRun, t.skipped, t.updated, time.Since(start).Round(time.Second))
	if len(t.problems) > 0 {
		fmt.Printf("docs: %d problem(s)\n", len(t.problems))
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "docscheck:", err)
	os.Exit(2)
}

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

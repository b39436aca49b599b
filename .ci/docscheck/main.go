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
//     next); a line ending in `\` continues; a here-document (<<'EOF') runs
//     to its closing word; a command that exits non-zero fails the check.
//     English files run with LANG=C.UTF-8, *.zh-CN.md files with
//     LANG=zh_CN.UTF-8 (LC_ALL, LANGUAGE, INFORMER_LANG and INFORMER_PIPELINE
//     unset), each language in its own fresh copy, with kubectl's cache
//     (KUBECACHEDIR) in that copy.
//   - A ```text (or ```, console, json) block is a sample: what a command
//     prints. The line right before it says which command:
//     <!-- output of: go run ./examples/podwatch -->. If a block of the same
//     file already ran that command, its output is used, else it runs now;
//     <!-- output of: above --> names the last command of the command block
//     above. <!-- lines: 1-12,30-34 --> shows only those lines of the output (a "..."
//     line stands for the lines left out). <!-- columns: 160 --> cuts every
//     longer line after 160 characters, back to its last comma (JSON is cut
//     between members), and ends it in "...". <!-- unordered: REGEXP -->
//     compares the lines the expression matches (after normalising) as a
//     set, apart from the others: lines a goroutine prints whenever the
//     scheduler lets it (podwatch's slow handler). <!-- varies: REGEXP -->
//     leaves what the expression matches (its first group, if it has one)
//     out of the comparison, in that sample only: a counter of a program that
//     runs on its own clock, such as examples/health's churn.
//   - A block not meant to run or compare says why, visibly in the source:
//     <!-- not run: it needs a cluster -->. A sample with neither
//     marker fails the check. go, yaml and mermaid blocks are listings and
//     are neither run nor compared.
//   - <!-- needs: kubectl, $KUBECONFIG, :8080 --> skips the block, with the
//     reason printed, unless the program is on PATH, the variable is set and
//     the port is free. <!-- with: go run ./fakeapi/cmd/fakeapi --> starts a
//     server before the block (waiting for its first line) and stops it
//     before the next command block.
//   - A passage written for several terminals runs as written.
//     <!-- background: terminal 2 --> before a command block starts each of
//     its commands as if in a terminal of its own (a server, podwatch, a
//     watch: programs that run until Ctrl-C), and goes on at once, or, with
//     <!-- wait for: REGEXP -->, once the command has printed a line the
//     expression matches (a server's "serving on" line, podwatch's "synced").
//     They run until the section ends (the next heading) or the file does,
//     then get Ctrl-C (SIGINT to their process group; SIGKILL 5 s later).
//     A sample of a command still running is compared with what it has
//     printed so far: the check waits (up to a minute) until some first
//     lines of its output look like the sample (with -update: until there
//     are as many lines as the sample has), so that a sample shows what the
//     terminal shows at that point of the story, and a later sample of the
//     same command shows more of it. A block skipped for its "needs" skips
//     the rest of a section that keeps something running.
//   - Only one file's servers run at a time (with -parallel the other
//     language waits), so the chapters' fixed ports (8080, 6060) are theirs.
//     Every process the check starts is stopped with its process group when
//     its block or section ends, and killed if the check is interrupted.
//
// Before comparing, both sides are normalised, so that only what the book
// promises is compared: object uids, dates and times of day, loopback ports,
// durations (and "(cached)"), Go versions, line numbers after ".go:", paths
// under /tmp, the watch timeout a Reflector picks at random
// (timeoutSeconds=N), and runs of spaces become placeholders; trailing blank
// lines go; and each run of consecutive lines that start with a time of day
// (podwatch's events, printed by goroutines) is compared in sorted order.
//
// It also checks that every "Tutorial: 00x §n" citation in a Go file's
// header names a section that the seed guide maps to that file's topic
// (citations.go).

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
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
var notYet = map[string]string{}

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
	killOnInterrupt()
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
	// Each language runs in its own copy. Under CI's -trimpath both copies
	// build the same test binaries, so Go's test cache may answer the second
	// language for a package whose tests read neither the language nor a
	// file (the cache keys on every environment variable and file a test
	// reads). One language after the other, unless -parallel: the docs run
	// the whole test suite, whose timeouts a doubled load can trip.
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
			// kubectl's cache of what a server serves lives in the copy:
			// nothing from another run (another fakeapi) answers for this one.
			env := append(environ(chinese), "KUBECACHEDIR="+filepath.Join(dir, ".kube-cache"))
			for _, f := range files {
				if strings.HasSuffix(f, ".zh-CN.md") == chinese {
					checkFile(t, f, dir, env)
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

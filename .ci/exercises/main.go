// Exercises checks that the exercises of docs/exercises.md behave as they
// are written: for each, it makes the edit the text describes in a fresh
// copy of the repository, runs the command the text names, asserts what the
// text says happens, and undoes the edit. Run by .ci/run as
// `go run ./.ci/exercises`; `-only 6` runs one. It prints
// `exercises: N/N behave as written` and exits non-zero unless all of them
// do. It has no client-go counterpart and teaches no tutorial section.
//
// An exercise is an entry of the table in exercises.go: the files and code
// its text names, then its parts, each with its edits (a string that must
// occur exactly once in a file, and what replaces it), an optional server to
// start first, the command, the reader's language, and a check of what the
// command printed. Both language editions of the chapter describe the same
// exercises, so one check covers both; where the two quote different lines
// (a test's failure in the reader's language), a part runs in each.

package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// An exercise is one numbered experiment of docs/exercises.md: the names its
// text cites, then its parts, in the order the text tells them.
type exercise struct {
	id    string  // its number in the chapter: "2", "3a"
	names []cited // the files and code the text names
	parts []part
}

// A cited is a file the text names and, unless "", a piece of code in it.
type cited struct{ file, code string }

// A part is one "change this, run that, see this" of an exercise.
type part struct {
	edits   []edit // what the text tells the reader to change
	server  string // a command to start first and stop after ("" for none)
	listens string // the address the server listens on
	command string // what the text tells the reader to run
	lang    string // the reader's language, "en" or "zh" (INFORMER_LANG): "" is "en"
	check   func(out string, err error) error
}

// An edit replaces old, which must occur exactly once in file, with new.
type edit struct{ file, old, new string }

var (
	only     = flag.String("only", "", "run only the exercise with this id")
	parallel = flag.Int("parallel", 3, "how many exercises to check at once, each in its own copy")
)

func main() {
	flag.Parse()
	start := time.Now()
	var chosen []exercise
	for _, e := range exercises {
		if *only == "" || e.id == *only {
			chosen = append(chosen, e)
		}
	}
	if err := warmUp(); err != nil {
		fmt.Fprintln(os.Stderr, "exercises:", err)
		os.Exit(2)
	}
	// Each exercise gets its own copy, so that several can run at once: much
	// of a check is waiting (for a server, a story, a timeout) while another
	// one builds.
	results := make([]chan string, len(chosen))
	slots := make(chan struct{}, max(1, *parallel))
	for i, e := range chosen {
		results[i] = make(chan string, 1)
		go func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] <- e.check()
		}()
	}
	ok := 0
	for i, e := range chosen {
		failure := <-results[i]
		if failure != "" {
			fmt.Printf("exercise %s %s\n", e.id, failure)
			continue
		}
		fmt.Printf("exercise %s behaves as written\n", e.id)
		ok++
	}
	fmt.Printf("exercises: %d/%d behave as written (in %s)\n", ok, len(chosen), time.Since(start).Round(time.Second))
	if ok < len(chosen) || ok == 0 {
		os.Exit(1)
	}
}

// warmUpCommand builds, once, what the exercises' commands build before
// their edits: the checks that run at once then compile only what their
// edits change, instead of each compiling everything at the same time.
const warmUpCommand = "go test -run '^$' . ./mutationdetector ./retry ./internal/jsonread && " +
	"go build ./examples/podwatch ./examples/health ./fakeapi/cmd/fakeapi"

// warmUp runs warmUpCommand in a fresh copy of the repository.
func warmUp() error {
	dir, err := freshCopy()
	defer os.RemoveAll(dir)
	if err != nil {
		return err
	}
	if out, err := runFor(dir, warmUpCommand, "en", 10*time.Minute); err != nil {
		return fmt.Errorf("building before the checks: %v\n%s", err, out)
	}
	return nil
}

// check runs e in a fresh copy of the repository and returns "" if it
// behaves as written, or what went wrong.
func (e exercise) check() string {
	if addr := e.busyAddress(); addr != "" {
		return fmt.Sprintf("not checked: its server needs %s, which is in use", addr)
	}
	dir, err := freshCopy()
	defer os.RemoveAll(dir)
	if err != nil {
		return "not checked: " + err.Error()
	}
	began := time.Now()
	if err := e.run(dir); err != nil {
		return fmt.Sprintf("does not behave as written (%s): %v", time.Since(began).Round(time.Second), err)
	}
	return ""
}

// busyAddress returns an address a server of e listens on that is in use,
// or "".
func (e exercise) busyAddress() string {
	for _, p := range e.parts {
		if p.listens != "" && !portFree(p.listens) {
			return p.listens
		}
	}
	return ""
}

// portFree reports whether addr can be listened on.
func portFree(addr string) bool {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// freshCopy copies the files git knows into a new temporary directory.
func freshCopy() (string, error) {
	dir, err := os.MkdirTemp("", "exercises")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("bash", "-c", `git ls-files --cached --others --exclude-standard |
		while read -r f; do [ -f "$f" ] && echo "$f"; done | tar -cf - -T - | tar -xf - -C "$1"`, "bash", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return dir, fmt.Errorf("copying the repository: %v: %s", err, out)
	}
	return dir, nil
}

// run checks the names the text cites, then runs each part.
func (e exercise) run(dir string) error {
	for _, c := range e.names {
		text, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			return fmt.Errorf("the text names %s: %v", c.file, err)
		}
		if !bytes.Contains(text, []byte(c.code)) {
			return fmt.Errorf("the text names %q in %s, which does not hold it", c.code, c.file)
		}
	}
	for i, p := range e.parts {
		if err := p.run(dir); err != nil {
			return fmt.Errorf("part %d of %d: %v", i+1, len(e.parts), err)
		}
	}
	return nil
}

// run makes the edits, runs the command (after the server, if any), checks
// what it printed, and puts every edited file back.
func (p part) run(dir string) error {
	for _, ed := range p.edits {
		path := filepath.Join(dir, ed.file)
		orig, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(orig, []byte(ed.old)); n != 1 {
			return fmt.Errorf("%s holds %q %d times, want once: the text no longer matches the code", ed.file, ed.old, n)
		}
		defer os.WriteFile(path, orig, 0o644)
		if err := os.WriteFile(path, bytes.Replace(orig, []byte(ed.old), []byte(ed.new), 1), 0o644); err != nil {
			return err
		}
	}
	if p.server != "" {
		stop, err := startServer(dir, p.server)
		if err != nil {
			return err
		}
		defer stop()
	}
	lang := p.lang
	if lang == "" {
		lang = "en"
	}
	out, err := runFor(dir, p.command, lang, 5*time.Minute)
	if cerr := p.check(out, err); cerr != nil {
		return fmt.Errorf("`%s` (INFORMER_LANG=%s): %v; it printed (the end):\n%s", p.command, lang, cerr, tail(out, 60))
	}
	return nil
}

// tail returns the last n lines of out.
func tail(out string, n int) string {
	lines := strings.SplitAfter(out, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "")
}

// runFor runs command with bash in dir, for a reader of language lang, and
// returns what it printed (stdout and stderr), killing its process group
// after timeout.
func runFor(dir, command, lang string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = environment(lang)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// environment is what every command runs with: the reader's language, and
// GOFLAGS: -count=1, so that a test result cached by an earlier run never
// stands in for the run the text asks for; -trimpath, so that the copies
// (each in its own directory) share the build cache, and only what an edit
// changes is compiled again.
func environment(lang string) []string {
	return append(os.Environ(), "INFORMER_LANG="+lang, "GOFLAGS=-count=1 -trimpath")
}

// startServer starts command in dir and waits until it prints something
// (fakeapi prints its address once it listens); stop ends its process group.
func startServer(dir, command string) (stop func(), err error) {
	var out syncBuffer
	cmd := exec.Command("bash", "-c", "exec "+command)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &out, &out, environment("en")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop = func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-exited }
	deadline := time.Now().Add(3 * time.Minute)
	for out.Len() == 0 {
		select {
		case <-exited:
			return nil, fmt.Errorf("%q exited: %s", command, out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("%q printed nothing in 3 minutes", command)
		}
	}
	return stop, nil
}

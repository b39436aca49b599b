// bugs.go proves the graders: each lab keeps plausible learner bugs as
// small patches (labs/NN/bugs/*.patch, unified diffs against a repository
// in which the labs up to NN are done), and `go run ./labs bugs` applies
// each to such a repository and grades the lab as `go run ./labs test NN`
// does. Every bug must make the lab fail, within a bounded time, with the
// graders its patch names among the failures and a reason for each.
//
// A patch opens with lines that say what it plants, before its diff:
//
//	Bug: Resync sends the known object through the transformer again
//	Bug-zh: Resync 又把已知对象交给转换函数处理了一次
//	Expect: TestDeltaFIFOTransformerRules
//
// (Expect may repeat; every grader it names must fail.) Hunks are found by
// their text, not their line numbers, so that a patch survives lines added
// elsewhere in the file; a hunk whose text is not found exactly once is an
// error that names the patch.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// bug is one planted bug.
type bug struct {
	Path       string   // the patch file
	What       string   // Bug:
	WhatZH     string   // Bug-zh:
	Expect     []string // graders that must fail
	File       string   // the file it changes, relative to the repository
	Hunks      []hunk
	lab        int
	patchIndex int
}

// hunk is one change: the lines it expects, and the lines that replace them.
type hunk struct {
	Old, New []string
}

// parseBug reads a patch file.
func parseBug(path string, text string) (bug, error) {
	b := bug{Path: path}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	i := 0
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "--- "); i++ {
		key, value, ok := strings.Cut(lines[i], ":")
		value = strings.TrimSpace(value)
		switch {
		case !ok:
		case key == "Bug":
			b.What = value
		case key == "Bug-zh":
			b.WhatZH = value
		case key == "Expect":
			b.Expect = append(b.Expect, value)
		}
	}
	if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
		return b, fmt.Errorf("%s: no diff (want lines \"--- a/FILE\" and \"+++ b/FILE\")", path)
	}
	b.File = strings.TrimPrefix(strings.Fields(lines[i+1])[1], "b/")
	for i += 2; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "@@") {
			return b, fmt.Errorf("%s:%d: expected a hunk header (@@), got %q", path, i+1, lines[i])
		}
		var h hunk
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "@@") {
			i++
			l := lines[i]
			switch {
			case l == "" || l[0] == ' ':
				rest := strings.TrimPrefix(l, " ")
				h.Old = append(h.Old, rest)
				h.New = append(h.New, rest)
			case l[0] == '-':
				h.Old = append(h.Old, l[1:])
			case l[0] == '+':
				h.New = append(h.New, l[1:])
			case l[0] == '\\':
				// "\ No newline at end of file"
			default:
				return b, fmt.Errorf("%s:%d: not a diff line: %q", path, i+1, l)
			}
		}
		b.Hunks = append(b.Hunks, h)
	}
	switch {
	case b.What == "" || b.WhatZH == "":
		return b, fmt.Errorf("%s: say what the bug is in both languages (Bug: and Bug-zh: lines)", path)
	case len(b.Expect) == 0 && !strings.HasPrefix(b.What, "(try)"):
		return b, fmt.Errorf("%s: name the graders that must fail (Expect: lines)", path)
	case len(b.Hunks) == 0:
		return b, fmt.Errorf("%s: the diff has no hunk", path)
	}
	return b, nil
}

// apply returns src with the bug's hunks applied.
func (b bug) apply(src []byte) ([]byte, error) {
	lines := strings.Split(string(src), "\n")
	for n, h := range b.Hunks {
		at := -1
		for i := 0; i+len(h.Old) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(h.Old)], h.Old) {
				if at >= 0 {
					return nil, fmt.Errorf("%s: hunk %d matches %s twice (at lines %d and %d): give it more context",
						b.Path, n+1, b.File, at+1, i+1)
				}
				at = i
			}
		}
		if at < 0 {
			return nil, fmt.Errorf("%s: hunk %d does not match %s any more: write the patch again against the code as it is",
				b.Path, n+1, b.File)
		}
		lines = slices.Concat(lines[:at], h.New, lines[at+len(h.Old):])
	}
	return []byte(strings.Join(lines, "\n")), nil
}

// labBugs reads lab's planted bugs.
func labBugs(root string, lab Lab) ([]bug, error) {
	paths, _ := filepath.Glob(filepath.Join(root, "labs", fmt.Sprintf("%02d", lab.N), "bugs", "*.patch"))
	var bugs []bug
	for i, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := parseBug(rel, string(text))
		if err != nil {
			return nil, err
		}
		b.lab = lab.N
		b.patchIndex = i
		bugs = append(bugs, b)
	}
	return bugs, nil
}

// bugOutcome is what grading one bugged repository showed.
type bugOutcome struct {
	Bug      bug
	Caught   bool
	Hung     bool          // the grading did not end within the bound
	Problem  string        // why it does not count as caught
	Failed   []string      // the graders that failed
	Elapsed  time.Duration //
	Timeouts int           // graders stopped at their time limit
	results  []graderResult
}

func cmdBugs(args []string) error {
	fs := flag.NewFlagSet("bugs", flag.ExitOnError)
	only := fs.Int("lab", 0, "only this lab")
	applyTo := fs.String("apply", "", "apply the one bug PATCH to the repository REPO and stop: -apply PATCH REPO")
	var o proveOptions
	fs.DurationVar(&o.bound, "bound", 4*time.Minute, "how long the grading of one bug may take")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "each grader's time limit")
	fs.IntVar(&o.workers, "p", 2, "how many graders of one bug run at once")
	fs.IntVar(&o.jobs, "j", 2, "how many bugs are proved at once")
	fs.BoolVar(&o.verbose, "v", false, "print the failures of every bug")
	fs.BoolVar(&o.all, "all", false, "run every grader of the lab for each bug, not only those it expects to fail")
	fs.StringVar(&o.out, "out", "", "write what each bug's graders print, as labs test prints it, to DIR/lab-NN-PATCH.out")
	try := fs.Bool("try", false, "try the bugs in the patch files given (with -lab N): every grader runs; it says which caught each, or that it escaped")
	fs.Parse(args)
	root, err := projectRoot()
	if err != nil {
		return err
	}
	if *applyTo != "" {
		if fs.NArg() != 1 {
			return errors.New("bugs -apply PATCH REPO: give the repository")
		}
		return applyBugTo(*applyTo, fs.Arg(0))
	}
	mod, err := readModule(root)
	if err != nil {
		return err
	}
	o.zh = readerChinese()
	if *try {
		return tryBugs(root, mod.Path, *only, fs.Args(), o)
	}
	var proofs []*labProof
	defer func() {
		for _, p := range proofs {
			os.RemoveAll(p.dir)
		}
	}()
	for _, lab := range Labs {
		if *only != 0 && lab.N != *only {
			continue
		}
		bugs, err := labBugs(root, lab)
		if err != nil {
			return err
		}
		p, err := prepareLab(root, lab, bugs)
		if err != nil {
			return err
		}
		proofs = append(proofs, p)
	}
	labsDone := len(proofs)
	outcomes := proveAll(mod.Path, proofs, o)
	caught, hangs := 0, 0
	for _, o := range outcomes {
		if o.Caught {
			caught++
		}
		if o.Hung {
			hangs++
		}
	}
	fmt.Printf("labs: %d labs, %d planted bugs, %d caught, %d hangs\n", labsDone, len(outcomes), caught, hangs)
	if caught != len(outcomes) || hangs != 0 {
		return errFailed
	}
	return nil
}

// labProof is the repository a lab's bugs are proved in: the labs up to
// it done, written once; each bug replaces one of its files through an
// overlay.
type labProof struct {
	lab   Lab
	dir   string
	tree  map[string][]byte
	tests map[string][]byte
	all   []string // the lab's graders
	bugs  []bug
}

// prepareLab writes lab's repository to a temporary folder and checks that
// every bug applies to it and names graders of the lab.
func prepareLab(root string, lab Lab, bugs []bug) (*labProof, error) {
	tree, err := buildTree(root, lab.N+1)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("labs-bugs-%02d-", lab.N))
	if err != nil {
		return nil, err
	}
	if err := writeFiles(dir, tree); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	tests, err := packageTestFiles(dir, lab.pkgDir())
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p := &labProof{lab: lab, dir: dir, tree: tree, tests: tests, all: labGraders(lab, tests), bugs: bugs}
	for _, b := range bugs {
		if _, ok := tree[b.File]; !ok {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("%s changes %s, which a student repository does not have", b.Path, b.File)
		}
		if _, err := b.apply(tree[b.File]); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		for _, e := range b.Expect {
			if !slices.Contains(p.all, e) {
				os.RemoveAll(dir)
				return nil, fmt.Errorf("%s expects %s to fail, which is not a lab %d grader", b.Path, e, lab.N)
			}
		}
	}
	return p, nil
}

// proveAll grades the bugs of every lab of proofs, at most jobs at a time
// in one pool across the labs (a pool per lab would leave cores idle at
// each lab's end), and prints each outcome in lab and patch order as soon
// as it and those before it are known. Without all, each bug runs only the
// graders its patch expects to fail: the printed command runs those same
// graders, each in a process of its own, so if they fail it fails; with
// all, every grader of the lab runs, as the printed command does.
func proveAll(module string, proofs []*labProof, o proveOptions) []bugOutcome {
	type job struct {
		p *labProof
		b bug
	}
	var jobs []job
	for _, p := range proofs {
		for _, b := range p.bugs {
			jobs = append(jobs, job{p, b})
		}
	}
	outcomes := make([]bugOutcome, len(jobs))
	printed := make([]chan struct{}, len(jobs))
	for i := range printed {
		printed[i] = make(chan struct{})
	}
	sem := make(chan struct{}, max(o.jobs, 1))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() {
			sem <- struct{}{}
			names := j.b.Expect
			if o.all {
				names = j.p.all
			}
			outcomes[i] = proveBug(j.p.dir, module, j.p.lab, j.b, j.p.tree[j.b.File], j.p.tests, names, o)
			<-sem
			if i > 0 {
				<-printed[i-1] // print in order
			}
			printOutcome(j.p.lab, outcomes[i], o)
			close(printed[i])
		})
	}
	wg.Wait()
	return outcomes
}

// proveOptions are cmdBugs' flags.
type proveOptions struct {
	bound, timeout time.Duration
	workers, jobs  int
	zh, verbose    bool
	all            bool
	out            string // a folder for each bug's graders' output, or ""
	try            bool   // bugs being tried: caught when any grader fails
}

// proveBug grades one bug: dir with the bug's file replaced by src, patched.
func proveBug(dir, module string, lab Lab, b bug, src []byte, tests map[string][]byte, names []string,
	o proveOptions) bugOutcome {
	out := bugOutcome{Bug: b}
	patched, _ := b.apply(src) // checked by prepareLab
	tmp, err := os.MkdirTemp("", "labs-bug-")
	if err != nil {
		out.Problem = err.Error()
		return out
	}
	defer os.RemoveAll(tmp)
	p := filepath.Join(tmp, filepath.Base(b.File))
	if err := os.WriteFile(p, patched, 0o644); err != nil {
		out.Problem = err.Error()
		return out
	}
	r := &runner{dir: dir, pkg: lab.pkgDir(), module: module, overlay: map[string]string{b.File: p}, timeout: o.timeout,
		workers: o.workers, zh: o.zh}
	r.prune(tests, names)
	ctx, cancel := context.WithTimeout(context.Background(), o.bound)
	defer cancel()
	start := time.Now()
	results, built := gradeQuietly(ctx, r, lab, names, tmp)
	out.Elapsed = time.Since(start)
	out.Hung = ctx.Err() != nil
	out.results = results
	judgeBug(&out, results, built)
	if o.out != "" {
		if err := writeBugOutput(o, lab, b, results); err != nil && out.Problem == "" {
			out.Caught, out.Problem = false, err.Error()
		}
	}
	return out
}

// writeBugOutput writes what the graders of one bug printed, as
// `labs test` prints it, to a file of o.out.
func writeBugOutput(o proveOptions, lab Lab, b bug, results []graderResult) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(o.out, fmt.Sprintf("lab-%02d-%s.out", lab.N, strings.TrimSuffix(filepath.Base(b.Path), ".patch"))))
	if err != nil {
		return err
	}
	for _, res := range results {
		printResult(f, res, o.zh)
	}
	return f.Close()
}

// printOutcome prints one line per bug, and the failures below it when
// asked or when the bug was not caught.
func printOutcome(lab Lab, o bugOutcome, opts proveOptions) {
	what := o.Bug.What
	if opts.zh {
		what = o.Bug.WhatZH
	}
	status := "caught"
	if !o.Caught {
		status = "NOT CAUGHT: " + o.Problem
	}
	fmt.Printf("lab %d: %s: %s (%s; %.0fs, %d graders failed)\n", lab.N, filepath.Base(o.Bug.Path), status, what,
		o.Elapsed.Seconds(), len(o.Failed))
	if opts.try && o.Caught {
		fmt.Printf("    caught by: %s\n", strings.Join(o.Failed, " "))
	}
	if opts.verbose || !o.Caught && !opts.try {
		for _, res := range o.results {
			if res.Status != "pass" {
				printResult(os.Stdout, res, opts.zh)
			}
		}
	}
}

// gradeQuietly builds r's package and runs names, returning the results
// and whether it built.
func gradeQuietly(ctx context.Context, r *runner, lab Lab, names []string, tmp string) ([]graderResult, bool) {
	if _, err := r.build(ctx, tmp); err != nil {
		return nil, false
	}
	return r.run(ctx, lab, names, nil), true
}

// judgeBug decides whether the graders caught the bug.
func judgeBug(o *bugOutcome, results []graderResult, built bool) {
	if !built {
		o.Problem = "the bugged repository does not build (a bug must compile)"
		return
	}
	failed := map[string]graderResult{}
	for _, res := range results {
		if res.Status != "pass" {
			failed[res.Name] = res
			o.Failed = append(o.Failed, res.Name)
		}
		if res.Hung {
			o.Timeouts++
		}
	}
	var problems []string
	if o.Hung {
		problems = append(problems, "the grading did not end within its bound")
	}
	if o.Bug.lab != 0 && len(o.Bug.Expect) == 0 {
		// A bug being tried (bugs -try): caught when any grader failed.
		if len(failed) == 0 {
			o.Problem = "escaped: every grader passed"
			return
		}
		o.Caught = true
		return
	}
	for _, want := range o.Bug.Expect {
		res, ok := failed[want]
		switch {
		case !ok:
			problems = append(problems, want+" passed")
		case len(res.Reasons) == 0 || strings.TrimSpace(strings.Join(res.Reasons, "")) == "":
			problems = append(problems, want+" failed without a reason")
		}
	}
	if len(problems) > 0 {
		o.Problem = strings.Join(problems, "; ")
		return
	}
	o.Caught = true
}

// tryBugs runs every grader of lab n on each bug of the patch files given
// (a bug being tried needs no Expect line) and says, for each, which
// graders caught it, or that it escaped. It is how a teacher, or the kit's
// maintainer, looks for the graders' next hole.
func tryBugs(root, module string, n int, paths []string, o proveOptions) error {
	lab, ok := labByNumber(n)
	if !ok || len(paths) == 0 {
		return errors.New("bugs -try -lab N PATCH...: give the lab and the patch files")
	}
	var bugs []bug
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(text), "\nExpect:") && !strings.HasPrefix(string(text), "Expect:") {
			text = []byte(strings.Replace(string(text), "Bug: ", "Bug: (try) ", 1))
		}
		b, err := parseBug(p, string(text))
		if err != nil {
			return err
		}
		b.lab = n
		bugs = append(bugs, b)
	}
	o.all, o.try = true, true
	p, err := prepareLab(root, lab, bugs)
	if err != nil {
		return err
	}
	defer os.RemoveAll(p.dir)
	outcomes := proveAll(module, []*labProof{p}, o)
	escaped := 0
	for _, out := range outcomes {
		if !out.Caught {
			escaped++
		}
	}
	fmt.Printf("lab %d: %d bugs tried, %d caught, %d escaped\n", n, len(outcomes), len(outcomes)-escaped, escaped)
	return nil
}

// applyBugTo applies the patch at path to the repository repo, in place.
func applyBugTo(path, repo string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	b, err := parseBug(path, string(text))
	if err != nil {
		return err
	}
	file := filepath.Join(repo, filepath.FromSlash(b.File))
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	out, err := b.apply(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		return err
	}
	fmt.Printf("planted in %s: %s\n", file, b.What)
	return nil
}

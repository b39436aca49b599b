// grade.go grades a class: `go run ./labs grade REPO...`, run by a teacher in
// the project (the kit). Each student repository is graded at one commit:
// its HEAD, or with -deadline its last commit made before the deadline (the
// later ones are counted and marked), read from a snapshot of that commit,
// so that neither uncommitted changes nor the student's working tree count.
// A lab whose functions are all still stubs is "not started" and costs no
// build. The tests of each lab's package are built once with the kit's test
// files in place of the student's (a go build overlay: the graders, the
// project's tests and the stubs' helper come from the kit, so editing a test
// changes no grade); a package that does not build makes its labs "does not
// build"; every other lab is graded as `labs test` does, "passed" or
// "failing". The student is named by the roster (-roster), else by the
// author of their commits, else by the folder. gradeout.go prints the
// table and the per-lab summary and writes the CSV and JSON.
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
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The statuses of a lab in a student's repository.
const (
	statusPassed     = "passed"
	statusFailing    = "failing"
	statusNotStarted = "not started"
	statusNoBuild    = "does not build"
)

// gradeRow is one student's result in one lab: a row of the CSV and of the
// JSON (docs/teaching.md, "The grade files", lists the columns).
type gradeRow struct {
	Student      string       `json:"student"`
	ID           string       `json:"id"`
	Repo         string       `json:"repo"`
	Lab          int          `json:"lab"`
	Title        string       `json:"title"`
	Status       string       `json:"status"`
	Passed       int          `json:"passed"`
	Total        int          `json:"total"`
	Points       *float64     `json:"points,omitempty"`
	MaxPoints    *float64     `json:"max_points,omitempty"`
	Commit       string       `json:"commit"`
	CommitTime   string       `json:"commit_time"`
	LaterCommits int          `json:"later_commits"`
	GradedAt     string       `json:"graded_at"`
	Seconds      float64      `json:"seconds"`
	BuildSeconds float64      `json:"build_seconds"`
	Failed       []gradedTest `json:"failed"`
	PassedTests  []string     `json:"passed_graders"`
	Note         string       `json:"note,omitempty"`
}

// gradedTest is one failed grader of a row.
type gradedTest struct {
	Name    string   `json:"name"`
	Reasons []string `json:"reasons"`
	Hung    bool     `json:"hung,omitempty"`
	Seconds float64  `json:"seconds"`
}

// gradeOptions are cmdGrade's flags, read.
type gradeOptions struct {
	labs     []Lab
	timeout  time.Duration
	workers  int
	zh       bool
	deadline time.Time
	roster   map[string]rosterEntry // folder → student
	weights  map[int]float64        // lab → points
}

// rosterEntry is a student as the roster names them.
type rosterEntry struct{ Name, ID string }

func cmdGrade(args []string) error {
	fs := flag.NewFlagSet("grade", flag.ExitOnError)
	labsFlag := fs.String("labs", "", "the labs to grade, e.g. 1-3 or 2,4 (default: all)")
	prefix := fs.String("o", "grades", "write the table to PREFIX.csv and PREFIX.json")
	roster := fs.String("roster", "", "a CSV file of folder,name,id: who each repository's folder is")
	weights := fs.String("weights", "", "a CSV file of lab,points: each lab's points, given in proportion to the graders passed")
	deadline := fs.String("deadline", "", `grade each repository at its last commit before this time ("2026-03-01 23:59", local time, or RFC 3339)`)
	var o gradeOptions
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "each grader's time limit")
	fs.IntVar(&o.workers, "p", defaultWorkers(), "how many graders run at once")
	fs.Parse(args)
	if fs.NArg() == 0 {
		return errors.New("grade: give one or more student repositories, e.g. go run ./labs grade class/*")
	}
	var err error
	if o.labs, err = parseLabs(*labsFlag); err != nil {
		return err
	}
	if o.roster, err = readRoster(*roster); err != nil {
		return err
	}
	if o.weights, err = readWeights(*weights); err != nil {
		return err
	}
	if *deadline != "" {
		if o.deadline, err = parseDeadline(*deadline); err != nil {
			return err
		}
	}
	o.zh = readerChinese()
	root, err := projectRoot()
	if err != nil {
		return err
	}
	mod, err := readModule(root)
	if err != nil {
		return err
	}
	kitDir, err := os.MkdirTemp("", "labs-kit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(kitDir)
	kit, err := kitTestFiles(root, kitDir)
	if err != nil {
		return err
	}
	var rows []gradeRow
	for _, repo := range fs.Args() {
		rows = append(rows, gradeRepo(repo, mod.Path, kit, kitDir, o)...)
	}
	printGrades(rows, o)
	if err := writeGrades(*prefix, rows, o); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, pick(o.zh, fmt.Sprintf("wrote %s.csv and %s.json", *prefix, *prefix),
		fmt.Sprintf("已写入 %s.csv 和 %s.json", *prefix, *prefix)))
	return gradeStatus(rows)
}

// gradeStatus is errFailed when a row did not pass.
func gradeStatus(rows []gradeRow) error {
	for _, r := range rows {
		if r.Status != statusPassed {
			return errFailed
		}
	}
	return nil
}

// parseLabs reads "1-3", "2,4" or "" (every lab).
func parseLabs(s string) ([]Lab, error) {
	if s == "" {
		return Labs, nil
	}
	var out []Lab
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a > b {
			return nil, fmt.Errorf("-labs %q: want labs like 1-3 or 2,4", s)
		}
		for n := a; n <= b; n++ {
			lab, ok := labByNumber(n)
			if !ok {
				return nil, fmt.Errorf("-labs %q: there are labs 1 to %d", s, len(Labs))
			}
			if !slices.ContainsFunc(out, func(l Lab) bool { return l.N == n }) {
				out = append(out, lab)
			}
		}
	}
	slices.SortFunc(out, func(a, b Lab) int { return a.N - b.N })
	return out, nil
}

// parseDeadline reads "2026-03-01 23:59" (local time) or RFC 3339.
func parseDeadline(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("-deadline %q: want a time like \"2026-03-01 23:59\" (local) or 2026-03-01T23:59:00+08:00", s)
}

// kitTestFiles writes the kit's version of every test file of the labs'
// packages in a student repository, and of their stubs' helpers, under
// dir, and returns their contents by slash-separated path.
func kitTestFiles(root, dir string) (map[string][]byte, error) {
	tree, err := buildTree(root, 1)
	if err != nil {
		return nil, err
	}
	kit := map[string][]byte{}
	for name, b := range tree {
		inLab := slices.ContainsFunc(labDirs(), func(d string) bool { return inDir(name, d) })
		if !inLab || !(strings.HasSuffix(name, "_test.go") || path.Base(name) == "lab_stub.go") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		kit[name] = b
	}
	return kit, nil
}

// gradeRepo grades the labs of one student repository, at the commit it
// grades: the tests of each lab's package are built once, for all the
// labs in that package that are started.
func gradeRepo(repo, module string, kit map[string][]byte, kitDir string, o gradeOptions) []gradeRow {
	abs, _ := filepath.Abs(repo)
	folder := filepath.Base(abs)
	start := time.Now()
	base := gradeRow{Student: folder, Repo: repo, GradedAt: start.Format(time.RFC3339)}
	if e, ok := o.roster[folder]; ok {
		base.Student, base.ID = e.Name, e.ID
	}
	rows := func(status, note string) []gradeRow {
		var out []gradeRow
		for _, lab := range o.labs {
			r := base
			r.Lab, r.Title, r.Total, r.Status, r.Note = lab.N, lab.Title, len(labGraders(lab, kit)), status, note
			out = append(out, r)
		}
		return out
	}
	if m, err := readModule(abs); err != nil || m.Path != module {
		return rows(statusNoBuild, pick(o.zh, "not a student repository of this course (go.mod)", "不是本课程的学生仓库（go.mod）"))
	}
	tmp, err := os.MkdirTemp("", "labs-grade-")
	if err != nil {
		return rows(statusNoBuild, err.Error())
	}
	defer os.RemoveAll(tmp)
	dir := abs // what is graded: a snapshot of the commit, or the folder when it is not a git repository
	if _, err := git(abs, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		c, err := gradedCommit(abs, o.deadline)
		if err != nil {
			return rows(statusNotStarted, pick(o.zh, "nothing to grade: ", "没有可评分的提交：")+err.Error())
		}
		base.Commit, base.CommitTime, base.LaterCommits = c.Hash, c.Time.Format(time.RFC3339), c.Later
		if _, ok := o.roster[folder]; !ok && c.Author != "" {
			base.Student, base.ID = c.Author, c.Email
		}
		dir = filepath.Join(tmp, "snapshot")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return rows(statusNoBuild, err.Error())
		}
		if err := exportCommit(abs, c.Hash, dir); err != nil {
			return rows(statusNoBuild, err.Error())
		}
		if o.deadline.IsZero() && hasChanges(abs) {
			base.Note = pick(o.zh, "uncommitted changes are not graded", "未提交的改动不计分")
		}
	}
	fmt.Fprintln(os.Stderr, pick(o.zh, fmt.Sprintf("grading %s (%s) ...", base.Student, describeCommit(base, false)),
		fmt.Sprintf("正在评分 %s（%s）……", base.Student, describeCommit(base, true))))
	states, err := repoLabs(dir)
	if err != nil {
		return rows(statusNoBuild, err.Error())
	}
	byLab := map[int]gradeRow{}
	for _, pkg := range labDirs() {
		var here []Lab
		for _, lab := range o.labs {
			if lab.pkgDir() != pkg {
				continue
			}
			if i := slices.IndexFunc(states, func(s labState) bool { return s.Lab.N == lab.N }); i >= 0 && states[i].notStarted() {
				r := base
				r.Lab, r.Title, r.Total, r.Status = lab.N, lab.Title, len(labGraders(lab, kit)), statusNotStarted
				byLab[lab.N] = r
				continue
			}
			here = append(here, lab)
		}
		if len(here) > 0 {
			for _, r := range gradePackage(dir, module, pkg, kit, kitDir, here, base, o, tmp) {
				byLab[r.Lab] = r
			}
		}
	}
	var out []gradeRow
	for _, lab := range o.labs {
		out = append(out, byLab[lab.N])
	}
	fmt.Fprintln(os.Stderr, pick(o.zh, fmt.Sprintf("  %s: %.0f s", base.Student, time.Since(start).Seconds()),
		fmt.Sprintf("  %s：%.0f 秒", base.Student, time.Since(start).Seconds())))
	return out
}

// describeCommit says which commit a row grades, for the progress line.
func describeCommit(r gradeRow, zh bool) string {
	if r.Commit == "" {
		return pick(zh, "not a git repository: the folder as it is", "不是 git 仓库：按文件夹现状评分")
	}
	s := pick(zh, "commit ", "提交 ") + r.Commit[:min(7, len(r.Commit))] + ", " + r.CommitTime
	if r.LaterCommits > 0 {
		s += pick(zh, fmt.Sprintf(", %d later commits not graded", r.LaterCommits), fmt.Sprintf("，之后的 %d 个提交不计分", r.LaterCommits))
	}
	return s
}

// gradePackage builds the tests of the package in pkg of the repository
// dir once, with the kit's test files laid over the student's, and grades
// labs, all in that package.
func gradePackage(dir, module, pkg string, kit map[string][]byte, kitDir string, labs []Lab, base gradeRow,
	o gradeOptions, tmp string) []gradeRow {
	r := &runner{dir: dir, pkg: pkg, module: module, timeout: o.timeout, workers: o.workers, zh: o.zh, overlay: map[string]string{}}
	for name := range kit {
		if inDir(name, pkg) {
			r.overlay[name] = filepath.Join(kitDir, filepath.FromSlash(name))
		}
	}
	theirs, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pkg), "*_test.go"))
	for _, t := range theirs {
		name := path.Join(pkg, filepath.Base(t))
		if _, ok := kit[name]; !ok {
			r.overlay[name] = "" // a test of their own is not graded
		}
	}
	var all []string
	for _, lab := range labs {
		all = append(all, labGraders(lab, kit)...)
	}
	r.prune(kit, all)
	var rows []gradeRow
	newRow := func(lab Lab) gradeRow {
		row := base
		row.Lab, row.Title, row.Total = lab.N, lab.Title, len(labGraders(lab, kit))
		return row
	}
	bin, err := os.MkdirTemp(tmp, "pkg-")
	if err != nil {
		for _, lab := range labs {
			row := newRow(lab)
			row.Status, row.Note = statusNoBuild, err.Error()
			rows = append(rows, row)
		}
		return rows
	}
	start := time.Now()
	out, err := r.build(context.Background(), bin)
	built := time.Since(start).Seconds()
	if err != nil {
		for _, lab := range labs {
			row := newRow(lab)
			row.Status, row.BuildSeconds = statusNoBuild, built
			row.Failed = []gradedTest{{Name: "build", Reasons: []string{strings.TrimSpace(out)}}}
			rows = append(rows, row)
		}
		return rows
	}
	for _, lab := range labs {
		row := newRow(lab)
		row.BuildSeconds = built
		row.GradedAt = time.Now().Format(time.RFC3339)
		began := time.Now()
		results := r.run(context.Background(), lab, labGraders(lab, kit), nil)
		row.Seconds = time.Since(began).Seconds()
		row.Status = statusPassed
		for _, res := range results {
			if res.Status == "pass" {
				row.Passed++
				row.PassedTests = append(row.PassedTests, res.Name)
				continue
			}
			row.Status = statusFailing
			row.Failed = append(row.Failed, gradedTest{Name: res.Name, Reasons: res.Reasons, Hung: res.Hung,
				Seconds: res.Elapsed.Seconds()})
		}
		rows = append(rows, row)
	}
	return rows
}

// grade.go grades a class: `go run ./labs grade REPO...`, run by a teacher in
// the project (the kit). In each student repository, the tests of each
// lab's package are built once with the kit's test files in place of its
// own (a go build overlay: the graders, the project's tests and the stubs'
// helper come from the kit, so editing a test changes no grade), and every
// lab asked for is graded as `labs test` does.
// It prints a table in the reader's language, writes it as CSV and JSON,
// and exits 1 when any lab of any student fails.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
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

// gradeRow is one student's result in one lab.
type gradeRow struct {
	Student string         `json:"student"`
	Repo    string         `json:"repo"`
	Lab     int            `json:"lab"`
	Title   string         `json:"title"`
	Passed  int            `json:"passed"`
	Total   int            `json:"total"`
	Status  string         `json:"status"` // "pass" or "fail"
	Graders []graderResult `json:"graders"`
}

func cmdGrade(args []string) error {
	fs := flag.NewFlagSet("grade", flag.ExitOnError)
	labsFlag := fs.String("labs", "", "the labs to grade, e.g. 1-3 or 2,4 (default: all)")
	prefix := fs.String("o", "grades", "write the table to PREFIX.csv and PREFIX.json")
	timeout := fs.Duration("timeout", defaultTimeout, "each grader's time limit")
	workers := fs.Int("p", defaultWorkers(), "how many graders run at once")
	fs.Parse(args)
	if fs.NArg() == 0 {
		return errors.New("grade: give one or more student repositories, e.g. go run ./labs grade class/*")
	}
	labs, err := parseLabs(*labsFlag)
	if err != nil {
		return err
	}
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
	zh := readerChinese()
	var rows []gradeRow
	for _, repo := range fs.Args() {
		rows = append(rows, gradeRepo(repo, mod.Path, kit, kitDir, labs, *timeout, *workers, zh)...)
	}
	printGrades(rows, zh)
	if err := writeGrades(*prefix, rows); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, pick(zh, fmt.Sprintf("wrote %s.csv and %s.json", *prefix, *prefix),
		fmt.Sprintf("已写入 %s.csv 和 %s.json", *prefix, *prefix)))
	return gradeStatus(rows)
}

// gradeStatus is errFailed when a row failed.
func gradeStatus(rows []gradeRow) error {
	for _, r := range rows {
		if r.Status != "pass" {
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
			out = append(out, lab)
		}
	}
	return out, nil
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

// gradeRepo grades the labs of one student repository: the tests of each
// lab's package are built once, for all the labs in that package.
func gradeRepo(repo, module string, kit map[string][]byte, kitDir string, labs []Lab,
	timeout time.Duration, workers int, zh bool) []gradeRow {
	abs, _ := filepath.Abs(repo)
	student := filepath.Base(abs)
	fail := func(labs []Lab, reason string) []gradeRow {
		var rows []gradeRow
		for _, lab := range labs {
			names := labGraders(lab, kit)
			rows = append(rows, gradeRow{Student: student, Repo: repo, Lab: lab.N, Title: lab.Title, Total: len(names),
				Status: "fail", Graders: []graderResult{{Name: "build", Status: "fail", Reasons: []string{reason}}}})
		}
		return rows
	}
	if m, err := readModule(abs); err != nil || m.Path != module {
		return fail(labs, pick(zh, "not a student repository of this course (go.mod)", "不是本课程的学生仓库（go.mod）"))
	}
	tmp, err := os.MkdirTemp("", "labs-grade-")
	if err != nil {
		return fail(labs, err.Error())
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(os.Stderr, pick(zh, "grading "+student+" ...", "正在评分 "+student+" ……"))
	byLab := map[int][]gradeRow{}
	for _, dir := range labDirs() {
		var here []Lab
		for _, lab := range labs {
			if lab.pkgDir() == dir {
				here = append(here, lab)
			}
		}
		if len(here) == 0 {
			continue
		}
		for _, row := range gradePackage(abs, module, dir, kit, kitDir, here, timeout, workers, zh, tmp, fail) {
			row.Repo = repo
			byLab[row.Lab] = append(byLab[row.Lab], row)
		}
	}
	var rows []gradeRow
	for _, lab := range labs {
		rows = append(rows, byLab[lab.N]...)
	}
	return rows
}

// gradePackage builds the tests of the package in dir of the repository
// abs once, with the kit's test files laid over the student's, and grades
// labs, all in that package.
func gradePackage(abs, module, dir string, kit map[string][]byte, kitDir string, labs []Lab,
	timeout time.Duration, workers int, zh bool, tmp string, fail func([]Lab, string) []gradeRow) []gradeRow {
	r := &runner{dir: abs, pkg: dir, module: module, timeout: timeout, workers: workers, zh: zh, overlay: map[string]string{}}
	for name := range kit {
		if inDir(name, dir) {
			r.overlay[name] = filepath.Join(kitDir, filepath.FromSlash(name))
		}
	}
	theirs, _ := filepath.Glob(filepath.Join(abs, filepath.FromSlash(dir), "*_test.go"))
	for _, t := range theirs {
		name := path.Join(dir, filepath.Base(t))
		if _, ok := kit[name]; !ok {
			r.overlay[name] = "" // a test of their own is not graded
		}
	}
	var all []string
	for _, lab := range labs {
		all = append(all, labGraders(lab, kit)...)
	}
	r.prune(kit, all)
	bin, err := os.MkdirTemp(tmp, "pkg-")
	if err != nil {
		return fail(labs, err.Error())
	}
	if out, err := r.build(context.Background(), bin); err != nil {
		return fail(labs, pick(zh, "does not build: ", "无法编译：")+lastLines(strings.Split(out, "\n"), 3))
	}
	var rows []gradeRow
	for _, lab := range labs {
		names := labGraders(lab, kit)
		results := r.run(context.Background(), lab, names, nil)
		row := gradeRow{Lab: lab.N, Title: lab.Title, Total: len(names), Status: "pass",
			Student: filepath.Base(abs)}
		for _, res := range results {
			if res.Status == "pass" {
				row.Passed++
				continue
			}
			row.Status = "fail"
			row.Graders = append(row.Graders, res)
		}
		rows = append(rows, row)
	}
	return rows
}

// printGrades prints the table, and each failing grader's first reason.
func printGrades(rows []gradeRow, zh bool) {
	table := [][]string{{pick(zh, "student", "学生"), pick(zh, "lab", "实验"), pick(zh, "passed/total", "通过/总数"),
		pick(zh, "status", "结果")}}
	for _, r := range rows {
		status := pick(zh, "ok", "通过")
		if r.Status != "pass" {
			status = pick(zh, "FAIL", "未通过")
		}
		table = append(table, []string{r.Student, strconv.Itoa(r.Lab), fmt.Sprintf("%d/%d", r.Passed, r.Total), status})
	}
	printTable(table)
	for _, r := range rows {
		for _, g := range r.Graders {
			reason := []rune(firstReason(g))
			if len(reason) > 160 {
				reason = append(reason[:157], []rune("...")...)
			}
			fmt.Println(pick(zh, fmt.Sprintf("%s, lab %d, %s: %s", r.Student, r.Lab, g.Name, string(reason)),
				fmt.Sprintf("%s，实验 %d，%s：%s", r.Student, r.Lab, g.Name, string(reason))))
		}
	}
}

// printTable prints rows in columns two spaces apart, counting a Chinese
// character as two columns, as a terminal shows it.
func printTable(rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(cell))
		}
	}
	for _, row := range rows {
		line := ""
		for i, cell := range row {
			if i < len(row)-1 {
				cell += strings.Repeat(" ", widths[i]-displayWidth(cell)+2)
			}
			line += cell
		}
		fmt.Println(line)
	}
}

// displayWidth is how many columns s takes in a terminal: two for a wide
// (Chinese, Japanese, Korean, full-width) character, one for the others.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
			r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6:
			n += 2
		default:
			n++
		}
	}
	return n
}

// firstReason is a grader's first reason, on one line.
func firstReason(g graderResult) string {
	if len(g.Reasons) == 0 {
		return ""
	}
	return strings.ReplaceAll(g.Reasons[0], "\n", " ")
}

// writeGrades writes rows to prefix.csv and prefix.json.
func writeGrades(prefix string, rows []gradeRow) error {
	f, err := os.Create(prefix + ".csv")
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	cw.Write([]string{"student", "lab", "passed", "total", "status", "failed"})
	for _, r := range rows {
		var failed []string
		for _, g := range r.Graders {
			failed = append(failed, g.Name+": "+firstReason(g))
		}
		cw.Write([]string{r.Student, strconv.Itoa(r.Lab), strconv.Itoa(r.Passed), strconv.Itoa(r.Total), r.Status,
			strings.Join(failed, "; ")})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(prefix+".json", append(b, '\n'), 0o644)
}

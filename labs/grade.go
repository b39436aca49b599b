// grade.go grades a class: `go run ./labs grade REPO...`, run by a teacher in
// the project (the kit). Each student repository is built once with the
// kit's test files in place of its own (a go build overlay: the graders, the
// project's tests and the stubs' helper come from the kit, so editing a test
// changes no grade), and every lab asked for is graded as `labs test` does.
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
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
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
	fmt.Println(pick(zh, fmt.Sprintf("wrote %s.csv and %s.json", *prefix, *prefix),
		fmt.Sprintf("已写入 %s.csv 和 %s.json", *prefix, *prefix)))
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

// kitTestFiles writes the kit's version of every root test file of a
// student repository, and the stubs' helper, to dir, and returns their
// contents by name.
func kitTestFiles(root, dir string) (map[string][]byte, error) {
	tree, err := buildTree(root, 1)
	if err != nil {
		return nil, err
	}
	kit := map[string][]byte{}
	for name, b := range tree {
		if strings.Contains(name, "/") || !(strings.HasSuffix(name, "_test.go") || name == "lab_stub.go") {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return nil, err
		}
		kit[name] = b
	}
	return kit, nil
}

// gradeRepo grades the labs of one student repository.
func gradeRepo(repo, module string, kit map[string][]byte, kitDir string, labs []Lab,
	timeout time.Duration, workers int, zh bool) []gradeRow {
	abs, _ := filepath.Abs(repo)
	student := filepath.Base(abs)
	r := &runner{dir: abs, module: module, timeout: timeout, workers: workers, zh: zh, overlay: map[string]string{}}
	for name := range kit {
		r.overlay[name] = filepath.Join(kitDir, name)
	}
	theirs, _ := filepath.Glob(filepath.Join(abs, "*_test.go"))
	for _, t := range theirs {
		if _, ok := kit[filepath.Base(t)]; !ok {
			r.overlay[filepath.Base(t)] = "" // a test of their own is not graded
		}
	}
	fail := func(reason string) []gradeRow {
		var rows []gradeRow
		for _, lab := range labs {
			names := labGraders(lab, kit)
			rows = append(rows, gradeRow{Student: student, Repo: repo, Lab: lab.N, Title: lab.Title, Total: len(names),
				Status: "fail", Graders: []graderResult{{Name: "build", Status: "fail", Reasons: []string{reason}}}})
		}
		return rows
	}
	if m, err := readModule(abs); err != nil || m.Path != module {
		return fail(pick(zh, "not a student repository of this course (go.mod)", "不是本课程的学生仓库（go.mod）"))
	}
	tmp, err := os.MkdirTemp("", "labs-grade-")
	if err != nil {
		return fail(err.Error())
	}
	defer os.RemoveAll(tmp)
	fmt.Println(pick(zh, "grading "+student+" ...", "正在评分 "+student+" ……"))
	if out, err := r.build(context.Background(), tmp); err != nil {
		return fail(pick(zh, "does not build: ", "无法编译：") + lastLines(strings.Split(out, "\n"), 3))
	}
	var rows []gradeRow
	for _, lab := range labs {
		names := labGraders(lab, kit)
		results := r.run(context.Background(), lab, names, nil)
		row := gradeRow{Student: student, Repo: repo, Lab: lab.N, Title: lab.Title, Total: len(names), Status: "pass"}
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
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, pick(zh, "student\tlab\tpassed/total\tstatus", "学生\t实验\t通过/总数\t结果"))
	for _, r := range rows {
		status := pick(zh, "ok", "通过")
		if r.Status != "pass" {
			status = pick(zh, "FAIL", "未通过")
		}
		fmt.Fprintf(w, "%s\t%d\t%d/%d\t%s\n", r.Student, r.Lab, r.Passed, r.Total, status)
	}
	w.Flush()
	for _, r := range rows {
		for _, g := range r.Graders {
			fmt.Printf("%s, %s %d: %s: %s\n", r.Student, pick(zh, "lab", "实验"), r.Lab, g.Name, firstReason(g))
		}
	}
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

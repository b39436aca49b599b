// grade.go runs a workspace's tests with `go test -json` and scores each
// lab: its graders are the TestLabNN tests and the project tests the spec
// names for it (labs.json in the workspace lists both). A grader passes
// when every run of it passed (the suite runs once per pipeline); one that
// never reported (the test binary crashed, or did not build) counts as
// failed; one that was skipped does not count.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// score is one lab's result.
type score struct {
	Lab     int      `json:"lab"`
	Title   string   `json:"title"`
	Passed  int      `json:"passed"`
	Total   int      `json:"total"`
	Skipped int      `json:"skipped"`
	Failed  []string `json:"failed,omitempty"`
}

// report is what grade prints with -json.
type report struct {
	Dir       string  `json:"dir"`
	Workspace int     `json:"workspace_lab"` // 0: solved
	Labs      []score `json:"labs"`
	// Other counts the project tests that grade no lab.
	OtherPassed, OtherFailed, OtherSkipped int
	BuildFailed                            bool `json:"build_failed"`
}

func cmdGrade(args []string) error {
	fs := flag.NewFlagSet("grade", flag.ExitOnError)
	asJSON := fs.Bool("json", false, "print JSON for a teacher")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("grade: give the workspace directory")
	}
	dir := fs.Arg(0)
	b, err := os.ReadFile(filepath.Join(dir, "labs.json"))
	if err != nil {
		return fmt.Errorf("grade: %s is not a lab workspace (%v)", dir, err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	cmd := exec.Command("go", "test", "-count=1", "-json", "./...")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	_ = cmd.Run() // failing tests are what we count, not an error
	r := scoreEvents(m, &out)
	r.Dir = dir
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(r)
	return nil
}

// testEvent is one line of go test -json.
type testEvent struct {
	Action, Package, Test, Output string
}

// scoreEvents reads go test -json output and scores it against m.
func scoreEvents(m manifest, events *bytes.Buffer) report {
	failed, passed, skipped := map[string]bool{}, map[string]bool{}, map[string]bool{}
	r := report{Workspace: m.Lab}
	sc := bufio.NewScanner(events)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Test == "" {
			if e.Action == "output" && strings.Contains(e.Output, "[build failed]") {
				r.BuildFailed = true
			}
			continue
		}
		name, _, _ := strings.Cut(e.Test, "/")
		if name != e.Test {
			continue // subtests count through their parent
		}
		switch e.Action {
		case "fail":
			failed[name] = true
		case "pass":
			passed[name] = true
		case "skip":
			skipped[name] = true
		}
	}
	graders := map[string]bool{}
	for _, l := range m.Labs {
		s := score{Lab: l.N, Title: l.Title}
		for _, t := range append(append([]string(nil), l.Graders...), l.ProjectGraders...) {
			graders[t] = true
			switch {
			case failed[t] || (!passed[t] && !skipped[t]):
				s.Total++
				s.Failed = append(s.Failed, t)
			case passed[t]:
				s.Total++
				s.Passed++
			default:
				s.Skipped++
			}
		}
		r.Labs = append(r.Labs, s)
	}
	for t := range failed {
		if !graders[t] {
			r.OtherFailed++
		}
	}
	for t := range passed {
		if !graders[t] && !failed[t] {
			r.OtherPassed++
		}
	}
	for t := range skipped {
		if !graders[t] && !failed[t] && !passed[t] {
			r.OtherSkipped++
		}
	}
	return r
}

func printReport(r report) {
	if r.Workspace > 0 {
		fmt.Printf("workspace of lab %d / 实验 %d 的工作区: %s\n", r.Workspace, r.Workspace, r.Dir)
	} else {
		fmt.Printf("solved workspace / 参考答案工作区: %s\n", r.Dir)
	}
	if r.BuildFailed {
		fmt.Println("the workspace does not build: every grader counts as failed / 工作区无法编译：所有评分测试都按失败计")
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "lab\tpassed/total\tskipped\ttitle\tstatus")
	for _, s := range r.Labs {
		status := "ok"
		switch {
		case s.Total == 0:
			status = "not graded here / 本工作区不评"
		case s.Passed < s.Total:
			status = "FAIL"
		}
		fmt.Fprintf(w, "%d\t%d/%d\t%d\t%s\t%s\n", s.Lab, s.Passed, s.Total, s.Skipped, s.Title, status)
	}
	w.Flush()
	for _, s := range r.Labs {
		if len(s.Failed) > 0 {
			fmt.Printf("lab %d failed / 未通过: %s\n", s.Lab, strings.Join(s.Failed, ", "))
		}
	}
	fmt.Printf("other project tests / 其他项目测试: %d passed, %d failed, %d skipped\n", r.OtherPassed, r.OtherFailed, r.OtherSkipped)
}

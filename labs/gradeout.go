// gradeout.go is what `labs grade` gives a teacher: a table in the
// reader's language (a row per student and lab, then every failing
// grader's reason in full), a summary per lab (how many passed, failed,
// did not build, did not start, and the grader that failed most), and the
// same in PREFIX.csv (one row per student and lab) and PREFIX.json (the
// rows with every failed grader's reasons, and the summary). The columns
// are listed in docs/teaching.md, "The grade files". It also reads the
// roster and the weights a teacher gives.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// csvColumns are the columns of PREFIX.csv, in order.
var csvColumns = []string{"student", "id", "repo", "lab", "title", "status", "passed", "total", "points", "max_points",
	"commit", "commit_time", "later_commits", "graded_at", "seconds", "build_seconds", "failed", "passed_graders", "note"}

// labSummary is the class's result in one lab.
type labSummary struct {
	Lab             int    `json:"lab"`
	Title           string `json:"title"`
	Students        int    `json:"students"`
	Passed          int    `json:"passed"`
	Failing         int    `json:"failing"`
	NoBuild         int    `json:"does_not_build"`
	NotStarted      int    `json:"not_started"`
	MostFailed      string `json:"most_failed_grader"`
	MostFailedCount int    `json:"most_failed_count"`
}

// gradeFile is PREFIX.json.
type gradeFile struct {
	GradedAt string       `json:"graded_at"`
	Kit      string       `json:"kit"`
	Deadline string       `json:"deadline,omitempty"`
	Rows     []gradeRow   `json:"rows"`
	Summary  []labSummary `json:"summary"`
}

// readRoster reads a CSV file of folder,name,id (a first row starting with
// "folder" is a header); "" reads nothing.
func readRoster(file string) (map[string]rosterEntry, error) {
	out := map[string]rosterEntry{}
	records, err := readCSV(file, "-roster")
	if err != nil {
		return nil, err
	}
	for i, r := range records {
		if i == 0 && strings.EqualFold(strings.TrimSpace(r[0]), "folder") {
			continue
		}
		if len(r) < 2 {
			return nil, fmt.Errorf("-roster %s, line %d: want folder,name,id", file, i+1)
		}
		e := rosterEntry{Name: strings.TrimSpace(r[1])}
		if len(r) > 2 {
			e.ID = strings.TrimSpace(r[2])
		}
		out[strings.TrimSpace(r[0])] = e
	}
	return out, nil
}

// readWeights reads a CSV file of lab,points (a first row starting with
// "lab" is a header); "" reads nothing.
func readWeights(file string) (map[int]float64, error) {
	records, err := readCSV(file, "-weights")
	if err != nil || records == nil {
		return nil, err
	}
	out := map[int]float64{}
	for i, r := range records {
		if i == 0 && strings.EqualFold(strings.TrimSpace(r[0]), "lab") {
			continue
		}
		n, err1 := strconv.Atoi(strings.TrimSpace(r[0]))
		var p float64
		var err2 error = fmt.Errorf("no points")
		if len(r) > 1 {
			p, err2 = strconv.ParseFloat(strings.TrimSpace(r[1]), 64)
		}
		if _, ok := labByNumber(n); err1 != nil || err2 != nil || !ok || p < 0 {
			return nil, fmt.Errorf("-weights %s, line %d: want lab,points with a lab from 1 to %d", file, i+1, len(Labs))
		}
		out[n] = p
	}
	return out, nil
}

// readCSV reads the records of a CSV file given with flag; "" reads none.
func readCSV(file, flag string) ([][]string, error) {
	if file == "" {
		return nil, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	records, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, file, err)
	}
	return records, nil
}

// score sets each row's points from the weights: a lab's points in
// proportion to the graders it passed.
func score(rows []gradeRow, weights map[int]float64) {
	for i, r := range rows {
		w, ok := weights[r.Lab]
		if !ok {
			continue
		}
		p := 0.0
		if r.Total > 0 {
			p = math.Round(w*float64(r.Passed)/float64(r.Total)*100) / 100
		}
		rows[i].Points, rows[i].MaxPoints = &p, &w
	}
}

// summarize returns the per-lab summary of rows.
func summarize(rows []gradeRow, labs []Lab) []labSummary {
	var out []labSummary
	for _, lab := range labs {
		s := labSummary{Lab: lab.N, Title: lab.Title}
		failed := map[string]int{}
		for _, r := range rows {
			if r.Lab != lab.N {
				continue
			}
			s.Students++
			switch r.Status {
			case statusPassed:
				s.Passed++
			case statusFailing:
				s.Failing++
			case statusNoBuild:
				s.NoBuild++
			case statusNotStarted:
				s.NotStarted++
			}
			for _, g := range r.Failed {
				failed[g.Name]++
			}
		}
		for _, name := range sortedKeys(failed) {
			if failed[name] > s.MostFailedCount {
				s.MostFailed, s.MostFailedCount = name, failed[name]
			}
		}
		out = append(out, s)
	}
	return out
}

// statusWord is a status as the table shows it.
func statusWord(status string, zh bool) string {
	if !zh {
		return status
	}
	return map[string]string{statusPassed: "通过", statusFailing: "未通过", statusNotStarted: "未开始", statusNoBuild: "无法编译"}[status]
}

// printGrades prints the table, every failing grader's first reason in
// full, and the per-lab summary.
func printGrades(rows []gradeRow, o gradeOptions) {
	zh := o.zh
	score(rows, o.weights)
	head := []string{pick(zh, "student", "学生"), pick(zh, "lab", "实验"), pick(zh, "status", "结果"),
		pick(zh, "passed/total", "通过/总数")}
	if o.weights != nil {
		head = append(head, pick(zh, "points", "分数"))
	}
	head = append(head, pick(zh, "commit", "提交"))
	table := [][]string{head}
	for _, r := range rows {
		row := []string{r.Student, strconv.Itoa(r.Lab), statusWord(r.Status, zh), fmt.Sprintf("%d/%d", r.Passed, r.Total)}
		if o.weights != nil {
			row = append(row, pointsCell(r))
		}
		commit := r.Commit[:min(7, len(r.Commit))]
		if r.LaterCommits > 0 {
			commit += pick(zh, fmt.Sprintf(" (+%d after the deadline)", r.LaterCommits), fmt.Sprintf("（截止后还有 %d 个）", r.LaterCommits))
		}
		table = append(table, append(row, commit))
	}
	printTable(table)
	for _, r := range rows {
		for _, g := range r.Failed {
			fmt.Println(pick(zh, fmt.Sprintf("%s, lab %d, %s: %s", r.Student, r.Lab, g.Name, oneLine(firstOf(g.Reasons))),
				fmt.Sprintf("%s，实验 %d，%s：%s", r.Student, r.Lab, g.Name, oneLine(firstOf(g.Reasons)))))
		}
		if r.Note != "" && r.Lab == rows[0].Lab {
			fmt.Println(pick(zh, fmt.Sprintf("%s: %s", r.Student, r.Note), fmt.Sprintf("%s：%s", r.Student, r.Note)))
		}
	}
	fmt.Println()
	sum := [][]string{{pick(zh, "lab", "实验"), pick(zh, "students", "学生"), pick(zh, "passed", "通过"),
		pick(zh, "failing", "未通过"), pick(zh, "does not build", "无法编译"), pick(zh, "not started", "未开始"),
		pick(zh, "most failed grader", "失败最多的评分测试")}}
	for _, s := range summarize(rows, o.labs) {
		most := "-"
		if s.MostFailed != "" {
			most = fmt.Sprintf("%s (%d)", s.MostFailed, s.MostFailedCount)
		}
		sum = append(sum, []string{strconv.Itoa(s.Lab), strconv.Itoa(s.Students), strconv.Itoa(s.Passed),
			strconv.Itoa(s.Failing), strconv.Itoa(s.NoBuild), strconv.Itoa(s.NotStarted), most})
	}
	printTable(sum)
}

// pointsCell is a row's points as the table and the CSV write them.
func pointsCell(r gradeRow) string {
	if r.Points == nil {
		return ""
	}
	return strconv.FormatFloat(*r.Points, 'f', -1, 64)
}

// firstOf is the first of reasons, or "".
func firstOf(reasons []string) string {
	if len(reasons) == 0 {
		return ""
	}
	return reasons[0]
}

// oneLine joins the lines of s with " / ".
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " / ")
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
		fmt.Println(strings.TrimRight(line, " "))
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

// writeGrades writes rows to prefix.csv and, with the summary, to
// prefix.json.
func writeGrades(prefix string, rows []gradeRow, o gradeOptions) error {
	f, err := os.Create(prefix + ".csv")
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	cw.Write(csvColumns)
	for _, r := range rows {
		var failed []string
		for _, g := range r.Failed {
			var reasons []string
			for _, reason := range g.Reasons {
				reasons = append(reasons, oneLine(reason))
			}
			failed = append(failed, g.Name+": "+strings.Join(reasons, " | "))
		}
		maxPoints := ""
		if r.MaxPoints != nil {
			maxPoints = strconv.FormatFloat(*r.MaxPoints, 'f', -1, 64)
		}
		cw.Write([]string{r.Student, r.ID, r.Repo, strconv.Itoa(r.Lab), r.Title, r.Status, strconv.Itoa(r.Passed),
			strconv.Itoa(r.Total), pointsCell(r), maxPoints, r.Commit, r.CommitTime, strconv.Itoa(r.LaterCommits),
			r.GradedAt, strconv.FormatFloat(r.Seconds, 'f', 1, 64), strconv.FormatFloat(r.BuildSeconds, 'f', 1, 64),
			strings.Join(failed, "; "), strings.Join(r.PassedTests, " "), r.Note})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	file := gradeFile{GradedAt: time.Now().Format(time.RFC3339), Rows: slices.Clone(rows), Summary: summarize(rows, o.labs)}
	if root, err := projectRoot(); err == nil {
		file.Kit = kitVersion(root)
	}
	if !o.deadline.IsZero() {
		file.Deadline = o.deadline.Format(time.RFC3339)
	}
	for i := range file.Rows {
		if file.Rows[i].Failed == nil {
			file.Rows[i].Failed = []gradedTest{}
		}
		if file.Rows[i].PassedTests == nil {
			file.Rows[i].PassedTests = []string{}
		}
	}
	b, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(prefix+".json", append(b, '\n'), 0o644)
}

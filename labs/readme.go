// readme.go checks that the README's "First reading" table (README.md, and
// README.zh-CN.md's 第一遍阅读) says what the generator makes: its rows name
// exactly the root non-test files of reading 1, each with its true line
// count. A row naming a file outside the root (clock/clock.go) is allowed,
// and its count is checked too.
//
// client-go counterpart: none (tooling for the readings).
//
// Tutorial: none; it serves the README.

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// readmeTables are the READMEs with a first-reading table, and the words of
// their section heading and of the table's file and lines columns.
var readmeTables = []struct {
	file, heading, fileCol, linesCol string
}{
	{"README.md", "First reading", "file", "lines"},
	{"README.zh-CN.md", "第一遍阅读", "文件", "行数"},
}

var backtickedGo = regexp.MustCompile("`([A-Za-z0-9_./-]+\\.go)`")

// checkReadmes checks every README of readmeTables against reading 1
// (files), and returns every difference at once.
func checkReadmes(root string, files map[string][]byte) error {
	var problems []error
	for _, rt := range readmeTables {
		text, err := os.ReadFile(filepath.Join(root, rt.file))
		if err != nil {
			return err
		}
		for _, p := range checkTable(string(text), rt.heading, rt.fileCol, rt.linesCol, files) {
			problems = append(problems, fmt.Errorf("%s: %s", rt.file, p))
		}
	}
	if len(problems) > 0 {
		what := "the README's first-reading table does not match `go run ./labs reading 1`"
		return joinProblems(what, problems)
	}
	return nil
}

// checkTable checks the first table under the heading that contains
// heading: its rows' file and lines columns against files.
func checkTable(readme, heading, fileCol, linesCol string, files map[string][]byte) []string {
	lines := strings.Split(readme, "\n")
	sec := section(lines, func(h string) bool { return strings.Contains(h, heading) })
	if sec == nil {
		return []string{fmt.Sprintf("no section whose heading contains %q", heading)}
	}
	var rows [][]string
	fi, li := -1, -1
	for _, l := range sec {
		if !strings.HasPrefix(strings.TrimSpace(l), "|") {
			if rows != nil || fi >= 0 {
				break // the first table ended
			}
			continue
		}
		cells := splitRow(l)
		if fi < 0 {
			fi = slices.Index(cells, fileCol)
			li = slices.Index(cells, linesCol)
			if fi < 0 || li < 0 {
				return []string{fmt.Sprintf("the first table under %q has no %q and %q columns",
					heading, fileCol, linesCol)}
			}
			continue
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue // the delimiter row
		}
		rows = append(rows, cells)
	}
	if fi < 0 {
		return []string{fmt.Sprintf("no table under %q", heading)}
	}
	want := map[string]int{}
	for name, src := range files {
		if isRootSource(name) {
			want[name] = bytes.Count(src, []byte("\n"))
		}
	}
	var problems []string
	add := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	listed := map[string]bool{}
	for _, cells := range rows {
		if fi >= len(cells) || li >= len(cells) {
			add("a row with too few cells: %q", strings.Join(cells, " | "))
			continue
		}
		m := backtickedGo.FindStringSubmatch(cells[fi])
		if m == nil {
			add("a row names no `file.go`: %q", cells[fi])
			continue
		}
		name := m[1]
		got, err := strconv.Atoi(strings.ReplaceAll(cells[li], ",", ""))
		if err != nil {
			add("%s: the lines cell %q is not a number", name, cells[li])
			continue
		}
		have, ok := want[name]
		if strings.Contains(name, "/") {
			src, inReading := files[name]
			if !inReading {
				add("%s is listed but is not in reading 1", name)
				continue
			}
			have = bytes.Count(src, []byte("\n"))
			ok = true
		}
		if !ok {
			add("%s is listed but is not a root file of reading 1", name)
			continue
		}
		listed[name] = true
		if got != have {
			add("%s: the table says %d lines, the file has %d", name, got, have)
		}
	}
	for _, name := range sortedKeys(want) {
		if !listed[name] {
			add("%s (%d lines) is in reading 1 but not in the table", name, want[name])
		}
	}
	return problems
}

// splitRow returns the trimmed cells of a Markdown table row.
func splitRow(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(l, "|")
	l = strings.TrimSuffix(l, "|")
	// A cell may hold an escaped pipe (`a \| b`): it does not split.
	l = strings.ReplaceAll(l, `\|`, "\x00")
	cells := strings.Split(l, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "\x00", `\|`))
	}
	return cells
}

// section returns the lines under the first level-2 or level-3 heading
// that match says yes to, up to the next heading of the same or a higher
// level, or nil.
func section(lines []string, match func(heading string) bool) []string {
	for i, l := range lines {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level < 2 || level > 3 || !strings.HasPrefix(l[level:], " ") || !match(l[level:]) {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			m := len(lines[j]) - len(strings.TrimLeft(lines[j], "#"))
			if m >= 1 && m <= level && strings.HasPrefix(lines[j][m:], " ") {
				end = j
				break
			}
		}
		return lines[i+1 : end]
	}
	return nil
}

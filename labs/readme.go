// readme.go finds the files a lab workspace copies, in the README's reading
// path, so that the kit follows the reading path when it changes: the
// sections whose headings contain "First reading" and "Second reading"
// (their backticked `name.go` and `name_test.go`: lab 6 builds the RealFIFO
// of the second reading) when there is a first one; until then the core table of
// "Reading path" (the files before "The **extras**"), with every root test
// file except those the extras paragraph names.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

var backticked = regexp.MustCompile("`([A-Za-z0-9_]+\\.go)`")

// readingFiles returns the root files to copy (sources and tests, sorted)
// and which rule found them.
func readingFiles(root string) (files []string, rule string, err error) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, "", err
	}
	lines := strings.Split(string(text), "\n")
	if first := section(lines, func(h string) bool { return strings.Contains(h, "First reading") }); first != nil {
		files = namesIn(first)
		rule = `the README's "First reading" section`
		if second := section(lines, func(h string) bool { return strings.Contains(h, "Second reading") }); second != nil {
			files = append(files, namesIn(second)...)
			rule = `the README's "First reading" and "Second reading" sections`
		}
	} else {
		path := section(lines, func(h string) bool { return strings.Contains(h, "Reading path") })
		if path == nil {
			return nil, "", fmt.Errorf("README.md has neither a \"First reading\" nor a \"Reading path\" section")
		}
		core, extras := path, []string(nil)
		if i := slices.IndexFunc(path, func(l string) bool { return strings.HasPrefix(l, "The **extras**") }); i >= 0 {
			core, extras = path[:i], path[i:]
		}
		files = namesIn(core)
		skip := namesIn(extras)
		tests, _ := filepath.Glob(filepath.Join(root, "*_test.go"))
		for _, t := range tests {
			if name := filepath.Base(t); !slices.Contains(skip, name) {
				files = append(files, name)
			}
		}
		rule = `the README's "Reading path" core table (no "First reading" section yet), with the root tests not named among the extras`
	}
	var missing []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return nil, rule, fmt.Errorf("%s names files that do not exist: %s", rule, strings.Join(missing, ", "))
	}
	if !slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") }) {
		return nil, rule, fmt.Errorf("%s names no Go file", rule)
	}
	slices.Sort(files)
	return slices.Compact(files), rule, nil
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

// namesIn returns the backticked file names of lines that are in the root
// (no slash), in order of first appearance.
func namesIn(lines []string) []string {
	var names []string
	sc := bufio.NewScanner(strings.NewReader(strings.Join(lines, "\n")))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		for _, m := range backticked.FindAllStringSubmatch(sc.Text(), -1) {
			if !slices.Contains(names, m[1]) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

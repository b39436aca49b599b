// readingpath_test.go: the reading path the package doc lists (server.go's
// "// Package fakeapi" comment) is true: its files exist, their line counts
// and total are the ones the doc gives, the total stays within 1,500 lines,
// and every other file of the package is either named in the doc or says by
// its name that it is the compatibility layer (compat_*.go).

package fakeapi

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readingPathLimit is the most lines (comments included) the path may have.
const readingPathLimit = 1500

// pathEntry is one numbered line of the doc's reading path.
var pathEntry = regexp.MustCompile(`^//\s+(\d+)\. (\S+\.go) \(([\d,]+) lines\)`)

// pathTotal is the doc's "(N lines in all)".
var pathTotal = regexp.MustCompile(`\(([\d,]+) lines in all\)`)

func TestReadingPath(t *testing.T) {
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage fakeapi")
	var files []string
	total := 0
	var want strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		m := pathEntry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != len(files)+1 {
			t.Errorf("reading path: entry %s is numbered %s, want %d", m[2], m[1], len(files)+1)
		}
		raw, err := os.ReadFile(m[2])
		if err != nil {
			t.Errorf("reading path: %v", err)
			continue
		}
		lines := strings.Count(string(raw), "\n")
		if m[3] != strconv.Itoa(lines) {
			t.Errorf("reading path: the doc says %s has %s lines; it has %d", m[2], m[3], lines)
		}
		files = append(files, m[2])
		total += lines
		fmt.Fprintf(&want, "%s %d\n", m[2], lines)
	}
	if len(files) == 0 {
		t.Fatal("server.go's package doc lists no reading path (lines like `//  1. server.go (296 lines): ...`)")
	}
	if total > readingPathLimit {
		t.Errorf("the reading path has %d lines, more than %d:\n%s", total, readingPathLimit, want.String())
	}
	if m := pathTotal.FindStringSubmatch(doc); m == nil || strings.ReplaceAll(m[1], ",", "") != strconv.Itoa(total) {
		t.Errorf("the package doc should say (%s lines in all); files:\n%s", withComma(total), want.String())
	}
	checkReadingPathDocs(t, files, total)
	all, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "compat_") {
			continue
		}
		if !strings.Contains(doc, " "+f+" ") && !strings.Contains(doc, " "+f+"\n") && !strings.Contains(doc, "// "+f+" ") {
			t.Errorf("%s is neither on the reading path, nor named around it in the package doc, nor called compat_*.go", f)
		}
	}
}

// docRow is a row of the reading path's table in docs/fakeapi*.md:
// | 1 | `fakeapi/server.go` | 300 | ...
var docRow = regexp.MustCompile("^\\| (\\d+) \\| `fakeapi/([^`]+\\.go)` \\| (\\d+) \\|")

// checkReadingPathDocs checks that the reading path's table in both
// languages lists files, in that order, with their true line counts, and
// gives the total in bold.
func checkReadingPathDocs(t *testing.T, files []string, total int) {
	t.Helper()
	for _, doc := range []string{"../docs/fakeapi.md", "../docs/fakeapi.zh-CN.md"} {
		raw, err := os.ReadFile(doc)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a copy without docs/ (docs/coursework.md's first reading): nothing to compare
		}
		if err != nil {
			t.Error(err)
			continue
		}
		var listed []string
		for _, line := range strings.Split(string(raw), "\n") {
			m := docRow.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			listed = append(listed, m[2])
			if b, err := os.ReadFile(m[2]); err == nil && m[3] != strconv.Itoa(strings.Count(string(b), "\n")) {
				t.Errorf("%s: %s has %d lines, not %s", doc, m[2], strings.Count(string(b), "\n"), m[3])
			}
		}
		if strings.Join(listed, " ") != strings.Join(files, " ") {
			t.Errorf("%s lists the reading path %v; the package doc %v", doc, listed, files)
		}
		if !strings.Contains(string(raw), "**"+withComma(total)+" ") {
			t.Errorf("%s should give the total in bold: **%s lines** (**%s 行**)", doc, withComma(total), withComma(total))
		}
	}
}

// withComma writes n as the doc does: 1,488.
func withComma(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}

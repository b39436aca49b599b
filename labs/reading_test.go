// reading_test.go tests the reading generator on the small modules of
// testdata/reading: ok/ (a block in a function, a block in an import list,
// a whole file of reading 2, an import that becomes unused, packages copied
// only when imported) and bad/ (a nested, an unclosed and a mismatched
// block, and a header marked twice). It also checks the README's table
// check on a small README.
//
// client-go counterpart: none (tooling for the readings).
//
// Tutorial: none; it serves every reading.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture is the module the tests generate readings of.
const fixture = "testdata/reading/ok"

func TestReadingKeepsItsFilesAndBlocks(t *testing.T) {
	for _, tc := range []struct {
		n        int
		files    []string
		has, not []string // in a.go
	}{
		{1,
			[]string{"LICENSE", "a.go", "a_test.go", "go.mod", "helper/data/data.txt", "helper/data/gen.go",
				"helper/helper.go", "helper/testdata/h.txt", "testdata/x.txt"},
			[]string{`"fmt"`, `return fmt.Sprintf("hello, %s", name)`},
			[]string{`"strings"`, `"strconv"`, "HELLO", "Number", "Reading 2", "End of reading"}},
		{2,
			[]string{"LICENSE", "a.go", "a_test.go", "b.go", "b_test.go", "deep/deep.go", "go.mod",
				"helper/data/data.txt", "helper/data/gen.go", "helper/helper.go", "helper/testdata/h.txt",
				"sub/sub.go", "testdata/x.txt"},
			[]string{`"strings"`, "HELLO", "// Reading 2: shouting", "// End of reading 2."},
			[]string{`"strconv"`, "Number"}},
		{3,
			[]string{"LICENSE", "a.go", "a_test.go", "b.go", "b_test.go", "deep/deep.go", "go.mod",
				"helper/data/data.txt", "helper/data/gen.go", "helper/helper.go", "helper/testdata/h.txt",
				"sub/sub.go", "testdata/x.txt"},
			[]string{`"strconv"`, "Number", "HELLO"},
			nil},
	} {
		root := fixtureRoot(t)
		files, err := buildReading(root, tc.n)
		if err != nil {
			t.Fatalf("reading %d: %v", tc.n, err)
		}
		if got := sortedKeys(files); !slices.Equal(got, tc.files) {
			t.Errorf("reading %d: files\n got %v\nwant %v", tc.n, got, tc.files)
		}
		a := string(files["a.go"])
		for _, s := range tc.has {
			if !strings.Contains(a, s) {
				t.Errorf("reading %d: a.go lacks %s:\n%s", tc.n, s, a)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(a, s) {
				t.Errorf("reading %d: a.go still has %s:\n%s", tc.n, s, a)
			}
		}
		if tc.n == 3 {
			orig, _ := os.ReadFile(filepath.Join(root, "a.go"))
			if a != string(orig) {
				t.Errorf("reading 3 changed a.go, which has no block above reading 3:\n%s", a)
			}
		}
	}
}

// TestReadingBuildsAlone writes reading 1 of the fixture and runs go vet
// and go test there: the cut files must compile with nothing else.
func TestReadingBuildsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, n := range []int{1, 2} {
		files, err := buildReading(fixtureRoot(t), n)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := writeFiles(dir, files); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "vet", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("reading %d: go vet: %v\n%s", n, err, out)
		}
		cmd = exec.Command("go", "test", "-count=1", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("reading %d: go test: %v\n%s", n, err, out)
		}
	}
}

func TestReadingMarkerErrorsNameFileAndLine(t *testing.T) {
	root, err := filepath.Abs("testdata/reading/bad")
	if err != nil {
		t.Fatal(err)
	}
	_, err = buildReading(root, 1)
	if err == nil {
		t.Fatal("buildReading accepted broken markers")
	}
	for _, want := range []string{
		"mismatched.go:8: \"// End of reading 3.\" closes the block of reading 2 opened at line 5",
		"nested.go:8: a block of reading 3 opens inside the block of reading 2 opened at line 5" +
			" (blocks do not nest)",
		"twice.go:4: the header marks the file twice (reading 2 at line 3, reading 3 here)",
		"unclosed.go:5: the block of reading 2 is never closed",
		"4 problem(s)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

func TestReadingNumberOutOfRange(t *testing.T) {
	for _, n := range []int{0, 4} {
		if _, err := buildReading(fixtureRoot(t), n); err == nil {
			t.Errorf("reading %d: no error", n)
		}
	}
}

func TestStatsCountAsReadcheck(t *testing.T) {
	files := map[string][]byte{
		"a.go": []byte("// a.go: two comment lines\n// of four.\npackage a\n\nfunc F() {}\n"),
		"b.go": []byte("package a\n\n/* block\n   comment */\n" +
			"// T is documented.\ntype T int\n\nvar V = 1\n"),
		"a_test.go":   []byte("package a\n// not counted\n"),
		"sub/c.go":    []byte("package c\n// not counted\n"),
		"testdata/x":  []byte("x\n"),
		"undoc_ok.go": []byte("package a\n\ntype t int\n\nfunc (t) M() {}\n"),
	}
	s, err := statsOf(files)
	if err != nil {
		t.Fatal(err)
	}
	if s.Files != 3 || s.Lines != 18 || s.CommentLines != 5 {
		t.Errorf("files %d lines %d comment lines %d; want 3, 18, 5", s.Files, s.Lines, s.CommentLines)
	}
	if want := []string{"a.go: F", "b.go: V"}; !slices.Equal(s.Undocumented, want) {
		t.Errorf("undocumented %v, want %v", s.Undocumented, want)
	}
	want := "first reading: generated, 3 files, 18 lines, 27.8% comments, 2 undocumented"
	if got := s.line(1); got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
}

func TestReadmeTableCheck(t *testing.T) {
	files := map[string][]byte{"a.go": []byte("1\n2\n"), "b.go": []byte("1\n"), "a_test.go": nil,
		"clock/clock.go": []byte("1\n2\n3\n")}
	good := strings.Join([]string{
		"## Reading path", "### First reading: x", "text", "",
		"| # | file | lines | what |", "|---:|---|---:|---|",
		"| 1 | [`a.go`](a.go) | 2 | a |",
		"| 2 | [`clock/clock.go`](clock/clock.go) | 3 | c |",
		"| 3 | `b.go` | 1 | b \\| c |", "",
		"| other | table |", "|---|---|", "| `z.go` | 9 |",
		"### Second reading", "| file | lines |", "|---|---|", "| `c.go` | 4 |", "",
	}, "\n")
	if p := checkTable(good, "First reading", "file", "lines", files); len(p) != 0 {
		t.Errorf("a true table: %v", p)
	}
	bad := "### First reading\n| file | lines |\n|---|---:|\n| `a.go` | 3 |\n| `c.go` | 1 |\n"
	got := strings.Join(checkTable(bad, "First reading", "file", "lines", files), "\n")
	for _, want := range []string{
		"a.go: the table says 3 lines, the file has 2",
		"c.go is listed but is not a root file of reading 1",
		"b.go (1 lines) is in reading 1 but not in the table",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if p := checkTable("## Other\n", "First reading", "file", "lines", files); len(p) != 1 {
		t.Errorf("no section: %v", p)
	}
}

func fixtureRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

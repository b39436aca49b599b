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
			[]string{"LICENSE", "a.go", "a_test.go", "c.go", "go.mod", "helper/data/data.txt", "helper/data/gen.go",
				"helper/helper.go", "helper/testdata/h.txt", "testdata/x.txt"},
			[]string{`"fmt"`, `return fmt.Sprintf("hello, %s", name)`},
			[]string{`"strings"`, `"strconv"`, "HELLO", "Number", "Reading 2", "End of reading"}},
		{2,
			[]string{"LICENSE", "a.go", "a_test.go", "b.go", "b_test.go", "c.go", "deep/deep.go", "go.mod",
				"helper/data/data.txt", "helper/data/gen.go", "helper/helper.go", "helper/testdata/h.txt",
				"sub/sub.go", "testdata/x.txt"},
			[]string{`"strings"`, "HELLO", "// Reading 2: shouting", "// End of reading 2."},
			[]string{`"strconv"`, "Number"}},
		{3,
			[]string{"LICENSE", "a.go", "a_test.go", "b.go", "b_test.go", "c.go", "deep/deep.go", "go.mod",
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

// TestReadingTidiesWhatTheCutLeaves checks c.go of reading 1: the import
// groups around a removed one become one group, and a parameter list whose
// last lines were removed closes on its first line; reading 1 then has no
// leftovers.
func TestReadingTidiesWhatTheCutLeaves(t *testing.T) {
	files, err := buildReading(fixtureRoot(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	c := string(files["c.go"])
	for _, want := range []string{"import (\n\t\"fmt\"\n\t\"strings\"\n)\n",
		"func Join(a, b string) string {\n"} {
		if !strings.Contains(c, want) {
			t.Errorf("c.go lacks %q:\n%s", want, c)
		}
	}
	full, err := buildReading(fixtureRoot(t), lastReading)
	if err != nil {
		t.Fatal(err)
	}
	if left, err := leftovers(1, files, full); err != nil || len(left) != 0 {
		t.Errorf("leftovers in reading 1: %v %q", err, left)
	}
}

// TestLeftoversNamed gives leftovers a reading that keeps one of each kind.
func TestLeftoversNamed(t *testing.T) {
	full := map[string][]byte{
		"a.go":     []byte("package a\n\n// A is a.\ntype A int\n"),
		"later.go": []byte("package a\n\n// LaterQueue is later.\ntype LaterQueue int\n\nfunc newLater(gates int) {}\n"),
		"del.go":   []byte("package a\n\n// Del deletes key; obj gives its version.\nfunc Del(key string, obj any) { _, _ = key, obj }\n"),
	}
	reading := map[string][]byte{
		"a.go": []byte("package a\n\nimport (\n\t\"fmt\"\n\n\t\"os\"\n)\n\n" +
			"// A is a, as in later.go; a *LaterQueue is a queue too, and the\n" +
			"// gates (`gates`, newLater()) choose. Later queues are English, so\n" +
			"// is _, and Later.\n" +
			"type A int\n\nvar _, _ = fmt.Sprint(1,\n), os.Args\n\nfunc f(a int,\n) {}\n\nvar  b = 1\n"),
		"del.go": []byte("package a\n\n// Del deletes key; obj gives its version.\nfunc Del(key string, obj any) { _ = key }\n"),
	}
	got, err := leftovers(1, reading, full)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a.go:9: the comment names later.go, which reading 1 does not have",
		"a.go:9: the comment names LaterQueue, which reading 1 does not have",
		"a.go:10: the comment names newLater, which reading 1 does not have",
		"a.go:6: a blank line inside a group of imports (what the cut removed was there)",
		"a.go:15: a list whose elements all sit on its first line closes on a later one",
		"a.go:18: a list whose elements all sit on its first line closes on a later one",
		"a.go: gofmt would change it",
		"del.go:4: the doc speaks of obj, which Del uses only in a later reading",
	}
	if !slices.Equal(got, want) {
		t.Errorf("leftovers\n got %q\nwant %q", got, want)
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

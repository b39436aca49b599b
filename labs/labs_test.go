// labs_test.go tests the lab kit's own pieces: how a body becomes a stub,
// how a project test gets its gate, and that every lab's functions exist in
// today's reading. reading_test.go tests the readings.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestStubKeepsTheSignatureAndDropsUnusedImports(t *testing.T) {
	src := `package informer

import (
	"fmt"
	"strings"
)

// Pop is documented.
func (f *Q) Pop(n int) (any, bool, error) {
	// a comment inside the body
	return strings.ToUpper(fmt.Sprint(n)), true, nil
}

// Keep is the next function; its doc comment stays above it.
func Keep() string { return fmt.Sprint(1) }
`
	labs := []Lab{{N: 9, Funcs: []Func{{"*Q", "Pop", 2}}}}
	out, stubbed, err := stubFuncs("q.go", []byte(src), labs, nil)
	if err != nil || len(stubbed) != 1 {
		t.Fatalf("stubbed %v, %v", stubbed, err)
	}
	s := string(out)
	for _, want := range []string{
		"{\n\treturn nil, false, labTODO(9, \"(*Q).Pop\", 2)\n}\n",
		"// Pop is documented.", `"fmt"`,
		"\n\n// Keep is the next function; its doc comment stays above it.\nfunc Keep() string",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("stub lacks %s:\n%s", want, s)
		}
	}
	for _, gone := range []string{`"strings"`, "a comment inside the body"} {
		if strings.Contains(s, gone) {
			t.Errorf("stub still has %s:\n%s", gone, s)
		}
	}
}

func TestGateGoesFirstInEveryTest(t *testing.T) {
	src := `package informer

import "testing"

func TestA(t *testing.T) {
	t.Fail()
}

func TestB(_ *testing.T) {
}

func FuzzC(f *testing.F) {
}

func TestMain(m *testing.M) {}

func helper(t *testing.T) {}
`
	out, gated, err := gateTests("a_test.go", []byte(src), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"TestA", "TestB", "FuzzC"}; !slices.Equal(gated, want) {
		t.Errorf("gated %v, want %v", gated, want)
	}
	for _, want := range []string{"labGate(t)\n\tt.Fail()", "func TestB(labT *testing.T) {\n\tlabGate(labT)", "labGate(f)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("gated source lacks %q:\n%s", want, out)
		}
	}
}

func TestGateOfAnExternalTestIsTheExportedOne(t *testing.T) {
	src := `package queue_test

import (
	"testing"

	q "example.com/m/queue"
)

func TestA(t *testing.T) { q.New() }
`
	out, gated, err := gateTests("a_test.go", []byte(src), "example.com/m/queue")
	if err != nil || !slices.Equal(gated, []string{"TestA"}) {
		t.Fatalf("gated %v, %v", gated, err)
	}
	if !strings.Contains(string(out), "q.LabGate(t)") {
		t.Errorf("gated source lacks q.LabGate(t):\n%s", out)
	}
	noImport := strings.Replace(strings.Replace(src, `q "example.com/m/queue"`, `"strings"`, 1), "q.New()", "strings.ToUpper(\"\")", 1)
	out, _, err = gateTests("a_test.go", []byte(noImport), "example.com/m/queue")
	if err != nil || !strings.Contains(string(out), `labself "example.com/m/queue"`) || !strings.Contains(string(out), "labself.LabGate(t)") {
		t.Errorf("an external test file that does not import its package: %v\n%s", err, out)
	}
}

// TestEveryLabMatchesTheReading builds the course repository in memory: a
// spec'd function or project grader that the reading no longer has makes it
// fail, naming what is missing.
func TestEveryLabMatchesTheReading(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := buildTree(root, 1); err != nil {
		t.Error(err)
	}
}

// TestPlantedBugsApply reads every lab's planted bugs and applies each to a
// repository with the labs up to its own done, in memory: at least eight a
// lab, each with its header, each hunk found exactly once, each expected
// grader one of the lab's. (labs bugs then proves them caught; this is the
// quick part, so that a change of the root that breaks a patch is named by
// go test.)
func TestPlantedBugsApply(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, lab := range Labs {
		bugs, err := labBugs(root, lab)
		if err != nil {
			t.Errorf("lab %d: %v", lab.N, err)
			continue
		}
		if len(bugs) < 8 {
			t.Errorf("lab %d has %d planted bugs, want at least 8", lab.N, len(bugs))
		}
		tree, err := buildTree(root, lab.N+1)
		if err != nil {
			t.Fatal(err)
		}
		graders := labGraders(lab, tree)
		for _, b := range bugs {
			src, ok := tree[b.File]
			if !ok {
				t.Errorf("%s: no file %s in the repository", b.Path, b.File)
				continue
			}
			if _, err := b.apply(src); err != nil {
				t.Error(err)
			}
			for _, e := range b.Expect {
				if !slices.Contains(graders, e) {
					t.Errorf("%s expects %s to fail, which is not a lab %d grader", b.Path, e, lab.N)
				}
			}
		}
	}
}

// writeTestTree writes the student repository whose labs from stubFrom on
// are stubs to a temporary folder and returns it.
func writeTestTree(t *testing.T, stubFrom int) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := buildTree(root, stubFrom)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReferenceFillsOnlyStubs: reference -labs 1-2 on a repository whose
// lab 1 has one function of the learner's fills every stub of labs 1 and 2
// and leaves that function alone; with -force it replaces it too, after a
// backup of its file.
func TestReferenceFillsOnlyStubs(t *testing.T) {
	dir := writeTestTree(t, 1)
	p := filepath.Join(dir, "thread_safe_store.go")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	stub := "\tlabTODO(1, \"(*threadSafeStore).Get\", 2)\n\treturn nil, false\n"
	mine := "\treturn nil, false // the learner's own, wrong but theirs\n"
	if !strings.Contains(string(src), stub) {
		t.Fatalf("thread_safe_store.go has no stub of Get:\n%s", src)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), stub, mine, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	solved, err := solvedTree()
	if err != nil {
		t.Fatal(err)
	}
	labs, _ := parseLabs("1-2")
	plan, err := planReference(dir, solved, labs, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.kept[1]; !slices.Equal(got, []Func{{"*threadSafeStore", "Get", 2}}) {
		t.Errorf("kept %v, want the learner's Get alone", got)
	}
	if n := len(plan.filled[1]) + len(plan.filled[2]); n != len(Labs[0].Funcs)-1+len(Labs[1].Funcs) {
		t.Errorf("filled %d functions, want every stub of labs 1 and 2", n)
	}
	if !strings.Contains(string(plan.out["thread_safe_store.go"]), mine) {
		t.Error("the learner's Get was overwritten without -force")
	}
	forced, err := planReference(dir, solved, labs, true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(forced.out["thread_safe_store.go"]), mine) {
		t.Error("-force left the learner's Get in place")
	}
	if !slices.Equal(forced.changedFiles(), []string{"thread_safe_store.go"}) {
		t.Errorf("-force backs up %v, want thread_safe_store.go", forced.changedFiles())
	}
	backed, err := backup(dir, forced.changedFiles())
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(backed, "thread_safe_store.go")); err != nil || !strings.Contains(string(b), mine) {
		t.Errorf("the backup does not hold the learner's Get: %v", err)
	}
}

// TestLab8NamesTheMissingLabs: in a repository where labs 1 and 7 are done
// and labs 2 to 6 still stubs, lab 8 names labs 2 to 6 and the one command
// that fills them; lab 7, which needs no other lab, names none.
func TestLab8NamesTheMissingLabs(t *testing.T) {
	dir := writeTestTree(t, 2)
	solved, err := solvedTree()
	if err != nil {
		t.Fatal(err)
	}
	seven, _ := parseLabs("7")
	plan, err := planReference(dir, solved, seven, false)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range plan.out {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	states, err := repoLabs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range states {
		if stubbed := s.Lab.N >= 2 && s.Lab.N != 7; s.stubbed() != stubbed || s.notStarted() != stubbed || len(s.Missing) > 0 {
			t.Errorf("lab %d: stubs %v, written %v, missing %v", s.Lab.N, s.Stubs, s.Written, s.Missing)
		}
	}
	eight, _ := labByNumber(8)
	msg := missingLabs(eight, states, dir, false)
	for _, want := range []string{"labs 2 to 6 are still stubs", "go run ./labs reference -labs 2-6 " + dir, "Nothing was graded"} {
		if !strings.Contains(msg, want) {
			t.Errorf("lab 8's message lacks %q:\n%s", want, msg)
		}
	}
	zh := missingLabs(eight, states, dir, true)
	if !strings.Contains(zh, "实验 2 到 6 还是桩函数") || !strings.Contains(zh, "-labs 2-6") {
		t.Errorf("lab 8's Chinese message:\n%s", zh)
	}
	sevenLab, _ := labByNumber(7)
	if msg := missingLabs(sevenLab, states, dir, false); msg != "" {
		t.Errorf("lab 7 needs no other lab, yet: %s", msg)
	}
}

// notYetSpeakingChinese are the labs whose graders are being rewritten
// (none now): their Chinese is checked once they land.
var notYetSpeakingChinese = []string{}

// TestGradersSpeakChinese reads every Chinese text the graders and the
// kit can print (each string literal with Chinese in it, in labs/NN/*_test.go,
// labs/kit and the labs command, the lab titles and the project graders'
// descriptions in spec.go) and fails on English words outside code spans,
// by zh-check's rules: what `go run ./labs zh-check` would flag in their
// output, found before any grader runs.
func TestGradersSpeakChinese(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tree, err := buildTree(root, 1)
	if err != nil {
		t.Fatal(err)
	}
	spelled, _, err := treeSpellings(tree)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "labs", "*", "*_test.go"))
	more, _ := filepath.Glob(filepath.Join(root, "labs", "*.go"))
	han := regexp.MustCompile(`\p{Han}`)
	for _, f := range append(files, more...) {
		rel, _ := filepath.Rel(root, f)
		switch {
		case strings.HasSuffix(f, "labs_test.go") || strings.HasSuffix(f, "reading_test.go"):
			continue
		case rel == filepath.Join("labs", "generate.go"):
			continue // the student README and lab_stub.go's source: both languages side by side, read as a file
		case rel == filepath.Join("labs", "handouts.go"):
			continue // reads the handouts: its Chinese is in patterns, not printed
		case slices.Contains(notYetSpeakingChinese, filepath.ToSlash(filepath.Dir(rel))):
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !han.MatchString(s) {
				return true
			}
			for _, line := range strings.Split(verbRE.ReplaceAllString(s, "V0"), "\n") {
				if w := englishWords(line, spelled); len(w) > 0 {
					t.Errorf("%s:%d: English (%s) in %q", rel, fset.Position(lit.Pos()).Line, strings.Join(w, " "), s)
					break
				}
			}
			return true
		})
	}
}

// TestTranslateShowsTheStubNotItsWrapper: a project test's error that holds
// a stub's message under the English of the code that wrapped it reads, for
// a Chinese reader, as the stub's message alone (the trial's lab 1 showed
// "cannot compute the key of a *informer.Pod: 实验 1：请实现 …").
func TestTranslateShowsTheStubNotItsWrapper(t *testing.T) {
	stub := "实验 1：请实现 MetaNamespaceKeyFunc，见 labs/01/README.zh-CN.md §1"
	if got := translate("cannot compute the key of a *informer.Pod: " + stub); got != stub {
		t.Errorf("translate = %q, want the stub's message %q", got, stub)
	}
	if got := translate("index failed"); got != "`index failed`" {
		t.Errorf("translate of English without a stub = %q, want it as code", got)
	}
}

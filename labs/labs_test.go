// labs_test.go tests the lab kit's own pieces: how a body becomes a stub,
// how a project test gets its gate, and that every lab's functions exist in
// today's reading. reading_test.go tests the readings.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"path/filepath"
	"slices"
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
	noImport := strings.Replace(src, `q "example.com/m/queue"`, `"strings"`, 1)
	if _, _, err := gateTests("a_test.go", []byte(noImport), "example.com/m/queue"); err == nil {
		t.Error("an external test file that does not import its package was gated without an error")
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

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
	out, gated, err := gateTests("a_test.go", []byte(src))
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

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

func keep() string { return fmt.Sprint(1) }
`
	lab := Lab{N: 9, Funcs: []Func{{"*Q", "Pop", 2}}}
	out, stubbed, err := stubFuncs("q.go", []byte(src), lab, nil)
	if err != nil || len(stubbed) != 1 {
		t.Fatalf("stubbed %v, %v", stubbed, err)
	}
	s := string(out)
	for _, want := range []string{
		`return nil, false, labTODO("lab 9: implement (*Q).Pop — see labs/09 handout §2 / 实验 9：实现 (*Q).Pop，见 labs/09 讲义 §2")`,
		"// Pop is documented.", `"fmt"`,
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

// TestEveryLabMatchesTheReading builds each lab's workspace in memory: a spec'd function or project grader that the reading
// no longer has makes it fail, naming what is missing.
func TestEveryLabMatchesTheReading(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, lab := range Labs {
		if _, err := buildWorkspace(root, lab, false); err != nil {
			t.Errorf("lab %d: %v", lab.N, err)
		}
	}
}

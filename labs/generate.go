// generate.go writes a lab workspace: reading 2 of the project (reading.go)
// with one lab's functions stubbed, every lab's graders and handouts, and
// the kit. Everything is prepared in memory and checked first, so a spec
// that no longer matches the reading is reported and nothing is written.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// manifest is written to the workspace as labs.json; grade reads it.
type manifest struct {
	Lab    int           `json:"lab"` // 0 when solved
	Solved bool          `json:"solved"`
	Labs   []manifestLab `json:"labs"`
}

type manifestLab struct {
	N              int      `json:"n"`
	Title          string   `json:"title"`
	Graders        []string `json:"graders"`
	ProjectGraders []string `json:"projectGraders"`
}

var graderFuncRE = regexp.MustCompile(`(?m)^func (TestLab\d\d[A-Za-z0-9_]*)\(`)

// newWorkspace writes lab's workspace (the reference one if solved) to dir.
func newWorkspace(root string, lab Lab, solved bool, dir string) error {
	out, err := buildWorkspace(root, lab, solved)
	if err != nil {
		return err
	}
	return writeFiles(dir, out)
}

// workspaceReading is the reading a workspace is made of: today's
// client-go, which lab 6's RealFIFO belongs to.
const workspaceReading = 2

// buildWorkspace returns the files of lab's workspace, by path: reading 2
// with lab's functions stubbed (none if solved), a gate in every project
// test, and the kit, the graders and the handouts of every lab.
func buildWorkspace(root string, lab Lab, solved bool) (map[string][]byte, error) {
	out, err := buildReading(root, workspaceReading)
	if err != nil {
		return nil, err
	}
	names, err := packageNames(root)
	if err != nil {
		return nil, err
	}
	var stubbed []Func
	testNames := map[string]bool{}
	testFuncRE := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`)
	for _, name := range sortedKeys(out) {
		if strings.Contains(name, "/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		src := out[name]
		for _, m := range testFuncRE.FindAllSubmatch(src, -1) {
			testNames[string(m[1])] = true
		}
		isTest := strings.HasSuffix(name, "_test.go")
		switch {
		case !isTest:
			stubbedSrc, got, err := stubFuncs(name, src, lab, names)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			stubbed = append(stubbed, got...)
			if !solved {
				out[name] = stubbedSrc
			}
		case !solved:
			if out[name], _, err = gateTests(name, src); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	if err := checkSpec(lab, stubbed, testNames); err != nil {
		return nil, err
	}

	m := manifest{Lab: lab.N, Solved: solved}
	if solved {
		m.Lab = 0
	}
	kit, err := os.ReadFile(filepath.Join(root, "labs", "kit", "labkit_test.go"))
	if err != nil {
		return nil, err
	}
	out["lab_kit_test.go"] = untag(kit)
	for _, l := range Labs {
		nn := fmt.Sprintf("%02d", l.N)
		graders, _ := filepath.Glob(filepath.Join(root, "labs", nn, "*_test.go"))
		ml := manifestLab{N: l.N, Title: l.Title, ProjectGraders: l.ProjectGraders}
		for _, g := range graders {
			b, err := os.ReadFile(g)
			if err != nil {
				return nil, err
			}
			out[filepath.Base(g)] = untag(b)
			for _, f := range graderFuncRE.FindAllSubmatch(b, -1) {
				ml.Graders = append(ml.Graders, string(f[1]))
			}
		}
		m.Labs = append(m.Labs, ml)
		for _, h := range []string{"README.md", "README.zh-CN.md"} {
			if b, err := os.ReadFile(filepath.Join(root, "labs", nn, h)); err == nil {
				out[path.Join("labs", nn, h)] = b
			}
		}
	}
	// The kit itself, so that `go run ./labs grade .` works in the workspace.
	kitSources, _ := filepath.Glob(filepath.Join(root, "labs", "*.go"))
	for _, k := range kitSources {
		if b, err := os.ReadFile(k); err == nil && !strings.HasSuffix(k, "_test.go") {
			out[path.Join("labs", filepath.Base(k))] = b
		}
	}
	out["lab_stub.go"] = []byte(stubRuntime)
	out["lab_gate_test.go"] = gateFile(m)
	out["labs.json"], _ = json.MarshalIndent(m, "", "  ")
	out["README.md"] = workspaceReadme(lab, solved) // the same for every solved workspace
	return out, nil
}

// checkSpec reports, all at once, the functions of lab that the reading
// does not have (or has twice) and the project graders that no test file
// defines.
func checkSpec(lab Lab, stubbed []Func, testNames map[string]bool) error {
	var problems []string
	for _, f := range lab.Funcs {
		switch n := count(stubbed, f); {
		case n == 0:
			problems = append(problems, fmt.Sprintf("function %s not found", f))
		case n > 1:
			problems = append(problems, fmt.Sprintf("function %s found %d times", f, n))
		}
	}
	for _, t := range lab.ProjectGraders {
		if !testNames[t] {
			problems = append(problems, fmt.Sprintf("project grader %s not found in the copied tests", t))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("lab %d does not match reading %d; fix labs/spec.go:\n  %s",
		lab.N, workspaceReading, strings.Join(problems, "\n  "))
}

func count(fs []Func, f Func) int {
	n := 0
	for _, g := range fs {
		if g == f {
			n++
		}
	}
	return n
}

// untag removes the build constraint that keeps a grader out of the
// project's own build.
func untag(b []byte) []byte {
	return bytes.Replace(b, []byte("//go:build informerlab\n\n"), nil, 1)
}

// gateFile is lab_gate_test.go: the workspace's lab and the project tests
// that grade each lab, for labGate (labs/kit/labkit_test.go).
func gateFile(m manifest) []byte {
	var b strings.Builder
	b.WriteString("// lab_gate_test.go was written by `go run ./labs new`: which lab this\n")
	b.WriteString("// workspace is for (0: the solved reference) and which project tests grade\n")
	b.WriteString("// each lab. labGate (lab_kit_test.go) reads them.\n\npackage informer\n\n")
	fmt.Fprintf(&b, "const labWorkspace = %d\n\n", m.Lab)
	b.WriteString("var labProjectGraders = map[string]int{\n")
	for _, l := range m.Labs {
		for _, t := range l.ProjectGraders {
			fmt.Fprintf(&b, "\t%q: %d,\n", t, l.N)
		}
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return []byte(b.String()) // still valid Go, only not gofmt'ed
	}
	return src
}

// stubRuntime is lab_stub.go: the helper every stub calls.
const stubRuntime = `// lab_stub.go was written by ` + "`go run ./labs new`" + `: the helper every stub of this
// workspace calls. A stub records its message (the graders print the ones
// that were reached) and returns it as an error; it never panics, because a
// panic in a goroutine would end the whole test binary.

package informer

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

var (
	labReached sync.Map     // stub message → true
	labHits    atomic.Int64 // how many times a stub ran
)

// labTODO records that the stub with message msg ran, and returns msg as an error.
func labTODO(msg string) error {
	labReached.Store(msg, true)
	labHits.Add(1)
	return errors.New(msg)
}

// labStubsReached returns the messages of the stubs that have run, sorted.
func labStubsReached() []string {
	var msgs []string
	labReached.Range(func(k, _ any) bool { msgs = append(msgs, k.(string)); return true })
	slices.Sort(msgs)
	return msgs
}
`

// workspaceReadme is the README of a workspace.
func workspaceReadme(lab Lab, solved bool) []byte {
	var b strings.Builder
	if solved {
		fmt.Fprintf(&b, "# Informer lab workspace: the reference (solved)\n\n")
	} else {
		fmt.Fprintf(&b, "# Informer lab %d: %s\n\n实验 %d：%s\n\n", lab.N, lab.Title, lab.N, lab.TitleZH)
		fmt.Fprintf(&b, "Handout / 讲义: [labs/%02d/README.md](labs/%02d/README.md) · [labs/%02d/README.zh-CN.md](labs/%02d/README.zh-CN.md)\n\n",
			lab.N, lab.N, lab.N, lab.N)
		b.WriteString("Stubbed functions / 待实现的函数:\n\n")
		for _, f := range lab.Funcs {
			fmt.Fprintf(&b, "- `%s` (§%d)\n", f, f.Section)
		}
		b.WriteString("\n")
	}
	run := "Lab"
	if !solved {
		run = fmt.Sprintf("Lab%02d", lab.N)
	}
	fmt.Fprintf(&b, "```sh\ngo build ./...\ngo test -run %s ./...     # graders / 评分测试\ngo test ./...\n", run)
	b.WriteString("INFORMER_LAB_FULL=1 go test ./...   # also every project test / 同时运行项目的全部测试\n```\n\n")
	b.WriteString("Score / 成绩: `go run ./labs grade .` (add `-json` for a teacher).\n")
	return []byte(b.String())
}

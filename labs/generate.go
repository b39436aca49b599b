// generate.go writes a lab workspace: a module of its own (informerlab)
// holding the reading files, fakeapi/, clock/, their tests, every lab's graders
// and handouts, with one lab's functions stubbed. Everything is prepared in
// memory and checked first, so a spec that no longer matches the reading
// is reported and nothing is written.
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
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// workspaceModule is the module path of every workspace.
const workspaceModule = "informerlab"

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
func newWorkspace(root string, lab Lab, solved bool, dir string) (rule string, err error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("%s is not empty: give an empty or new directory", dir)
	}
	out, rule, err := buildWorkspace(root, lab, solved)
	if err != nil {
		return rule, err
	}
	for name, b := range out {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return rule, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return rule, err
		}
	}
	return rule, nil
}

// buildWorkspace returns the files of lab's workspace, by path, and which
// rule of the README chose the reading files.
func buildWorkspace(root string, lab Lab, solved bool) (out map[string][]byte, rule string, err error) {
	modText, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, "", err
	}
	modPath, goLine := "", ""
	for _, l := range strings.Split(string(modText), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
			modPath = f[1]
		} else if len(f) == 2 && f[0] == "go" {
			goLine = l
		}
	}
	out = map[string][]byte{}
	retarget := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(`"`+modPath+`/`), []byte(`"`+workspaceModule+`/`))
		return bytes.ReplaceAll(b, []byte(`"`+modPath+`"`), []byte(`"`+workspaceModule+`"`))
	}

	files, rule, err := readingFiles(root)
	if err != nil {
		return nil, rule, err
	}
	var stubbed []Func
	testNames := map[string]bool{}
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return nil, rule, err
		}
		src = retarget(src)
		isTest := strings.HasSuffix(name, "_test.go")
		for _, m := range regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`).FindAllSubmatch(src, -1) {
			testNames[string(m[1])] = true
		}
		switch {
		case !isTest:
			var got []Func
			if src, got, err = stubFuncs(name, src, lab); err != nil {
				return nil, rule, fmt.Errorf("%s: %w", name, err)
			}
			stubbed = append(stubbed, got...)
			if solved {
				src, _ = os.ReadFile(filepath.Join(root, name))
				src = retarget(src)
			}
		case !solved:
			if src, _, err = gateTests(name, src); err != nil {
				return nil, rule, fmt.Errorf("%s: %w", name, err)
			}
		}
		out[name] = src
	}
	if err := checkSpec(lab, stubbed, testNames, rule); err != nil {
		return nil, rule, err
	}

	// clock/ whole: the first reading's clock/clock.go (the README names it
	// with its folder, which readingFiles leaves out) and clock/testing, the
	// fake clock the tests and graders move time with.
	for _, sub := range []string{"fakeapi", "testdata", "clock"} {
		if err := copyTree(root, sub, out, retarget); err != nil {
			return nil, rule, err
		}
	}
	m := manifest{Lab: lab.N, Solved: solved}
	if solved {
		m.Lab = 0
	}
	kit, err := os.ReadFile(filepath.Join(root, "labs", "kit", "labkit_test.go"))
	if err != nil {
		return nil, rule, err
	}
	out["lab_kit_test.go"] = retarget(untag(kit))
	for _, l := range Labs {
		nn := fmt.Sprintf("%02d", l.N)
		graders, _ := filepath.Glob(filepath.Join(root, "labs", nn, "*_test.go"))
		ml := manifestLab{N: l.N, Title: l.Title, ProjectGraders: l.ProjectGraders}
		for _, g := range graders {
			b, err := os.ReadFile(g)
			if err != nil {
				return nil, rule, err
			}
			out[filepath.Base(g)] = retarget(untag(b))
			for _, f := range graderFuncRE.FindAllSubmatch(b, -1) {
				ml.Graders = append(ml.Graders, string(f[1]))
			}
		}
		m.Labs = append(m.Labs, ml)
		for _, h := range []string{"README.md", "README.zh-CN.md"} {
			if b, err := os.ReadFile(filepath.Join(root, "labs", nn, h)); err == nil {
				out[filepath.Join("labs", nn, h)] = b
			}
		}
	}
	// The kit itself, so that `go run ./labs grade .` works in the workspace.
	kitSources, _ := filepath.Glob(filepath.Join(root, "labs", "*.go"))
	for _, k := range kitSources {
		if b, err := os.ReadFile(k); err == nil && !strings.HasSuffix(k, "_test.go") {
			out[filepath.Join("labs", filepath.Base(k))] = b
		}
	}
	// The license travels with the code (docs/teaching.md); fakeapi/schema
	// keeps its own NOTICE.md, copied with fakeapi above.
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		return nil, rule, err
	}
	out["LICENSE"] = license
	out["lab_stub.go"] = []byte(stubRuntime)
	out["lab_gate_test.go"] = gateFile(m)
	out["go.mod"] = []byte("module " + workspaceModule + "\n\n" + goLine + "\n")
	out["labs.json"], _ = json.MarshalIndent(m, "", "  ")
	out["README.md"] = workspaceReadme(lab, solved) // the same for every solved workspace

	return out, rule, nil
}

// checkSpec reports, all at once, the functions of lab that the reading
// does not have (or has twice) and the project graders that no test file
// defines.
func checkSpec(lab Lab, stubbed []Func, testNames map[string]bool, rule string) error {
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
	return fmt.Errorf("lab %d does not match the reading (files from %s); fix labs/spec.go:\n  %s",
		lab.N, rule, strings.Join(problems, "\n  "))
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

// copyTree adds every file under root/sub to out.
func copyTree(root, sub string, out map[string][]byte, retarget func([]byte) []byte) error {
	return filepath.WalkDir(filepath.Join(root, sub), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if (sub == "fakeapi" || sub == "clock") && strings.HasSuffix(p, "_test.go") {
			return nil // fakeapi's and clock's own tests stay in the project: they grade no lab
		}
		if strings.HasSuffix(p, ".go") {
			b = retarget(b)
		}
		out[rel] = b
		return nil
	})
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

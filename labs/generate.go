// generate.go writes a student repository: reading 2 of the project
// (reading.go) with the labs' functions stubbed, a gate in every project
// test, the graders, handouts and kit of every lab. The course repository
// stubs every lab; `labs new -lab N` gives the reference of the labs before
// N; the solved tree, a teacher's, stubs none. Everything is prepared in
// memory and checked first, so a spec that no longer matches the reading is
// reported and nothing is written.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// workspaceReading is the reading a student repository is made of:
// today's client-go, which lab 6's RealFIFO belongs to.
const workspaceReading = 2

// graderFuncRE finds the TestLabNN graders of a test file.
var graderFuncRE = regexp.MustCompile(`(?m)^func (TestLab\d\d[A-Za-z0-9_]*)\(`)

// testFuncRE finds the tests and fuzz targets of a test file.
var testFuncRE = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`)

// kitMarker is the file, present in the project and in no student
// repository, that tells the kit it runs in the project.
const kitMarker = "labs/kit/labkit_test.go"

// buildTree returns the files of a student repository in which the labs
// numbered stubFrom and above are stubs and the labs before hold the
// reference: 1 for the course, N for `labs new -lab N`, len(Labs)+1 for the
// solved tree.
func buildTree(root string, stubFrom int) (map[string][]byte, error) {
	out, err := buildReading(root, workspaceReading)
	if err != nil {
		return nil, err
	}
	names, err := packageNames(root)
	if err != nil {
		return nil, err
	}
	var stubbed []stubbedFunc
	testNames := map[string]bool{}
	for _, name := range sortedKeys(out) {
		if strings.Contains(name, "/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		src := out[name]
		for _, m := range testFuncRE.FindAllSubmatch(src, -1) {
			testNames[string(m[1])] = true
		}
		if strings.HasSuffix(name, "_test.go") {
			if out[name], _, err = gateTests(name, src); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			continue
		}
		// Every lab's functions are looked for, so that a spec that no
		// longer matches is reported whatever is stubbed.
		_, got, err := stubFuncs(name, src, Labs, names)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		stubbed = append(stubbed, got...)
		if !slices.ContainsFunc(got, func(f stubbedFunc) bool { return f.Lab >= stubFrom }) {
			continue
		}
		var labs []Lab
		for _, l := range Labs {
			if l.N >= stubFrom {
				labs = append(labs, l)
			}
		}
		if out[name], _, err = stubFuncs(name, src, labs, names); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := checkSpec(stubbed, testNames); err != nil {
		return nil, err
	}
	if err := addKit(root, out); err != nil {
		return nil, err
	}
	out["README.md"] = courseReadme(stubFrom)
	return out, nil
}

// addKit adds what every student repository holds besides the reading:
// the graders of every lab and their toolkit (root test files), the stubs'
// helper, the handouts, and the labs command without its tests, fixtures
// and planted bugs (those would show reference code).
func addKit(root string, out map[string][]byte) error {
	kit, err := os.ReadFile(filepath.Join(root, kitMarker))
	if err != nil {
		return err
	}
	out["lab_kit_test.go"] = untag(kit)
	out["lab_stub.go"] = []byte(stubRuntime)
	for _, l := range Labs {
		nn := fmt.Sprintf("%02d", l.N)
		graders, _ := filepath.Glob(filepath.Join(root, "labs", nn, "*_test.go"))
		for _, g := range graders {
			b, err := os.ReadFile(g)
			if err != nil {
				return err
			}
			out[filepath.Base(g)] = untag(b)
		}
		for _, h := range []string{"README.md", "README.zh-CN.md"} {
			b, err := os.ReadFile(filepath.Join(root, "labs", nn, h))
			if err != nil {
				return err
			}
			out[path.Join("labs", nn, h)] = b
		}
	}
	sources, _ := filepath.Glob(filepath.Join(root, "labs", "*.go"))
	for _, k := range sources {
		if strings.HasSuffix(k, "_test.go") {
			continue
		}
		b, err := os.ReadFile(k)
		if err != nil {
			return err
		}
		out[path.Join("labs", filepath.Base(k))] = b
	}
	return nil
}

// checkSpec reports, all at once, the functions of the labs that the
// reading does not have (or has twice) and the project graders that no
// test file defines.
func checkSpec(stubbed []stubbedFunc, testNames map[string]bool) error {
	var problems []string
	for _, l := range Labs {
		for _, f := range l.Funcs {
			n := 0
			for _, g := range stubbed {
				if g.Lab == l.N && g.Func == f {
					n++
				}
			}
			switch {
			case n == 0:
				problems = append(problems, fmt.Sprintf("lab %d: function %s not found", l.N, f))
			case n > 1:
				problems = append(problems, fmt.Sprintf("lab %d: function %s found %d times", l.N, f, n))
			}
		}
		for _, g := range l.ProjectGraders {
			if !testNames[g.Name] {
				problems = append(problems, fmt.Sprintf("lab %d: project grader %s not found in the root's tests", l.N, g.Name))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("the labs do not match reading %d; fix labs/spec.go:\n  %s",
		workspaceReading, strings.Join(problems, "\n  "))
}

// untag removes the build constraint that keeps a grader out of the
// project's own build.
func untag(b []byte) []byte {
	return bytes.Replace(b, []byte("//go:build informerlab\n\n"), nil, 1)
}

// stubRuntime is lab_stub.go: the helper every stub calls.
const stubRuntime = `// lab_stub.go was written by the labs command: the helper every stub of
// this repository calls. A stub records that it ran (a failing grader lists
// the stubs it reached) and returns its message, in the reader's language,
// as an error; it never panics, because a panic in a goroutine would end the
// whole test binary.

package informer

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

var (
	labReached sync.Map     // labStub → true
	labHits    atomic.Int64 // how many times a stub ran
)

// labStub is one stub: the lab, the function, the handout section.
type labStub struct {
	lab     int
	name    string
	section int
}

// labTODO records that the stub of name (lab, handout section) ran and
// returns its message as an error.
func labTODO(lab int, name string, section int) error {
	s := labStub{lab, name, section}
	labReached.Store(s, true)
	labHits.Add(1)
	return errors.New(s.message())
}

// message is what the stub says: implement me, and where the handout explains it.
func (s labStub) message() string {
	if labChinese() {
		return fmt.Sprintf("实验 %d：请实现 %s，见 labs/%02d/README.zh-CN.md §%d", s.lab, s.name, s.lab, s.section)
	}
	return fmt.Sprintf("lab %d: implement %s, see labs/%02d/README.md §%d", s.lab, s.name, s.lab, s.section)
}

// labStubsReached returns the messages of the stubs of lab that have run, sorted.
func labStubsReached(lab int) []string {
	var msgs []string
	labReached.Range(func(k, _ any) bool {
		if s := k.(labStub); s.lab == lab {
			msgs = append(msgs, s.message())
		}
		return true
	})
	slices.Sort(msgs)
	return msgs
}

// labChinese reports whether the reader reads Chinese: INFORMER_LANG,
// LC_ALL, LANGUAGE or LANG (the first one set) starts with "zh".
func labChinese() bool {
	for _, v := range []string{"INFORMER_LANG", "LC_ALL", "LANGUAGE", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return strings.HasPrefix(strings.ToLower(s), "zh")
		}
	}
	return false
}
`

// courseReadme is the README of a student repository.
func courseReadme(stubFrom int) []byte {
	var b strings.Builder
	switch {
	case stubFrom > len(Labs):
		b.WriteString("# Informer labs: the reference (solved) / 参考实现\n\n")
		b.WriteString("Every lab solved: a teacher's tree, not for students. / 所有实验都已实现：教师用，不发给学生。\n\n")
	case stubFrom > 1:
		fmt.Fprintf(&b, "# Informer labs, from lab %d / 从实验 %d 开始\n\n", stubFrom, stubFrom)
		fmt.Fprintf(&b, "Labs 1 to %d hold the reference; labs %d to %d are yours. / 实验 1 到 %d 已是参考实现；实验 %d 到 %d 由你完成。\n\n",
			stubFrom-1, stubFrom, len(Labs), stubFrom-1, stubFrom, len(Labs))
	default:
		b.WriteString("# Informer labs / Informer 实验\n\n")
		b.WriteString("Your repository for the course: every lab's functions are stubs; you write them, lab 1 to lab " +
			fmt.Sprint(len(Labs)) + ", and your code carries forward. / 课程用的仓库：每个实验的函数都是桩函数；" +
			"你从实验 1 写到实验 " + fmt.Sprint(len(Labs)) + "，写好的代码一直留用。\n\n")
	}
	b.WriteString("| lab / 实验 | handout / 讲义 | grade it / 评分 |\n|---|---|---|\n")
	for _, l := range Labs {
		fmt.Fprintf(&b, "| %d. %s / %s | [en](labs/%02d/README.md) · [中文](labs/%02d/README.zh-CN.md) | `go run ./labs test %d` |\n",
			l.N, l.Title, l.TitleZH, l.N, l.N, l.N)
	}
	b.WriteString("\n`go run ./labs test N` builds the repository with -race and runs every grader of lab N, each with\n" +
		"a time limit; it prints why each one failed, in Chinese when LANG starts with zh, and exits non-zero\n" +
		"on any failure. / `go run ./labs test N` 用 -race 编译本仓库，逐个运行实验 N 的全部评分测试（每个都有时间限制），\n" +
		"说明每个失败的原因（LANG 以 zh 开头时用中文），有任何失败时以非零状态退出。\n")
	return []byte(b.String())
}

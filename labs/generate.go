// generate.go writes a student repository: reading 3 of the project
// (reading.go) and the packages of the labs outside the root, with the
// labs' functions stubbed, a gate in every test of a lab's package, the
// graders, handouts and kit of every lab. The course repository
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

// workspaceReading is the reading a student repository is made of: the
// root as it is, today's client-go and the real wire. Lab 6's RealFIFO is
// reading 2; lab 8's controller writes (Create, Delete, the /status
// subresource, Status errors), which reading 3 holds.
const workspaceReading = 3

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
// solved tree. The repository is the workspace reading, plus the packages
// of the labs outside the root (workqueue/, examples/controller) and what
// they import; the functions and tests of every lab's package are rewritten.
func buildTree(root string, stubFrom int) (map[string][]byte, error) {
	out, err := buildReading(root, workspaceReading)
	if err != nil {
		return nil, err
	}
	mod, err := readModule(root)
	if err != nil {
		return nil, err
	}
	if err := addLabPackages(root, mod.Path, out); err != nil {
		return nil, err
	}
	for _, dir := range studentPrograms {
		if err := copyDir(root, dir, out, false); err != nil {
			return nil, err
		}
	}
	if err := addChapters(root, mod.Path, out); err != nil {
		return nil, err
	}
	names, err := packageNames(root)
	if err != nil {
		return nil, err
	}
	gated, err := gatedDirs(mod.Path, out)
	if err != nil {
		return nil, err
	}
	var stubbed []stubbedFunc
	testNames := map[string]map[string]bool{} // lab package dir → its tests
	for _, name := range sortedKeys(out) {
		dir := path.Dir(name)
		if !slices.Contains(gated, dir) || !strings.HasSuffix(name, ".go") {
			continue
		}
		if !slices.Contains(labDirs(), dir) {
			// A package that runs the learner's code: its tests are gated.
			if strings.HasSuffix(name, "_test.go") {
				if out[name], _, err = gateTests(name, out[name], importPath(mod.Path, dir)); err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
			}
			continue
		}
		src := out[name]
		if testNames[dir] == nil {
			testNames[dir] = map[string]bool{}
		}
		for _, m := range testFuncRE.FindAllSubmatch(src, -1) {
			testNames[dir][string(m[1])] = true
		}
		if strings.HasSuffix(name, "_test.go") {
			if out[name], _, err = gateTests(name, src, importPath(mod.Path, dir)); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			continue
		}
		// Every lab's functions are looked for, in its package, so that a
		// spec that no longer matches is reported whatever is stubbed.
		here := labsIn(dir, 1)
		_, got, err := stubFuncs(name, src, here, names)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		stubbed = append(stubbed, got...)
		if !slices.ContainsFunc(got, func(f stubbedFunc) bool { return f.Lab >= stubFrom }) {
			continue
		}
		if out[name], _, err = stubFuncs(name, src, labsIn(dir, stubFrom), names); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := checkSpec(stubbed, testNames); err != nil {
		return nil, err
	}
	if err := addKit(root, mod.Path, names, gated, out); err != nil {
		return nil, err
	}
	out["README.md"] = courseReadme(stubFrom)
	out[".gitignore"] = []byte(courseGitignore)
	unlinkMissing(out)
	return out, nil
}

// gatedDirs are the directories of the packages whose tests are gated in a
// student repository: the labs' packages, and every other package whose
// code or tests run the learner's informer.
func gatedDirs(modPath string, out map[string][]byte) ([]string, error) {
	dirs := labDirs()
	more, err := rootDependents(modPath, out)
	if err != nil {
		return nil, err
	}
	for _, d := range more {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

// labsIn returns the labs numbered from and above whose package is dir.
func labsIn(dir string, from int) []Lab {
	var labs []Lab
	for _, l := range Labs {
		if l.N >= from && l.pkgDir() == dir {
			labs = append(labs, l)
		}
	}
	return labs
}

// importPath is the import path of the package in dir of module modPath.
func importPath(modPath, dir string) string {
	if dir == "." {
		return modPath
	}
	return modPath + "/" + dir
}

// addLabPackages adds to out, whole, the packages of the labs that are not
// in it yet, and the in-module packages they import, transitively.
func addLabPackages(root, modPath string, out map[string][]byte) error {
	added := false
	for _, dir := range labDirs() {
		if dir == "." || slices.ContainsFunc(sortedKeys(out), func(name string) bool { return inDir(name, dir) }) {
			continue
		}
		if err := copyDir(root, dir, out, false); err != nil {
			return err
		}
		added = true
	}
	if !added {
		return nil
	}
	return addImported(root, modPath, out)
}

// addKit adds what every student repository holds besides the reading:
// in every lab's package, the graders' toolkit and the stubs' helper; in
// the root, the informer's helpers for the graders; the graders of every
// lab, in its package; the handouts; and the labs command without its
// tests, fixtures and planted bugs (those would show reference code).
func addKit(root, modPath string, names map[string]string, gated []string, out map[string][]byte) error {
	kit, err := os.ReadFile(filepath.Join(root, kitMarker))
	if err != nil {
		return err
	}
	for _, dir := range gated {
		pkg := names[importPath(modPath, dir)]
		out[path.Join(dir, "lab_kit_test.go")] = setPackage(untag(kit), pkg)
		out[path.Join(dir, "lab_stub.go")] = setPackage([]byte(stubRuntime), pkg)
	}
	helpers, err := os.ReadFile(filepath.Join(root, "labs", "kit", "labinformer_test.go"))
	if err != nil {
		return err
	}
	out["lab_informer_test.go"] = untag(helpers)
	for _, l := range Labs {
		nn := fmt.Sprintf("%02d", l.N)
		graders, _ := filepath.Glob(filepath.Join(root, "labs", nn, "*_test.go"))
		for _, g := range graders {
			b, err := os.ReadFile(g)
			if err != nil {
				return err
			}
			out[path.Join(l.pkgDir(), filepath.Base(g))] = untag(b)
		}
		for _, h := range []string{"README.md", "README.zh-CN.md"} {
			b, err := os.ReadFile(filepath.Join(root, "labs", nn, h))
			if err != nil {
				return err
			}
			out[path.Join("labs", nn, h)] = b
		}
	}
	for _, t := range []string{"tutorial.md", "tutorial.zh-CN.md"} {
		b, err := os.ReadFile(filepath.Join(root, "labs", t))
		if err != nil {
			return err
		}
		out[path.Join("labs", t)] = b
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

// packageClauseRE finds a Go file's package clause.
var packageClauseRE = regexp.MustCompile(`(?m)^package [A-Za-z_][A-Za-z0-9_]*$`)

// setPackage returns the Go file src with its package clause naming pkg:
// the kit's files are written once, in package informer, and copied into
// every lab's package.
func setPackage(src []byte, pkg string) []byte {
	loc := packageClauseRE.FindIndex(src)
	if loc == nil || pkg == "" {
		return src
	}
	return slices.Concat(src[:loc[0]], []byte("package "+pkg), src[loc[1]:])
}

// checkSpec reports, all at once, the functions of the labs that their
// package does not have (or has twice) and the project graders that no
// test file of the lab's package defines.
func checkSpec(stubbed []stubbedFunc, testNames map[string]map[string]bool) error {
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
			if !testNames[l.pkgDir()][g.Name] {
				problems = append(problems, fmt.Sprintf("lab %d: project grader %s not found in the tests of %s",
					l.N, g.Name, l.pkgDir()))
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
// this package calls (each lab's package has its own copy). A stub records that it ran (a failing grader lists
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

// courseReadme is the README of a student repository: the labs, how each
// is graded, the tutorial, the programs that show the learner's own
// informer, the command a finished learner runs, and how to push the
// repository and take the kit's updates. Both languages, one file: it is
// the first page a learner opens. .ci/labs runs the block after
// finishedMarker, as printed, in a repository with every lab done.
func courseReadme(stubFrom int) []byte {
	var b strings.Builder
	switch {
	case stubFrom > len(Labs):
		b.WriteString("# Informer labs: the reference (solved) / 参考实现\n\n")
		b.WriteString("Every lab solved: a teacher's tree, not for students. / 所有实验都已实现：教师用，不发给学生。\n\n")
	case stubFrom == len(Labs):
		fmt.Fprintf(&b, "# Informer labs, lab %d / 实验 %d\n\n", stubFrom, stubFrom)
		fmt.Fprintf(&b, "Labs 1 to %d hold the reference; lab %d is yours. / 实验 1 到 %d 已是参考实现；实验 %d 由你完成。\n\n",
			stubFrom-1, stubFrom, stubFrom-1, stubFrom)
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
	b.WriteString(`
` + "`go run ./labs test N`" + ` builds the repository with -race (about 3 minutes the first time on 2 cores, seconds
after that) and runs every grader of lab N, each with a time limit; it prints why each one failed, in
Chinese when LANG starts with zh, and exits non-zero on any failure. A lab needs the labs before it
done (lab 7 needs none): the command says which are still stubs.
/ ` + "`go run ./labs test N`" + ` 用 -race 编译本仓库（第一次在 2 核机器上约 3 分钟，之后几秒），逐个运行实验 N
的全部评分测试（每个都有时间限制），说明每个失败的原因（LANG 以 zh 开头时用中文），有任何失败时以非零状态
退出。一个实验需要它之前的实验都已完成（实验 7 不需要）：没完成的，这个命令会指出来。

A comment ` + "`// Reading 2: ...`" + ` or ` + "`// Reading 3: ...`" + ` (in a file's header, or opening a block that ends at
` + "`// End of reading N.`" + `) marks code a first reader of the project skips: reading 2 is what client-go 1.33–1.37
changed, reading 3 the real wire. This repository holds all three readings; the marks are a reading guide and
ask nothing of you. / 注释 ` + "`// Reading 2: ...`" + ` 或 ` + "`// Reading 3: ...`" + `（写在文件头里，或者开始一段到
` + "`// End of reading N.`" + ` 为止的代码）标出第一遍阅读可以跳过的代码：第二遍阅读是 client-go 1.33–1.37 改了什么，
第三遍阅读是真实的网络传输。本仓库包含全部三遍阅读的代码；这些标记只是阅读指引，不要求你做任何事。

## The tutorial / 教程

Each handout cites sections of a tutorial in Chinese that your teacher hands out; [labs/tutorial.md](labs/tutorial.md)
says what each of them teaches and where you build it. / 每份讲义都引用了老师发给你的中文教程的小节；
[labs/tutorial.zh-CN.md](labs/tutorial.zh-CN.md) 说明每个小节讲什么、在哪里实现。

## See your own informer / 看看你自己的 Informer

These programs run the informer in this repository, yours: / 下面的程序运行的是本仓库里的 Informer，也就是你写的：

- ` + "`go run ./examples/liveview`" + ` opens a page that shows the API server, the wire, the queue, the cache and the
  handlers live, with guided scenes ([docs/liveview.md](docs/liveview.md)); each handout ends with the scene
  that shows what you just built. / 打开一个网页，实时展示 API 服务器、网络上传输的内容、队列、缓存和事件处理器，
  还有带讲解的场景（[docs/liveview.zh-CN.md](docs/liveview.zh-CN.md)）；每份讲义的最后都写了哪个场景展示你刚写好的部分。
- ` + "`go run ./examples/podwatch`" + ` prints what an informer sees while pods come and go.
  / 打印 Pod 来来去去时 Informer 看到的东西。

A lab still stubbed shows as its stubs' messages, or as nothing happening.
/ 还是桩函数的实验表现为桩函数的信息，或者什么都不发生。

## When every lab passes / 全部实验通过之后

Plain ` + "`go test ./...`" + ` skips the project's tests and the graders until you ask. Once every lab passes,
run them all, on your code: / 普通的 ` + "`go test ./...`" + ` 会跳过项目的测试和评分测试。全部实验通过之后，
在你的代码上把它们全部运行一遍：

` + finishedMarker + `
` + "```sh" + `
INFORMER_LAB_FULL=1 go test ./...
` + "```" + `

## Your repository / 你的仓库

It is a git repository whose first commit is the course as handed out. Commit your work as you
go, and push it where your teacher says: / 这是一个 git 仓库，第一个提交就是发给你的课程。边做边提交，
再推送到老师指定的地方：

` + "```sh" + `
git add -A && git commit -m "lab 1"
git remote add origin URL-OF-YOUR-REPOSITORY
git push -u origin main
` + "```" + `

Your teacher grades the last commit you pushed (or the last before the deadline).
/ 老师给你推送的最后一个提交评分（或者截止时间之前的最后一个）。

## Updates of the course / 课程的更新

Your teacher may fix a grader or a handout and publish the course repository again, as a new commit.
To take it: / 老师可能会修正评分测试或讲义，作为一个新提交再次发布课程仓库。获取更新：

` + "```sh" + `
git remote add course URL-OF-THE-COURSE-REPOSITORY   # once / 只需一次
git pull course main
` + "```" + `

An update changes the graders, the handouts and the labs command, not the bodies you wrote. If git
reports a conflict in a file of yours, keep your function bodies. / 更新改的是评分测试、讲义和 labs 命令，
不改你写的函数体。如果 git 在你的文件里报告冲突，保留你写的函数体。
`)
	return []byte(b.String())
}

// courseGitignore is a student repository's .gitignore. It ignores only
// what the kit writes into the repository that is no part of the learner's
// work: `labs reference -force`'s backups, which the README's
// `git add -A` would otherwise commit (and push to the teacher).
const courseGitignore = `# Written by the labs command. / 由 labs 命令写入。
# The backups of "go run ./labs reference -force" (your code before the reference replaced it).
# / "go run ./labs reference -force" 的备份（参考实现替换之前你的代码）。
/.labs-backup/
`

// finishedMarker precedes, in a student repository's README, the command
// a learner runs once every lab passes; .ci/labs runs it as printed.
const finishedMarker = "<!-- labs: the command a finished learner runs; .ci/labs runs it as printed in a repository with every lab done -->"

// standalone.go makes a student repository stand alone: what it links, it
// holds. The handouts send a learner to chapters of the project's book and
// the live view to its chapter and the glossary; those chapters are copied
// in (with the images they show), every relative link in them whose target
// the repository does not hold becomes plain text, and every package their
// commands run (`go run ./fakeapi/cmd/fakeapi`) comes along. The programs
// that show a learner's own informer at work (examples/podwatch, the live
// view) come too. The tests of every package that runs the learner's code
// are gated like the labs' packages: skipped by a plain `go test` until
// the labs are done, run by `go run ./labs test N` or INFORMER_LAB_FULL=1.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// studentChapters are the chapters of the book a student repository holds,
// each with its Chinese twin (name.zh-CN.md): those a handout links
// (controller, client-go-1.37), the live view's and the glossary the live
// view's words follow.
var studentChapters = []string{"docs/controller.md", "docs/client-go-1.37.md", "docs/liveview.md", "docs/glossary.md"}

// studentPrograms are the programs a student repository holds besides the
// labs' packages: they run the learner's own informer.
var studentPrograms = []string{"examples/podwatch", "examples/liveview"}

// mdLinkRE finds a Markdown link or image: [text](target) or ![alt](target).
var mdLinkRE = regexp.MustCompile(`(!?)\[([^\]]*)\]\(([^)\s]+)\)`)

// commandPkgRE finds the package a shell command in a chapter runs:
// `go run ./fakeapi/cmd/fakeapi`, `go test -v -run Step19 ./workqueue`.
var commandPkgRE = regexp.MustCompile(`\bgo (?:run|test|build|vet)\b[^\n` + "`" + `]*?\s\./([A-Za-z0-9_/]+)`)

// addChapters adds the student chapters (both languages) and the images
// they show to out, with the banner that says where they come from, and
// the packages their commands run. Links whose target out does not hold
// become their text.
func addChapters(root, modPath string, out map[string][]byte) error {
	var pkgs []string
	for _, en := range studentChapters {
		for _, name := range []string{en, strings.TrimSuffix(en, ".md") + ".zh-CN.md"} {
			b, err := readRoot(root, name)
			if err != nil {
				return err
			}
			text := string(b)
			for _, m := range mdLinkRE.FindAllStringSubmatch(text, -1) {
				if m[1] == "!" && isRelative(m[3]) {
					img := path.Join(path.Dir(name), m[3])
					if b, err := readRoot(root, img); err == nil {
						out[img] = b
					}
				}
			}
			for _, m := range commandPkgRE.FindAllStringSubmatch(text, -1) {
				pkgs = append(pkgs, strings.TrimSuffix(m[1], "/"))
			}
			out[name] = []byte(withBanner(name, withoutLabCode(text, strings.HasSuffix(name, ".zh-CN.md"))))
		}
	}
	for _, dir := range pkgs {
		// The labs command comes with the kit, without its tests, fixtures
		// and planted bugs (addKit): never copied whole.
		if dir == "labs" || strings.HasPrefix(dir, "labs/") ||
			slices.ContainsFunc(sortedKeys(out), func(name string) bool { return inDir(name, dir) }) {
			continue
		}
		if err := copyDir(root, dir, out, false); err != nil {
			return fmt.Errorf("a chapter runs ./%s: %w", dir, err)
		}
	}
	return addImported(root, modPath, out)
}

// goBlockRE finds a Go code block of a chapter.
var goBlockRE = regexp.MustCompile("(?ms)^```go\n(.*?)^```\n")

// withoutLabCode replaces each Go code block of a chapter that declares a
// lab function by a note that its code is that lab's exercise: the book
// shows the reference (processNextWorkItem's whole body, in the
// controller's chapter), and in a student repository that would be the
// answer printed beside the stub. The book itself keeps it.
func withoutLabCode(text string, zh bool) string {
	return goBlockRE.ReplaceAllStringFunc(text, func(block string) string {
		code := goBlockRE.FindStringSubmatch(block)[1]
		file, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+code, 0)
		if err != nil {
			return block
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lab, f, ok := specOf(Labs, funcOf(fd))
			if !ok {
				continue
			}
			if zh {
				return fmt.Sprintf("> `%s` 的代码是实验 %d 的练习（labs/%02d/README.zh-CN.md §%d），这里不列出。\n", f.Name, lab.N, lab.N, f.Section)
			}
			return fmt.Sprintf("> The code of `%s` is lab %d's exercise (labs/%02d/README.md §%d): it is not shown here.\n", f.Name, lab.N, lab.N, f.Section)
		}
		return block
	})
}

// unlinkMissing rewrites, in every Markdown file of out, each relative
// link whose target out does not hold as its text: the repository names
// nothing it does not have. It runs last, once every file is in.
func unlinkMissing(out map[string][]byte) {
	dirs := map[string]bool{}
	for name := range out {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, name := range sortedKeys(out) {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		text := mdLinkRE.ReplaceAllStringFunc(string(out[name]), func(link string) string {
			m := mdLinkRE.FindStringSubmatch(link)
			if !isRelative(m[3]) {
				return link
			}
			file, _, _ := strings.Cut(m[3], "#")
			if file == "" {
				return link
			}
			target := path.Clean(path.Join(path.Dir(name), file))
			if _, ok := out[target]; ok || dirs[target] {
				return link
			}
			return m[2]
		})
		out[name] = []byte(text)
	}
}

// isRelative reports whether a link target is a path in the repository.
func isRelative(target string) bool {
	return !strings.Contains(target, "://") && !strings.HasPrefix(target, "mailto:") && !strings.HasPrefix(target, "#")
}

// withBanner puts, under a chapter's first heading, the note that says
// where it comes from and how its commands run in a student repository.
func withBanner(name, text string) string {
	banner := "> This chapter comes from the informer project's book. In your course repository the project's\n" +
		"> tests, the walkthrough's Steps too, run on your code: a plain `go test` skips them until you ask,\n" +
		"> with `INFORMER_LAB_FULL=1` once the labs they need pass (`go run ./labs test N` grades lab N).\n"
	if strings.HasSuffix(name, ".zh-CN.md") {
		banner = "> 本章来自 informer 项目的书。在你的课程仓库里，项目的测试（包括分步讲解的各步）运行的是你的代码：\n" +
			"> 普通的 `go test` 会跳过它们；等它们需要的实验都通过后，加上 `INFORMER_LAB_FULL=1` 运行\n" +
			"> （`go run ./labs test N` 给实验 N 评分）。\n"
	}
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || !strings.HasPrefix(first, "# ") {
		return banner + "\n" + text
	}
	return first + "\n\n" + banner + rest
}

// readRoot reads the slash-separated path name of the project in root.
func readRoot(root, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
}

// rootDependents returns the directories of the packages of out, other
// than the root, whose Go files (tests included) import the root package
// of module modPath, directly or through another package of out: their
// tests run the learner's code.
func rootDependents(modPath string, out map[string][]byte) ([]string, error) {
	imports := map[string][]string{} // dir → the module's dirs it imports
	for _, name := range sortedKeys(out) {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, out[name], parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		dir := path.Dir(name)
		for _, is := range f.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			switch {
			case p == modPath:
				imports[dir] = append(imports[dir], ".")
			case strings.HasPrefix(p, modPath+"/"):
				imports[dir] = append(imports[dir], strings.TrimPrefix(p, modPath+"/"))
			}
		}
	}
	runsRoot := map[string]bool{".": true}
	for changed := true; changed; {
		changed = false
		for dir, deps := range imports {
			if !runsRoot[dir] && slices.ContainsFunc(deps, func(d string) bool { return runsRoot[d] }) {
				runsRoot[dir] = true
				changed = true
			}
		}
	}
	var dirs []string
	for _, d := range sortedKeys(runsRoot) {
		if d != "." && !strings.Contains("/"+d+"/", "/testdata/") {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

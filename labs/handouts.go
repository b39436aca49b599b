// handouts.go checks that the handouts stay true to the student repository
// they describe: `go run ./labs handout-check` reads labs/NN/README.md and
// README.zh-CN.md and reports, all at once,
//   - an identifier in backquotes that no Go file of the student repository
//     spells (`watchClosed`, `backoffFactor`: names that drifted away);
//   - a test named that the repository does not have, or a TestLabNN that
//     is not this lab's;
//   - a grader of the lab that the handout does not name;
//   - a count of graders or project tests that is not the lab's;
//   - a stubbed function the handout does not name, or whose handout
//     section (§N, as the stub says) has no heading;
//   - a grading command other than `go run ./labs test N`;
//   - a live view scene named by a number and title that the live view
//     (examples/liveview/web/scenes*.js) does not have: "scene 3, *The
//     missed deletion: 410, relist, tombstone*", 场景 3「错过的删除：410、重新 list、墓碑」.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	backquotedRE     = regexp.MustCompile("`([^`]+)`")
	identRE          = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	testNameRE       = regexp.MustCompile(`\b(Test[A-Z][A-Za-z0-9_]*)`)
	countRE          = regexp.MustCompile(`(\d+) (graders|个评分测试|project tests|个项目测试)`)
	sectionRE        = regexp.MustCompile(`(?m)^#+ §(\d+) `)
	settingsThenGoRE = regexp.MustCompile(`^([A-Z_]+=\S* )+go `)
	sceneRefRE       = regexp.MustCompile(`scene (\d+), \*([^*]+)\*|场景 (\d+)「([^」]+)」`)
	sceneTitleRE     = regexp.MustCompile(`title: \{en: "(\d+) · ([^"]+)", zh: "(\d+) · ([^"]+)"\}`)
	commandRE        = regexp.MustCompile(`go (?:run \./labs (?:test|grade)|test)[^` + "`" + `\n]*`)
)

// goWords are what a handout may put in backquotes without the repository
// spelling it: Go's keywords, predeclared names and a few words of prose.
var goWords = func() map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(`break case chan const continue default defer else fallthrough for func go goto
		if import interface map package range return select struct switch type var any bool byte comparable
		complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32
		uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make max min new
		panic print println real recover ADDED MODIFIED DELETED BOOKMARK ERROR`) {
		words[w] = true
	}
	return words
}()

func cmdHandoutCheck(args []string) error {
	if len(args) != 0 {
		return errors.New("handout-check takes no arguments")
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	tree, err := buildTree(root, 1)
	if err != nil {
		return err
	}
	spelled, tests, err := treeSpellings(tree)
	if err != nil {
		return err
	}
	scenes := map[string]bool{} // "3 The missed deletion: …", in both languages
	for _, name := range sortedKeys(tree) {
		if !strings.HasPrefix(name, "examples/liveview/web/scenes") || !strings.HasSuffix(name, ".js") {
			continue
		}
		for _, m := range sceneTitleRE.FindAllStringSubmatch(string(tree[name]), -1) {
			scenes[m[1]+" "+m[2]] = true
			scenes[strings.Join(strings.Fields(m[3]+" "+m[4]), "")] = true
		}
	}
	var problems []error
	for _, lab := range Labs {
		graders := labGraders(lab, tree)
		for _, name := range []string{"README.md", "README.zh-CN.md"} {
			path := filepath.Join("labs", fmt.Sprintf("%02d", lab.N), name)
			text, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				return err
			}
			for _, p := range checkHandout(lab, string(text), graders, spelled, tests) {
				problems = append(problems, fmt.Errorf("%s: %s", path, p))
			}
			for _, m := range sceneRefRE.FindAllStringSubmatch(string(text), -1) {
				ref := strings.Join(strings.Fields(m[1]+" "+m[2]), " ")
				if m[3] != "" {
					ref = strings.Join(strings.Fields(m[3]+" "+m[4]), "")
				}
				if !scenes[ref] {
					problems = append(problems, fmt.Errorf("%s: names the live view's scene %q, which examples/liveview/web/scenes*.js do not have", path, ref))
				}
			}
		}
	}
	if len(problems) > 0 {
		return joinProblems("the handouts do not match the student repository", problems)
	}
	fmt.Printf("handouts: %d labs, both languages: every identifier named exists, every grader named, every count right\n", len(Labs))
	return nil
}

// treeSpellings returns every identifier the tree's Go files spell, and
// the names of its tests.
func treeSpellings(tree map[string][]byte) (map[string]bool, map[string]bool, error) {
	spelled := map[string]bool{}
	tests := map[string]bool{}
	for name, src := range tree {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				spelled[id.Name] = true
			}
			return true
		})
		for _, m := range testFuncRE.FindAllSubmatch(src, -1) {
			tests[string(m[1])] = true
		}
	}
	return spelled, tests, nil
}

// checkHandout returns the problems of one handout of lab.
func checkHandout(lab Lab, text string, graders []string, spelled, tests map[string]bool) []string {
	var problems []string
	seen := map[string]bool{}
	code := withoutFences(withoutClientGo(text))
	for _, m := range backquotedRE.FindAllStringSubmatchIndex(code, -1) {
		span := strings.Join(strings.Fields(code[m[2]:m[3]]), " ")
		before := code[:m[0]]
		if !isCodeSpan(span) || strings.HasSuffix(before, "client-go's ") || strings.HasSuffix(before, "client-go 的 ") {
			continue
		}
		for _, id := range identRE.FindAllString(stripStrings(span), -1) {
			if !spelled[id] && !goWords[id] && !seen[id] {
				seen[id] = true
				problems = append(problems, fmt.Sprintf("`%s` names %s, which no Go file of the student repository spells", span, id))
			}
		}
	}
	for _, m := range testNameRE.FindAllStringSubmatch(text, -1) {
		name := m[1]
		switch {
		case seen["test:"+name]:
		case !tests[name]:
			problems = append(problems, fmt.Sprintf("names %s, which is not a test of the student repository", name))
		case strings.HasPrefix(name, "TestLab") && !strings.HasPrefix(name, fmt.Sprintf("TestLab%02d", lab.N)):
			problems = append(problems, fmt.Sprintf("names %s, another lab's grader", name))
		}
		seen["test:"+name] = true
	}
	for _, g := range graders {
		if !strings.Contains(text, g) {
			problems = append(problems, fmt.Sprintf("does not name the grader %s", g))
		}
	}
	for _, m := range countRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		want := len(graders)
		if strings.Contains(m[2], "project") || strings.Contains(m[2], "项目") {
			want = len(lab.ProjectGraders)
		}
		if n != want {
			problems = append(problems, fmt.Sprintf("says %q: the lab has %d", m[0], want))
		}
	}
	sections := map[int]bool{}
	for _, m := range sectionRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		sections[n] = true
	}
	for _, f := range lab.Funcs {
		if !strings.Contains(text, f.String()) && !strings.Contains(text, "`"+f.Name) {
			problems = append(problems, fmt.Sprintf("does not name %s, which the lab stubs", f))
		}
		if !sections[f.Section] {
			problems = append(problems, fmt.Sprintf("has no §%d heading, where the stub of %s points", f.Section, f))
		}
	}
	want := fmt.Sprintf("go run ./labs test %d", lab.N)
	for _, cmd := range commandRE.FindAllString(text, -1) {
		cmd = strings.TrimSpace(cmd)
		if strings.HasPrefix(cmd, "go test -run") || strings.HasPrefix(cmd, "go run ./labs grade") ||
			strings.HasPrefix(cmd, "go run ./labs test") && cmd != want {
			problems = append(problems, fmt.Sprintf("prints %q: the lab is graded by %q", cmd, want))
		}
	}
	if !strings.Contains(text, want) {
		problems = append(problems, fmt.Sprintf("does not print the grading command %q", want))
	}
	return slices.Compact(problems)
}

// withoutClientGo returns text without its sections whose heading names
// client-go: the table of client-go's counterparts names client-go's
// identifiers, not the repository's.
func withoutClientGo(text string) string {
	var out []string
	skip := 0
	for _, l := range strings.Split(text, "\n") {
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level > 0 && strings.HasPrefix(l[level:], " ") {
			switch {
			case skip > 0 && level <= skip:
				skip = 0
			}
			if skip == 0 && strings.Contains(l, "client-go") {
				skip = level
			}
		}
		if skip == 0 {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// withoutFences returns text without its fenced blocks (commands and
// samples, not names in prose).
func withoutFences(text string) string {
	var out []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// isCodeSpan reports whether a backquoted span is Go code a handout names,
// not a command, a file, a path, an environment setting or a number.
func isCodeSpan(span string) bool {
	switch {
	case strings.HasPrefix(span, "go ") || strings.HasPrefix(span, "-") || settingsThenGoRE.MatchString(span):
		return false // a command, or a flag
	case strings.ToUpper(span) == span && !strings.Contains(span, " "):
		return false // an environment variable or setting: LANG, INFORMER_LAB_FULL=1
	case strings.Contains(span, "=") && !strings.ContainsAny(span, " (){}"):
		return false // a label: app=db
	case strings.HasSuffix(span, ".go") || strings.HasSuffix(span, ".md") || strings.Contains(span, "/"):
		return false
	case strings.HasPrefix(span, `"`) || strings.HasPrefix(span, "'"):
		return false
	}
	_, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(span, "s"), "m"), 64)
	return err != nil
}

// stripStrings removes the quoted strings of a code span: their words are
// not identifiers.
func stripStrings(span string) string {
	return regexp.MustCompile(`"[^"]*"`).ReplaceAllString(span, "")
}

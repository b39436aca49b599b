// Promises is a CI check of the rule "a comment that promises behaviour
// names the test that shows it" (issue 35), run by .ci/run as
// `go run ./.ci/promises`. It has no client-go counterpart and teaches no
// tutorial section.
//
// It reads the root package's Go files (tests left out) and requires:
//   - every promise of the SharedInformer's doc comment (informer.go: each
//     item of its list) to name what shows it;
//   - every sentence of a comment that says the code does something "as in
//     client-go" or that "client-go does" it to name what shows it, in that
//     sentence.
//
// What shows it is a test, benchmark or fuzz target (TestX, FuzzX, ...)
// that is a function of some _test.go file of the root package or of the
// parity module (parity/), or a parity case, written "parity case X" or
// "parity cases X, Y and Z", where each X is declared in parity/ as
// `var caseX = scenario{`. A name that does not exist is a problem too. It
// uses the standard library only and prints one line per problem.

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	triggerRE  = regexp.MustCompile(`(?i)as in client-go|client-go does`)
	testRE     = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz|Example)[A-Z_][A-Za-z0-9_]*`)
	caseRefRE  = regexp.MustCompile(`parity cases? ([A-Z][A-Za-z0-9]*(?:(?:, | and )[A-Z][A-Za-z0-9]*)*)`)
	caseNameRE = regexp.MustCompile(`[A-Z][A-Za-z0-9]*`)
	funcRE     = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)[A-Za-z0-9_]*)\(`)
	caseDeclRE = regexp.MustCompile(`(?m)^var case([A-Z][A-Za-z0-9]*) = scenario\{`)
	// sentenceEndRE ends a sentence: a full stop, then a space or the end
	// of the text (not "0.8", "v0.37.2", "e.g. x" is rare in our comments).
	sentenceEndRE = regexp.MustCompile(`\.(?:\s+|$)`)
)

func main() {
	tests, cases, err := known()
	if err != nil {
		fmt.Fprintln(os.Stderr, "promises:", err)
		os.Exit(2)
	}
	files, _ := filepath.Glob("*.go")
	sort.Strings(files)
	var problems []string
	sentences, promises := 0, 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			fmt.Fprintln(os.Stderr, "promises:", err)
			os.Exit(2)
		}
		for _, g := range f.Comments {
			line := fset.Position(g.Pos()).Line
			for _, s := range sentencesOf(g.Text()) {
				if !triggerRE.MatchString(s) {
					continue
				}
				sentences++
				if p := check(s, tests, cases); p != "" {
					problems = append(problems, fmt.Sprintf("%s:%d: %s: %q", name, line, p, short(s)))
				}
			}
		}
		if name == "informer.go" {
			n, ps := checkSharedInformer(f, fset, tests, cases)
			promises += n
			problems = append(problems, ps...)
		}
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if promises == 0 {
		fmt.Println("promises: informer.go: no SharedInformer doc comment with a list of promises found")
		os.Exit(1)
	}
	if len(problems) > 0 {
		fmt.Printf("promises: %d problem(s): a promise must name the test or parity case that shows it (.ci/promises/main.go)\n",
			len(problems))
		os.Exit(1)
	}
	fmt.Printf("promises: the %d promises of SharedInformer and %d sentences saying \"as in client-go\" "+
		"or \"client-go does\" each name the test or parity case that shows it\n", promises, sentences)
}

// known returns the test functions of the root package's and the parity
// module's tests, and the parity cases.
func known() (tests, cases map[string]bool, err error) {
	tests, cases = map[string]bool{}, map[string]bool{}
	for _, pattern := range []string{"*_test.go", "parity/*_test.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, nil, err
			}
			for _, m := range funcRE.FindAllStringSubmatch(string(b), -1) {
				tests[m[1]] = true
			}
			for _, m := range caseDeclRE.FindAllStringSubmatch(string(b), -1) {
				cases[m[1]] = true
			}
		}
	}
	if len(cases) == 0 {
		return nil, nil, fmt.Errorf("no parity case found in parity/*_test.go")
	}
	return tests, cases, nil
}

// sentencesOf splits a comment's text into sentences, each on one line.
func sentencesOf(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for text != "" {
		loc := sentenceEndRE.FindStringIndex(text)
		if loc == nil {
			out = append(out, text)
			break
		}
		out = append(out, text[:loc[0]+1])
		text = text[loc[1]:]
	}
	return out
}

// check returns what is wrong with sentence s: no reference, or a
// reference to nothing.
func check(s string, tests, cases map[string]bool) string {
	found := false
	for _, name := range testRE.FindAllString(s, -1) {
		if !tests[name] {
			return "it names " + name + ", which no _test.go file of the root or parity/ declares"
		}
		found = true
	}
	for _, m := range caseRefRE.FindAllStringSubmatch(s, -1) {
		for _, c := range caseNameRE.FindAllString(m[1], -1) {
			if testRE.MatchString(c) {
				continue // "parity case X, TestY": a test, checked above
			}
			if !cases[c] {
				return "it names the parity case " + c + ", which parity/ does not declare (var case" + c + ")"
			}
			found = true
		}
	}
	if !found {
		return "it names no test and no parity case that shows it"
	}
	return ""
}

// checkSharedInformer checks each item of the list in the SharedInformer
// interface's doc comment.
func checkSharedInformer(f *ast.File, fset *token.FileSet, tests, cases map[string]bool) (int, []string) {
	var problems []string
	n := 0
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE || gd.Doc == nil {
			continue
		}
		ts := gd.Specs[0].(*ast.TypeSpec)
		if ts.Name.Name != "SharedInformer" {
			continue
		}
		line := fset.Position(gd.Doc.Pos()).Line
		for _, item := range listItems(gd.Doc.Text()) {
			n++
			if p := check(item, tests, cases); p != "" {
				problems = append(problems, fmt.Sprintf("informer.go:%d: the SharedInformer promise %q: %s", line, short(item), p))
			}
		}
	}
	return n, problems
}

// listItems returns the items ("  - ...", with their continuation lines)
// of a doc comment's lists, each on one line.
func listItems(text string) []string {
	var items []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "- "):
			items = append(items, strings.TrimPrefix(t, "- "))
			in = true
		case in && t != "" && strings.HasPrefix(l, " "):
			items[len(items)-1] += " " + t
		default:
			in = false
		}
	}
	return items
}

// short cuts a sentence for a report.
func short(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

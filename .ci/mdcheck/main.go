// Mdcheck is a CI check for the repository's Markdown (run by .ci/run as
// `go run ./.ci/mdcheck`). It has no client-go counterpart and teaches no
// tutorial section: it keeps the book honest.
//
// It checks, in every tracked .md file:
//   - every relative link points to a file or directory that exists, and every
//     anchor (#...) to a heading of the target file, by GitHub's rules for
//     heading anchors (Chinese headings too);
//   - every test, benchmark, example or fuzz target the text names (TestX,
//     BenchmarkX, ExampleX, FuzzX) is a function in some _test.go file;
//   - every `-run PATTERN` and `-bench PATTERN` in a command matches at least
//     one such function, each alternative of the pattern on its own;
//   - the reading path in full (docs/files.md, in both languages) names
//     every root Go file, and the line counts it gives are within a quarter
//     of the truth (those of the generated first reading are checked
//     exactly by .ci/coursework; the README's First reading table by
//     `go run ./labs readme-check`).
//
// It checks the Markdown of the repository it runs in: .ci/labs also runs
// it, built, in a course repository of the labs, which holds a few of the
// book's chapters and no reading path.
//
// It uses the standard library only and prints one line per problem.

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

var (
	linkRE     = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeSpanRE = regexp.MustCompile("`[^`]*`")
	htmlIDRE   = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	nameRE     = regexp.MustCompile(`\b(?:Test|Benchmark|Example|Fuzz)[A-Z_][A-Za-z0-9_]*`)
	funcRE     = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)[A-Za-z0-9_]*)\(`)
	flagRE     = regexp.MustCompile(`-(run|bench)[ =]('[^']*'|"[^"]*"|[^\s` + "`" + `|;)]+)`)
	stepRE     = regexp.MustCompile(`^TestStep\d\d$`)
	// A placeholder in prose: "-run NAME", "-run 测试名".
	placeholderRE = regexp.MustCompile(`^(?:[A-Z]+|[^\x00-\x7f]+)$`)
)

func main() {
	files, err := gitFiles()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdcheck:", err)
		os.Exit(2)
	}
	var mds []string
	funcs := map[string]bool{}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, ".md"):
			mds = append(mds, f)
		case strings.HasSuffix(f, "_test.go"):
			b, err := os.ReadFile(f)
			if err != nil {
				continue // deleted in the work tree
			}
			for _, m := range funcRE.FindAllStringSubmatch(string(b), -1) {
				funcs[m[1]] = true
			}
		}
	}
	var problems []string
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := headingAnchors(path)
		anchors[path] = a
		return a
	}
	for _, md := range mds {
		problems = append(problems, checkFile(md, funcs, anchorsOf)...)
	}
	problems = append(problems, checkReadingPath(files)...)
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Printf("mdcheck: %d problem(s) in %d Markdown files\n", len(problems), len(mds))
		os.Exit(1)
	}
	fmt.Printf("mdcheck: %d Markdown files, every link, anchor and test name resolves\n", len(mds))
}

func gitFiles() ([]string, error) {
	out, err := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	return files, nil
}

// lines returns the file's lines outside fenced code blocks, with their
// numbers, and the lines inside them separately (commands live there too).
func lines(path string) (prose, code map[int]string) {
	prose, code = map[int]string{}, map[int]string{}
	f, err := os.Open(path)
	if err != nil {
		return prose, code
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fence := ""
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		t := strings.TrimSpace(l)
		if fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
			continue
		}
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
				continue
			}
			code[n] = l
			continue
		}
		prose[n] = l
	}
	return prose, code
}

// headingAnchors lists the anchors GitHub makes for the file's headings.
func headingAnchors(path string) map[string]bool {
	prose, _ := lines(path)
	nums := make([]int, 0, len(prose))
	for n := range prose {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, n := range nums {
		l := prose[n]
		for _, m := range htmlIDRE.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
		t := strings.TrimLeft(l, "#")
		if len(t) == len(l) || len(l)-len(t) > 6 || !strings.HasPrefix(t, " ") {
			continue
		}
		a := slug(t)
		if k := seen[a]; k > 0 {
			out[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// slug follows GitHub: the heading's text (Markdown removed), lower-cased;
// everything but letters, marks, digits, '_', '-' and spaces dropped; spaces
// become '-'.
func slug(heading string) string {
	h := strings.TrimSpace(heading)
	h = linkRE.ReplaceAllString(h, "$1")
	h = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(h, "")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) ||
			unicode.In(r, unicode.Nl, unicode.No):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func checkFile(md string, funcs map[string]bool, anchorsOf func(string) map[string]bool) []string {
	var problems []string
	bad := func(n int, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s:%d: %s", md, n, fmt.Sprintf(format, args...)))
	}
	prose, code := lines(md)
	for n, l := range prose {
		for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(l, ""), -1) {
			target := m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := md
			if file != "" {
				path = filepath.Join(filepath.Dir(md), file)
				if _, err := os.Stat(path); err != nil {
					bad(n, "link %q: no such file %s", target, path)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				bad(n, "link %q: an anchor into a file that is not Markdown", target)
				continue
			}
			if !anchorsOf(path)[anchor] {
				bad(n, "link %q: %s has no heading with anchor #%s", target, path, anchor)
			}
		}
	}
	for _, part := range []map[int]string{prose, code} {
		for n, l := range part {
			for _, name := range nameRE.FindAllString(l, -1) {
				if funcs[name] || stepRE.MatchString(name) && hasPrefix(funcs, name) {
					continue
				}
				bad(n, "%s: no such test, benchmark, example or fuzz function", name)
			}
			if !strings.Contains(l, "go test") {
				continue
			}
			for _, m := range flagRE.FindAllStringSubmatch(l, -1) {
				pat := strings.Trim(m[2], `'"`)
				if pat == "^$" || pat == "." || placeholderRE.MatchString(pat) {
					continue // matches nothing or everything, or stands for a name
				}
				if msg := checkPattern(m[1], pat, funcs); msg != "" {
					bad(n, "-%s %s: %s", m[1], m[2], msg)
				}
			}
		}
	}
	return problems
}

func hasPrefix(funcs map[string]bool, prefix string) bool {
	for f := range funcs {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

// checkPattern checks a -run or -bench pattern the way go test uses it: the
// part before the first '/' selects top-level functions. Each alternative of
// that part must select at least one.
func checkPattern(flag, pat string, funcs map[string]bool) string {
	top, _, _ := strings.Cut(pat, "/")
	for _, alt := range splitAlternatives(top) {
		re, err := regexp.Compile(alt)
		if err != nil {
			return fmt.Sprintf("not a regular expression: %v", err)
		}
		found := false
		for f := range funcs {
			if flag == "bench" && !strings.HasPrefix(f, "Benchmark") {
				continue
			}
			if flag == "run" && strings.HasPrefix(f, "Benchmark") {
				continue
			}
			if re.MatchString(f) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("%q selects no function", alt)
		}
	}
	return ""
}

// splitAlternatives splits a regular expression at the '|' that are outside
// parentheses and brackets.
func splitAlternatives(re string) []string {
	var out []string
	depth, start := 0, 0
	inClass := false
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, re[start:i])
			start = i + 1
		}
	}
	return append(out, re[start:])
}

// pathRowRE matches a row of the reading path: the file (a root file, or a
// path such as clock/clock.go), then its lines.
var pathRowRE = regexp.MustCompile("^\\|(?: \\d+ \\|)? \\[`([A-Za-z0-9_/]+\\.go)`\\]\\([^)]*\\) \\| ([\\d,]+) \\|")

// readingPaths are the files that give the reading path: each must name
// every root Go file in a row. generated is the heading of a section whose
// line counts are those of a generated reading, not of the source:
// .ci/coursework checks them exactly against `go run ./labs reading 1`.
var readingPaths = []struct{ file, generated string }{
	{"docs/files.md", "First reading"},
	{"docs/files.zh-CN.md", "第一遍阅读"},
}

// checkReadingPath checks the reading path of every file of readingPaths:
// each row's file exists and its line count is within a quarter of the
// truth, and every root Go file has a row.
func checkReadingPath(files []string) []string {
	var problems []string
	for _, rp := range readingPaths {
		readme := rp.file
		if _, err := os.Stat(readme); err != nil {
			continue // a tree without the reading path (a course repository of the labs)
		}
		prose, _ := lines(readme)
		nums := make([]int, 0, len(prose))
		for n := range prose {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		named := map[string]bool{}
		generated := false
		for _, n := range nums {
			l := prose[n]
			if strings.HasPrefix(l, "#") {
				generated = rp.generated != "" && strings.Contains(l, rp.generated)
			}
			m := pathRowRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			named[m[1]] = true
			b, err := os.ReadFile(m[1])
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: reading path: no file %s", readme, n, m[1]))
				continue
			}
			if generated {
				continue
			}
			actual := strings.Count(string(b), "\n")
			var claimed int
			fmt.Sscan(strings.ReplaceAll(m[2], ",", ""), &claimed)
			if d := actual - claimed; d*4 > claimed || -d*4 > claimed {
				problems = append(problems, fmt.Sprintf("%s:%d: reading path: %s has %d lines, not %d (update the row)",
					readme, n, m[1], actual, claimed))
			}
		}
		for _, f := range files {
			if filepath.Dir(f) == "." && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !named[f] {
				problems = append(problems, fmt.Sprintf("%s: reading path: %s is missing (is it core, or an extra?)", readme, f))
			}
		}
	}
	return problems
}

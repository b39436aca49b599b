// zh.go keeps the graders' output Chinese for a reader who reads Chinese.
// Three pieces:
//
//   - translate: the project's tests speak English (their failure messages
//     are written once, in the code); when one of them grades a lab, the
//     runner shows its last messages through the catalog in messages_zh.go,
//     which maps each message's format to its Chinese. A value the format
//     put in (%v, %q) stays as printed; a value that is English prose (an
//     error's text) is set off as `code`, since it is what the code said.
//   - `go run ./labs zh-check [FILE...]`: reads what `labs test` printed
//     and fails on every line with an English word outside code spans. A
//     code span is: a `backquoted` or "quoted" text; a shell command (from
//     `go ` or a NAME= setting to the end of the run of Latin text); a
//     token with a digit, a capital after its first letter, or any of
//     ./_()[]{}*=@#<>&|%$:' (keys, paths, versions); a call with its
//     arguments, IndexKeys(app, web); a list of values, [cache db web];
//     an identifier the student repository spells (Pop, Added); a name the
//     Kubernetes Chinese docs keep (Informer, Pod, Kubernetes); an API
//     verb, kept as they keep it (list, watch, get, create, update, delete,
//     patch, relist, resync); a Go keyword or predeclared name (nil,
//     true), panic, git, the HTTP reasons (410 Expired, 409 Conflict) and
//     sync.Cond's Signal and Broadcast; a unit (ms, s); one letter (a key,
//     N); the line "exit status N", which go run prints itself when a
//     program fails; and a single term in full-width parentheses
//     after Chinese, the glossary's way to name the English term
//     ("重新同步（resync）"). Everything else in Latin letters is English.
//   - the catalog's coverage: every constant message format that a project
//     grader of a lab can print (its body and the test helpers it calls,
//     and the walkthrough's waits) has a Chinese entry (zh-check -catalog).
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// keptWords are the Latin words a Chinese line may hold as they are: the
// names the Kubernetes Chinese docs keep in English (docs/glossary.zh-CN.md),
// the API's verbs as they keep them, Go's keywords and predeclared names,
// and units.
var keptWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`Informer Reflector Kubernetes Pod Pods Delta Lister Indexer Store Go JSON HTTP API
		ReplicaSet DeltaFIFO RealFIFO fakeapi goroutine informer panic git
		Expired Gone Conflict Signal Broadcast
		list watch get create update delete patch relist resync
		break case chan const continue default defer else fallthrough for func go goto if import interface map
		package range return select struct switch type var any bool byte error int string nil true false iota
		ms s min h µs ns`) {
		m[w] = true
	}
	return m
}()

var (
	backquoteSpanRE = regexp.MustCompile("`[^`]*`")
	quotedSpanRE    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	commandRE2      = regexp.MustCompile(`(?:\bgo (?:run|test|vet|build|mod)\b|\bgit [a-z]+\b|\bcd \S|\b[A-Z][A-Z0-9_]*=)[^\p{Han}（）：，。；、“”]*`)
	glossRE         = regexp.MustCompile(`(\p{Han})（[A-Za-z][A-Za-z-]*）`)
	codeCharsRE     = regexp.MustCompile(`[0-9./_()\[\]{}*=@#<>&|%$:'\\+-]`)
	lettersRE       = regexp.MustCompile(`^[A-Za-z]+$`)
	exitStatusRE    = regexp.MustCompile(`^exit status \d+$`)
	listRE          = regexp.MustCompile(`\[[^\[\]\p{Han}]*\]`)
	callRE          = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_.]*\([^()\p{Han}]*\)`)
)

// englishWords returns the English words of a line printed for a Chinese
// reader, outside its code spans (the file comment defines them), in order.
func englishWords(line string, spelled map[string]bool) []string {
	line = backquoteSpanRE.ReplaceAllString(line, " ")
	line = quotedSpanRE.ReplaceAllString(line, " ")
	line = commandRE2.ReplaceAllString(line, " ")
	line = callRE.ReplaceAllString(line, " ")
	for { // lists in lists: the innermost first
		next := listRE.ReplaceAllString(line, " ")
		if next == line {
			break
		}
		line = next
	}
	line = glossRE.ReplaceAllString(line, "$1 ")
	var words []string
	for _, tok := range strings.FieldsFunc(line, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Han, r) || strings.ContainsRune("，。：；、（）“”「」《》！？…—", r)
	}) {
		tok = strings.TrimRight(strings.TrimLeft(tok, "("), ",;:!?.)")
		if codeCharsRE.MatchString(tok) {
			continue // a key, a path, a call, a version, a number
		}
		if !lettersRE.MatchString(tok) || len(tok) == 1 {
			continue // not Latin letters, or one letter (a key, a placeholder): nothing to read as English
		}
		if keptWords[tok] || spelled[tok] && tok != strings.ToLower(tok) {
			continue
		}
		if hasInnerCapital(tok) {
			continue // DeltaFIFO, OnAdd, MODIFIED
		}
		words = append(words, tok)
	}
	return words
}

// cmdZhCheck is `go run ./labs zh-check [-catalog] [FILE...]`: it reads
// what `labs test` printed for a Chinese reader (the files, or standard
// input) and prints every line with English words outside code spans;
// -catalog checks instead that every message a project grader can print
// has a Chinese entry.
func cmdZhCheck(args []string) error {
	if len(args) > 0 && args[0] == "-catalog" {
		return checkCatalog()
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	tree, err := buildTree(root, 1)
	if err != nil {
		return err
	}
	spelled, _, err := treeSpellings(tree)
	if err != nil {
		return err
	}
	var inputs []io.Reader
	var names []string
	for _, a := range args {
		f, err := os.Open(a)
		if err != nil {
			return err
		}
		defer f.Close()
		inputs, names = append(inputs, f), append(names, a)
	}
	if len(args) == 0 {
		inputs, names = []io.Reader{os.Stdin}, []string{"standard input"}
	}
	bad, lines := 0, 0
	for i, in := range inputs {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			lines++
			if exitStatusRE.MatchString(sc.Text()) {
				continue // go run's own line for a program that failed
			}
			if w := englishWords(sc.Text(), spelled); len(w) > 0 {
				bad++
				fmt.Printf("%s:%d: English (%s): %s\n", names[i], n, strings.Join(w, " "), sc.Text())
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("zh-check: %d of %d lines have English outside code spans", bad, lines)
	}
	fmt.Printf("zh-check: %d lines, none with English outside code spans\n", lines)
	return nil
}

// catalogEntry is one message format and its Chinese, compiled.
type catalogEntry struct {
	re *regexp.Regexp // the English message, each verb a group
	zh string
}

var (
	catalogOnce sync.Once
	catalog     []catalogEntry
)

// verbRE finds the verbs of a format: %v, %+v, %q, %d, %.1f, %[2]v.
var verbRE = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[vqdsxXfegTtcbo]`)

// compiledCatalog returns messagesZH compiled.
func compiledCatalog() []catalogEntry {
	catalogOnce.Do(func() {
		for _, en := range sortedKeys(messagesZH) {
			zh := messagesZH[en]
			// A message's continuation lines reach the runner trimmed
			// (messages, run.go): so are the format's.
			en, zh = trimLines(en), trimLines(zh)
			var b strings.Builder
			b.WriteString(`(?s)^`)
			last := 0
			for _, loc := range verbRE.FindAllStringIndex(en, -1) {
				b.WriteString(regexp.QuoteMeta(en[last:loc[0]]))
				b.WriteString(`(.*?)`)
				last = loc[1]
			}
			b.WriteString(regexp.QuoteMeta(en[last:]) + `$`)
			catalog = append(catalog, catalogEntry{regexp.MustCompile(b.String()), zh})
		}
		// The longest formats first: a format that is a prefix of another
		// must not win.
		slices.SortStableFunc(catalog, func(a, b catalogEntry) int { return len(b.re.String()) - len(a.re.String()) })
	})
	return catalog
}

// trimLines trims the spaces around each line of s after the first.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "\n")
}

// translate returns msg, an English message of a project test, in
// Chinese: through the catalog, the values it holds as printed (English
// prose among them set off as code); a message the catalog does not know,
// whole, as code.
func translate(msg string) string {
	for _, e := range compiledCatalog() {
		m := e.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		args := m[1:]
		next := 0
		return verbRE.ReplaceAllStringFunc(e.zh, func(verb string) string {
			i := next
			if strings.HasPrefix(verb, "%[") {
				i, _ = strconv.Atoi(verb[2:strings.Index(verb, "]")])
				i--
			} else {
				next++
			}
			if i < 0 || i >= len(args) {
				return verb
			}
			return asValue(args[i])
		})
	}
	return asValue(msg)
}

// stubMessageZHRE finds a stub's Chinese message (lab_stub.go's
// labStub.message) inside a value.
var stubMessageZHRE = regexp.MustCompile(`实验 \d+：请实现 .+?，见 labs/\d\d/README\.zh-CN\.md §\d+`)

// asValue returns a value printed in a message as it was printed, unless
// it reads as English prose (an error's text): then as `code`. An error
// that holds a stub's message, wrapped in the English of the code between
// the stub and the test ("cannot compute the key of a *informer.Pod: 实验
// 1：请实现 …"), is shown as the stub's message: the root cause, in the
// reader's language (the kit's labCause does the same in the graders).
func asValue(v string) string {
	if m := stubMessageZHRE.FindString(v); m != "" && !strings.Contains(v, "\n") {
		return m // a value of many lines is taken line by line below
	}
	if len(englishWords(v, nil)) == 0 || strings.Contains(v, "`") {
		return v
	}
	if strings.Contains(v, "\n") {
		var lines []string
		for _, l := range strings.Split(v, "\n") {
			lines = append(lines, asValue(l))
		}
		return strings.Join(lines, "\n")
	}
	return "`" + v + "`"
}

// failureCallNames are the testing.TB methods whose first argument is a
// message a learner may read.
var failureCallNames = []string{"Errorf", "Fatalf", "Error", "Fatal", "Logf", "Log", "Skipf", "Skip"}

// graderFormats returns the constant message formats that the project
// graders named can print: the failure and log calls in their bodies and
// in the bodies of the test helpers they call, transitively, among the Go
// files of files (by path) in the package directory dir.
func graderFormats(files map[string][]byte, dir string, graders []string, spelled map[string]bool) (map[string]bool, error) {
	funcs := map[string][]*ast.FuncDecl{}
	for _, name := range sortedKeys(files) {
		switch {
		case path.Dir(name) != dir || !strings.HasSuffix(name, ".go"):
			continue
		case strings.HasPrefix(path.Base(name), "lab"):
			continue // the kit's files speak both languages themselves
		case !strings.HasSuffix(name, "_test.go") && dir != "internal/walkthrough":
			continue // the package's own errors are values a test prints, not its messages
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, files[name], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs[fd.Name.Name] = append(funcs[fd.Name.Name], fd)
			}
		}
	}
	formats := map[string]bool{}
	seen := map[string]bool{}
	queue := slices.Clone(graders)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, fd := range funcs[name] {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if _, ok := funcs[n.Name]; ok && !seen[n.Name] {
						queue = append(queue, n.Name)
					}
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok || !slices.Contains(failureCallNames, sel.Sel.Name) || len(n.Args) == 0 {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "fmt" || x.Name == "errors") {
						return true // an error value built, not a message printed
					}
					if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil && len(englishWords(s, spelled)) > 0 {
							formats[s] = true
						}
					}
				}
				return true
			})
		}
	}
	return formats, nil
}

// checkCatalog checks that every message format a project grader of a lab
// can print has a Chinese entry, and that each entry's Chinese is
// Chinese: a project test added or changed is named here.
func checkCatalog() error {
	root, err := projectRoot()
	if err != nil {
		return err
	}
	tree, err := buildTree(root, 1)
	if err != nil {
		return err
	}
	spelled, _, err := treeSpellings(tree)
	if err != nil {
		return err
	}
	var problems []error
	used := map[string]bool{}
	for _, lab := range Labs {
		var names []string
		for _, g := range lab.ProjectGraders {
			names = append(names, g.Name)
		}
		formats, err := graderFormats(tree, lab.pkgDir(), names, spelled)
		if err != nil {
			return err
		}
		// The walkthrough's waits, which the Steps call.
		walk, err := graderFormats(tree, "internal/walkthrough", []string{"Receive", "ReceiveN", "Await", "Eventually"}, spelled)
		if err != nil {
			return err
		}
		for f := range walk {
			formats[f] = true
		}
		for _, f := range sortedKeys(formats) {
			used[f] = true
			if _, ok := messagesZH[f]; !ok {
				problems = append(problems, fmt.Errorf("lab %d: no Chinese for %q", lab.N, f))
			}
		}
	}
	for _, en := range sortedKeys(messagesZH) {
		zh := messagesZH[en]
		if w := englishWords(verbRE.ReplaceAllString(zh, "V0"), spelled); len(w) > 0 {
			problems = append(problems, fmt.Errorf("the Chinese of %q has English (%s): %q", en, strings.Join(w, " "), zh))
		}
		if a, b := len(verbRE.FindAllString(en, -1)), len(verbRE.FindAllString(zh, -1)); a != b {
			problems = append(problems, fmt.Errorf("the Chinese of %q has %d verbs, the English %d", en, b, a))
		}
	}
	if len(problems) > 0 {
		return joinProblems("the Chinese of the project graders' messages (labs/messages_zh.go)", problems)
	}
	unused := 0
	for en := range messagesZH {
		if !used[en] {
			unused++
		}
	}
	fmt.Printf("zh-check: %d messages the project graders can print, each with its Chinese (%d entries no grader prints now)\n",
		len(used), unused)
	return nil
}

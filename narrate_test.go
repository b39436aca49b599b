// narrate_test.go is the walkthrough's narrator: say logs one line of the
// story in the reader's language, English or Chinese, and
// TestNarrationIsBilingual checks that every line exists in both.
// client-go counterpart: none (it is how this package teaches).
// Tutorial: all of it; the Steps in informer_test.go follow its order.
//
// The language: INFORMER_LANG=zh (or en) decides, on every OS. Without it,
// the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set decides:
// Chinese when it starts with "zh", English otherwise.
//
//	LANG=zh_CN.UTF-8 go test -v -run Step .   # Linux, macOS
//	INFORMER_LANG=zh go test -v -run Step .   # anywhere
//	$env:INFORMER_LANG="zh"; go test -v -run Step .   # Windows PowerShell

package informer

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// narrationLanguage is the reader's language, "zh" or "en", from the
// environment (see the file comment). It is read while a test runs, never at
// package init: go test records the variables a test reads, so changing
// LANG (or any of them) reruns the tests instead of replaying a cached run
// in the other language.
func narrationLanguage() string { return readerLanguage(os.Getenv) }

// narrationOff silences say while the suite runs again in another pipeline
// (the second reading's), so the story is told once; only sayDiffers
// speaks there, for what that pipeline does differently.
var narrationOff bool

// readerLanguage picks the narration's language from environment variables.
func readerLanguage(getenv func(string) string) string {
	for _, name := range []string{"INFORMER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// say logs one line of narration in the reader's language. en and zh are the
// same line in English and in Chinese: format strings as for t.Logf, taking
// the same arguments (in Chinese, %[2]v and the like may reorder them).
func say(t testing.TB, en, zh string, args ...any) {
	t.Helper()
	if !narrationOff {
		tell(t, en, zh, args...)
	}
}

// inReaderLanguage returns en or zh, whichever the reader reads: a table's
// case has a name in each language, so that a narration line in Chinese
// names the case in Chinese too (the subtest keeps the English name, which
// go test prints as the test's name).
func inReaderLanguage(en, zh string) string {
	if narrationLanguage() == "zh" {
		return zh
	}
	return en
}

// sayDiffers is say for a line that tells what this pipeline did, where the
// other pipeline does something else (Step 6's streaming list, or list then
// watch): it speaks in the silent second run too, so that one run of the
// walkthrough tells each pipeline's part once.
func sayDiffers(t testing.TB, en, zh string, args ...any) {
	t.Helper()
	tell(t, en, zh, args...)
}

// tell logs the line. In a walkthrough Step (a TestStep test) it fails the
// test if the line, as go test -v prints it ("    file_test.go:123: " and
// the line), is wider than maxNarrationWidth.
func tell(t testing.TB, en, zh string, args ...any) {
	t.Helper()
	format := en
	if narrationLanguage() == "zh" {
		format = zh
	}
	line := fmt.Sprintf(format, args...)
	t.Log(line)
	if !strings.HasPrefix(t.Name(), "TestStep") {
		return
	}
	if _, file, n, ok := runtime.Caller(2); ok {
		prefix := fmt.Sprintf("    %s:%d: ", filepath.Base(file), n)
		if w := width(prefix + line); w > maxNarrationWidth {
			t.Errorf("this narration line takes %d columns as printed, over %d: wrap it: %q",
				w, maxNarrationWidth, line)
		}
	}
}

// sayFailure fails the test with one line in the reader's language, even
// while narration is off: a failure explains itself in both pipelines. en and
// zh are as for say; the test goes on, so a line of more explanation may
// follow before t.FailNow.
func sayFailure(t testing.TB, en, zh string, args ...any) {
	t.Helper()
	if narrationLanguage() == "zh" {
		t.Errorf(zh, args...)
		return
	}
	t.Errorf(en, args...)
}

// maxNarrationWidth is the widest a narration line may be, in terminal
// columns (a Chinese character takes two): its format before the arguments
// are filled in (TestNarrationIsBilingual), and the whole line as go test -v
// prints it, with its file:line prefix (tell).
const maxNarrationWidth = 120

func TestReaderLanguage(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "en"},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, "zh"},
		{map[string]string{"LANG": "en_US.UTF-8"}, "en"},
		{map[string]string{"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"},
		{map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"INFORMER_LANG": "zh"}, "zh"},
		{map[string]string{"INFORMER_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"},
	} {
		if got := readerLanguage(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("environment %v: language %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestNarrationIsBilingual reads this package's test files and checks every
// narration line: say (and sayFailure) is called with two literal strings,
// English and Chinese, taking the same arguments, neither wider than
// maxNarrationWidth; and no test logs with t.Log or t.Logf directly (an
// English-only line).
func TestNarrationIsBilingual(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lines := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			pos := fset.Position(call.Pos())
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if (fn.Sel.Name == "Log" || fn.Sel.Name == "Logf") && name != "narrate_test.go" {
					t.Errorf("%s: %s.%s logs English only: narrate with say(t, english, chinese) (narrate_test.go)",
						pos, exprString(fn.X), fn.Sel.Name)
				}
			case *ast.Ident:
				if (fn.Name == "say" || fn.Name == "sayDiffers" || fn.Name == "sayFailure") && len(call.Args) >= 3 {
					lines++
					if msg := checkNarration(call.Args[1], call.Args[2]); msg != "" {
						t.Errorf("%s: %s", pos, msg)
					}
				}
			}
			return true
		})
	}
	if lines < 100 {
		t.Errorf("only %d narration lines found; is say still the narrator?", lines)
	}
}

func exprString(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "t"
}

// checkNarration checks one line's English and Chinese; "" means it is fine.
func checkNarration(enExpr, zhExpr ast.Expr) string {
	en, ok1 := literal(enExpr)
	zh, ok2 := literal(zhExpr)
	switch {
	case !ok1 || !ok2:
		return "say needs its English and Chinese as literal strings"
	case strings.TrimSpace(en) == "" || strings.TrimSpace(zh) == "":
		return "a narration line is missing in one language"
	case hasLetters(en) && (zh == en || !hasHan(zh)):
		return "the Chinese line is not Chinese: " + strconv.Quote(zh)
	case hasHan(en):
		return "the English line is not English: " + strconv.Quote(en)
	case !sameVerbs(en, zh):
		return "the English and Chinese lines take different arguments: " + strconv.Quote(en) + " vs " + strconv.Quote(zh)
	case width(en) > maxNarrationWidth:
		return "English line wider than " + strconv.Itoa(maxNarrationWidth) + " columns: " + strconv.Quote(en)
	case width(zh) > maxNarrationWidth:
		return "Chinese line wider than " + strconv.Itoa(maxNarrationWidth) + " columns: " + strconv.Quote(zh)
	}
	return ""
}

// literal returns the value of a string literal, or of literals joined by +.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// hasLetters reports whether s has words to translate, besides its
// formatting verbs.
func hasLetters(s string) bool {
	for _, r := range verbRE.ReplaceAllString(s, "") {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// verbRE matches a formatting verb, with an optional explicit argument index.
var verbRE = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

// sameVerbs reports whether en and zh use the same verb for each argument.
func sameVerbs(en, zh string) bool {
	return slices.Equal(verbs(en), verbs(zh))
}

// verbs lists, per argument, the verb that formats it.
func verbs(format string) []string {
	var out []string
	next := 0
	for _, m := range verbRE.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		i := next
		if m[1] != "" {
			i, _ = strconv.Atoi(m[1])
			i--
		}
		for len(out) <= i {
			out = append(out, "")
		}
		out[i] = m[2]
		next = i + 1
	}
	return out
}

// width is the number of terminal columns s takes: two for East Asian wide
// characters, one for the others.
func width(s string) int {
	w := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xff60 {
			w += 2
		} else {
			w++
		}
	}
	return w
}

// narration.go holds CheckNarration, which each package with Steps runs as
// its TestNarrationIsBilingual: every Say line of its test files exists in
// English and in Chinese, with the same arguments, and fits a terminal.
//
// client-go counterpart: none (it is how this project teaches).
//
// Tutorial: none of its own.

package walkthrough

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"unicode"
)

// maxColumns is the widest a narration line may be in terminal columns (a
// Chinese character takes two), before its arguments are filled in.
const maxColumns = 120

// formatVerb matches one formatting verb such as %v, %5d or %[2]q.
var formatVerb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// CheckNarration reads the *_test.go files of the current directory and
// fails t for each call of Say whose English and Chinese are not literal
// strings, are empty, are in the wrong language, take different numbers of
// arguments or are wider than 120 columns. It fails too when it finds fewer
// than minLines calls (Say is no longer the narrator).
func CheckNarration(t *testing.T, minLines int) {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	Must(t, err)
	fset := token.NewFileSet()
	found := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		Must(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !callsSay(call) || len(call.Args) < 3 {
				return true
			}
			found++
			if problem := narrationProblem(call.Args[1], call.Args[2]); problem != "" {
				t.Errorf("%s: %s", fset.Position(call.Pos()), problem)
			}
			return true
		})
	}
	if found < minLines {
		t.Errorf("%d narration lines found, want at least %d", found, minLines)
	}
}

// callsSay reports whether call is walkthrough.Say(...) or Say(...).
func callsSay(call *ast.CallExpr) bool {
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		return fn.Sel.Name == "Say"
	case *ast.Ident:
		return fn.Name == "Say"
	}
	return false
}

// narrationProblem says what is wrong with one line, or "" if nothing.
func narrationProblem(enExpr, zhExpr ast.Expr) string {
	en, okEn := stringValue(enExpr)
	zh, okZh := stringValue(zhExpr)
	switch {
	case !okEn || !okZh:
		return "Say takes its English and Chinese as literal strings"
	case en == "" || zh == "":
		return "a narration line is empty in one language"
	case countHan(en) > 0:
		return "the English line has Chinese in it: " + strconv.Quote(en)
	case hasWords(en) && countHan(zh) == 0:
		return "the Chinese line has no Chinese in it: " + strconv.Quote(zh)
	case len(formatVerb.FindAllString(en, -1)) != len(formatVerb.FindAllString(zh, -1)):
		return "the two lines take different arguments: " + strconv.Quote(en) + " and " + strconv.Quote(zh)
	case Columns(en) > maxColumns || Columns(zh) > maxColumns:
		return "a line is wider than " + strconv.Itoa(maxColumns) + " columns: " + strconv.Quote(en)
	}
	return ""
}

// stringValue returns the value of a string literal or of literals joined
// with +.
func stringValue(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, e.Kind == token.STRING && err == nil
	case *ast.BinaryExpr:
		left, okLeft := stringValue(e.X)
		right, okRight := stringValue(e.Y)
		return left + right, e.Op == token.ADD && okLeft && okRight
	}
	return "", false
}

// countHan counts the Chinese characters in s.
func countHan(s string) int {
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			n++
		}
	}
	return n
}

// hasWords reports whether s has letters outside its formatting verbs.
func hasWords(s string) bool {
	for _, r := range formatVerb.ReplaceAllString(s, "") {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// Columns is how many terminal columns s takes: two for a wide character.
func Columns(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.Is(unicode.Han, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xff60) {
			n++
		}
	}
	return n
}

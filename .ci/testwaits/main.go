// Testwaits is a CI check of the testing rule "a test that can hang is a
// defect: every blocking call in a test has a timeout that fails with what
// did not return" (run by .ci/run as `go run ./.ci/testwaits`). It has no
// client-go counterpart and teaches no tutorial section.
//
// It reads every Go file git knows of (tracked, or new and not ignored)
// that imports "testing" and reports, in the
// code that runs on a test's own goroutine, the two waits that cannot be
// bounded where they stand:
//   - a channel receive (<-ch) that is not a case of a select: wait with a
//     helper that bounds it (receive, walkthrough.Receive, ...) or a select
//     with a timeout. A receive from a timer's or ticker's field C is
//     bounded by the timer itself and passes.
//   - a call of a method Wait without arguments (sync.WaitGroup, sync.Cond,
//     exec.Cmd): wait on a goroutine of its own, bounded
//     (returnsWithin(t, what, wg.Wait), walkthrough.ReturnsWithin).
//
// The code that runs on a test's goroutine is, as far as the syntax tells:
// the body of a function that takes a *testing.T, *testing.B, *testing.F or
// testing.TB, or of an example (func ExampleX); in it, the function
// literals that take one too, are deferred, or are given to Cleanup. Code
// in a go statement and other function literals (handlers, callbacks, HTTP
// servers) runs elsewhere: its waits are the code under test's, and are
// not reported. So the check misses what it cannot see (a receive in a
// closure the test calls, a range over a channel, a Pop, a select without a
// timeout), but what it reports waits on a test's goroutine or in a
// function handed the test's t. It uses the standard library only and
// prints one line per problem.
//
// The directories in notYetAudited are skipped: work in progress elsewhere
// owns them. Their owners take an entry off once its tests pass.

package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// notYetAudited lists the directories this check skips for now (none: every
// directory is audited).
var notYetAudited = []string{}

func main() {
	out, err := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "*.go").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testwaits: git ls-files:", err)
		os.Exit(2)
	}
	var problems []string
	files := 0
	for _, name := range strings.Fields(string(out)) {
		if slices.ContainsFunc(notYetAudited, func(dir string) bool { return strings.HasPrefix(name, dir) }) {
			continue
		}
		found, read, err := check(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testwaits:", err)
			os.Exit(2)
		}
		if read {
			files++
		}
		problems = append(problems, found...)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		fmt.Printf("testwaits: %d unbounded waits on a test's goroutine (bound each: see .ci/testwaits/main.go)\n",
			len(problems))
		os.Exit(1)
	}
	fmt.Printf("testwaits: %d files that import \"testing\": no unbounded receive or Wait on a test's goroutine\n", files)
}

// check parses one file and, if it imports "testing", returns its problems.
func check(name string) (problems []string, read bool, err error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil // deleted, not yet committed
	}
	if err != nil {
		return nil, false, err
	}
	testing := importName(file, "testing")
	if testing == "" {
		return nil, false, nil
	}
	report := func(n ast.Node, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if takesTesting(fd.Type, testing) || (fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Example")) {
			walk(fd.Body, testing, report)
		}
	}
	return problems, true, nil
}

// importName returns the name a file gives the package path, "" if it does
// not import it.
func importName(file *ast.File, path string) string {
	for _, spec := range file.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == path {
			if spec.Name != nil {
				return spec.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}

// takesTesting reports whether a function takes a *testing.T, *testing.B,
// *testing.F or a testing.TB (testing being the name the file imports it as).
func takesTesting(ft *ast.FuncType, testing string) bool {
	for _, field := range ft.Params.List {
		typ := field.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		sel, ok := typ.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == testing {
			switch sel.Sel.Name {
			case "T", "B", "F", "TB":
				return true
			}
		}
	}
	return false
}

// walk reports the unbounded waits of code that runs on a test's goroutine.
func walk(body ast.Node, testing string, report func(ast.Node, string, ...any)) {
	// onTestGoroutine holds the function literals found to run there: those
	// deferred or given to Cleanup (marked before they are visited).
	onTestGoroutine := map[*ast.FuncLit]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.DeferStmt:
			if lit, ok := x.Call.Fun.(*ast.FuncLit); ok {
				onTestGoroutine[lit] = true
			}
		case *ast.FuncLit:
			return onTestGoroutine[x] || takesTesting(x.Type, testing)
		case *ast.CommClause:
			// The communication of a select case is the select's to bound:
			// look only at the body.
			for _, s := range x.Body {
				walk(s, testing, report)
			}
			return false
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && !isTimerC(x.X) {
				report(x, "a bare receive %s: bound it (receive(t, what, ch), or a select with a timeout)", source(x))
			}
		case *ast.CallExpr:
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if sel.Sel.Name == "Cleanup" && len(x.Args) == 1 {
				if lit, ok := x.Args[0].(*ast.FuncLit); ok {
					onTestGoroutine[lit] = true
				}
			}
			if sel.Sel.Name == "Wait" && len(x.Args) == 0 {
				report(x, "an unbounded %s(): wait on a goroutine of its own, bounded (returnsWithin(t, what, ...))",
					source(x.Fun))
			}
		}
		return true
	})
}

// isTimerC reports whether e is a field C (a time.Timer's or a
// time.Ticker's channel, bounded by the timer).
func isTimerC(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "C"
}

// source renders a small expression for a message ("<-done", "wg.Wait").
func source(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return source(x.X) + "." + x.Sel.Name
	case *ast.UnaryExpr:
		return x.Op.String() + source(x.X)
	case *ast.StarExpr:
		return "*" + source(x.X)
	case *ast.ParenExpr:
		return "(" + source(x.X) + ")"
	case *ast.CallExpr:
		return source(x.Fun) + "(...)"
	}
	return "..."
}

// leftovers.go checks a generated reading for what the cut left behind:
// a comment naming an identifier or a file of the project that the reading
// does not have, an import block that keeps a blank line inside a group,
// and formatting that gofmt would not write (a file gofmt would change; a
// list whose elements all sit on its opening line but whose closing
// parenthesis went to the next). `go run ./labs reading N DIR` runs it on
// what it writes, and fails with one line per leftover.
//
// client-go counterpart: none (tooling for the readings).
//
// Tutorial: none; it serves every reading.

package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A word of a comment that may name an identifier (Pop, RealFIFO.Pop,
// newQueueFIFO) or a file (reflector_watchlist.go).
var (
	commentNameRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)
	goFileRE      = regexp.MustCompile(`\b[a-z0-9_]+\.go\b`)
)

// leftovers lists, one "file:line: what" each, what the cut of reading n
// (files) left behind in its root package. full is the root as it is
// (reading lastReading): a name the project declares or a file it has,
// that the reading lacks, must not be named by the reading's comments.
// Names that the project does not declare (client-go's, Go's) are not
// checked.
func leftovers(n int, files, full map[string][]byte) ([]string, error) {
	have, err := rootNames(files)
	if err != nil {
		return nil, err
	}
	all, err := rootNames(full)
	if err != nil {
		return nil, err
	}
	fullFuncs, err := rootFuncs(full)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range sortedKeys(files) {
		if strings.Contains(name, "/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		src := files[name]
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		at := func(line int, format string, args ...any) {
			out = append(out, fmt.Sprintf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				first := fset.Position(c.Slash).Line
				ended := true // the text so far ends a sentence (none yet)
				for i, line := range strings.Split(c.Text, "\n") {
					for _, w := range missingNames(line, ended, have, all) {
						at(first+i, "the comment names %s, which reading %d does not have", w, n)
					}
					if t := strings.TrimSpace(strings.TrimLeft(line, "/*")); t != "" {
						ended = strings.ContainsAny(t[len(t)-1:], ".:!?")
					} else {
						ended = true // a blank line ends a paragraph
					}
				}
			}
		}
		for _, u := range unusedDocumented(f, fullFuncs) {
			at(fset.Position(u.Pos()).Line, "the doc speaks of %s, which %s uses only in a later reading",
				u.Name, funcKey(u.fn))
		}
		for _, p := range importGaps(fset, f, src) {
			at(fset.Position(p).Line, "a blank line inside a group of imports (what the cut removed was there)")
		}
		for _, d := range danglingLists(fset, f) {
			at(fset.Position(d.closing).Line, "a list whose elements all sit on its first line closes on a later one")
		}
		if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
			out = append(out, name+": gofmt would change it")
		}
	}
	return out, nil
}

// names are what a root package declares and the files it is made of.
type names struct {
	idents map[string]bool // every declared name: top-level, method, field, interface method
	files  map[string]bool // root Go file names
}

// rootNames collects the names of the root package in files (tests included).
func rootNames(files map[string][]byte) (names, error) {
	ns := names{idents: map[string]bool{}, files: map[string]bool{}}
	for name, src := range files {
		if strings.Contains(name, "/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		ns.files[name] = true
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			return ns, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				ns.idents[x.Name.Name] = true
			case *ast.TypeSpec:
				ns.idents[x.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range x.Names {
					ns.idents[id.Name] = true
				}
			case *ast.StructType: // fields
				addFields(ns.idents, x.Fields)
			case *ast.InterfaceType: // methods
				addFields(ns.idents, x.Methods)
			case *ast.FuncLit:
				return false // its names are local
			case *ast.BlockStmt:
				return false // so are a function body's
			}
			return true
		})
	}
	return ns, nil
}

// addFields adds the exported names of a field list to idents. An
// unexported field is left out: its name is often the wire's
// (resourceVersion), which a comment names as the server's.
func addFields(idents map[string]bool, fl *ast.FieldList) {
	for _, f := range fl.List {
		for _, id := range f.Names {
			if id.IsExported() {
				idents[id.Name] = true
			}
		}
	}
}

// missingNames returns the words of a comment line that name an identifier
// or a file of the project that the reading lacks. A lowercase word with
// no capital or underscore inside ("cache", "gates") reads as English and
// is let through unless written as code (`gates`) or as a call (gates()).
func missingNames(line string, ended bool, have, all names) []string {
	var out []string
	for _, f := range goFileRE.FindAllString(line, -1) {
		if all.files[f] && !have.files[f] {
			out = append(out, f)
		}
	}
	stripped := goFileRE.ReplaceAllString(line, "")
	for _, loc := range commentNameRE.FindAllStringIndex(stripped, -1) {
		word := stripped[loc[0]:loc[1]]
		before := strings.TrimSpace(strings.TrimLeft(stripped[:loc[0]], "/* \t"))
		asCode := loc[0] > 0 && strings.ContainsAny(stripped[loc[0]-1:loc[0]], "`*[") ||
			loc[1] < len(stripped) && stripped[loc[1]] == '(' || strings.Contains(word, ".")
		// The first word of a sentence is capitalized whatever it is.
		first := before == "" && ended || before != "" && strings.ContainsAny(before[len(before)-1:], ".:!?")
		for _, part := range strings.Split(word, ".") {
			if part == "_" || !all.idents[part] || have.idents[part] {
				continue
			}
			if !asCode && (!looksLikeCode(part) || first && !hasInnerCapital(part)) {
				continue
			}
			out = append(out, part)
		}
	}
	return out
}

// looksLikeCode reports whether a word the project declares reads as its
// name even when not written as code: it starts with a capital
// (Unstructured, RealFIFO) or has a digit or an underscore. A word that
// starts lowercase reads as English ("gates") or as the wire's name
// ("resourceVersion"), so only `name`, name() or X.name count for it.
func looksLikeCode(w string) bool {
	return strings.ContainsAny(w, "_0123456789") || w[0] >= 'A' && w[0] <= 'Z'
}

// hasInnerCapital reports whether w has a capital after its first letter
// (RealFIFO, newQueueFIFO): a name even where a sentence begins.
func hasInnerCapital(w string) bool {
	return len(w) > 1 && strings.ToLower(w[1:]) != w[1:]
}

// funcKey names a function or method as "Name" or "Recv.Name".
func funcKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// rootFuncs maps every function of the root package in files by funcKey.
func rootFuncs(files map[string][]byte) (map[string]*ast.FuncDecl, error) {
	out := map[string]*ast.FuncDecl{}
	for name, src := range files {
		if strings.Contains(name, "/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				out[funcKey(fn)] = fn
			}
		}
	}
	return out, nil
}

// paramUse is a parameter a doc comment names, in the function it documents.
type paramUse struct {
	*ast.Ident
	fn *ast.FuncDecl
}

// unusedDocumented returns the parameters of f's functions that their doc
// comment names and that the function in the project uses, while the
// reading's leaves them unused: the use was cut, the sentence stayed.
func unusedDocumented(f *ast.File, full map[string]*ast.FuncDecl) []paramUse {
	var out []paramUse
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Doc == nil || fn.Body == nil {
			continue
		}
		whole := full[funcKey(fn)]
		if whole == nil || whole.Body == nil {
			continue
		}
		doc := fn.Doc.Text()
		for _, field := range fn.Type.Params.List {
			for _, p := range field.Names {
				named := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.Name) + `\b`).MatchString(doc)
				if p.Name != "_" && named && !uses(fn.Body, p.Name) && uses(whole.Body, p.Name) {
					out = append(out, paramUse{p, fn})
				}
			}
		}
	}
	return out
}

// uses reports whether body refers to the name.
func uses(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// importGaps returns where an import block keeps a blank line between two
// imports of the same kind (both standard library, or both not): the
// groups gofmt and goimports write are the standard library, then the rest.
func importGaps(fset *token.FileSet, f *ast.File, src []byte) []token.Pos {
	lines := strings.Split(string(src), "\n")
	var out []token.Pos
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT || !gd.Lparen.IsValid() {
			continue
		}
		for i := 1; i < len(gd.Specs); i++ {
			a, b := gd.Specs[i-1].(*ast.ImportSpec), gd.Specs[i].(*ast.ImportSpec)
			if isStd(a) != isStd(b) {
				continue
			}
			from, to := fset.Position(a.End()).Line, fset.Position(b.Pos()).Line
			if b.Doc != nil {
				to = fset.Position(b.Doc.Pos()).Line
			}
			for l := from + 1; l < to; l++ {
				if strings.TrimSpace(lines[l-1]) == "" {
					out = append(out, b.Pos())
					break
				}
			}
		}
	}
	return out
}

// isStd reports whether an import is of the standard library: its path's
// first element has no dot.
func isStd(is *ast.ImportSpec) bool {
	p, _ := strconv.Unquote(is.Path.Value)
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// closeImportGaps removes the blank lines importGaps finds, so that what
// is left of a group is one group again, sorted as gofmt sorts it.
func closeImportGaps(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	gaps := importGaps(fset, f, src)
	if len(gaps) == 0 {
		return src, nil
	}
	lines := strings.SplitAfter(string(src), "\n")
	drop := map[int]bool{}
	for _, g := range gaps {
		for l := fset.Position(g).Line - 1; l >= 1 && strings.TrimSpace(lines[l-1]) == ""; l-- {
			drop[l] = true
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if !drop[i+1] {
			b.WriteString(l)
		}
	}
	return format.Source([]byte(b.String()))
}

// joinDanglingLists closes on its first line each list danglingLists
// finds, as it would have been written without the lines the cut removed:
// the comma and line break before the closing parenthesis go.
func joinDanglingLists(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	lists := danglingLists(fset, f)
	if len(lists) == 0 {
		return src, nil
	}
	out := slices.Clone(src)
	for i := len(lists) - 1; i >= 0; i-- { // from the end, so offsets stay true
		last, closing := fset.Position(lists[i].last).Offset, fset.Position(lists[i].closing).Offset
		if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out[last:closing])), ",")) != "" {
			continue // a comment in between: leave it to a person
		}
		out = append(out[:last], out[closing:]...)
	}
	return format.Source(out)
}

// danglingLists returns the lists (parameters, results, arguments) whose
// elements all sit on the line of the opening parenthesis while the
// closing one is on a later line: what is left when the cut removed the
// last lines of a list (`transform TransformFunc,` then `) Queue {`).
// Nobody writes that; gofmt keeps it.
func danglingLists(fset *token.FileSet, f *ast.File) []dangling {
	var out []dangling
	line := func(p token.Pos) int { return fset.Position(p).Line }
	check := func(open, close token.Pos, first, last ast.Node) {
		if open.IsValid() && close.IsValid() && line(first.Pos()) == line(open) &&
			line(last.End()) == line(open) && line(close) > line(open) {
			out = append(out, dangling{last.End(), close})
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl != nil && len(fl.List) > 0 {
			check(fl.Opening, fl.Closing, fl.List[0], fl.List[len(fl.List)-1])
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncType:
			fields(x.Params)
			fields(x.Results)
		case *ast.CallExpr:
			if len(x.Args) > 0 {
				check(x.Lparen, x.Rparen, x.Args[0], x.Args[len(x.Args)-1])
			}
		}
		return true
	})
	return out
}

// dangling is a list danglingLists found: where its last element ends, and
// its closing parenthesis.
type dangling struct {
	last, closing token.Pos
}

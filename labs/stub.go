// stub.go rewrites Go source for a student repository with go/ast and
// go/format: it replaces the bodies of the labs' functions by stubs, puts a
// gate at the top of every project test, and makes the examples
// compile-only.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// stubbedFunc is a function a stub replaced: which lab, which function.
type stubbedFunc struct {
	Lab int
	Func
}

// stubFuncs replaces the body of every function of src that one of labs
// names by a stub that calls labTODO(lab, name, section). It returns the
// new source and the functions it stubbed. names maps an in-module import
// path to its package name (see removeUnusedImports).
func stubFuncs(name string, src []byte, labs []Lab, names map[string]string) ([]byte, []stubbedFunc, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	var stubbed []stubbedFunc
	var dropped []ast.Node
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		lab, want, ok := specOf(labs, funcOf(fd))
		if !ok {
			continue
		}
		dropped = append(dropped, fd.Body)
		// Every node of the stub gets a position just inside the old body,
		// so that go/printer places the comments that follow (the next
		// function's doc) after it, not inside it.
		at := fd.Body.Lbrace + 1
		fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, List: stubBody(fd.Type, lab, want, at), Rbrace: at + 1}
		stubbed = append(stubbed, stubbedFunc{lab.N, want})
	}
	if len(stubbed) == 0 {
		return src, nil, nil
	}
	// The comments inside a removed body would land anywhere: drop them.
	file.Comments = slices.DeleteFunc(file.Comments, func(c *ast.CommentGroup) bool {
		return slices.ContainsFunc(dropped, func(n ast.Node) bool { return c.Pos() > n.Pos() && c.End() <= n.End() })
	})
	removeUnusedImports(file, names)
	out, err := render(fset, file)
	return out, stubbed, err
}

// funcOf is the Func a declaration declares (Section unset).
func funcOf(fd *ast.FuncDecl) Func {
	f := Func{Name: fd.Name.Name}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		f.Recv = types.ExprString(fd.Recv.List[0].Type)
	}
	return f
}

// specOf finds f among the functions of labs.
func specOf(labs []Lab, f Func) (Lab, Func, bool) {
	for _, l := range labs {
		for _, g := range l.Funcs {
			if g.Recv == f.Recv && g.Name == f.Name {
				return l, g, true
			}
		}
	}
	return Lab{}, Func{}, false
}

// stubBody is the body of a stub: call labTODO (lab_stub.go), which records
// that the stub ran and returns its message in the reader's language, and
// return zero values, with that message as the error when the last result
// is an error. It never panics: a panic in a goroutine the reference code
// started would end the whole test binary, and every other test with it.
func stubBody(ft *ast.FuncType, lab Lab, f Func, at token.Pos) []ast.Stmt {
	call := &ast.CallExpr{Fun: &ast.Ident{Name: "labTODO", NamePos: at}, Lparen: at, Rparen: at, Args: []ast.Expr{
		&ast.BasicLit{ValuePos: at, Kind: token.INT, Value: strconv.Itoa(lab.N)},
		&ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: strconv.Quote(f.String())},
		&ast.BasicLit{ValuePos: at, Kind: token.INT, Value: strconv.Itoa(f.Section)},
	}}
	var results []ast.Expr
	if ft.Results != nil {
		for _, field := range ft.Results.List {
			n := max(len(field.Names), 1)
			for range n {
				results = append(results, zeroOf(field.Type, at))
			}
		}
	}
	if len(results) > 0 {
		if id, ok := ft.Results.List[len(ft.Results.List)-1].Type.(*ast.Ident); ok && id.Name == "error" {
			results[len(results)-1] = call
			return []ast.Stmt{&ast.ReturnStmt{Return: at, Results: results}}
		}
	}
	stmts := []ast.Stmt{&ast.ExprStmt{X: call}}
	if len(results) > 0 {
		stmts = append(stmts, &ast.ReturnStmt{Return: at, Results: results})
	}
	return stmts
}

// zeroOf is the zero value of a result type written as t, at position at.
func zeroOf(t ast.Expr, at token.Pos) ast.Expr {
	ident := func(name string) ast.Expr { return &ast.Ident{Name: name, NamePos: at} }
	switch t := t.(type) {
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		if a, ok := t.(*ast.ArrayType); ok && a.Len != nil {
			break
		}
		return ident("nil")
	case *ast.Ident:
		switch t.Name {
		case "bool":
			return ident("false")
		case "string":
			return &ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: `""`}
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
			"uintptr", "float32", "float64", "byte", "rune":
			return &ast.BasicLit{ValuePos: at, Kind: token.INT, Value: "0"}
		case "any", "error":
			return ident("nil")
		}
	}
	// *new(T): the zero value of any other type, T written as the result.
	return &ast.StarExpr{Star: at, X: &ast.CallExpr{Fun: ident("new"), Lparen: at, Rparen: at, Args: []ast.Expr{t}}}
}

// gateTests puts labGate(t) first in every top-level test and fuzz target,
// and removes the "Output:" comments of examples so that they compile but
// do not run. It reports the test names it gated. In an external test
// package (package x_test), which sees only exported names, the gate is
// the kit's LabGate, qualified by the name the file imports self (the
// package under test) under; a file that does not import self gets the
// import, as labself.
func gateTests(name string, src []byte, self string) ([]byte, []string, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	gateName := "labGate"
	var qualifier string
	if strings.HasSuffix(file.Name.Name, "_test") {
		gateName = "LabGate"
		for _, is := range file.Imports {
			if p, _ := strconv.Unquote(is.Path.Value); p == self {
				qualifier = importName(is, map[string]string{self: strings.TrimSuffix(file.Name.Name, "_test")})
			}
		}
	}
	var gated []string
	var examples []*ast.FuncDecl
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil {
			continue
		}
		if strings.HasPrefix(fd.Name.Name, "Example") {
			examples = append(examples, fd)
			continue
		}
		param := testParam(fd)
		if param == nil {
			continue
		}
		if gateName == "LabGate" && qualifier == "" {
			// An external test file that does not import the package it
			// tests: import it, under a name of its own, for its LabGate.
			qualifier = "labself"
			file.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{&ast.ImportSpec{
				Name: ast.NewIdent(qualifier), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(self)}}}}},
				file.Decls...)
		}
		if len(param.Names) == 0 || param.Names[0].Name == "_" {
			param.Names = []*ast.Ident{ast.NewIdent("labT")}
		}
		// The call gets the position just after the brace, so that a comment
		// opening the body stays below it instead of inside its parentheses.
		at := fd.Body.Lbrace + 1
		var fun ast.Expr = &ast.Ident{Name: gateName, NamePos: at}
		if qualifier != "" {
			fun = &ast.SelectorExpr{X: &ast.Ident{Name: qualifier, NamePos: at}, Sel: &ast.Ident{Name: gateName, NamePos: at}}
		}
		gate := &ast.ExprStmt{X: &ast.CallExpr{Fun: fun, Lparen: at, Rparen: at,
			Args: []ast.Expr{&ast.Ident{Name: param.Names[0].Name, NamePos: at}}}}
		fd.Body.List = append([]ast.Stmt{gate}, fd.Body.List...)
		gated = append(gated, fd.Name.Name)
	}
	outputRE := regexp.MustCompile(`^//\s*(Unordered output|Output):`)
	for _, ex := range examples {
		for _, cg := range file.Comments {
			if cg.Pos() < ex.Body.Lbrace || cg.End() > ex.Body.Rbrace || !outputRE.MatchString(cg.List[0].Text) {
				continue
			}
			cg.List[0].Text = "// Expected output (a lab workspace compiles its examples but does not run them):"
		}
	}
	out, err := render(fset, file)
	return out, gated, err
}

// testParam returns the *testing.T or *testing.F parameter of a Test or
// Fuzz function, or nil for anything else (TestMain takes a *testing.M).
func testParam(fd *ast.FuncDecl) *ast.Field {
	n := fd.Name.Name
	if !(strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Fuzz")) || n == "TestMain" {
		return nil
	}
	if fd.Type.Params == nil || len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) > 1 {
		return nil
	}
	p := fd.Type.Params.List[0]
	switch types.ExprString(p.Type) {
	case "*testing.T", "*testing.F":
		return p
	}
	return nil
}

// removeUnusedImports drops the imports whose package name no selector of
// file uses any more (a stubbed body or a removed block may have been their
// only user); blank and dot imports stay. names maps an in-module import
// path to its package name, which need not be the path's last element.
func removeUnusedImports(file *ast.File, names map[string]string) {
	used := usedQualifiers(file)
	unused := func(is *ast.ImportSpec) bool {
		name := importName(is, names)
		return name != "_" && name != "." && !used[name]
	}
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		gd.Specs = slices.DeleteFunc(gd.Specs, func(s ast.Spec) bool {
			return unused(s.(*ast.ImportSpec))
		})
	}
	file.Decls = slices.DeleteFunc(file.Decls, func(d ast.Decl) bool {
		gd, ok := d.(*ast.GenDecl)
		return ok && gd.Tok == token.IMPORT && len(gd.Specs) == 0
	})
	file.Imports = slices.DeleteFunc(file.Imports, unused)
}

// usedQualifiers returns the names file uses as package qualifiers: the
// X of every selector X.Sel that the parser did not resolve to a local
// declaration (its Obj is nil).
func usedQualifiers(file *ast.File) map[string]bool {
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				used[id.Name] = true
			}
		}
		return true
	})
	return used
}

// importName is the name an import is used by: its own; for a package of
// the module, its package clause's (names); else the last element of its
// path that is not a major version ("math/rand/v2" is rand).
func importName(is *ast.ImportSpec, names map[string]string) string {
	if is.Name != nil {
		return is.Name.Name
	}
	p, _ := strconv.Unquote(is.Path.Value)
	if name, ok := names[p]; ok {
		return name
	}
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return base
}

// render prints file and formats it as gofmt would, with no blank line
// left where an import was removed (closeImportGaps).
func render(fset *token.FileSet, file *ast.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, err
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, err
	}
	return closeImportGaps(out)
}

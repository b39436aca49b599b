// leak.go checks that a student repository gives no lab away:
// `go run ./labs leak-check DIR` compares the body of every function in
// DIR's Go files with the reference body of every lab function, token by
// token (comments and layout do not count). A body equal to a reference
// body is a leak; so is one that shares most of its token sequences with it
// (a near copy elsewhere in the tree, such as a batch version of a lab's
// function, teaches the answer as well as the answer would).
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
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// nearCopy is the share of a reference body's token trigrams that another
// body may hold before it counts as a near copy.
const nearCopy = 0.6

// minTokens is the shortest reference body compared for near copies: a
// short body (a lock and a map read) is written alike by anyone.
const minTokens = 40

// refBody is the reference body of one lab function.
type refBody struct {
	Lab    int
	Func   Func
	Tokens []string
}

// funcBody is the body of a function found in a tree.
type funcBody struct {
	Where  string // file:line
	Name   string
	Tokens []string
}

func cmdLeakCheck(args []string) error {
	if len(args) != 1 {
		return errors.New("leak-check: give the student repository, e.g. go run ./labs leak-check /tmp/course")
	}
	solved, err := solvedTree()
	if err != nil {
		return err
	}
	refs, err := referenceBodies(solved)
	if err != nil {
		return err
	}
	bodies, err := treeBodies(args[0])
	if err != nil {
		return err
	}
	leaks := findLeaks(refs, bodies)
	kitOnly, err := kitOnlyFiles(args[0])
	if err != nil {
		return err
	}
	leaks = append(leaks, kitOnly...)
	if len(leaks) > 0 {
		return fmt.Errorf("%s gives away reference code:\n  %s", args[0], strings.Join(leaks, "\n  "))
	}
	fmt.Printf("%s: no function body equals or nearly copies the reference of any of the %d lab functions (%d bodies compared)\n",
		args[0], len(refs), len(bodies))
	return nil
}

// solvedTree returns the files of the solved tree of the project the
// working directory is in: every lab's reference in place.
func solvedTree() (map[string][]byte, error) {
	root, err := projectRoot()
	if err != nil {
		return nil, err
	}
	return buildTree(root, len(Labs)+1)
}

// referenceBodies returns the bodies of the labs' functions in the solved
// tree's source files of the labs' packages.
func referenceBodies(solved map[string][]byte) ([]refBody, error) {
	var refs []refBody
	for _, name := range sortedKeys(solved) {
		if !isLabSource(name) {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, name, solved[name], 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lab, f, ok := specOf(labsIn(path.Dir(name), 1), funcOf(fd))
			if !ok {
				continue
			}
			refs = append(refs, refBody{lab.N, f, bodyTokens(fset, solved[name], fd.Body)})
		}
	}
	return refs, nil
}

// treeBodies returns the body of every function declared in dir's Go files.
func treeBodies(dir string) ([]funcBody, error) {
	var bodies []funcBody
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return nil // not Go we can read: nothing to compare
		}
		rel, _ := filepath.Rel(dir, p)
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			where := fmt.Sprintf("%s:%d", rel, fset.Position(fd.Pos()).Line)
			bodies = append(bodies, funcBody{where, funcOf(fd).String(), bodyTokens(fset, src, fd.Body)})
		}
		return nil
	})
	return bodies, err
}

// bodyTokens returns the tokens of body in src, comments and layout aside.
func bodyTokens(fset *token.FileSet, src []byte, body *ast.BlockStmt) []string {
	start := fset.Position(body.Lbrace).Offset
	end := fset.Position(body.Rbrace).Offset + 1
	var s scanner.Scanner
	sub := token.NewFileSet()
	s.Init(sub.AddFile("", -1, end-start), src[start:end], nil, 0)
	var toks []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return toks
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // an inserted semicolon is layout
		}
		toks = append(toks, tok.String()+lit)
	}
}

// findLeaks compares every body with every reference body.
func findLeaks(refs []refBody, bodies []funcBody) []string {
	var leaks []string
	for _, r := range refs {
		grams := trigrams(r.Tokens)
		for _, b := range bodies {
			if strings.Join(b.Tokens, " ") == strings.Join(r.Tokens, " ") {
				leaks = append(leaks, fmt.Sprintf("%s (%s) is lab %d's reference %s, token for token", b.Where, b.Name, r.Lab, r.Func))
				continue
			}
			if len(r.Tokens) < minTokens || len(b.Tokens) < len(r.Tokens)/2 {
				continue
			}
			if share := shared(grams, trigrams(b.Tokens)); share >= nearCopy {
				leaks = append(leaks, fmt.Sprintf("%s (%s) holds %.0f%% of lab %d's reference %s", b.Where, b.Name,
					100*share, r.Lab, r.Func))
			}
		}
	}
	return leaks
}

// kitOnlyFiles lists the files of the repository dir that only the kit
// may hold: its planted bugs (diffs of reference code), its own tests and
// fixtures, and the graders' sources under labs/.
func kitOnlyFiles(dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(filepath.Join(dir, "labs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && (d.Name() == "bugs" || d.Name() == "kit" || d.Name() == "testdata"):
			found = append(found, rel+"/ is the kit's (planted bugs, graders' helpers or fixtures)")
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(p, ".go") && path.Dir(rel) != "labs" || strings.HasSuffix(p, "_test.go")):
			found = append(found, rel+" is the kit's")
		}
		return nil
	})
	return found, err
}

// isLabSource reports whether the path name of a repository is a non-test
// Go file of a lab's package, where the labs' functions are.
func isLabSource(name string) bool {
	isTest := strings.HasSuffix(name, "_test.go")
	return strings.HasSuffix(name, ".go") && !isTest && slices.Contains(labDirs(), path.Dir(name))
}

// trigrams returns the set of token trigrams of toks.
func trigrams(toks []string) map[string]bool {
	g := map[string]bool{}
	for i := 0; i+3 <= len(toks); i++ {
		g[toks[i]+"\x00"+toks[i+1]+"\x00"+toks[i+2]] = true
	}
	return g
}

// shared is the share of ref's trigrams that other holds.
func shared(ref, other map[string]bool) float64 {
	if len(ref) == 0 {
		return 0
	}
	n := 0
	for g := range ref {
		if other[g] {
			n++
		}
	}
	return float64(n) / float64(len(ref))
}

// stubs.go reads a student repository the way a teacher would look at it:
// for every lab, which of its functions still have the body the course
// repository gave them (the stub) and which the learner has written. Three
// commands stand on it: `reference` fills only stubs, so that a learner's
// code is never overwritten by accident; `test N` stops with the labs that
// lab N needs and that are still stubs, and says how to fill them; `grade`
// marks a lab whose functions are all stubs "not started" instead of
// running its graders.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// labState is what a repository holds of one lab's functions.
type labState struct {
	Lab     Lab
	Stubs   []Func // still the stub the course repository gave
	Written []Func // a body of the learner's (or the reference)
	Missing []Func // no such function (a file removed, a function renamed)
}

// notStarted reports whether every function of the lab that the
// repository holds is still a stub.
func (s labState) notStarted() bool { return len(s.Written) == 0 }

// stubbed reports whether any function of the lab is still a stub.
func (s labState) stubbed() bool { return len(s.Stubs) > 0 }

// repoLabs reads the lab functions of the repository in dir (a student
// repository, or a snapshot of one) and returns each lab's state, in lab
// order. A file that does not parse counts its lab functions as written:
// the learner is in the middle of them, and the build will say what is
// wrong.
func repoLabs(dir string) ([]labState, error) {
	found := map[int]map[Func]bool{} // lab → function → is the stub
	for _, pkg := range labDirs() {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pkg), "*.go"))
		for _, m := range matches {
			name := path.Join(pkg, filepath.Base(m))
			if !isLabSource(name) {
				continue
			}
			src, err := os.ReadFile(m)
			if err != nil {
				return nil, err
			}
			for f, isStub := range stubsIn(name, src, labsIn(pkg, 1)) {
				if found[f.Lab] == nil {
					found[f.Lab] = map[Func]bool{}
				}
				found[f.Lab][f.Func] = isStub
			}
		}
	}
	var states []labState
	for _, l := range Labs {
		s := labState{Lab: l}
		for _, f := range l.Funcs {
			isStub, ok := found[l.N][f]
			switch {
			case !ok:
				s.Missing = append(s.Missing, f)
			case isStub:
				s.Stubs = append(s.Stubs, f)
			default:
				s.Written = append(s.Written, f)
			}
		}
		states = append(states, s)
	}
	return states, nil
}

// stubsIn returns, for every function of labs that the Go file name
// declares, whether its body is still the stub. A file that does not parse
// is read by a forgiving scan of its declarations: what it holds is the
// learner's work in progress, never a stub.
func stubsIn(name string, src []byte, labs []Lab) map[stubbedFunc]bool {
	out := map[stubbedFunc]bool{}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if file == nil {
		return out
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		lab, f, ok := specOf(labs, funcOf(fd))
		if !ok {
			continue
		}
		out[stubbedFunc{lab.N, f}] = err == nil && isStubBody(fset, src, fd, lab, f)
	}
	return out
}

// isStubBody reports whether fd's body, in src, is token for token the
// stub that stubFuncs writes for f (comments and layout aside).
func isStubBody(fset *token.FileSet, src []byte, fd *ast.FuncDecl, lab Lab, f Func) bool {
	var stub bytes.Buffer
	body := &ast.BlockStmt{List: stubBody(fd.Type, lab, f, token.NoPos)}
	if err := format.Node(&stub, token.NewFileSet(), body); err != nil {
		return false
	}
	return slices.Equal(bodyTokens(fset, src, fd.Body), tokensOf(stub.Bytes()))
}

// tokensOf returns the tokens of a function body written alone, comments
// and layout aside, as bodyTokens counts them.
func tokensOf(body []byte) []string {
	src := append([]byte("package p\n\nfunc f() "), body...)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	return bodyTokens(fset, src, f.Decls[0].(*ast.FuncDecl).Body)
}

// labNumbers writes lab numbers as a learner reads them: "2", "2 and 5",
// "2 to 6", "1, 3 and 5 to 7".
func labNumbers(ns []int, zh bool) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch {
		case j-i >= 2 && zh:
			parts = append(parts, fmt.Sprintf("%d 到 %d", ns[i], ns[j]))
		case j-i >= 2:
			parts = append(parts, fmt.Sprintf("%d to %d", ns[i], ns[j]))
		default:
			for k := i; k <= j; k++ {
				parts = append(parts, fmt.Sprint(ns[k]))
			}
		}
		i = j + 1
	}
	if zh {
		return strings.Join(parts, "、")
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// labsFlag writes lab numbers as -labs takes them: "2-6", "2,5", "1,3,5-7".
func labsFlag(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		} else {
			parts = append(parts, fmt.Sprint(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

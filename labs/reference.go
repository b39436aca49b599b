// reference.go is the teacher's way to unstick a learner:
// `go run ./labs reference -before N REPO`, run in the project (the kit),
// writes the reference bodies of the labs before N into the student
// repository REPO, in place of the learner's, and adds the imports they
// need. It never writes lab N's or a later lab's: a learner gets the
// answer to what they have moved past, never to what they are doing. The
// reference is in the kit, not in the student repository or the handouts.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
)

func cmdReference(args []string) error {
	fs := flag.NewFlagSet("reference", flag.ExitOnError)
	before := fs.Int("before", 0, "fill in the reference of the labs before this one")
	fs.Parse(args)
	if fs.NArg() != 1 || *before < 2 || *before > len(Labs)+1 {
		return fmt.Errorf("reference: go run ./labs reference -before N REPO, N from 2 to %d "+
			"(the labs before N get the reference)", len(Labs)+1)
	}
	repo := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(repo, "lab_kit_test.go")); err != nil {
		return errors.New("reference: " + repo + " is not a student repository (no lab_kit_test.go)")
	}
	solved, err := solvedTree()
	if err != nil {
		return err
	}
	var labs []Lab
	for _, l := range Labs {
		if l.N < *before {
			labs = append(labs, l)
		}
	}
	zh := readerChinese()
	for _, name := range sortedKeys(solved) {
		if !isLabSource(name) {
			continue
		}
		path := filepath.Join(repo, filepath.FromSlash(name))
		mine, err := os.ReadFile(path)
		if err != nil {
			continue // a file the learner removed: nothing to fill
		}
		out, filled, err := fillReference(name, mine, solved[name], inPackage(labs, name))
		if err != nil {
			return err
		}
		if len(filled) == 0 {
			continue
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			return err
		}
		for _, f := range filled {
			fmt.Println(pick(zh, fmt.Sprintf("%s: %s now holds the reference", name, f),
				fmt.Sprintf("%s：%s 已换成参考实现", name, f)))
		}
	}
	return nil
}

// inPackage returns the labs whose package holds the file name.
func inPackage(labs []Lab, name string) []Lab {
	var out []Lab
	for _, l := range labs {
		if inDir(name, l.pkgDir()) {
			out = append(out, l)
		}
	}
	return out
}

// fillReference returns mine with the body of every function of labs
// replaced by its body in ref, and the imports those bodies need added.
func fillReference(name string, mine, ref []byte, labs []Lab) ([]byte, []Func, error) {
	fset := token.NewFileSet()
	mf, err := parser.ParseFile(fset, name, mine, parser.ParseComments)
	if err != nil {
		return nil, nil, fmt.Errorf("%s does not parse: %w", name, err)
	}
	rset := token.NewFileSet()
	rf, err := parser.ParseFile(rset, name, ref, parser.ParseComments)
	if err != nil {
		return nil, nil, err
	}
	refBodies := map[Func][]byte{}
	for _, d := range rf.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			if _, f, ok := specOf(labs, funcOf(fd)); ok {
				refBodies[f] = ref[rset.Position(fd.Body.Lbrace).Offset : rset.Position(fd.Body.Rbrace).Offset+1]
			}
		}
	}
	type edit struct {
		start, end int
		body       []byte
	}
	var edits []edit
	var filled []Func
	for _, d := range mf.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		_, f, ok := specOf(labs, funcOf(fd))
		if !ok || refBodies[f] == nil {
			continue
		}
		edits = append(edits, edit{fset.Position(fd.Body.Lbrace).Offset, fset.Position(fd.Body.Rbrace).Offset + 1, refBodies[f]})
		filled = append(filled, f)
	}
	if len(edits) == 0 {
		return mine, nil, nil
	}
	out := slices.Clone(mine)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = slices.Concat(out[:e.start], e.body, out[e.end:])
	}
	out, err = addMissingImports(name, out, rf)
	if err != nil {
		return nil, nil, err
	}
	return out, filled, nil
}

// addMissingImports adds to src the imports of ref whose names src uses
// as qualifiers but does not import, then formats it.
func addMissingImports(name string, src []byte, ref *ast.File) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	imported := map[string]bool{}
	for _, is := range f.Imports {
		imported[importName(is, nil)] = true
	}
	used := usedQualifiers(f)
	var missing []string
	for _, is := range ref.Imports {
		if n := importName(is, nil); used[n] && !imported[n] {
			line := is.Path.Value
			if is.Name != nil {
				line = is.Name.Name + " " + line
			}
			missing = append(missing, line)
		}
	}
	if len(missing) > 0 {
		// After the package clause: gofmt keeps a second import block valid.
		at := fset.Position(f.Name.End()).Offset
		var add bytes.Buffer
		add.WriteString("\n\nimport (\n")
		for _, m := range missing {
			add.WriteString("\t" + m + "\n")
		}
		add.WriteString(")\n")
		src = slices.Concat(src[:at], add.Bytes(), src[at:])
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("%s after filling in the reference: %w", name, err)
	}
	return out, nil
}

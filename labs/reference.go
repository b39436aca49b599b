// reference.go is the teacher's way to unstick a learner:
// `go run ./labs reference -labs 2-6 REPO` (or `-before N`, the labs before
// N), run in the project (the kit), writes the reference bodies of those
// labs' functions into the student repository REPO and adds the imports
// they need. It fills only stubs: a function whose body is the learner's
// own is left alone and named, because a learner's code is never lost by
// accident; -force replaces those too, after copying every file it changes
// to REPO/.labs-backup/TIME/ (a folder Go ignores, and the student
// repository's .gitignore keeps out of the learner's commits, generate.go's
// courseGitignore). The reference is in the
// kit, not in the student repository or the handouts.
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
	"time"
)

func cmdReference(args []string) error {
	fs := flag.NewFlagSet("reference", flag.ExitOnError)
	before := fs.Int("before", 0, "fill in the reference of the labs before this one")
	labsFlag := fs.String("labs", "", "fill in the reference of these labs, e.g. 2-6 or 2,5")
	force := fs.Bool("force", false, "replace the learner's own bodies too, after a backup in REPO/.labs-backup/")
	fs.Parse(args)
	zh := readerChinese()
	usage := fmt.Errorf("reference: go run ./labs reference -labs 2-6 REPO (or -before N REPO, N from 2 to %d: the labs before N)",
		len(Labs)+1)
	if fs.NArg() != 1 || (*before == 0) == (*labsFlag == "") {
		return usage
	}
	var labs []Lab
	if *labsFlag != "" {
		var err error
		if labs, err = parseLabs(*labsFlag); err != nil {
			return err
		}
	} else {
		if *before < 2 || *before > len(Labs)+1 {
			return usage
		}
		for _, l := range Labs {
			if l.N < *before {
				labs = append(labs, l)
			}
		}
	}
	repo := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(repo, "lab_kit_test.go")); err != nil {
		return errors.New("reference: " + repo + " is not a student repository (no lab_kit_test.go)")
	}
	solved, err := solvedTree()
	if err != nil {
		return err
	}
	plan, err := planReference(repo, solved, labs, *force)
	if err != nil {
		return err
	}
	if *force && len(plan.kept) > 0 {
		dir, err := backup(repo, plan.changedFiles())
		if err != nil {
			return err
		}
		fmt.Println(pick(zh, "the files it changes are copied first to "+dir, "要改动的文件先备份到了 "+dir))
	}
	for _, name := range sortedKeys(plan.out) {
		if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(name)), plan.out[name], 0o644); err != nil {
			return err
		}
	}
	plan.report(zh, *force)
	return nil
}

// referencePlan is what reference will write: the new files, and which
// functions of which lab it fills and which are the learner's own.
type referencePlan struct {
	out    map[string][]byte // file → its new content
	filled map[int][]Func    // lab → stubs filled in
	kept   map[int][]Func    // lab → the learner's own bodies (replaced with -force)
	done   map[int][]Func    // lab → already the reference
	files  map[string]bool   // the files changed because of kept functions
	labs   []Lab
}

// changedFiles are the files -force changes that hold a learner's body.
func (p referencePlan) changedFiles() []string { return sortedKeys(p.files) }

// planReference decides, for every function of labs in repo, what to
// write: the reference in place of a stub, and with force in place of the
// learner's body too.
func planReference(repo string, solved map[string][]byte, labs []Lab, force bool) (referencePlan, error) {
	p := referencePlan{out: map[string][]byte{}, filled: map[int][]Func{}, kept: map[int][]Func{},
		done: map[int][]Func{}, files: map[string]bool{}, labs: labs}
	for _, name := range sortedKeys(solved) {
		here := inPackage(labs, name)
		if !isLabSource(name) || len(here) == 0 {
			continue
		}
		mine, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(name)))
		if err != nil {
			continue // a file the learner removed: nothing to fill
		}
		stubs := stubsIn(name, mine, here)
		if _, err := parser.ParseFile(token.NewFileSet(), name, mine, 0); err != nil {
			// The learner's work in progress: every lab function in it is
			// theirs; -force cannot fill a file that does not parse.
			if force {
				return p, fmt.Errorf("%s does not parse (%v): fix it, or remove the file, before -force", name, err)
			}
			for f := range stubs {
				p.kept[f.Lab] = append(p.kept[f.Lab], f.Func)
			}
			continue
		}
		refs := referenceTokens(name, solved[name], here)
		fill := func(f stubbedFunc) bool {
			switch {
			case stubs[f]:
				p.filled[f.Lab] = append(p.filled[f.Lab], f.Func)
				return true
			case slices.Equal(refs[f], funcTokens(name, mine, f)):
				p.done[f.Lab] = append(p.done[f.Lab], f.Func)
				return false
			}
			p.kept[f.Lab] = append(p.kept[f.Lab], f.Func)
			if force {
				p.files[name] = true
			}
			return force
		}
		out, n, err := fillReference(name, mine, solved[name], here, fill)
		if err != nil {
			return p, err
		}
		if n > 0 {
			p.out[name] = out
		}
	}
	return p, nil
}

// report prints, a line per lab, what reference did.
func (p referencePlan) report(zh, force bool) {
	for _, l := range p.labs {
		for _, m := range []map[int][]Func{p.filled, p.kept, p.done} {
			m[l.N] = inSpecOrder(l, m[l.N])
		}
		if fs := p.filled[l.N]; len(fs) > 0 {
			fmt.Println(pick(zh, fmt.Sprintf("lab %d: %s filled in with the reference", l.N, countFuncs(len(fs), zh)),
				fmt.Sprintf("实验 %d：%s换成了参考实现", l.N, countFuncs(len(fs), zh))))
		}
		if fs := p.kept[l.N]; len(fs) > 0 && force {
			fmt.Println(pick(zh, fmt.Sprintf("lab %d: the learner's own %s replaced by the reference (-force): %s", l.N,
				countFuncs(len(fs), zh), funcList(fs)),
				fmt.Sprintf("实验 %d：学生自己写的%s换成了参考实现（-force）：%s", l.N, countFuncs(len(fs), zh), funcList(fs))))
		} else if len(fs) > 0 {
			fmt.Println(pick(zh, fmt.Sprintf("lab %d: left alone, the learner's own: %s (-force replaces them, after a backup)",
				l.N, funcList(fs)),
				fmt.Sprintf("实验 %d：学生自己写的，没有改动：%s（-force 会先备份，再替换它们）", l.N, funcList(fs))))
		}
		if len(p.filled[l.N]) == 0 && len(p.kept[l.N]) == 0 && len(p.done[l.N]) > 0 {
			fmt.Println(pick(zh, fmt.Sprintf("lab %d: already the reference, nothing to do", l.N),
				fmt.Sprintf("实验 %d：已经是参考实现，无事可做", l.N)))
		}
	}
}

// inSpecOrder returns fs in the order lab lists its functions.
func inSpecOrder(lab Lab, fs []Func) []Func {
	var out []Func
	for _, f := range lab.Funcs {
		if slices.Contains(fs, f) {
			out = append(out, f)
		}
	}
	return out
}

// countFuncs is "1 function", "7 functions", "7 个函数".
func countFuncs(n int, zh bool) string {
	switch {
	case zh:
		return fmt.Sprintf("%d 个函数", n)
	case n == 1:
		return "1 function"
	}
	return fmt.Sprintf("%d functions", n)
}

// funcList names functions, comma-separated.
func funcList(fs []Func) string {
	var b bytes.Buffer
	for i, f := range fs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	return b.String()
}

// backup copies the files of repo named to REPO/.labs-backup/TIME/ and
// returns that folder.
func backup(repo string, names []string) (string, error) {
	dir := filepath.Join(repo, ".labs-backup", time.Now().Format("20060102-150405"))
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(name)))
		if err != nil {
			return "", err
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// referenceTokens returns the tokens of the reference body of every
// function of labs in the solved file name.
func referenceTokens(name string, ref []byte, labs []Lab) map[stubbedFunc][]string {
	out := map[stubbedFunc][]string{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, ref, 0)
	if err != nil {
		return out
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			if lab, fn, ok := specOf(labs, funcOf(fd)); ok {
				out[stubbedFunc{lab.N, fn}] = bodyTokens(fset, ref, fd.Body)
			}
		}
	}
	return out
}

// funcTokens returns the tokens of the body of f in the Go file src, or
// nil.
func funcTokens(name string, src []byte, f stubbedFunc) []string {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && funcOf(fd).Name == f.Name && funcOf(fd).Recv == f.Recv {
			return bodyTokens(fset, src, fd.Body)
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

// fillReference returns mine with the body of every function of labs for
// which fill says yes replaced by its body in ref, the imports those bodies
// need added, and how many it replaced.
func fillReference(name string, mine, ref []byte, labs []Lab, fill func(stubbedFunc) bool) ([]byte, int, error) {
	fset := token.NewFileSet()
	mf, err := parser.ParseFile(fset, name, mine, parser.ParseComments)
	if err != nil {
		return nil, 0, fmt.Errorf("%s does not parse: %w", name, err)
	}
	rset := token.NewFileSet()
	rf, err := parser.ParseFile(rset, name, ref, parser.ParseComments)
	if err != nil {
		return nil, 0, err
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
	for _, d := range mf.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		lab, f, ok := specOf(labs, funcOf(fd))
		if !ok || refBodies[f] == nil || !fill(stubbedFunc{lab.N, f}) {
			continue
		}
		edits = append(edits, edit{fset.Position(fd.Body.Lbrace).Offset, fset.Position(fd.Body.Rbrace).Offset + 1, refBodies[f]})
	}
	if len(edits) == 0 {
		return mine, 0, nil
	}
	out := slices.Clone(mine)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = slices.Concat(out[:e.start], e.body, out[e.end:])
	}
	out, err = addMissingImports(name, out, rf)
	if err != nil {
		return nil, 0, err
	}
	return out, len(edits), nil
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

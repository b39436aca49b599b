// prune.go finds the test files of a package that a set of graders needs, so that the
// grading build compiles those and leaves the others out (a build overlay
// deletes them): a third less to compile and link for every lab graded and
// every planted bug proved. A file is needed when it defines a grader, runs
// for every test (TestMain, init), or declares a name a needed file uses,
// or a method of a type a needed file uses. Names are matched by spelling,
// so a file may be kept that is not needed, never the other way round.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
)

// testFileFacts is what one test file declares and uses.
type testFileFacts struct {
	pkg      string
	declares []string            // top-level names: funcs, types, vars, consts
	methods  map[string][]string // receiver type → method names declared here
	uses     map[string]bool     // every identifier it spells
	always   bool                // declares TestMain or init
}

// neededTestFiles returns the names of the test files of files that the
// graders need. Files that do not parse are kept (the build will say why).
func neededTestFiles(files map[string][]byte, graders []string) map[string]bool {
	files = maps.Clone(files)
	maps.DeleteFunc(files, func(name string, _ []byte) bool { return !strings.HasSuffix(name, "_test.go") })
	facts := map[string]testFileFacts{}
	declaredIn := map[string][]string{} // name → files declaring it
	methodsOf := map[string][]string{}  // type → files declaring its methods
	needed := map[string]bool{}
	var queue []string
	need := func(name string) {
		if !needed[name] {
			needed[name] = true
			queue = append(queue, name)
		}
	}
	for _, name := range sortedKeys(files) {
		f, err := parser.ParseFile(token.NewFileSet(), name, files[name], parser.SkipObjectResolution)
		if err != nil {
			need(name)
			continue
		}
		ff := factsOf(f)
		facts[name] = ff
		for _, d := range ff.declares {
			declaredIn[d] = append(declaredIn[d], name)
		}
		for typ := range ff.methods {
			methodsOf[typ] = append(methodsOf[typ], name)
		}
		if ff.always || slices.ContainsFunc(ff.declares, func(d string) bool { return slices.Contains(graders, d) }) {
			need(name)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		ff, ok := facts[name]
		if !ok {
			continue
		}
		for id := range ff.uses {
			for _, other := range declaredIn[id] {
				if samePackage(facts[other].pkg, ff.pkg) {
					need(other)
				}
			}
			for _, other := range methodsOf[id] {
				if samePackage(facts[other].pkg, ff.pkg) {
					need(other)
				}
			}
		}
	}
	return needed
}

// samePackage reports whether test files of packages a and b may use each
// other's names: the same package, or a package and its external tests
// (x and x_test), which see its test files' exported names (LabGate).
func samePackage(a, b string) bool {
	return strings.TrimSuffix(a, "_test") == strings.TrimSuffix(b, "_test")
}

// factsOf reads what f declares and uses.
func factsOf(f *ast.File) testFileFacts {
	ff := testFileFacts{pkg: f.Name.Name, methods: map[string][]string{}, uses: map[string]bool{}}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					ff.methods[id.Name] = append(ff.methods[id.Name], d.Name.Name)
				}
				continue
			}
			if d.Name.Name == "TestMain" || d.Name.Name == "init" {
				ff.always = true
			}
			ff.declares = append(ff.declares, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					ff.declares = append(ff.declares, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						ff.declares = append(ff.declares, n.Name)
					}
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			ff.uses[id.Name] = true
		}
		return true
	})
	return ff
}

// prune makes r's build leave out the test files of r's package among
// files (by slash-separated path in r.dir) that the graders names do not
// need.
func (r *runner) prune(files map[string][]byte, names []string) {
	files = maps.Clone(files)
	maps.DeleteFunc(files, func(name string, _ []byte) bool { return !inDir(name, r.pkgDir()) })
	needed := neededTestFiles(files, names)
	if r.overlay == nil {
		r.overlay = map[string]string{}
	}
	for name := range files {
		if !needed[name] && strings.HasSuffix(name, "_test.go") {
			r.overlay[name] = ""
		}
	}
}

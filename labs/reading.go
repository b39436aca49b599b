// reading.go writes a reading of the project: a module of its own holding the
// root package with the code marked for later readings removed, the
// in-module packages the kept files import (tests included), transitively,
// testdata/, go.mod and the license. A lab workspace and the course's
// student repository are reading 2 with the labs' functions stubbed
// (generate.go): one generator, not two.
//
// The markers are comments a reader understands:
//   - Whole file: a line "// Reading N: <what it adds>" in the file's header
//     comment (before the package clause) makes the file reading N. Files
//     without one are reading 1; test files follow the same rule.
//   - Block: after the package clause, a line whose trimmed text starts
//     with "// Reading N: " opens a block, and the next line whose trimmed
//     text is "// End of reading N." closes it. Both lines and all between
//     are removed from readings below N. Blocks do not nest; a nested,
//     unclosed or mismatched block is an error naming the file and line.
//
// Reading n keeps the files and blocks of readings 1 to n. Where code was
// removed, the imports nothing uses any more go (by the syntax tree: a
// package name no selector qualifies; blank imports stay) and the file is
// formatted as gofmt would. The result must build, vet and pass its tests
// with no fixing by hand; if it does not, the marks are wrong.
//
// client-go counterpart: none (tooling for the readings and the labs).
//
// Tutorial: none; it serves every reading.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The markers, as MARKERS.md writes them.
var (
	openMarkRE  = regexp.MustCompile(`^\s*// Reading ([1-9]): `)
	closeMarkRE = regexp.MustCompile(`^\s*// End of reading ([1-9])\.$`)
	packageRE   = regexp.MustCompile(`^package [A-Za-z_][A-Za-z0-9_]*`)
)

// lastReading is the reading that is the root as it is.
const lastReading = 3

// readingNames are the readings' names, as the stats line prints them.
var readingNames = map[int]string{1: "first", 2: "second", 3: "third"}

// markError is a problem with the markers of one file, at one line.
type markError struct {
	File string
	Line int
	Msg  string
}

func (e markError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// markedFile is what the markers of one file say.
type markedFile struct {
	reading int     // the whole file's reading: 1 when unmarked
	blocks  []block // its blocks, in order
}

// block is one marked block: lines open..close (1-based, inclusive).
type block struct {
	reading     int
	open, close int
}

// parseMarks reads the markers of the Go file name. It stops at the first
// problem (a nested, unclosed or mismatched block, a header that marks two
// readings): what follows a broken block cannot be read with certainty.
func parseMarks(name string, src []byte) (markedFile, error) {
	m := markedFile{reading: 1}
	fail := func(line int, format string, args ...any) (markedFile, error) {
		return markedFile{}, markError{name, line, fmt.Sprintf(format, args...)}
	}
	inHeader := true
	headerMark := 0
	var open *block
	for i, l := range strings.Split(string(src), "\n") {
		n := i + 1
		if inHeader {
			if packageRE.MatchString(l) {
				inHeader = false
				continue
			}
			if g := openMarkRE.FindStringSubmatch(l); g != nil {
				r, _ := strconv.Atoi(g[1])
				if headerMark != 0 {
					return fail(n, "the header marks the file twice (reading %d at line %d, reading %d here)",
						m.reading, headerMark, r)
				}
				m.reading = r
				headerMark = n
			}
			continue
		}
		if g := openMarkRE.FindStringSubmatch(l); g != nil {
			r, _ := strconv.Atoi(g[1])
			if open != nil {
				return fail(n, "a block of reading %d opens inside the block of reading %d opened at line %d"+
					" (blocks do not nest)", r, open.reading, open.open)
			}
			open = &block{reading: r, open: n}
			continue
		}
		if g := closeMarkRE.FindStringSubmatch(l); g != nil {
			r, _ := strconv.Atoi(g[1])
			switch {
			case open == nil:
				return fail(n, "%q closes no open block", strings.TrimSpace(l))
			case open.reading != r:
				return fail(n, "%q closes the block of reading %d opened at line %d",
					strings.TrimSpace(l), open.reading, open.open)
			}
			open.close = n
			m.blocks = append(m.blocks, *open)
			open = nil
		}
	}
	if inHeader {
		return fail(1, "no package clause")
	}
	if open != nil {
		return fail(open.open, "the block of reading %d is never closed"+
			" (want a line \"// End of reading %d.\")", open.reading, open.reading)
	}
	return m, nil
}

// cutReading returns src as reading n has it: the lines of every block of
// a reading above n removed. The file as a whole is the caller's business.
func cutReading(src []byte, m markedFile, n int) (out []byte, changed bool) {
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	next := 0 // the index of the next block that may start
	for i := 0; i < len(lines); i++ {
		if next < len(m.blocks) && i+1 == m.blocks[next].open {
			blk := m.blocks[next]
			next++
			if blk.reading > n {
				i = blk.close - 1
				changed = true
				continue
			}
		}
		b.WriteString(lines[i])
	}
	return []byte(b.String()), changed
}

// tidyCut drops the imports that the removed code alone used, closes a
// list the cut left open on a line of its own, and formats the file as
// gofmt would. names maps an in-module import path to its
// package name (which need not be the path's last element).
func tidyCut(name string, src []byte, names map[string]string) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("%s, after removing the marked blocks: %w", name, err)
	}
	removeUnusedImports(file, names)
	out, err := render(fset, file)
	if err != nil {
		return nil, err
	}
	return joinDanglingLists(out)
}

// module is what go.mod says: the module path and the go line.
type module struct {
	Path, GoLine string
}

// readModule reads root/go.mod.
func readModule(root string) (module, error) {
	text, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return module{}, err
	}
	var m module
	for _, l := range strings.Split(string(text), "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] == "module" {
			m.Path = f[1]
		} else if len(f) == 2 && f[0] == "go" {
			m.GoLine = l
		}
	}
	if m.Path == "" {
		return m, fmt.Errorf("%s/go.mod has no module line", root)
	}
	return m, nil
}

// buildReading returns the files of reading n of the project in root, by
// slash-separated path: the root package's files of readings 1 to n, cut,
// and what they need. A marker problem in any file is reported, one per
// file, all at once, and nothing is returned then.
func buildReading(root string, n int) (map[string][]byte, error) {
	if n < 1 || n > lastReading {
		return nil, fmt.Errorf("there are readings 1 to %d, not %d", lastReading, n)
	}
	mod, err := readModule(root)
	if err != nil {
		return nil, err
	}
	names, err := packageNames(root)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	var problems []error
	for _, e := range entries {
		name := e.Name()
		skip := strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") // as the go command does
		if e.IsDir() || !strings.HasSuffix(name, ".go") || skip {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return nil, err
		}
		m, err := parseMarks(name, src)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if m.reading > n {
			continue
		}
		cut, changed := cutReading(src, m, n)
		if changed {
			if cut, err = tidyCut(name, cut, names); err != nil {
				problems = append(problems, err)
				continue
			}
		}
		out[name] = cut
	}
	if len(problems) > 0 {
		return nil, joinProblems("the reading markers", problems)
	}
	if err := addImported(root, mod.Path, out); err != nil {
		return nil, err
	}
	for _, extra := range []string{"testdata"} {
		if err := copyDir(root, extra, out, true); err != nil {
			return nil, err
		}
	}
	out["go.mod"] = []byte("module " + mod.Path + "\n\n" + mod.GoLine + "\n")
	// The license travels with the code; fakeapi/schema keeps its own NOTICE.md.
	if b, err := os.ReadFile(filepath.Join(root, "LICENSE")); err == nil {
		out["LICENSE"] = b
	}
	return out, nil
}

// joinProblems is one error listing problems, one a line.
func joinProblems(what string, problems []error) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s):", what, len(problems))
	for _, p := range problems {
		b.WriteString("\n  " + p.Error())
	}
	return fmt.Errorf("%s", b.String())
}

// addImported adds to out, whole, every in-module package that the Go
// files already in out import, and those they import, transitively; a
// package's own tests count, since it is copied with them.
func addImported(root, modPath string, out map[string][]byte) error {
	done := map[string]bool{".": true}
	var queue []string
	need := func(src []byte, name string) error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, is := range f.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if p != modPath && !strings.HasPrefix(p, modPath+"/") {
				continue
			}
			dir := strings.TrimPrefix(strings.TrimPrefix(p, modPath), "/")
			if dir == "" {
				dir = "."
			}
			if !done[dir] {
				done[dir] = true
				queue = append(queue, dir)
			}
		}
		return nil
	}
	for name, src := range out {
		if strings.HasSuffix(name, ".go") {
			if err := need(src, name); err != nil {
				return err
			}
		}
	}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if err := copyDir(root, dir, out, false); err != nil {
			return err
		}
		for name, src := range out {
			if strings.HasSuffix(name, ".go") && path.Dir(name) == dir {
				if err := need(src, name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// copyDir adds the files under root/dir to out. Without all, a
// subdirectory that is a Go package of its own is left out (testdata
// excepted): it is copied when something imports it. A subdirectory of
// data (fakeapi/schema, embedded; its generator is a go:build ignore file)
// comes with its package.
func copyDir(root, dir string, out map[string][]byte, all bool) error {
	top := filepath.Join(root, filepath.FromSlash(dir))
	return filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != top && !all && d.Name() != "testdata" && isPackage(p) {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = b
		return nil
	})
}

// isPackage reports whether dir holds a Go package: Go files that build
// (files a build constraint leaves out do not count).
func isPackage(dir string) bool {
	_, err := build.ImportDir(dir, 0)
	var noGo *build.NoGoError
	return !errors.As(err, &noGo)
}

// packageNames maps the import path of every package of the module in root
// to its name.
func packageNames(root string) (map[string]string, error) {
	mod, err := readModule(root)
	if err != nil {
		return nil, err
	}
	return modulePackageNames(root, mod.Path)
}

// modulePackageNames maps the import path of every package of the module
// to its name, read from the package clause of one of its files.
func modulePackageNames(root, modPath string) (map[string]string, error) {
	names := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		ip := modPath
		if dir != "." {
			ip += "/" + filepath.ToSlash(dir)
		}
		if _, ok := names[ip]; ok {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.PackageClauseOnly)
		if err != nil {
			return nil // a file that does not parse names nothing
		}
		names[ip] = f.Name.Name
		return nil
	})
	return names, err
}

// writeFiles writes files under dir, which must be empty or new.
func writeFiles(dir string, files map[string][]byte) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty: give an empty or new directory", dir)
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readingStats are the figures of a reading's root package: files, lines,
// lines that hold only a comment, and exported names without a doc comment.
type readingStats struct {
	Files, Lines, CommentLines int
	Undocumented               []string // "file.go: Name"
}

// statsOf counts the root non-test Go files of a reading.
func statsOf(files map[string][]byte) (readingStats, error) {
	var s readingStats
	for _, name := range sortedKeys(files) {
		if !isRootSource(name) {
			continue
		}
		src := files[name]
		s.Files++
		s.Lines += bytes.Count(src, []byte("\n"))
		s.CommentLines += commentLines(src)
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
		if err != nil {
			return s, err
		}
		for _, u := range undocumented(f) {
			s.Undocumented = append(s.Undocumented, name+": "+u)
		}
	}
	return s, nil
}

// line is the stats line CI prints (it adds what it proved: "; builds,
// vets, passes alone").
func (s readingStats) line(n int) string {
	pct := 0.0
	if s.Lines > 0 {
		pct = 100 * float64(s.CommentLines) / float64(s.Lines)
	}
	return fmt.Sprintf("%s reading: generated, %d files, %d lines, %.1f%% comments, %d undocumented",
		readingNames[n], s.Files, s.Lines, pct, len(s.Undocumented))
}

// commentLines counts the lines that hold only a comment.
func commentLines(src []byte) int {
	n := 0
	inBlock := false
	for _, ln := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(ln)
		switch {
		case inBlock:
			n++
			if strings.Contains(t, "*/") {
				inBlock = false
			}
		case strings.HasPrefix(t, "//"):
			n++
		case strings.HasPrefix(t, "/*"):
			n++
			inBlock = !strings.Contains(t, "*/")
		}
	}
	return n
}

// undocumented lists the exported top-level names of f, and the exported
// methods of its exported types, that have no doc comment.
func undocumented(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.FuncDecl:
			if !x.Name.IsExported() || x.Doc != nil {
				continue
			}
			if x.Recv != nil && !exportedReceiver(x.Recv.List[0].Type) {
				continue // not on the API page
			}
			out = append(out, x.Name.Name)
		case *ast.GenDecl:
			for _, s := range x.Specs {
				switch sp := s.(type) {
				case *ast.TypeSpec:
					if sp.Name.IsExported() && x.Doc == nil && sp.Doc == nil {
						out = append(out, sp.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.IsExported() && x.Doc == nil && sp.Doc == nil && sp.Comment == nil {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(t ast.Expr) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch ix := t.(type) {
	case *ast.IndexExpr:
		t = ix.X
	case *ast.IndexListExpr:
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return !ok || id.IsExported()
}

// isRootSource reports whether the path name of a reading is a non-test Go
// file of the root package: what the figures and the README's table count.
func isRootSource(name string) bool {
	isTest := strings.HasSuffix(name, "_test.go")
	return !strings.Contains(name, "/") && strings.HasSuffix(name, ".go") && !isTest
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

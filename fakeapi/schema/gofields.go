//go:build ignore

// gofields.go: writes the JSON facts of every protobuf field of the Go API
// types (one line per field) from the k8s.io/api and k8s.io/apimachinery
// sources in the module cache. The .proto files give each field's wire
// type; the Go types give what the .proto cannot: the field's JSON name
// (inline or renamed), and whether encoding/json omits its zero value
// (omitempty, omitzero, pointer). refresh.sh runs it:
//
//	go run gofields.go DIR=PROTOPACKAGE ... > gofields.txt
//
// Each line: "proto.package.Message number jsonName flags", the flags among
// ptr (a pointer), omitempty, omitzero, inline (JSON embeds the message's
// fields), slice, map, struct (a non-pointer struct). The messages are
// sorted by name; the lines of one message are in the order its Go fields
// are declared, which is the order encoding/json writes them in.

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

func main() {
	var lines []string
	// kinds maps "import/path.Type" to the kind of every named type of
	// every package given, so that a field of another package's string
	// type (apps' v1.ConditionStatus) is not taken for a struct.
	kinds := map[string]string{}
	parsed := map[string][]*ast.File{}
	fset := token.NewFileSet()
	for _, arg := range os.Args[1:] {
		dir, _, _ := strings.Cut(arg, "=")
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			fail(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				fail(err)
			}
			parsed[dir] = append(parsed[dir], file)
			for _, d := range file.Decls {
				if g, ok := d.(*ast.GenDecl); ok {
					for _, s := range g.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							kinds[importPath(dir)+"."+ts.Name.Name] = kindOf(ts.Type, nil, "", nil)
						}
					}
				}
			}
		}
	}
	for _, arg := range os.Args[1:] {
		dir, pkg, _ := strings.Cut(arg, "=")
		for _, file := range parsed[dir] {
			ast.Inspect(file, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return false
				}
				for _, fld := range st.Fields.List {
					if fld.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fld.Tag.Value)
					pb := reflect.StructTag(tag).Get("protobuf")
					if pb == "" || pb == "-" {
						continue
					}
					parts := strings.Split(pb, ",")
					num, name := parts[1], ""
					for _, p := range parts {
						if v, ok := strings.CutPrefix(p, "name="); ok {
							name = v
						}
					}
					js := strings.Split(reflect.StructTag(tag).Get("json"), ",")
					jsonName := js[0]
					var flags []string
					if jsonName == "" {
						jsonName = name
						if len(fld.Names) == 0 { // embedded: encoding/json inlines it
							flags = append(flags, "inline")
						}
					}
					for _, o := range js[1:] {
						flags = append(flags, o)
					}
					if k := kindOf(fld.Type, kinds, importPath(dir), importPaths(file)); k != "" {
						flags = append(flags, k)
					}
					flags = append(flags, "go="+goType(fld.Type, pkgName(dir), imports(file)))
					if jsonName == "" {
						jsonName = "_" // an unnamed embedded message: only its fields have names
					}
					lines = append(lines, strings.TrimSpace(fmt.Sprintf("%s.%s %s %s %s", pkg, ts.Name.Name, num, jsonName, strings.Join(flags, " "))))
				}
				return false
			})
		}
	}
	// By message name only: a message's lines keep their declaration order.
	sort.SliceStable(lines, func(i, j int) bool {
		return strings.Fields(lines[i])[0] < strings.Fields(lines[j])[0]
	})
	fmt.Println(strings.Join(lines, "\n"))
}

// kindOf is the flag of a field's Go type: ptr, slice, map, struct, or ""
// for a scalar (byte slices included: they are one JSON string). kinds
// resolves named types ("import/path.Type"), nil while they are collected;
// pkg is the field's own import path and imports maps its file's import
// names to paths. A named type of a package not given is taken for a struct.
func kindOf(t ast.Expr, kinds map[string]string, pkg string, imports map[string]string) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return "ptr"
	case *ast.ArrayType:
		if id, ok := t.Elt.(*ast.Ident); ok && id.Name == "byte" {
			return ""
		}
		return "slice"
	case *ast.MapType:
		return "map"
	case *ast.StructType:
		return "struct"
	case *ast.SelectorExpr:
		x, _ := t.X.(*ast.Ident)
		if x == nil || x.Name == "types" {
			return "" // types.UID and friends are strings
		}
		if k, ok := kinds[imports[x.Name]+"."+t.Sel.Name]; ok {
			return k
		}
		return "struct"
	case *ast.Ident:
		return kinds[pkg+"."+t.Name]
	}
	return ""
}

// goType spells a field's Go type as reflect and encoding/json's errors
// do: package name, not import alias ("v1.Container", "[]v1.Container",
// "map[string]string"), a pointer's element type for a pointer.
func goType(t ast.Expr, pkg string, imports map[string]string) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return goType(t.X, pkg, imports)
	case *ast.ArrayType:
		return "[]" + goType(t.Elt, pkg, imports)
	case *ast.MapType:
		return "map[" + goType(t.Key, pkg, imports) + "]" + goType(t.Value, pkg, imports)
	case *ast.SelectorExpr:
		x, _ := t.X.(*ast.Ident)
		return imports[x.Name] + "." + t.Sel.Name
	case *ast.Ident:
		switch t.Name {
		case "string", "bool", "int", "int32", "int64", "uint32", "uint64", "float64", "byte":
			return t.Name
		}
		return pkg + "." + t.Name
	}
	return "?"
}

// imports maps a file's import names (aliases or the path's last
// element) to the imported package's name, the last path element.
func imports(file *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range file.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		alias := name
		if im.Name != nil {
			alias = im.Name.Name
		}
		m[alias] = name
	}
	return m
}

// importPaths maps a file's import names (aliases or the path's last
// element) to the imported package's path.
func importPaths(file *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range file.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		alias := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			alias = im.Name.Name
		}
		m[alias] = path
	}
	return m
}

// importPath is the import path of a folder of the module cache:
// ".../k8s.io/api@v0.37.2/core/v1" is "k8s.io/api/core/v1".
func importPath(dir string) string {
	dir = filepath.ToSlash(dir)
	at := strings.LastIndex(dir, "@")
	start := strings.LastIndex(dir[:at], "/k8s.io/") + 1
	rest := dir[at:]
	if slash := strings.IndexByte(rest, '/'); slash >= 0 {
		return dir[start:at] + rest[slash:]
	}
	return dir[start:at]
}

// pkgName is the package name of a k8s.io folder: its last element.
func pkgName(dir string) string {
	return filepath.Base(dir)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

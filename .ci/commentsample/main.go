// Commentsample draws the random sample of comments that issue 35 (point
// 5) classifies by hand: why or contract, restating the code, or other.
// It is a measuring tool, not a check: CI does not run it.
//
//	go run ./labs reading 1 /tmp/r1
//	go run ./.ci/commentsample -n 80 -seed 35 /tmp/r1
//
// The population is every comment group of the root package's non-test Go
// files in DIR, in file-name order, except each file's header (the
// comments before the package clause) and the reading markers. The sample
// is the first n of math/rand/v2's rand.New(rand.NewPCG(seed, 0)).Perm of
// the population, printed in that order with file and line.
//
// It has no client-go counterpart and teaches no tutorial section.

package main

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	n := flag.Int("n", 80, "how many comments to draw")
	seed := flag.Uint64("seed", 35, "the random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: commentsample [-n 80] [-seed 35] DIR")
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(flag.Arg(0), "*.go"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	slices.Sort(files)
	type comment struct {
		where, text string
	}
	var all []comment
	counted := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		counted++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, cg := range f.Comments {
			text := cg.Text()
			if cg.End() < f.Package || strings.HasPrefix(text, "Reading ") || strings.HasPrefix(text, "End of reading ") {
				continue
			}
			pos := fset.Position(cg.Pos())
			all = append(all, comment{fmt.Sprintf("%s:%d", filepath.Base(name), pos.Line), text})
		}
	}
	fmt.Printf("population: %d comment groups in %d files\n", len(all), counted)
	perm := rand.New(rand.NewPCG(*seed, 0)).Perm(len(all))
	for i, j := range perm[:min(*n, len(all))] {
		fmt.Printf("\n#%d %s\n%s", i+1, all[j].where, all[j].text)
	}
}

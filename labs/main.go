// Command labs is the lab kit: it writes a workspace in which one lab's
// functions are stubs, and grades a workspace lab by lab.
//
//	go run ./labs new -lab N DIR            a workspace for lab N (1–6)
//	go run ./labs new -lab N -solved DIR    the same workspace, reference bodies in place
//	go run ./labs grade [-json] DIR         run the graders, print a score per lab
//	go run ./labs list                      the labs, their functions and graders
//	go run ./labs graders -lab N            the names of lab N's graders (for CI)
//	go run ./labs reading [-stats] N DIR    write reading N (1-3) as a module of its own
//	go run ./labs readme-check              the README's first-reading table against reading 1
//
// The handouts are labs/NN/README.md (English) and README.zh-CN.md
// (Chinese); the teacher's guide is docs/teaching.md.
//
// client-go counterpart: none (a course built on this repository).
//
// Tutorial: every lab names its sections; see spec.go.

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "new":
		err = cmdNew(os.Args[2:])
	case "grade":
		err = cmdGrade(os.Args[2:])
	case "list":
		cmdList()
	case "graders":
		err = cmdGraders(os.Args[2:])
	case "reading":
		err = cmdReading(os.Args[2:])
	case "readme-check":
		err = cmdReadmeCheck(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "labs:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  go run ./labs new -lab N [-solved] DIR   write the workspace of lab N (1-6) to DIR
  go run ./labs grade [-json] DIR          grade the workspace in DIR, lab by lab
  go run ./labs list                       list the labs
  go run ./labs reading [-stats] N DIR     write reading N (1-3) to DIR as a module of its own;
                                           -stats prints its figures (files, lines, comments)
  go run ./labs readme-check               check the README's first-reading table`)
	os.Exit(2)
}

func cmdNew(args []string) error {
	fs := flag.NewFlagSet("new", flag.ExitOnError)
	n := fs.Int("lab", 0, "the lab (1-6)")
	solved := fs.Bool("solved", false, "write the reference bodies instead of stubs")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("new: give one directory, e.g. go run ./labs new -lab 2 /tmp/lab2")
	}
	lab, ok := labByNumber(*n)
	if !ok {
		return fmt.Errorf("new: -lab must be 1 to %d", len(Labs))
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	dir := fs.Arg(0)
	if err := newWorkspace(root, lab, *solved, dir); err != nil {
		return err
	}
	// Bilingual, as grade prints: the kit does not guess the reader's language.
	what := fmt.Sprintf("lab %d (%s): %d functions stubbed / 实验 %d（%s）：%d 个函数已挖空",
		lab.N, lab.Title, len(lab.Funcs), lab.N, lab.TitleZH, len(lab.Funcs))
	if *solved {
		what = fmt.Sprintf("lab %d, solved: the reference code / 实验 %d 的参考实现", lab.N, lab.N)
	}
	fmt.Printf("wrote / 已写入 %s: %s\nnext / 下一步: cd %s && go test -run Lab%02d ./...\n",
		dir, what, dir, lab.N)
	return nil
}

// cmdGraders prints the names of lab N's graders, one a line: its
// TestLabNN tests, then the project tests that grade it (for .ci/labs).
func cmdGraders(args []string) error {
	fs := flag.NewFlagSet("graders", flag.ExitOnError)
	n := fs.Int("lab", 0, "the lab (1-6)")
	fs.Parse(args)
	lab, ok := labByNumber(*n)
	if !ok {
		return fmt.Errorf("graders: -lab must be 1 to %d", len(Labs))
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, _ := filepath.Glob(filepath.Join(root, "labs", fmt.Sprintf("%02d", lab.N), "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, m := range graderFuncRE.FindAllSubmatch(b, -1) {
			fmt.Println(string(m[1]))
		}
	}
	for _, t := range lab.ProjectGraders {
		fmt.Println(t)
	}
	return nil
}

// readingStamp marks a folder written by `labs reading`, which a later run
// may replace.
const readingStamp = ".labs-reading"

// cmdReading writes reading N to DIR; with -stats it prints the line CI
// completes once the reading has built, vetted and passed its tests there.
func cmdReading(args []string) error {
	fs := flag.NewFlagSet("reading", flag.ExitOnError)
	stats := fs.Bool("stats", false, "print the reading's figures: files, lines, comment lines, undocumented names")
	fs.Parse(args)
	if fs.NArg() != 2 {
		return errors.New("reading: give the reading and a directory, e.g. go run ./labs reading 1 /tmp/first")
	}
	n, err := strconv.Atoi(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("reading: %q is not a reading number (1-%d)", fs.Arg(0), lastReading)
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, err := buildReading(root, n)
	if err != nil {
		return err
	}
	dir := fs.Arg(1)
	// A reading written here before is replaced, so the command can be run
	// again as printed; any other non-empty directory is refused.
	if _, err := os.Stat(filepath.Join(dir, readingStamp)); err == nil {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	files[readingStamp] = []byte("written by go run ./labs reading: running it again replaces this folder\n")
	if err := writeFiles(dir, files); err != nil {
		return err
	}
	if !*stats {
		fmt.Printf("wrote reading %d to %s: %d files\n", n, fs.Arg(1), len(files))
		return nil
	}
	s, err := statsOf(files)
	if err != nil {
		return err
	}
	fmt.Println(s.line(n))
	for _, u := range s.Undocumented {
		fmt.Println("  undocumented:", u)
	}
	return nil
}

// cmdReadmeCheck checks the README's first-reading table (both languages)
// against reading 1.
func cmdReadmeCheck(args []string) error {
	if len(args) != 0 {
		return errors.New("readme-check takes no arguments")
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, err := buildReading(root, 1)
	if err != nil {
		return err
	}
	if err := checkReadmes(root, files); err != nil {
		return err
	}
	fmt.Println("the README's first-reading tables list exactly reading 1's root files, with their line counts")
	return nil
}

func cmdList() {
	for _, l := range Labs {
		fmt.Printf("lab %d: %s (%s), about %d min; tutorial %s\n", l.N, l.Title, l.TitleZH, l.Minutes, l.Tutorial)
		for _, f := range l.Funcs {
			fmt.Printf("    §%d %s\n", f.Section, f)
		}
		fmt.Printf("    graders: TestLab%02d* and %d project tests\n", l.N, len(l.ProjectGraders))
	}
}

// projectRoot finds the directory above the working directory that holds
// both go.mod and labs/spec.go: the project the kit belongs to.
func projectRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "labs", "kit", "labkit_test.go")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run this inside the informer project (no labs/kit/labkit_test.go above here) / 请在 informer 项目目录里运行（上层目录里没有 labs/kit/labkit_test.go）")
		}
		dir = parent
	}
}

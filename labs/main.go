// Command labs is the course kit: it writes the readings of the project and
// the student repository of the labs, grades a lab in a student's
// repository, grades a class, and proves its graders with planted bugs.
//
// A learner, in their repository:
//
//	go run ./labs test N                    grade lab N in full: -race, a time limit per
//	                                        grader, every failure's reason; exit 1 on failure
//
// A teacher, in the project (the kit):
//
//	go run ./labs course DIR                a student repository: every lab stubbed, a git repository
//	go run ./labs course -update DIR        bring the course repository DIR up to this kit, as a commit
//	go run ./labs new -lab N DIR            the same, with the reference of the labs before N
//	go run ./labs reference -labs 2-6 REPO  fill in the reference of those labs' stubs (-before N: labs < N)
//	go run ./labs grade REPO...             grade a class: a table, a summary, CSV and JSON; exit 1 on failure
//	go run ./labs bugs [-lab N]             prove the graders: every planted bug is caught
//	go run ./labs bugs -try -lab N PATCH... try a bug of your own against every grader of lab N
//	go run ./labs list                      the labs, their functions and graders
//	go run ./labs reading [-stats] N DIR    write reading N (1-3) as a module of its own
//
// And for CI: `graders -lab N`, `readme-check`, `handout-check`,
// `leak-check DIR`, `zh-check [-catalog] [FILE...]`, `new -solved DIR`,
// `new -through N DIR`.
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
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	commands := map[string]func([]string) error{
		"test":          cmdTest,
		"course":        cmdCourse,
		"new":           cmdNew,
		"reference":     cmdReference,
		"grade":         cmdGrade,
		"bugs":          cmdBugs,
		"graders":       cmdGraders,
		"reading":       cmdReading,
		"readme-check":  cmdReadmeCheck,
		"handout-check": cmdHandoutCheck,
		"leak-check":    cmdLeakCheck,
		"zh-check":      cmdZhCheck,
		"list": func([]string) error {
			cmdList()
			return nil
		},
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		usage()
	}
	if err := cmd(os.Args[2:]); err != nil {
		if !errors.Is(err, errFailed) {
			fmt.Fprintln(os.Stderr, "labs:", err)
		}
		os.Exit(1)
	}
}

func usage() {
	// In a student repository only the learner's commands work (the others
	// need the kit, which is not there): list those, and say whose the
	// others are, rather than offer commands that fail.
	if _, err := findUp(kitMarker); err != nil {
		if readerChinese() {
			fmt.Fprintln(os.Stderr, "用法（学生仓库）：\n"+
				"  go run ./labs test N          给本仓库的实验 N 评分：用 -race 编译，每个评分测试有时间限制，\n"+
				"                                说明每个失败的原因；有失败时以状态 1 退出\n"+
				"                                （-timeout 改每个评分测试的时间限制，-p 改同时运行的评分测试个数）\n"+
				"  go run ./labs list            列出各个实验、要实现的函数和评分测试\n"+
				"其他命令（`course`、`new`、`reference`、`grade`、`bugs`、`reading`、`zh-check` 和各项检查）是老师用的：\n"+
				"它们在 informer 项目（教师的工具包）里运行，不在这里。")
		} else {
			fmt.Fprintln(os.Stderr, `usage (a student repository):
  go run ./labs test N          grade lab N in this repository: built with -race, a time limit per grader,
                                why each failure failed; exit 1 on failure
                                (-timeout sets each grader's time limit, -p how many run at once)
  go run ./labs list            list the labs, the functions to write and the graders
The other commands (course, new, reference, grade, bugs, reading, zh-check and the checks) are the
teacher's: they run in the informer project, the kit, not here.`)
		}
		os.Exit(2)
	}
	fmt.Fprintln(os.Stderr, `usage:
  go run ./labs test N                      grade lab N in this repository (a learner's command)
  go run ./labs course DIR                  write a student repository, every lab stubbed
  go run ./labs course -update DIR          bring the course repository DIR up to this kit, as a new commit
  go run ./labs new -lab N DIR              the same, with the reference of the labs before N
  go run ./labs reference -labs 2-6 REPO    fill in the reference of those labs where REPO still has stubs
                                            (-before N: the labs before N; -force: the learner's own too, after a backup)
  go run ./labs grade [-labs 1-3] [-o PREFIX] [-roster FILE] [-weights FILE] [-deadline TIME] REPO...
                                            grade a class; writes PREFIX.csv and PREFIX.json
  go run ./labs bugs [-lab N]               apply every planted bug and prove the graders catch it
  go run ./labs bugs -try -lab N PATCH...   try bugs of your own against every grader of lab N
  go run ./labs list                        list the labs
  go run ./labs reading [-stats] N DIR      write reading N (1-3) to DIR as a module of its own
  go run ./labs readme-check                check the README's first-reading table
  go run ./labs zh-check [-catalog] [FILE]  find English outside code in what labs test printed for a Chinese reader`)
	os.Exit(2)
}

// labArg parses a lab number.
func labArg(s string) (Lab, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return Lab{}, fmt.Errorf("%q is not a lab number (1-%d)", s, len(Labs))
	}
	lab, ok := labByNumber(n)
	if !ok {
		return Lab{}, fmt.Errorf("there are labs 1 to %d, not %d", len(Labs), n)
	}
	return lab, nil
}

// cmdCourse writes the student repository: every lab stubbed. With
// -update it brings the course repository a teacher publishes up to the
// kit, as a new commit (update.go).
func cmdCourse(args []string) error {
	fs := flag.NewFlagSet("course", flag.ExitOnError)
	update := fs.Bool("update", false, "bring the course repository DIR up to this kit, as a new commit")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("course: give one directory, e.g. go run ./labs course ~/informer-course")
	}
	if *update {
		return updateCourse(fs.Arg(0))
	}
	return writeTree(fs.Arg(0), 1)
}

// cmdNew writes a student repository that starts at lab N: the labs before
// it hold the reference. -solved writes every lab's reference (a teacher's
// tree); -through N the reference of labs 1 to N (CI's "done up to N").
func cmdNew(args []string) error {
	fs := flag.NewFlagSet("new", flag.ExitOnError)
	n := fs.Int("lab", 0, "the lab to start at (1 to the last)")
	solved := fs.Bool("solved", false, "every lab's reference, nothing stubbed (a teacher's tree)")
	through := fs.Int("through", 0, "the reference of labs 1 to N, the later labs stubbed")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("new: give one directory, e.g. go run ./labs new -lab 2 /tmp/lab2")
	}
	switch {
	case *solved:
		return writeTree(fs.Arg(0), len(Labs)+1)
	case *through > 0:
		return writeTree(fs.Arg(0), *through+1)
	}
	if _, ok := labByNumber(*n); !ok {
		return fmt.Errorf("new: -lab must be 1 to %d", len(Labs))
	}
	return writeTree(fs.Arg(0), *n)
}

// writeTree writes the repository whose labs from stubFrom on are stubs,
// and says what to do next.
func writeTree(dir string, stubFrom int) error {
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, err := buildTree(root, stubFrom)
	if err != nil {
		return err
	}
	if err := writeFiles(dir, files); err != nil {
		return err
	}
	zh := readerChinese()
	if err := commitTree(root, dir, stubFrom, zh); err != nil {
		return err
	}
	switch {
	case stubFrom > len(Labs):
		fmt.Println(pick(zh, "wrote "+dir+": every lab's reference (a teacher's tree: do not hand it out)",
			"已写入 "+dir+"：所有实验的参考实现（教师用：不要发给学生）"))
		return nil
	case stubFrom == 1:
		fmt.Println(pick(zh, fmt.Sprintf("wrote %s: the course repository, every lab's functions stubbed (%d labs)", dir, len(Labs)),
			fmt.Sprintf("已写入 %s：课程仓库，%d 个实验的函数都已挖空", dir, len(Labs))))
	default:
		var done, stubs []int
		for _, l := range Labs {
			if l.N < stubFrom {
				done = append(done, l.N)
			} else {
				stubs = append(stubs, l.N)
			}
		}
		plural := func(ns []int, en string) string {
			if len(ns) == 1 {
				return "lab " + labNumbers(ns, false) + " " + en
			}
			return "labs " + labNumbers(ns, false) + " " + map[string]string{"holds": "hold", "is": "are"}[en]
		}
		fmt.Println(pick(zh, fmt.Sprintf("wrote %s: %s the reference, %s stubbed", dir, plural(done, "holds"), plural(stubs, "is")),
			fmt.Sprintf("已写入 %s：实验 %s 是参考实现，实验 %s 已挖空", dir, labNumbers(done, true), labNumbers(stubs, true))))
	}
	lab, _ := labByNumber(stubFrom)
	fmt.Println(pick(zh,
		fmt.Sprintf("next: read labs/%02d/README.md, then: cd %s && go run ./labs test %d", lab.N, dir, lab.N),
		fmt.Sprintf("下一步：读 labs/%02d/README.zh-CN.md，然后：cd %s && go run ./labs test %d", lab.N, dir, lab.N)))
	return nil
}

// commitTree makes the repository just written in dir a git repository
// with one commit, the course as handed out, and says so; without git it
// says that the folder is not one.
func commitTree(root, dir string, stubFrom int, zh bool) error {
	if !haveGit() {
		fmt.Println(pick(zh, "no git command: "+dir+" is a plain folder, not a git repository",
			"没有 git 命令："+dir+" 只是普通文件夹，不是 git 仓库"))
		return nil
	}
	msg := "The informer course, as handed out: every lab stubbed"
	if stubFrom > 1 && stubFrom <= len(Labs) {
		msg = fmt.Sprintf("The informer course from lab %d: labs 1 to %d hold the reference", stubFrom, stubFrom-1)
	} else if stubFrom > len(Labs) {
		msg = "The informer course, every lab solved (a teacher's tree)"
	}
	if v := kitVersion(root); v != "" {
		msg += " (kit " + v + ")"
	}
	if err := initRepo(dir, msg); err != nil {
		return err
	}
	fmt.Println(pick(zh, "a git repository on branch main, with one commit: "+msg,
		"一个 git 仓库，分支 `main`，只有一个提交："+msg))
	return nil
}

// pick returns en or zh.
func pick(zh bool, en, zhText string) string {
	if zh {
		return zhText
	}
	return en
}

// cmdGraders prints the names of lab N's graders, one a line: its
// TestLabNN tests, then the project tests that grade it.
func cmdGraders(args []string) error {
	fs := flag.NewFlagSet("graders", flag.ExitOnError)
	n := fs.Int("lab", 0, "the lab (1 to the last)")
	fs.Parse(args)
	lab, ok := labByNumber(*n)
	if !ok {
		return fmt.Errorf("graders: -lab must be 1 to %d", len(Labs))
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, err := kitGraderFiles(root)
	if err != nil {
		return err
	}
	for _, name := range labGraders(lab, files) {
		fmt.Println(name)
	}
	return nil
}

// readingStamp marks a folder written by `labs reading`, which a later run
// may replace.
const readingStamp = ".labs-reading"

// kitGraderFiles returns the kit's grader files, by the name they get in a
// student repository: labNN_test.go.
func kitGraderFiles(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	matches, _ := filepath.Glob(filepath.Join(root, "labs", "[0-9][0-9]", "*_test.go"))
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		files[filepath.Base(m)] = untag(b)
	}
	return files, nil
}

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
	full, err := buildReading(root, lastReading)
	if err != nil {
		return err
	}
	left, err := leftovers(n, files, full)
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
	if len(left) > 0 {
		return fmt.Errorf("reading %d, written to %s, keeps %d leftover(s) of the cut (labs/leftovers.go):\n  %s",
			n, dir, len(left), strings.Join(left, "\n  "))
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
		fmt.Printf("lab %d: %s (%s), about %d min; tutorial %s; pipeline %s\n",
			l.N, l.Title, l.TitleZH, l.Minutes, l.Tutorial, l.Pipeline)
		for _, f := range l.Funcs {
			fmt.Printf("    §%d %s\n", f.Section, f)
		}
		fmt.Printf("    graders: TestLab%02d* and %d project tests\n", l.N, len(l.ProjectGraders))
	}
}

// projectRoot finds the directory above the working directory that holds
// the kit (labs/kit/labkit_test.go): the project, not a student repository.
func projectRoot() (string, error) {
	dir, err := findUp(kitMarker)
	if err != nil {
		return "", errors.New("run this in the informer project, the teacher's kit (no labs/kit/labkit_test.go above here)" +
			" / 请在 informer 项目（教师的工具包）里运行（上层目录里没有 labs/kit/labkit_test.go）")
	}
	return dir, nil
}

// findUp returns the first directory from the working directory upwards
// that holds name.
func findUp(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no %s above the working directory", name)
		}
		dir = parent
	}
}

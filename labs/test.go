// test.go is the learner's command, `go run ./labs test N`, run in their
// repository: every grader of lab N (its TestLabNN tests, the project tests
// that prove the same piece, the randomised checks against a model), the
// tests of the lab's package built with -race, each in a process of its own with a time limit; each
// failure's reason in the learner's language; exit status 1 on any failure.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// defaultTimeout is each grader's time limit. A right answer takes a few
// seconds at most, even with -race on a busy machine; a hang is stopped here.
const defaultTimeout = 30 * time.Second

func cmdTest(args []string) error {
	fs := flag.NewFlagSet("test", flag.ExitOnError)
	timeout := fs.Duration("timeout", defaultTimeout, "each grader's time limit")
	workers := fs.Int("p", defaultWorkers(), "how many graders run at once")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New(pick(readerChinese(), "test: give the lab, e.g. go run ./labs test 2", "go run ./labs test：请给出实验编号，例如 go run ./labs test 2"))
	}
	lab, err := labArg(fs.Arg(0))
	if err != nil {
		return err
	}
	dir, err := findRepo()
	if err != nil {
		if _, perr := projectRoot(); perr == nil {
			return errors.New("this is the project (the teacher's kit), not a student repository: write one with" +
				" go run ./labs course DIR / 这里是项目（教师的工具包），不是学生仓库：先用 go run ./labs course DIR 生成一个")
		}
		return errors.New("no student repository here (no lab_kit_test.go above the working directory)" +
			" / 这里没有学生仓库（上层目录里没有 lab_kit_test.go）")
	}
	mod, err := readModule(dir)
	if err != nil {
		return err
	}
	states, err := repoLabs(dir)
	if err != nil {
		return err
	}
	if msg := missingLabs(lab, states, dir, readerChinese()); msg != "" {
		fmt.Print(msg)
		return errFailed
	}
	tests, err := packageTestFiles(dir, lab.pkgDir())
	if err != nil {
		return err
	}
	r := &runner{dir: dir, pkg: lab.pkgDir(), module: mod.Path, timeout: *timeout, workers: *workers, zh: readerChinese()}
	names := labGraders(lab, tests)
	r.prune(tests, names)
	ok, err := gradeLab(context.Background(), r, lab, names, os.Stdout)
	if err != nil {
		return err
	}
	if !ok {
		return errFailed
	}
	return nil
}

// missingLabs says, when a lab that lab needs is still (partly) stubs in
// the repository dir, which labs those are and the one command, run by a
// teacher in the kit, that fills them in; "" when none is. Grading lab
// with them missing would fail every grader with their stubs' messages.
func missingLabs(lab Lab, states []labState, dir string, zh bool) string {
	var ns []int
	var stubs []stubbedFunc
	for _, s := range states {
		if !slices.ContainsFunc(lab.needs(), func(l Lab) bool { return l.N == s.Lab.N }) || !s.stubbed() {
			continue
		}
		ns = append(ns, s.Lab.N)
		for _, f := range s.Stubs {
			stubs = append(stubs, stubbedFunc{s.Lab.N, f})
		}
	}
	if len(ns) == 0 {
		return ""
	}
	abs, _ := filepath.Abs(dir)
	var needs []int
	for _, l := range lab.needs() {
		needs = append(needs, l.N)
	}
	on := "labs " + labNumbers(needs, false)
	if len(needs) == 1 {
		on = "lab " + labNumbers(needs, false)
	}
	example := stubs[0]
	which := "labs " + labNumbers(ns, false) + " are"
	if len(ns) == 1 {
		which = "lab " + labNumbers(ns, false) + " is"
	}
	return pick(zh,
		fmt.Sprintf("lab %d runs on %s, and in this repository %s still stubs: %s (the first: %s of lab %d).\n"+
			"Write them first (go run ./labs test %d grades lab %d), or ask your teacher to fill in their reference.\n"+
			"In the kit (the informer project), the teacher runs:\n\n    go run ./labs reference -labs %s %s\n\n"+
			"It fills in only what is still a stub. Nothing was graded.\n",
			lab.N, on, which, countFuncs(len(stubs), false), example.Func, example.Lab,
			ns[0], ns[0], labsFlag(ns), abs),
		fmt.Sprintf("实验 %d 建立在实验 %s 之上，而本仓库里实验 %s 还是桩函数：共 %d 个函数（第一个：实验 %d 的 %s）。\n"+
			"请先写完它们（go run ./labs test %d 给实验 %d 评分），或者请老师填入它们的参考实现。\n"+
			"老师在工具包（informer 项目）里运行：\n\n    go run ./labs reference -labs %s %s\n\n"+
			"它只填入仍是桩函数的部分。本次没有评分。\n",
			lab.N, labNumbers(needs, true), labNumbers(ns, true), len(stubs), example.Lab, example.Func,
			ns[0], ns[0], labsFlag(ns), abs))
}

// packageTestFiles returns the test files of the package in pkg, a
// directory of the repository dir, by their slash-separated path in it
// ("fifo_test.go", "workqueue/queue_test.go").
func packageTestFiles(dir, pkg string) (map[string][]byte, error) {
	files := map[string][]byte{}
	matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pkg), "*_test.go"))
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		files[path.Join(pkg, filepath.Base(m))] = b
	}
	return files, nil
}

// findRepo returns the student repository the working directory is in:
// the first directory upwards with a go.mod, if it holds lab_kit_test.go.
func findRepo() (string, error) {
	dir, err := findUp("go.mod")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "lab_kit_test.go")); err != nil {
		return "", err
	}
	return dir, nil
}

// gradeLab builds r's package and runs lab's graders, printing each
// result to w as it comes and a last line with the score. It reports
// whether every grader passed; err is for what kept it from grading.
func gradeLab(ctx context.Context, r *runner, lab Lab, names []string, w *os.File) (bool, error) {
	title := lab.Title
	if r.zh {
		title = lab.TitleZH
	}
	fmt.Fprintln(w, r.pick(
		fmt.Sprintf("lab %d: %s: %d graders, built with -race, each within %s", lab.N, title, len(names), r.timeout),
		fmt.Sprintf("实验 %d：%s：%d 个评分测试，用 -race 编译，每个限时 %s", lab.N, title, len(names), r.timeout)))
	tmp, err := os.MkdirTemp("", "labs-test-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	// The first build compiles the standard library and the repository
	// with the race detector: minutes, with nothing to show. Say so first,
	// and that it is still going, so that nobody stops it thinking it hangs.
	fmt.Fprintln(w, r.pick(
		"building the tests with the race detector (-race): seconds if Go's build cache has them, else (the first time) about 3 minutes on 2 cores",
		"正在用竞态检测器（-race）编译测试：Go 的构建缓存里已有时只要几秒，没有时（第一次）在 2 核机器上约需 3 分钟"))
	out, err := buildSaying(ctx, r, tmp, w)
	if err != nil {
		fmt.Fprint(w, out)
		fmt.Fprintln(w, r.pick(
			fmt.Sprintf("lab %d: the repository does not build (above): every grader fails. FAIL", lab.N),
			fmt.Sprintf("实验 %d：仓库无法编译（见上）：所有评分测试都算失败。未通过", lab.N)))
		return false, nil
	}
	passed := 0
	r.run(ctx, lab, names, func(res graderResult) {
		printResult(w, res, r.zh)
		if res.Status == "pass" {
			passed++
		}
	})
	if passed == len(names) {
		fmt.Fprintln(w, r.pick(fmt.Sprintf("lab %d: all %d graders passed. PASS", lab.N, len(names)),
			fmt.Sprintf("实验 %d：全部 %d 个评分测试通过。通过", lab.N, len(names))))
		return true, nil
	}
	fmt.Fprintln(w, r.pick(fmt.Sprintf("lab %d: %d of %d graders passed. FAIL", lab.N, passed, len(names)),
		fmt.Sprintf("实验 %d：%d/%d 个评分测试通过。未通过", lab.N, passed, len(names))))
	return false, nil
}

// buildSaying builds r's tests into tmp, printing a line to w every 30 s
// while the build runs.
func buildSaying(ctx context.Context, r *runner, tmp string, w *os.File) (string, error) {
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := r.build(ctx, tmp)
		done <- result{out, err}
	}()
	start := time.Now()
	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
	for {
		select {
		case res := <-done:
			return res.out, res.err
		case <-tick.C:
			took := time.Since(start).Round(time.Second)
			fmt.Fprintln(w, r.pick(fmt.Sprintf("  still building (%s)", took), fmt.Sprintf("  仍在编译（%s）", took)))
		}
	}
}

// printResult prints one grader's result: a line, and its reasons below.
func printResult(w *os.File, res graderResult, zh bool) {
	mark := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "SKIP"}[res.Status]
	if zh {
		mark = map[string]string{"pass": "通过", "fail": "失败", "skip": "跳过"}[res.Status]
	}
	fmt.Fprintf(w, "  %s %s (%.1fs)\n", mark, res.Name, res.Elapsed.Seconds())
	for _, reason := range res.Reasons {
		fmt.Fprintln(w, "       "+strings.ReplaceAll(reason, "\n", "\n       "))
	}
}

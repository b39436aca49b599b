// run.go grades labs in a repository: it builds the tests of the lab's
// package once, with -race, and runs each grader in a process of its own
// with a time limit, a few at a time. A grader that hangs is stopped at the
// limit and reported with the call that did not return, read from the
// goroutine dump Go prints; a panic, a data race or a failed check is
// reported with its reason, in the reader's language. One grader's crash
// or hang costs no other grader its result.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

// runner runs graders in one repository.
type runner struct {
	dir     string            // the repository
	pkg     string            // the directory of the package whose tests are the graders: "." for the root
	module  string            // its module path
	overlay map[string]string // file in dir → the file the build reads instead ("": none)
	timeout time.Duration     // per grader
	workers int               // graders run at once
	zh      bool              // report in Chinese
	bin     string            // the test binary, once built
}

// graderResult is what one grader did.
type graderResult struct {
	Name    string        `json:"name"`
	Status  string        `json:"status"` // "pass", "fail", "skip"
	Reasons []string      `json:"reasons,omitempty"`
	Hung    bool          `json:"hung,omitempty"`
	Elapsed time.Duration `json:"-"`
}

// build compiles the tests of r's package into a binary in tmp. It returns
// the compiler's output when the package does not build.
func (r *runner) build(ctx context.Context, tmp string) (string, error) {
	r.bin = filepath.Join(tmp, "graders.test")
	// -s -w: no symbol table or DWARF, which a test binary's goroutine
	// dumps do not need (they read the pclntab); the link is quicker.
	args := []string{"test", "-c", "-race", "-trimpath", "-ldflags=-s -w", "-o", r.bin}
	if len(r.overlay) > 0 {
		o := struct{ Replace map[string]string }{map[string]string{}}
		for from, to := range r.overlay {
			o.Replace[filepath.Join(r.dir, from)] = to
		}
		b, _ := json.Marshal(o)
		p := filepath.Join(tmp, "overlay.json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return "", err
		}
		args = append(args, "-overlay", p)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+r.pkgDir())...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), err
	}
	return "", nil
}

// run runs the graders of lab, at most r.workers at a time, and calls done
// with each result in the order of names as soon as it and those before it
// are known.
func (r *runner) run(ctx context.Context, lab Lab, names []string, done func(graderResult)) []graderResult {
	results := make([]graderResult, len(names))
	ready := make([]chan struct{}, len(names))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	sem := make(chan struct{}, max(r.workers, 1))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = r.runOne(ctx, lab, name)
			close(ready[i])
		})
	}
	for i := range names {
		<-ready[i]
		if done != nil {
			done(results[i])
		}
	}
	wg.Wait()
	return results
}

// runOne runs one grader in a process of its own.
func (r *runner) runOne(ctx context.Context, lab Lab, name string) graderResult {
	start := time.Now()
	// The process gets the time limit twice: Go's own, which prints every
	// goroutine when it fires, and a kill a little later in case it cannot.
	ctx, cancel := context.WithTimeout(ctx, r.timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, "-test.run", "^"+regexp.QuoteMeta(name)+"$", "-test.v",
		"-test.count=1", fmt.Sprintf("-test.timeout=%s", r.timeout))
	cmd.Dir = filepath.Join(r.dir, r.pkgDir()) // as go test runs a package's tests: in its directory
	// GORACE: the race detector waits a second at exit by default, for
	// reports from goroutines still running; a grader's report is in by then.
	cmd.Env = append(os.Environ(), fmt.Sprintf("INFORMER_LAB=%d", lab.N), "INFORMER_PIPELINE="+lab.Pipeline,
		"GORACE=atexit_sleep_ms=50")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	res := r.judge(lab, name, out.String(), err)
	res.Elapsed = time.Since(start)
	return res
}

// judge reads a grader's output and exit status.
func (r *runner) judge(lab Lab, name, out string, err error) graderResult {
	res := graderResult{Name: name}
	passed := regexp.MustCompile(`(?m)^--- PASS: ` + regexp.QuoteMeta(name) + ` `).MatchString(out)
	skipped := regexp.MustCompile(`(?m)^--- SKIP: ` + regexp.QuoteMeta(name) + ` `).MatchString(out)
	ran := strings.Contains(out, "=== RUN   "+name+"\n")
	switch {
	case err == nil && passed:
		res.Status = "pass"
		return res
	case err == nil && skipped:
		res.Status = "skip"
		res.Reasons = []string{r.pick("skipped: ", "被跳过：") + r.say(lastN(messages(out), 1))}
		return res
	}
	res.Status = "fail"
	switch {
	case strings.Contains(out, "panic: test timed out after"):
		res.Hung = true
		res.Reasons = []string{r.hangReason(name, out)}
	case !ran && err != nil:
		res.Reasons = []string{r.pick("no such test in this repository (was a test file changed?)",
			"本仓库里没有这个测试（测试文件被改动过吗？）")}
	case regexp.MustCompile(`(?m)^panic: `).MatchString(out) && !passed:
		res.Reasons = []string{r.panicReason(out)}
	}
	if strings.Contains(out, "WARNING: DATA RACE") {
		res.Reasons = append(res.Reasons, r.raceReason(out))
	}
	msgs := messages(out)
	var kit []string
	for _, m := range msgs {
		if strings.HasPrefix(m, fmt.Sprintf("lab %d:", lab.N)) || strings.HasPrefix(m, fmt.Sprintf("实验 %d：", lab.N)) ||
			strings.HasPrefix(m, "stub still in place: ") || strings.HasPrefix(m, "仍是桩函数：") {
			kit = append(kit, m)
		}
	}
	if g, ok := projectGrader(lab, name); ok {
		res.Reasons = append(res.Reasons, r.pick(
			fmt.Sprintf("a project test failed: %s (see labs/%02d/README.md §%d)", g.What, lab.N, g.sectionFor(out)),
			fmt.Sprintf("项目测试未通过：%s（见 labs/%02d/README.zh-CN.md §%d）", g.WhatZH, lab.N, g.sectionFor(out))))
		if len(kit) == 0 && len(msgs) > 0 {
			res.Reasons = append(res.Reasons, r.pick("its last messages: ", "它最后的消息：")+r.say(lastN(msgs, 3)))
		}
	}
	res.Reasons = append(res.Reasons, kit...)
	if len(res.Reasons) == 0 {
		res.Reasons = []string{r.say(lastN(msgs, 3))}
		if res.Reasons[0] == "" {
			res.Reasons[0] = r.pick("the test binary ended without a result: ", "测试程序没有给出结果就结束了：") +
				r.say(lastN(strings.Split(out, "\n"), 3))
		}
	}
	return res
}

// say joins the messages a test printed, one a line, for the reader: as
// they are, or in Chinese through the catalog (zh.go).
func (r *runner) say(msgs []string) string {
	if !r.zh {
		return strings.Join(msgs, "\n")
	}
	var out []string
	for _, msg := range msgs {
		out = append(out, translate(msg))
	}
	return strings.Join(out, "\n")
}

// pkgDir is r.pkg, "." when unset.
func (r *runner) pkgDir() string {
	if r.pkg == "" {
		return "."
	}
	return r.pkg
}

// ownName returns the name of a function of the module as a learner reads
// it, and whether it is the module's: "(*DeltaFIFO).Pop" for the root's,
// "TestLab07Dedup" for r's package's (its external tests' too), and
// "workqueue.(*Typed[...]).Get" for another package of the module.
func (r *runner) ownName(fn string) (string, bool) {
	self := importPath(r.module, r.pkgDir())
	for _, p := range []string{self + ".", self + "_test.", r.module + "."} {
		if rest, ok := strings.CutPrefix(fn, p); ok {
			return rest, true
		}
	}
	return strings.CutPrefix(fn, r.module+"/")
}

// pick returns en or zh for the reader.
func (r *runner) pick(en, zh string) string {
	if r.zh {
		return zh
	}
	return en
}

// msgStartRE matches the first line of a t.Log or t.Error message as go
// test prints it: indented, "file_test.go:123: ".
var msgStartRE = regexp.MustCompile(`^(\s+)[A-Za-z0-9_./-]+\.go:\d+: (.*)$`)

// messages returns the messages the test logged or failed with, in order;
// a message's continuation lines are joined to it.
func messages(out string) []string {
	var msgs []string
	indent := -1
	for _, l := range strings.Split(out, "\n") {
		if m := msgStartRE.FindStringSubmatch(l); m != nil {
			msgs = append(msgs, m[2])
			indent = len(m[1])
			continue
		}
		if indent >= 0 && len(l) > indent && strings.TrimSpace(l[:indent+1]) == "" && len(msgs) > 0 {
			msgs[len(msgs)-1] += "\n" + strings.TrimSpace(l)
			continue
		}
		indent = -1
	}
	return msgs
}

// lastN returns the last n of lines that are not blank.
func lastN(lines []string, n int) []string {
	var keep []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return keep[max(0, len(keep)-n):]
}

// frame is one call of a goroutine's stack.
type frame struct {
	Func string // as ownName gives it for the module's code, else as printed
	File string // "fifo.go:250" for the module's code, else as printed
	Mine bool   // in the module's code
}

// goroutine is one goroutine of a dump.
type goroutine struct {
	State  string // "chan receive", "sync.Cond.Wait", ...
	Frames []frame
}

var goroutineRE = regexp.MustCompile(`^goroutine \d+ \[([^\],]+)`)

// goroutines parses the goroutines of a Go traceback.
func (r *runner) goroutines(out string) []goroutine {
	var gs []goroutine
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		m := goroutineRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		g := goroutine{State: m[1]}
		for i+2 < len(lines) && lines[i+1] != "" && strings.HasPrefix(lines[i+2], "\t") {
			fn := lines[i+1]
			file := strings.TrimSpace(lines[i+2])
			i += 2
			if j := strings.LastIndex(fn, "("); j > 0 && strings.HasSuffix(fn, ")") {
				fn = fn[:j]
			}
			if k := strings.Index(file, " +0x"); k > 0 {
				file = file[:k]
			}
			f := frame{Func: fn, File: file}
			if name, ok := r.ownName(fn); ok {
				f.Func = name
				f.Mine = true
			}
			if rest, ok := strings.CutPrefix(file, r.module+"/"); ok {
				f.File = rest
			}
			g.Frames = append(g.Frames, f)
		}
		gs = append(gs, g)
	}
	return gs
}

// hangReason says which call of test name did not return.
func (r *runner) hangReason(name, out string) string {
	limit := r.timeout.String()
	for _, g := range r.goroutines(out) {
		k := -1
		for i, f := range g.Frames {
			if f.Mine && (f.Func == name || strings.HasPrefix(f.Func, name+".")) {
				k = i
				break
			}
		}
		if k < 0 || (k > 0 && strings.HasPrefix(g.Frames[k-1].Func, "testing.(*T).Run")) {
			continue
		}
		// The call that did not return: the outermost frame above the test
		// that is the module's code and not a test file's.
		for i := k - 1; i >= 0; i-- {
			f := g.Frames[i]
			if !f.Mine || strings.Contains(f.File, "_test.go:") {
				continue
			}
			caller := g.Frames[i+1].File
			inner := f
			for j := i - 1; j >= 0; j-- {
				if g.Frames[j].Mine {
					inner = g.Frames[j]
				}
			}
			return r.pick(
				fmt.Sprintf("did not finish within %s: the call %s at %s did not return; it is waiting (%s) at %s in %s",
					limit, f.Func, caller, g.State, inner.File, inner.Func),
				fmt.Sprintf("%s 内没有结束：%s 处对 %s 的调用没有返回；它在 %s 的 %s 中等待（%s）",
					limit, caller, f.Func, inner.File, inner.Func, stateZH(g.State)))
		}
		at := g.Frames[0]
		for _, f := range g.Frames[:k+1] {
			if f.Mine {
				at = f
				break
			}
		}
		if strings.Contains(g.State, "Mutex") || strings.Contains(g.State, "semacquire") {
			return r.pick(
				fmt.Sprintf("did not finish within %s: %s at %s waits (%s) for a lock that is never released",
					limit, at.Func, at.File, g.State),
				fmt.Sprintf("%s 内没有结束：%s 的 %s 在等一把始终没有释放的锁（%s）", limit, at.File, at.Func, stateZH(g.State)))
		}
		return r.pick(
			fmt.Sprintf("did not finish within %s: the test is still waiting (%s) at %s, for something your code never did",
				limit, g.State, at.File),
			fmt.Sprintf("%s 内没有结束：测试仍在 %s 等待（%s），等的是你的代码始终没有做的事", limit, at.File, stateZH(g.State)))
	}
	return r.pick(fmt.Sprintf("did not finish within %s", limit), fmt.Sprintf("%s 内没有结束", limit))
}

// stateZH is a goroutine's state from a Go traceback, for a Chinese
// reader: the common ones said in Chinese, the others kept as code.
func stateZH(state string) string {
	said := map[string]string{
		"chan receive": "等待从通道接收", "chan send": "等待向通道发送", "select": "在 select 中等待",
		"sleep": "休眠", "IO wait": "等待 I/O", "semacquire": "等待信号量（锁）", "sync.Mutex.Lock": "等待 sync.Mutex.Lock",
		"sync.RWMutex.Lock": "等待 sync.RWMutex.Lock", "sync.RWMutex.RLock": "等待 sync.RWMutex.RLock",
		"sync.Cond.Wait": "在 sync.Cond.Wait 中等待", "sync.WaitGroup.Wait": "在 sync.WaitGroup.Wait 中等待",
		"chan receive (nil chan)": "从 nil 通道接收（永远等待）", "chan send (nil chan)": "向 nil 通道发送（永远等待）",
		"select (no cases)": "空的 select（永远等待）",
	}
	if z, ok := said[state]; ok {
		return z
	}
	return asValue(state)
}

// panicReason says what panicked, and where in the module's code.
func (r *runner) panicReason(out string) string {
	msg := ""
	if m := regexp.MustCompile(`(?m)^panic: (.*)$`).FindStringSubmatch(out); m != nil {
		msg = m[1]
	}
	where := ""
	for _, g := range r.goroutines(out) {
		for _, f := range g.Frames {
			if f.Mine && !strings.Contains(f.File, "_test.go:") {
				where = f.Func + " (" + f.File + ")"
				break
			}
		}
		break // the first goroutine is the one that panicked
	}
	if where == "" {
		return r.pick("the test binary panicked: "+msg, "测试程序发生了 panic："+asValue(msg))
	}
	return r.pick(fmt.Sprintf("panic in %s: %s", where, msg), fmt.Sprintf("%s 中发生了 panic：%s", where, asValue(msg)))
}

// raceRE finds the accesses of a data race report and the stack of each.
var raceRE = regexp.MustCompile(`(?m)^(Write|Read|Previous write|Previous read) at 0x[0-9a-f]+ by (?:goroutine \d+|main goroutine):\n((?:  .*\n)+)`)

// raceReason names the two places of the first data race reported.
func (r *runner) raceReason(out string) string {
	start := strings.Index(out, "WARNING: DATA RACE")
	var places []string
	for _, m := range raceRE.FindAllStringSubmatch(out[start:], 2) {
		kind := strings.ToLower(strings.TrimPrefix(m[1], "Previous "))
		place := "?"
		lines := strings.Split(strings.TrimRight(m[2], "\n"), "\n")
		for i := 0; i+1 < len(lines); i += 2 {
			fn := strings.TrimSpace(lines[i])
			file := strings.TrimSpace(lines[i+1])
			if k := strings.Index(file, " +0x"); k > 0 {
				file = file[:k]
			}
			if name, ok := r.ownName(strings.TrimSuffix(fn, "()")); ok && !strings.Contains(file, "_test.go:") {
				file = strings.TrimPrefix(file, r.module+"/")
				place = name + " (" + file + ")"
				break
			}
		}
		if r.zh {
			kind = map[string]string{"write": "写", "read": "读"}[kind]
		}
		places = append(places, kind+" "+place)
	}
	return r.pick("a data race (go test -race): "+strings.Join(places, " and ")+" at the same time, one of them without the lock",
		"数据竞争（go test -race）："+strings.Join(places, " 与 ")+" 同时发生，其中一方没有持锁")
}

// projectGrader finds name among lab's project graders.
func projectGrader(lab Lab, name string) (Grader, bool) {
	for _, g := range lab.ProjectGraders {
		if g.Name == name {
			return g, true
		}
	}
	return Grader{}, false
}

// labGraders returns the names of lab's graders: its TestLabNN tests, read
// from the test files (by name, their content), then its project graders.
func labGraders(lab Lab, testFiles map[string][]byte) []string {
	var names []string
	prefix := fmt.Sprintf("TestLab%02d", lab.N)
	for _, name := range sortedKeys(testFiles) {
		for _, m := range graderFuncRE.FindAllSubmatch(testFiles[name], -1) {
			if strings.HasPrefix(string(m[1]), prefix) {
				names = append(names, string(m[1]))
			}
		}
	}
	for _, g := range lab.ProjectGraders {
		names = append(names, g.Name)
	}
	return names
}

// readerChinese reports whether the reader reads Chinese: INFORMER_LANG,
// LC_ALL, LANGUAGE or LANG (the first one set) starts with "zh", as the
// walkthrough and the graders decide.
func readerChinese() bool {
	for _, v := range []string{"INFORMER_LANG", "LC_ALL", "LANGUAGE", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return strings.HasPrefix(strings.ToLower(s), "zh")
		}
	}
	return false
}

// defaultWorkers is how many graders run at once: one per CPU, at least
// two (most of a grader's time is waiting on its fake API server).
func defaultWorkers() int { return max(2, runtime.NumCPU()) }

// errFailed is returned by a command whose graders failed: main exits 1
// without printing more.
var errFailed = errors.New("graders failed")

// labkit_test.go is the graders' toolkit, copied into the package of every
// lab of a student repository as lab_kit_test.go (the root, workqueue/,
// examples/controller/), its package clause set to that package's: the
// gate that decides which tests run, failure messages in the reader's
// language that name the handout section, the report of the stubs a
// failing grader reached, and waits that fail with what did not return
// instead of hanging. It uses nothing but the standard library and the
// package's lab_stub.go; the informer's own helpers are in
// labinformer_test.go.
//
// client-go counterpart: none (the labs' grading).
//
// Tutorial: none; it serves every lab.

//go:build informerlab

package informer

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// labZH reports whether the reader reads Chinese (labChinese, lab_stub.go:
// INFORMER_LANG, LC_ALL, LANGUAGE or LANG starts with "zh"). It is read in
// the test, so that `LANG=zh_CN.UTF-8 go test` works as expected.
func labZH() bool { return labChinese() }

// labFull reports whether INFORMER_LAB_FULL=1 asks for every test to run.
func labFull() bool { return os.Getenv("INFORMER_LAB_FULL") == "1" }

// labSelected is the lab `go run ./labs test N` grades (INFORMER_LAB), or 0.
func labSelected() int {
	n, _ := strconv.Atoi(os.Getenv("INFORMER_LAB"))
	return n
}

// labGate runs first in every project test of a student repository. A
// project test runs when `go run ./labs test N` runs it (INFORMER_LAB is
// set: it picks the tests that grade lab N) or with INFORMER_LAB_FULL=1;
// a plain `go test` skips it, because with the labs still stubs most of
// the project's tests, which run a whole informer, would fail or wait for
// reasons that are not theirs.
func labGate(tb testing.TB) {
	tb.Helper()
	if lab := labSelected(); lab != 0 {
		labReportOnFailure(tb, lab)
		return
	}
	if labFull() {
		return
	}
	if labZH() {
		tb.Skip("项目测试：用 go run ./labs test N 给实验 N 评分（它运行为实验 N 评分的测试）；INFORMER_LAB_FULL=1 go test ./... 运行全部测试")
	}
	tb.Skip("a project test: go run ./labs test N grades lab N (it runs the tests that grade lab N); INFORMER_LAB_FULL=1 go test ./... runs them all")
}

// LabGate is labGate for the tests of an external test package
// (package x_test), which see only exported names: the labs command gates
// them with it.
func LabGate(tb testing.TB) {
	tb.Helper()
	labGate(tb)
}

// labHitsAtStart is labHits (lab_stub.go) when the running grader started.
var labHitsAtStart atomic.Int64

// labStubRan reports whether a stub of this package has run since the
// grader started. A wait that gives up for that reason (labWaitFor) must
// say so: its failure, at once, is the stub's, not the time limit's or an
// earlier lab's.
func labStubRan() bool { return labHits.Load() != labHitsAtStart.Load() }

// labWaitGaveUp is set when a wait stopped early because a stub ran
// (labWaitFor); the next failure labFailf reports says so, since its
// message may speak of a time limit that never ran out, or of what the
// labs before should have done.
var labWaitGaveUp atomic.Bool

// labStart begins a grader of lab: it skips the grader unless
// `go run ./labs test` grades this lab (or INFORMER_LAB_FULL=1), quiets the
// package's logs, and returns the function to defer, which turns a panic of
// the code under test into a failure and, on failure, lists the stubs of
// the lab still reached.
//
//	defer labStart(t, 2)()
func labStart(t *testing.T, lab int) func() {
	t.Helper()
	if labSelected() != lab && !labFull() {
		if labZH() {
			t.Skipf("实验 %d 的评分测试：用 go run ./labs test %d 运行", lab, lab)
		}
		t.Skipf("a lab %d grader: go run ./labs test %d runs it", lab, lab)
	}
	labHitsAtStart.Store(labHits.Load())
	labWaitGaveUp.Store(false)
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	labReportOnFailure(t, lab)
	return func() {
		if p := recover(); p != nil {
			labFailf(t, lab, 0, "the code under test panicked: %v", "被测代码发生了 panic：%v", p)
		}
	}
}

// labReportOnFailure makes a failing test list the stubs of lab it reached.
func labReportOnFailure(tb testing.TB, lab int) {
	tb.Cleanup(func() {
		if !tb.Failed() {
			return
		}
		for _, msg := range labStubsReached(lab) {
			// Errorf, not Log: the project's narration check allows no
			// English-only log line, and the test has failed anyway.
			tb.Errorf("%s%s", labPick("stub still in place: ", "仍是桩函数："), msg)
		}
	})
}

// labFailf fails t with a message in the reader's language: en or zh,
// formatted with args, then where the handout explains it (section 0: the
// handout as a whole).
func labFailf(t testing.TB, lab, section int, en, zh string, args ...any) {
	t.Helper()
	for i, a := range args {
		if err, ok := a.(error); ok && err != nil {
			args[i] = labQuoted(labCause(err)) // what the code returned, as a value
		}
		args[i] = labCapped(args[i])
	}
	// A message that already points into a handout (a stub's message among
	// its values) needs no second pointer.
	pointed := strings.Contains(fmt.Sprintf(en, args...), fmt.Sprintf("labs/%02d/README", lab)) ||
		strings.Contains(fmt.Sprintf(zh, args...), fmt.Sprintf("labs/%02d/README", lab))
	if pointed {
		section = 0
	}
	where := ""
	if labWaitGaveUp.Swap(false) {
		en += " (the grader stopped waiting at once: a stub has run, listed below)"
		zh += "（评分测试没有再等下去：已经运行到桩函数，见下面的列表）"
	}
	if labZH() {
		if section > 0 {
			where = fmt.Sprintf("（见 labs/%02d/README.zh-CN.md §%d）", lab, section)
		}
		t.Errorf("实验 %d：%s%s", lab, fmt.Sprintf(zh, args...), where)
		return
	}
	if section > 0 {
		where = fmt.Sprintf(" (see labs/%02d/README.md §%d)", lab, section)
	}
	t.Errorf("lab %d: %s%s", lab, fmt.Sprintf(en, args...), where)
}

// labExpect fails t unless got equals want (compared as printed with %v),
// saying what was expected and what happened.
func labExpect(t testing.TB, lab, section int, what, whatZH string, want, got any) bool {
	t.Helper()
	if fmt.Sprint(want) == fmt.Sprint(got) {
		return true
	}
	labFailf(t, lab, section, "%s: expected %s, got %s", "%s：期望 %s，实际 %s", labPick(what, whatZH), labShow(want), labShow(got))
	return false
}

// labCapEnds is how many entries of each end of a long list a message
// prints: a request log of a Reflector that loops holds thousands of
// lines, and a message of megabytes hides the few that tell the story
// (the first show how it began, the last where it ended).
const labCapEnds = 8

// labCapped returns v as a message prints it: a slice or array of more
// than twice labCapEnds entries as its first and last labCapEnds, with how
// many are left out between them; anything else as it is.
func labCapped(v any) any {
	rv := reflect.ValueOf(v)
	if v == nil || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) || rv.Len() <= 2*labCapEnds+1 {
		return v
	}
	show := func(i int) string { return fmt.Sprint(rv.Index(i).Interface()) }
	var first, last []string
	for i := range labCapEnds {
		first = append(first, show(i))
		last = append(last, show(rv.Len()-labCapEnds+i))
	}
	left := rv.Len() - 2*labCapEnds
	var b strings.Builder
	if labZH() {
		// Two lists with the count between them, outside: a list holding
		// Chinese would no longer read as one value (code) to the reader.
		fmt.Fprintf(&b, "[%s …]（中间省略 %d 项）[… %s]", strings.Join(first, " "), left, strings.Join(last, " "))
	} else {
		fmt.Fprintf(&b, "[%s … %d more … %s]", strings.Join(first, " "), left, strings.Join(last, " "))
	}
	return b.String()
}

// labShow prints a value for a message: a string or an error's text
// quoted (so that "" is seen, and a message is read as the value it is),
// anything else as %v.
func labShow(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case error:
		if v != nil {
			return strconv.Quote(labCause(v))
		}
	}
	return fmt.Sprint(labCapped(v))
}

// labStubMessageRE finds a stub's message (lab_stub.go's labStub.message)
// inside an error's text, in either language.
var labStubMessageRE = regexp.MustCompile(`lab \d+: implement .+?, see labs/\d\d/README\.md §\d+|` +
	`实验 \d+：请实现 .+?，见 labs/\d\d/README\.zh-CN\.md §\d+`)

// labCause is the text a learner should read for err: the message of the
// stub it comes from, when it holds one, else its text. The code between
// a stub and the grader often wraps the stub's error in its own English
// ("cannot compute the key of a *informer.Pod: …"); in a Chinese reader's
// message that wrapper is noise, and the stub is the root cause.
func labCause(err error) string {
	if m := labStubMessageRE.FindString(err.Error()); m != "" {
		return m
	}
	return err.Error()
}

// labQuoted is a text shown quoted in a message: an error's text.
type labQuoted string

func (q labQuoted) String() string { return strconv.Quote(string(q)) }

// labWithin calls f and waits at most 5 s for it to return. If it does not,
// it fails t saying that the call what did not return, and ends the test
// (the call is left waiting on a goroutine of its own). A panic in f
// panics in the test, where labStart reports it.
func labWithin(t testing.TB, lab, section int, what string, f func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case p := <-done:
		if p != nil {
			panic(p)
		}
	case <-time.After(5 * time.Second):
		labFailf(t, lab, section, "%s did not return within 5 s (is a lock left held, or does it wait for what never comes?)",
			"%s 在 5 秒内没有返回（是不是有锁没有释放，或者在等一个永远不会来的东西？）", what)
		t.FailNow()
	}
}

// labPick returns en or zh for the reader.
func labPick(en, zh string) string {
	if labZH() {
		return zh
	}
	return en
}

// labWaitFor polls cond until it holds or 5 s have passed, and reports
// which. It is how a grader waits for another goroutine (never a sleep).
// It gives up at once when a stub has run since the grader started: the
// stub's zero answer means the wait cannot end well, and the learner
// should not wait for it.
func labWaitFor(cond func() bool) bool {
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) || labStubRan() {
			ok := cond()
			labWaitGaveUp.Store(!ok && labStubRan())
			return ok
		}
		time.Sleep(2 * time.Millisecond)
	}
	labWaitGaveUp.Store(false)
	return true
}

// labRun runs run(ctx) on its own goroutine until the test ends; then it
// cancels ctx and expects run to return within 5 s, failing with en or zh
// (and the handout section) if it does not.
func labRun(t *testing.T, lab, section int, en, zh string, run func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			labFailf(t, lab, section, "%s", "%s", labPick(en, zh))
		}
	})
}

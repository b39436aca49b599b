// labkit_test.go is the graders' toolkit, copied into every lab workspace
// as lab_kit_test.go: the gate that decides which tests run in a workspace,
// failure messages in the reader's language that name the handout section,
// and the report of the stubs a failing grader reached.
//
// client-go counterpart: none (the labs' grading).
//
// Tutorial: none; it serves every lab.

//go:build informerlab

package informer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

// labZH reports whether the reader reads Chinese: INFORMER_LANG, LC_ALL,
// LANGUAGE or LANG (the first one set) starts with "zh". It is read in the
// test, so that `LANG=zh_CN.UTF-8 go test` works as expected.
func labZH() bool {
	for _, v := range []string{"INFORMER_LANG", "LC_ALL", "LANGUAGE", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return strings.HasPrefix(strings.ToLower(s), "zh")
		}
	}
	return false
}

// labFull reports whether INFORMER_LAB_FULL=1 asks for every test to run.
func labFull() bool { return os.Getenv("INFORMER_LAB_FULL") == "1" }

// labGate runs first in every project test of a lab workspace. In the
// workspace of lab N, the project tests that grade lab N run (and report
// the stubs they reached if they fail); every other project test is
// skipped, because with lab N's functions stubbed most of them, which run a
// whole informer, would fail or wait for a timeout for reasons that are not
// theirs. INFORMER_LAB_FULL=1 runs them all; the solved workspace has no
// gate at all.
func labGate(tb testing.TB) {
	tb.Helper()
	if labWorkspace == 0 {
		return
	}
	if lab := labProjectGraders[tb.Name()]; lab == labWorkspace {
		labReportOnFailure(tb, lab)
		return
	}
	if labFull() {
		return
	}
	if labZH() {
		tb.Skipf("实验 %d 的工作区：这个项目测试不为本实验评分，已跳过；完成后用 INFORMER_LAB_FULL=1 go test ./... 运行全部测试", labWorkspace)
	}
	tb.Skipf("lab %d workspace: this project test does not grade this lab and is skipped; once you pass, INFORMER_LAB_FULL=1 go test ./... runs every test", labWorkspace)
}

// labHitsAtStart is labHits (lab_stub.go) when the running grader started.
var labHitsAtStart atomic.Int64

// labStart begins a grader of lab: it skips the grader in another lab's
// workspace (unless INFORMER_LAB_FULL=1), quiets the package's logs, and
// returns the function to defer, which turns a panic of the code under test
// into a failure and, on failure, lists the stubs of the lab still reached.
//
//	defer labStart(t, 2)()
func labStart(t *testing.T, lab int) func() {
	t.Helper()
	if labWorkspace != 0 && labWorkspace != lab && !labFull() {
		if labZH() {
			t.Skipf("实验 %d 的评分测试在实验 %d 的工作区中跳过（INFORMER_LAB_FULL=1 可运行）", lab, labWorkspace)
		}
		t.Skipf("a lab %d grader, skipped in the workspace of lab %d (INFORMER_LAB_FULL=1 runs it)", lab, labWorkspace)
	}
	labHitsAtStart.Store(labHits.Load())
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
		prefix := fmt.Sprintf("lab %d:", lab)
		for _, msg := range labStubsReached() {
			if strings.HasPrefix(msg, prefix) {
				// Errorf, not Log: the project's narration check allows no
				// English-only log line, and the test has failed anyway.
				tb.Errorf("%s%s", labPick("stub still in place: ", "仍是桩函数："), msg)
			}
		}
	})
}

// labFailf fails t with a message in the reader's language: en or zh,
// formatted with args, then where the handout explains it (section 0: the
// handout as a whole).
func labFailf(t testing.TB, lab, section int, en, zh string, args ...any) {
	t.Helper()
	where := ""
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
	labFailf(t, lab, section, "%s: expected %v, got %v", "%s：期望 %v，实际 %v", labPick(what, whatZH), want, got)
	return false
}

// labPick returns en or zh for the reader.
func labPick(en, zh string) string {
	if labZH() {
		return zh
	}
	return en
}

// labPod is a pod with the given metadata.
func labPod(ns, name, rv string, labels map[string]string) *Pod {
	return &Pod{ObjectMeta: ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

// labWaitFor polls cond until it holds or 5 s have passed, and reports
// which. It is how a grader waits for another goroutine (never a sleep).
// It gives up at once when a stub has run since the grader started: the
// stub's zero answer means the wait cannot end well, and the learner
// should not wait for it.
func labWaitFor(cond func() bool) bool {
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) || labHits.Load() != labHitsAtStart.Load() {
			return cond()
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// labServer starts a fakeapi server that ends with the test.
func labServer(t *testing.T) *fakeapi.Server {
	t.Helper()
	s, err := fakeapi.Start(fakeapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// labPodsLW lists and watches the pods of namespace on s over HTTP.
func labPodsLW(t *testing.T, s *fakeapi.Server, namespace string) *ListWatch {
	t.Helper()
	c, err := NewRESTClient(RESTConfig{Host: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	return NewListWatchFromClient(c, GroupVersionResource{Version: "v1", Resource: "pods"}, namespace, "")
}

// labCreate creates (or, with update, replaces) a pod on s and returns its
// resource version; labDelete deletes one.
func labCreate(t *testing.T, s *fakeapi.Server, ns, name string, labels map[string]string, update bool) string {
	t.Helper()
	meta := map[string]any{"name": name, "namespace": ns}
	if labels != nil {
		meta["labels"] = labels
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec": map[string]any{"containers": []any{map[string]any{"name": "main", "image": "nginx"}}}}
	var got map[string]any
	var err error
	if update {
		got, err = s.Update(fakeapi.Pods, ns, obj)
	} else {
		got, err = s.Create(fakeapi.Pods, ns, obj)
	}
	if err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
	return got["metadata"].(map[string]any)["resourceVersion"].(string)
}

func labDelete(t *testing.T, s *fakeapi.Server, ns, name string) {
	t.Helper()
	if err := s.Delete(fakeapi.Pods, ns, name); err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
}

// labDescribe prints a delta the way the graders compare them:
// "Added default/a@3", "Deleted tombstone(default/a@3)".
func labDescribe(d Delta) string {
	switch o := d.Object.(type) {
	case DeletedFinalStateUnknown:
		inner := "nil"
		if p, ok := o.Obj.(*Pod); ok {
			inner = p.Namespace + "/" + p.Name + "@" + p.ResourceVersion
		}
		return fmt.Sprintf("%s tombstone(%s:%s)", d.Type, o.Key, inner)
	case *Pod:
		return fmt.Sprintf("%s %s/%s@%s", d.Type, o.Namespace, o.Name, o.ResourceVersion)
	}
	return fmt.Sprintf("%s %T", d.Type, d.Object)
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

// labExpectClosed closes q and expects its next Pop to fail with
// ErrFIFOClosed (q must be empty by then).
func labExpectClosed(t *testing.T, lab, section int, q Queue) {
	t.Helper()
	q.Close()
	if _, err := q.Pop(func(any, bool) error { return nil }); !errors.Is(err, ErrFIFOClosed) {
		labFailf(t, lab, section, "Pop on a closed, empty queue: expected ErrFIFOClosed, got %v", "已关闭且为空的队列上 Pop：期望 ErrFIFOClosed，实际 %v", err)
	}
}

// exercises.go is the table of checked exercises: each entry says in code
// what its paragraph of docs/exercises.md says in words. The edits are
// single code lines, never comments, so that rewording a comment does not
// break them. It has no client-go counterpart and teaches no tutorial
// section.

package main

import (
	"errors"
	"fmt"
	"os/exec"
	"time"
)

var exercises = []exercise{
	{
		id: "1",
		names: []cited{
			{"fifo.go", "func dedupDeltas("},
			{"fifo.go", "func isDeletionDup("},
			{"fifo.go", "func (f *DeltaFIFO) appendLocked("},
			{"fifo_test.go", "func TestDeltaFIFODedupsOnlyBackToBackDeletions("},
		},
		parts: []part{{
			// "make dedupDeltas merge nothing: put false && in front of its
			// keep != nil"
			edits:   []edit{{"fifo.go", "); keep != nil {", "); false && keep != nil {"}},
			command: "go test -run 'Step02|DeltaFIFO'",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestDeltaFIFODedupsOnlyBackToBackDeletions", "TestDeltaFIFOReplace",
						"TestDeltaFIFOTransformerRules", "TestStep02DeltaFIFO"),
					// ("want … Deleted ns/a@2", got two deletions)
					shows(out, `queued ["ns/a: Added ns/a@1, Deleted ns/a@2, Deleted ns/a@3"], want ["ns/a: Added ns/a@1, Deleted ns/a@2"]`))
			},
		}, {
			// "in dedupDeltas, merge two back-to-back Updated deltas into one
			// as well, keeping the newer"
			edits: []edit{{"fifo.go", "\tif keep := isDeletionDup(",
				"\tif deltas[n-1].Type == Updated && deltas[n-2].Type == Updated { return append(deltas[:n-2], deltas[n-1]) }\n" +
					"\tif keep := isDeletionDup("}},
			command: "go test -run 'Step02|DeltaFIFO'",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestDeltaFIFOQueuesEachKeyOnceWithDeltasInOrder", "TestDeltaFIFODedupsOnlyBackToBackDeletions"),
					shows(out, "--- FAIL: TestDeltaFIFODedupsOnlyBackToBackDeletions/identical_updates_are_not_merged"))
			},
		}},
	},
	{
		id: "2",
		names: []cited{
			{"informer_edge_test.go", "func TestInformerBlockedHandlerDoesNotDelayAnother("},
			{"processor_test.go", "func TestProcessorStuckHandlerBlocksNobody("},
			{"docs/health.md", ""},
		},
		parts: []part{{
			edits:   []edit{{"examples/podwatch/scenario.go", "slowEach = 150 * time.Millisecond", "slowEach = 500 * time.Millisecond"}},
			command: "go run ./examples/podwatch",
			check: func(out string, err error) error {
				if err != nil {
					return err
				}
				if err := shows(out, "# the end: both handlers saw all"); err != nil {
					return err
				}
				// "The story now says slow (500 ms each)"
				if err := shows(out, "slow (500 ms each)"); err != nil {
					return err
				}
				// "fast still prints each step at once, and slow finishes its
				// backlog seconds later"
				fast, slow := lastTime(out, "fast"), lastTime(out, "slow")
				if lag := slow.Sub(fast); lag < 2*time.Second {
					return fmt.Errorf("slow finished %v after fast, want seconds", lag)
				}
				return nil
			},
		}, {
			// "run go run ./examples/health -slow 1s: handlers[0].handled
			// rises slower than lastSyncResourceVersion"; two samples, once
			// the informer has synced.
			server:  "go run ./examples/health -slow 1s",
			listens: "127.0.0.1:6060",
			command: `until curl -s 127.0.0.1:6060/debug/vars | grep -q '"synced": *true'; do sleep 0.2; done; ` +
				"curl -s 127.0.0.1:6060/debug/vars; sleep 4; curl -s 127.0.0.1:6060/debug/vars",
			check: handlerFallsBehind,
		}},
	},
	{
		id: "3a",
		parts: []part{{
			server:  "go run ./fakeapi/cmd/fakeapi -seed 3 -history 5 -churn 5",
			listens: "127.0.0.1:8080",
			// "wait a second or two": until the server's version passes 7, so
			// that version 1 has left the five-event history.
			command: `until [ "$(curl -s 127.0.0.1:8080/api/v1/pods | grep -o '"resourceVersion":"[0-9]*"' | head -1 | tr -dc 0-9)" -ge 8 ]; do sleep 0.2; done; ` +
				"curl -sN --max-time 20 'http://127.0.0.1:8080/api/v1/pods?watch=1&resourceVersion=1'",
			check: func(out string, err error) error {
				// "HTTP 200 and one ERROR event with "reason":"Expired","code":410"
				var exit *exec.ExitError
				if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 28) { // 28: --max-time
					return err
				}
				return shows(out, `{"type":"ERROR"`, `"reason":"Expired","code":410`)
			},
		}},
	},
	{
		id:    "3b",
		names: []cited{{"informer_test.go", "func TestStep11WhenThingsGoWrong("}},
		parts: []part{{
			edits:   []edit{{"informer_test.go", "\ts.Compact(0)\n", "\t// s.Compact(0)\n"}},
			command: "go test -v -run Step11",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestStep11WhenThingsGoWrong"),
					// at once, not after a timeout
					showsNot(out, "timed out"),
					shows(out, "part 4: the re-watch from resourceVersion 7 got no 410: the history still held that version,",
						"so the watch went on (doomed's deletion came as a plain DELETED event) and nothing relisted"))
			},
		}, {
			edits:   []edit{{"informer_test.go", "\ts.Compact(0)\n", "\t// s.Compact(0)\n"}},
			command: "go test -v -run Step11",
			lang:    "zh",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestStep11WhenThingsGoWrong"),
					shows(out, "第 4 部分：从资源版本 7 重新 watch没有得到 410：历史里还留着这个版本，", "于是 watch 照常进行（doomed 的删除作为普通的 DELETED 事件送达），也没有重新 list"))
			},
		}},
	},
	{
		id: "4",
		names: []cited{
			{"thread_safe_store.go", "type threadSafeStore struct"},
			{"thread_safe_store.go", "func (s *threadSafeStore) Replace("},
			{"docs/measured-numbers.md", ""},
		},
		parts: []part{{
			// A benchmark: it runs and prints what the text names; its
			// numbers are the reader's to compare, never asserted here.
			command: "go test -run '^$' -bench Store -benchmem",
			check: func(out string, err error) error {
				if err != nil {
					return err
				}
				return shows(out, "BenchmarkStore/read90/RWMutex+map", "BenchmarkStore/read90/sync.Map",
					"BenchmarkStore/mixed50/RWMutex+map", "BenchmarkStore/mixed50/sync.Map", "B/op")
			},
		}},
	},
	{
		id:    "5",
		names: []cited{{"fifo.go", "func (f *DeltaFIFO) Replace("}, {"realfifo_relist.go", ""}},
		parts: []part{{
			// "skip the loop over f.knownObjects.ListKeys()"
			edits:   []edit{{"fifo.go", "for _, key := range f.knownObjects.ListKeys() {", "for _, key := range []string{} {"}},
			command: "go test -run 'Step03|Step11|DeltaFIFO'",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestDeltaFIFOReplace", "TestStep11WhenThingsGoWrong", "TestStep03RealFIFO",
						"TestDeltaFIFOReplaceTombstoneWhenKnownLookupFails", "TestDeltaFIFOHasSyncedAcrossTheInitialList",
						"TestDeltaFIFOTransformerRules"),
					// only in the pipeline whose informer runs a DeltaFIFO
					count(out, "--- FAIL: TestStep11WhenThingsGoWrong", 1),
					shows(out, `waiting for "delete default/doomed tombstone"`))
			},
		}},
	},
	{
		id:    "6",
		names: []cited{{"examples/podwatch/scenario.go", "ResyncPeriod"}, {"examples/podwatch/scenario.go", "SharedIndexInformerOptions"}},
		parts: []part{{
			command: "go run ./examples/podwatch -resync 1s",
			check:   resyncStory("(same version: re-delivered by a relist or a resync)", `(?m)^# the end: .*lists so far 2,`),
		}, {
			command: "go run ./examples/podwatch -resync 1s",
			lang:    "zh",
			check:   resyncStory("（版本相同：重新 list 或重新同步时再次送达）", `(?m)^# 结束：.*list 2 次`),
		}, {
			// "go test -v -run Step10 shows the same with a fake clock"
			command: "go test -v -run Step10",
			check: func(out string, err error) error {
				if err != nil {
					return err
				}
				return shows(out, "--- PASS: TestStep10Resync", "old == new")
			},
		}},
	},
	{
		id:    "7",
		names: []cited{{"reflector_watch.go", "func (r *Reflector) watchOptions("}},
		parts: []part{{
			edits:   []edit{{"reflector_watch.go", "AllowWatchBookmarks: true}", "AllowWatchBookmarks: false}"}},
			command: "go test -run 'ReflectorBookmarks|Step06'",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestReflectorBookmarksMoveTheVersionWithoutEvents", "TestStep06Reflector"),
					showsNot(out, "timed out"),
					shows(out, "the watch did not ask for bookmarks (allowWatchBookmarks=false); client-go's Reflector always does",
						"the Reflector watches without allowWatchBookmarks=true, so the server sends it no bookmarks",
						"while only other namespaces change, its version stays at 2 however far the server moves"))
			},
		}, {
			edits:   []edit{{"reflector_watch.go", "AllowWatchBookmarks: true}", "AllowWatchBookmarks: false}"}},
			command: "go test -run 'ReflectorBookmarks|Step06'",
			lang:    "zh",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestReflectorBookmarksMoveTheVersionWithoutEvents", "TestStep06Reflector"),
					shows(out, "这次 watch 没有请求书签（allowWatchBookmarks=false）；client-go 的 Reflector 总是请求",
						"Reflector 在 watch 时没有带 allowWatchBookmarks=true，服务器就不给它发书签"))
			},
		}},
	},
	{
		id:    "8",
		names: []cited{{"mutationdetector/step17_test.go", "func TestStep17MutationDetector("}},
		parts: []part{{
			edits:   []edit{{"mutationdetector/step17_test.go", "mine := p.DeepCopy()", "mine := p"}},
			command: "go test -v -run Step17 ./mutationdetector",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestStep17MutationDetector"),
					shows(out, `touched-by: null → "careful"`))
			},
		}},
	},
	{
		id:    "9",
		names: []cited{{"retry/step12_test.go", "func TestStep12OptimisticConcurrency("}},
		parts: []part{{
			edits:   []edit{{"retry/step12_test.go", "Steps: 100,", "Steps: 1,"}},
			command: "go test -v -run Step12 ./retry",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestStep12OptimisticConcurrency"),
					shows(out, "409 Conflict"),
					matches(out, `counter = \d+, want 20: an increment was lost`))
			},
		}},
	},
	{
		id: "10",
		names: []cited{
			{"lossless.go", "const decodeInOnePass = true"},
			{"watch.go", "func newBodyDecoder("},
			{"watch.go", "if decodeInOnePass {"},
			{"lossless.go", "func newFastBodyDecoder("},
			{"lossless.go", "func decodeKeeping("},
			{"bench_decode_test.go", "func BenchmarkDecode("},
			{"internal/jsonread/structs_test.go", "func TestFastReadersDecodeAsEncodingJSON("},
			{"internal/jsonread/readers.go", "func readInt("},
		},
		parts: []part{{
			// A benchmark, run both ways: its names, never its speed.
			command: "go test -run '^$' -bench 'Decode/Pod/' -benchmem .",
			check:   decodeBenchmarks,
		}, {
			edits:   []edit{onePassOff},
			command: "go test -run '^$' -bench 'Decode/Pod/' -benchmem .",
			check:   decodeBenchmarks,
		}, {
			// "everything still passes"
			edits:   []edit{onePassOff},
			command: "go test -run 'Typed|Step0' .",
			check: func(out string, err error) error {
				if err != nil {
					return err
				}
				return shows(out, "ok ")
			},
		}, {
			edits:   []edit{{"internal/jsonread/readers.go", " || (digits[0] == '0' && len(digits) > 1)", ""}},
			command: "go test -run FastReaders ./internal/jsonread",
			check: func(out string, err error) error {
				return all(
					fails(out, err, "TestFastReadersDecodeAsEncodingJSON", "FuzzFastReaders"),
					shows(out, `"{\"metadata\":{\"generation\":01}}" is not JSON but decoded`))
			},
		}},
	},
}

// resyncStory checks exercise 6's podwatch story, in either language.
// "Every second, both handlers get an UPDATE for every cached pod with the
// same version, marked so": more than the relist's 2 × 5; and "the closing
// line still says lists so far 2" (closing matches it).
func resyncStory(marker, closing string) func(out string, err error) error {
	return func(out string, err error) error {
		if err != nil {
			return err
		}
		if n := countOf(out, marker); n <= 10 {
			return fmt.Errorf("%d same-version UPDATEs, want more than the relist's 10", n)
		}
		return matches(out, closing)
	}
}

// onePassOff is exercise 10's one edit: newBodyDecoder (watch.go) then reads
// list and watch bodies with encoding/json, as the first reading does.
var onePassOff = edit{"lossless.go", "const decodeInOnePass = true", "const decodeInOnePass = false"}

// decodeBenchmarks checks that exercise 10's benchmarks ran.
func decodeBenchmarks(out string, err error) error {
	if err != nil {
		return err
	}
	return shows(out, "BenchmarkDecode/Pod/list/jsonread", "BenchmarkDecode/Pod/watch/jsonread",
		"BenchmarkDecode/Pod/list/naive", "BenchmarkDecode/Pod/watch/naive", "B/op", "cpu-ns/obj")
}

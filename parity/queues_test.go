// queues_test.go runs the queue differential (queues.go,
// queues_drive.go): for each pipeline, the DeltaFIFO and the RealFIFO,
// seeded random sequences, each in one of the pipeline's configurations
// in turn (seed 1 the first, seed 2 the second, ...). By default 100 seeds
// of 200 operations per pipeline; PARITY_QUEUE_SEEDS=N (or
// -parity.queueseeds) runs N, PARITY_QUEUE_OPS=K (or -parity.queueops)
// makes each K long, PARITY_QUEUE_FIRST=S starts at seed S, and
// PARITY_QUEUE_SEED=S (or -parity.queueseed) runs only seed S. The
// measurement of the docs is PARITY_QUEUE_SEEDS=2000.
//
// A difference fails the test with its seed, its configuration, the first
// step that differs and the sequence shrunk to the operations that still
// show it. The counts are printed as the line "parity queues: ...".
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

var (
	queueSeedsFlag = flag.Int("parity.queueseeds", 0, "queue sequences per pipeline (default 100, or $PARITY_QUEUE_SEEDS)")
	queueOpsFlag   = flag.Int("parity.queueops", 0, "operations per queue sequence (default 200, or $PARITY_QUEUE_OPS)")
	queueSeedFlag  = flag.Uint64("parity.queueseed", 0, "run only this queue seed (or $PARITY_QUEUE_SEED)")
	queueFirstFlag = flag.Uint64("parity.queuefirst", 0, "the first queue seed (or $PARITY_QUEUE_FIRST)")
)

// TestQueueDifferential compares our DeltaFIFO, RealFIFO and Indexer with
// client-go's on random sequences.
func TestQueueDifferential(t *testing.T) {
	seeds := setting(uint64(*queueSeedsFlag), "PARITY_QUEUE_SEEDS", 100)
	n := int(setting(uint64(*queueOpsFlag), "PARITY_QUEUE_OPS", 200))
	first := setting(*queueFirstFlag, "PARITY_QUEUE_FIRST", 1)
	if only := setting(*queueSeedFlag, "PARITY_QUEUE_SEED", 0); only != 0 {
		first, seeds = only, 1
	}
	// client-go's Indexer tells its version only with the AtomicFIFO gate
	// on, as v0.37.2's defaults have it.
	installPanicRecorder()
	clientGoMu.Lock()
	defer clientGoMu.Unlock()
	if err := clientGoGates().set(settingDefault); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, real := range []bool{false, true} {
		configs := queueConfigs(real)
		var total queueCounts
		for seed := first; seed < first+seeds; seed++ {
			cfg := configs[(seed-1)%uint64(len(configs))]
			ops := randomQueueSequence(seed, cfg, n)
			d, counts := playQueues(t, cfg, ops)
			if d != nil {
				shrunk, sd := shrinkQueues(t, cfg, ops[:d.step], d)
				t.Fatal(queueReport(seed, cfg, d, shrunk, sd))
			}
			total.add(counts)
		}
		lines = append(lines, queueCountsLine(configs[0].String()[:strings.Index(configs[0].String()+" ", " ")], len(configs), n, total))
	}
	for _, l := range lines {
		fmt.Println(l)
	}
}

// queueCountsLine prints what one pipeline's sequences did.
func queueCountsLine(pipeline string, configs, n int, c queueCounts) string {
	errs := make([]string, 0, len(c.errs))
	for _, k := range slices.Sorted(maps.Keys(c.errs)) {
		errs = append(errs, fmt.Sprintf("%s %d", k, c.errs[k]))
	}
	return fmt.Sprintf("parity queues (%s): %d sequences of %d operations over %d configurations, "+
		"%d operations, %d pops (%d deltas, %d batches, %d waited: %d ended by Close), %d handler calls "+
		"(%d tombstones), %d replaces, %d resyncs, %d bookmarks, %d writes while processing, %d closes; "+
		"errors: %s; 0 differences from client-go v0.37.2",
		pipeline, c.seqs, n, configs, c.ops, c.pops, c.deltas, c.batches, c.waited, c.endedByClose,
		c.calls, c.tombstones, c.replaces, c.resyncs, c.bookmarks, c.during, c.closes, strings.Join(errs, ", "))
}

// queues_report.go reports a difference of the queue differential
// (queues_drive.go): where the two sides' views first differ, the sequence
// shrunk to the operations that still show it, and both views after its
// last operation.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"fmt"
	"strings"
	"testing"
)

// firstDifferentLine returns the index of the first line where a and b
// differ, or -1.
func firstDifferentLine(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if lineAt(a, i) != lineAt(b, i) {
			return i
		}
	}
	return -1
}

// lineAt is a[i], or "(nothing)" past its end.
func lineAt(a []string, i int) string {
	if i < len(a) {
		return a[i]
	}
	return "(nothing)"
}

// shrinkQueues drops operations from ops (which end in a difference), and
// objects from the lists of its Replaces, as long as a difference remains,
// and returns the shorter sequence and its difference.
func shrinkQueues(t *testing.T, cfg queueConfig, ops []qop, d *queueDiff) ([]qop, *queueDiff) {
	still := func(try []qop) bool {
		d2, _ := playQueues(t, cfg, try)
		if d2 == nil {
			return false
		}
		ops, d = try[:d2.step], d2
		return true
	}
	for changed := true; changed; {
		changed = false
		for i := len(ops) - 1; i >= 0; i-- {
			if i < len(ops) && still(append(ops[:i:i], ops[i+1:]...)) {
				changed = true
			}
		}
		for i := 0; i < len(ops); i++ {
			for j := len(ops[i].List) - 1; j >= 0 && i < len(ops); j-- {
				op := ops[i]
				op.List = append(op.List[:j:j], op.List[j+1:]...)
				if still(append(append(ops[:i:i], op), ops[i+1:]...)) {
					changed = true
				}
			}
		}
	}
	return ops, d
}

// queueReport describes a difference: the seed, the configuration, the
// step and its operation, the first lines that differ, the shrunk
// sequence, and both sides' view after its last operation.
func queueReport(seed uint64, cfg queueConfig, d *queueDiff, shrunk []qop, sd *queueDiff) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: %s: first difference at step %d (%s): ours %q, client-go %q\n",
		seed, cfg, d.step, d.op, d.ours, d.clientGo)
	fmt.Fprintf(&b, "shrunk to %d operations:\n", len(shrunk))
	for i, op := range shrunk {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, op)
	}
	fmt.Fprintf(&b, "after the last, ours:\n    %s\nclient-go's:\n    %s\n",
		strings.Join(sd.oursAll, "\n    "), strings.Join(sd.theirAll, "\n    "))
	fmt.Fprintf(&b, "run it alone: PARITY_QUEUE_SEED=%d go test -run TestQueueDifferential .", seed)
	return b.String()
}

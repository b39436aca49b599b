// random_test.go runs the random scenarios (random.go) through both
// informers: 500 seeds of 50 steps by default; PARITY_SEEDS=N (or
// -parity.seeds) runs N, PARITY_SEED=S (or -parity.seed) only seed S,
// PARITY_STEPS=K (or -parity.steps) makes each K steps long. A difference
// is reported with its seed, the steps up to it and both sides' view.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

var (
	seedsFlag = flag.Int("parity.seeds", 0, "how many random scenarios (default 500, or $PARITY_SEEDS)")
	seedFlag  = flag.Uint64("parity.seed", 0, "run only this seed (or $PARITY_SEED)")
	stepsFlag = flag.Int("parity.steps", 0, "steps per random scenario (default 50, or $PARITY_STEPS)")
	firstFlag = flag.Uint64("parity.first", 1, "the first seed (or $PARITY_FIRST)")
)

// setting reads a flag, else the environment variable, else def.
func setting(flagValue uint64, env string, def uint64) uint64 {
	if flagValue != 0 {
		return flagValue
	}
	if v, err := strconv.ParseUint(os.Getenv(env), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

// TestRandomScenarios compares both informers on random scenarios.
func TestRandomScenarios(t *testing.T) {
	seeds := setting(uint64(*seedsFlag), "PARITY_SEEDS", 500)
	steps := int(setting(uint64(*stepsFlag), "PARITY_STEPS", 50))
	first := setting(*firstFlag, "PARITY_FIRST", 1)
	if only := setting(*seedFlag, "PARITY_SEED", 0); only != 0 {
		first, seeds = only, 1
	}
	runs := 0
	for seed := first; seed < first+seeds; seed++ {
		sc := randomScenario(seed, steps)
		if d := compareOne(t, sc); d != "" {
			t.Fatalf("seed %d: %s\nrun it alone: PARITY_SEED=%d go test -run TestRandomScenarios .", seed, d, seed)
		}
		runs++
		played.random.Add(1)
	}
	played.steps.Store(int64(steps))
	t.Logf("parity: %d random scenarios of %d+ steps × %d settings, 0 differences", runs, steps, len(ourSettings))
}

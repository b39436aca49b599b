// parity_test.go holds compareSides, which plays a scenario against both
// informers in every setting and reports the first difference, and a dump
// of both traces for a person debugging a case (PARITY_DUMP=1).
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"os"
	"testing"
)

// compareSides plays sc against ours and client-go in every setting the
// replace target runs, and fails on the first difference.
func compareSides(t *testing.T, sc scenario) {
	t.Helper()
	if d := compareOne(t, sc); d != "" {
		t.Error(d)
		return
	}
	played.named.Add(1)
}

// compareOne plays sc against ours and client-go in every setting the
// replace target runs, and returns the report of the first difference, or
// "".
func compareOne(t *testing.T, sc scenario) string {
	t.Helper()
	for _, setting := range ourSettings {
		a := play(t, sc, "ours", setting, func(url string, cfg config, h *hooks) (subject, error) {
			return newOurs(url, setting, cfg, h)
		})
		clientGoMu.Lock()
		err := clientGoGates().set(setting)
		b := play(t, sc, "client-go", setting, newClientGo)
		clientGoMu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("PARITY_DUMP") != "" {
			dump(t, a)
			dump(t, b)
		}
		if d := firstDifference(sc, a, b); d != nil {
			return report(sc, setting, d, a, b)
		}
	}
	return ""
}

// dump prints a trace (go test -v with PARITY_DUMP=1).
func dump(t *testing.T, tr trace) {
	t.Logf("== %s (%s) fatal=%q", tr.Side, tr.Setting, tr.Fatal)
	for i, s := range tr.Steps {
		t.Logf("%2d %s at %v err=%q\n   req=%v\n   notes=%v\n   cache=%v idx=%v synced=%v hs=%v rv=%s panics=%v ret=%v",
			i+1, s.What, s.At, s.Err, s.Requests, s.Notes, s.Cache, s.Index, s.Synced, s.HandlerSynced, s.LastRV, s.Panics, s.Returned)
	}
}

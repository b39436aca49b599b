// differences_test.go holds the cases of differences from client-go
// v0.37.2 that stay, each documented in docs/tutorial-vs-kubernetes.md
// ("Where this informer differs from client-go"): the case checks that
// each side does what the page says it does.
//
// client-go counterpart: the functions each case names.
//
// Tutorial: none (test machinery).

package parity

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// caseIndexFunctionFails has an index function fail once, for pod "bad".
// client-go's threadSafeMap stores the object, then panics in
// updateSingleIndex; with utilruntime.ReallyCrash (its default) the program
// crashes. The harness turns crashes off to see the rest: the object stays
// cached without its index entry, no handler hears of it, and the relist
// hands it on as an update: with the DeltaFIFO its index entry is still
// missing (an update whose index value did not change is not re-filed);
// the atomic RealFIFO's relist replaces the whole cache, which files it. Ours refuses the change: cache and index
// stay as they were, the error is logged, the delta is dropped; a resync
// does not bring it (the cache does not hold it), the relist does, indexed.
var caseIndexFunctionFails = scenario{
	name: "IndexFunctionFails: an index function that fails (a difference that stays)",
	doc:  "client-go threadSafeMap.Update, storeIndex.updateSingleIndex (panic), utilruntime.HandleCrash",
	cfg:  config{Index: true, IndexFailsOnce: "bad"},
	steps: []step{
		createWith("a", "app=x"),
		handler("h", nil, 0),
		startInformer(),
		createWith("bad", "app=y"),
		endWatch("expire"),
		nextRequest(),
		// client-go's process loop, after its panic, starts again a second
		// later (wait.UntilWithContext): let that second pass.
		advance(2 * time.Second),
	},
}

func TestIndexFunctionFails(t *testing.T) {
	for _, setting := range ourSettings {
		a := play(t, caseIndexFunctionFails, "ours", setting, func(url string, cfg config, h *hooks) (subject, error) {
			return newOurs(url, setting, cfg, h)
		})
		clientGoMu.Lock()
		err := clientGoGates().set(setting)
		b := play(t, caseIndexFunctionFails, "client-go", setting, newClientGo)
		clientGoMu.Unlock()
		if err != nil || a.Fatal != "" || b.Fatal != "" {
			t.Fatalf("%s: %v %q %q", setting, err, a.Fatal, b.Fatal)
		}
		const created, relisted = 3, 6 // the steps (0-based) after "create bad" and after the relist
		ours, theirs := a.Steps[created], b.Steps[created]
		if len(ours.Panics) != 0 || slices.Contains(ours.Cache, "ns/bad@2") || len(ours.Notes["h"]) != 0 {
			t.Errorf("%s, ours after the failing index: panics %v, cache %v, calls %v; want none, no bad, none",
				setting, ours.Panics, ours.Cache, ours.Notes)
		}
		if len(theirs.Panics) != 1 || !strings.Contains(theirs.Panics[0], "unable to calculate an index entry") ||
			!slices.Contains(theirs.Cache, "ns/bad@2") || slices.Contains(theirs.Index, "y=ns/bad") {
			t.Errorf("%s, client-go after the failing index: panics %v, cache %v, index %v; "+
				"want its panic, bad cached without its index entry", setting, theirs.Panics, theirs.Cache, theirs.Index)
		}
		ours, theirs = a.Steps[relisted], b.Steps[relisted]
		if !slices.Contains(ours.Cache, "ns/bad@2") || !slices.Contains(ours.Index, "y=ns/bad") {
			t.Errorf("%s, ours after the relist: cache %v, index %v; want bad cached and indexed", setting, ours.Cache, ours.Index)
		}
		if stillMissing := setting == settingFirst; !slices.Contains(theirs.Cache, "ns/bad@2") ||
			slices.Contains(theirs.Index, "y=ns/bad") == stillMissing {
			t.Errorf("%s, client-go after the relist: cache %v, index %v; want bad cached, its index entry missing: %v",
				setting, theirs.Cache, theirs.Index, stillMissing)
		}
	}
	if !t.Failed() {
		played.named.Add(1)
	}
}

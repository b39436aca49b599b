// handlerchain_test.go holds the edge cases of Chain: nil handlers are
// skipped, a panic is reported and the chain goes on, an empty chain does
// nothing.

package handlerchain

import (
	"errors"
	"slices"
	"testing"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

func TestChainSkipsNilAndSurvivesPanics(t *testing.T) {
	var log walkthrough.EventLog
	chain := New(
		nil,
		informer.ResourceEventHandlerFuncs{DeleteFunc: func(any) { panic(errors.New("boom")) }},
		log.Handler("last"),
	)
	// The default PanicHandler logs; the call must return normally.
	p := walkthrough.Pod("p")
	chain.OnAdd(p, true)
	chain.OnUpdate(p, p)
	chain.OnDelete(p)
	want := []string{"last add default/p", "last update default/p", "last delete default/p"}
	if got := log.All(); !slices.Equal(got, want) {
		t.Fatalf("calls = %q, want %q", got, want)
	}
	New().OnAdd(p, false) // an empty chain does nothing
}

// cases_test.go holds the named scenarios of the informer's everyday
// life: events on a watch, bookmarks, watches that end, relists.
//
// client-go counterpart: the functions each case names.

package parity

import (
	"testing"
	"time"
)

// caseWatchEvents lists two pods, then watches a create, an update and a
// delete, and a watch that the server ends (as at its timeout): the
// Reflector watches again from the last version it saw.
var caseWatchEvents = scenario{
	name: "watch events, and a watch the server ends",
	doc:  "client-go Reflector.ListAndWatchWithContext, Reflector.watch, handleAnyWatch; processDeltas",
	steps: []step{
		create("a", "b"),
		handler("h", nil, 0),
		startInformer(),
		create("c"),
		update("a", "app=x"),
		del("b"),
		endWatch("normal"),
		advance(2 * time.Second),
		create("d"),
	},
}

func TestWatchEvents(t *testing.T) { compareSides(t, caseWatchEvents) }

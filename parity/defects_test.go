// defects_test.go holds the cases of the defects D1–D7 of issue 35: each
// plays the situation a sentence of the root package describes, or the
// behaviour that differed from client-go v0.37.2, through both informers.
//
// client-go counterpart: the functions each case names.
//
// Tutorial: none (test machinery).

package parity

import (
	"testing"
	"time"
)

// caseD1 stops the informer while its queue and a handler's buffer hold a
// backlog: the stop comes while the index function is at pod "c", the
// third of five listed. client-go's controller.processLoop checks the context before
// every Pop, so the item being processed when the stop comes is the last:
// what is still queued never reaches the cache. Then sharedProcessor.run
// closes every listener's addCh, and processorListener.pop returns: what a
// handler has buffered is dropped, the call in progress ends. (Which of a
// handler's buffered calls still start is random in client-go when its run
// goroutine is between calls; here the slow handler is always in a call, so
// none does: the stop step is lenient anyway.)
var caseD1 = scenario{
	name: "D1 stop: what is queued and buffered is dropped",
	doc:  "client-go controller.processLoop (ctx checked before each Pop), sharedProcessor.run, processorListener.pop",
	cfg:  config{Index: true, IndexBlocksAt: "c"},
	steps: []step{
		create("a", "b", "c", "d", "e"),
		handler("fast", nil, 0),
		handler("slow", nil, 25*time.Millisecond),
		stopWhileIndexing(),
	},
}

func TestD1StopDropsBacklog(t *testing.T) {
	compareSides(t, caseD1)
}

// caseD2 removes handlers: one in the middle of a backlog (the call in
// progress ends; client-go's RemoveEventHandler is asynchronous, so calls
// may start after it returns: lenient), one before Run. A removed handler
// gets nothing more, and its registration's HasSynced stays false unless it
// had synced already: client-go's processorListener.watchSynced gives up
// when the listener is removed, so its SingleFileTracker never hears that
// the informer synced.
var caseD2 = scenario{
	name: "D2 RemoveEventHandler: asynchronous, and a removed handler never syncs",
	doc:  "client-go sharedProcessor.removeListener, processorListener.pop/watchSynced",
	steps: []step{
		create("a", "b", "c", "d"),
		handler("early", nil, 0),
		removeHandler("early"),
		handler("slow", nil, 10*time.Millisecond),
		handler("fast", nil, 0),
		startInformer(),
		advance(15 * time.Millisecond),
		removeHandler("slow"),
		create("e"),
		advance(time.Second),
		update("a", "app=x"),
	},
}

func TestD2RemoveEventHandler(t *testing.T) {
	compareSides(t, caseD2)
}

// caseD3 relists objects that did not change. A Replaced delta of an object
// the cache holds at the same resourceVersion is an update whose versions
// are equal: sharedIndexInformer.OnUpdate treats it as a resync, and
// sharedProcessor.distribute hands it only to the listeners marked for
// resync. Every listener is marked until the first resync check
// (shouldResync); after it, only those whose period came due: "none" (its
// own period 0) gets nothing from the second relist.
var caseD3 = scenario{
	name: "D3 a relist of unchanged objects reaches only handlers due for a resync",
	doc:  "client-go sharedIndexInformer.OnUpdate (isSync), sharedProcessor.distribute/shouldResync",
	cfg:  config{Resync: 10 * time.Second},
	steps: []step{
		create("a", "b"),
		handler("none", period(0), 0),
		handler("every10s", nil, 0),
		startInformer(),
		endWatch("expire"),
		nextRequest(),
		advance(10 * time.Second),
		endWatch("expire"),
		nextRequest(),
	},
}

func TestD3RelistOfUnchangedObjects(t *testing.T) { compareSides(t, caseD3) }

// caseD4 resets the watch's connection, then sends a GOAWAY and a read
// timeout. apimachinery's StreamWatcher.receive ends a watch quietly on
// whatever utilnet.IsProbableEOF or IsTimeout accepts, so the Reflector
// watches again from the last version it saw: no relist. (A difference of
// the first reading only: the full source had the rule.)
var caseD4 = scenario{
	name: "D4 a reset, GOAWAY or timed-out watch is watched again, not relisted",
	doc:  "apimachinery watch.StreamWatcher.receive, utilnet.IsProbableEOF, IsTimeout; client-go Reflector.watch",
	steps: []step{
		create("a"),
		handler("h", nil, 0),
		startInformer(),
		create("b"),
		endWatch(string(faultReset)),
		create("c"),
		endWatch(string(faultGoAway)),
		update("a", "app=y"),
		endWatch(string(faultTimeout)),
		del("b"),
		advance(2 * time.Second),
	},
}

func TestD4WatchEndsNormally(t *testing.T) { compareSides(t, caseD4) }

// caseD5 lets resync periods pass while no watch runs: a 410 ends the
// watch, and the next three lists (or, by default, streaming lists) fail.
// client-go's resync timer belongs to the watch (Reflector.watchWithResync
// starts startResync and stops it when the watch returns): no resync while
// the backoffs pass; then, once a list succeeds, one a second again, counted
// from the new watch.
var caseD5 = scenario{
	name: "D5 no resync while no watch runs",
	doc:  "client-go Reflector.ListAndWatchWithContext, watchWithResync, startResync",
	cfg:  config{Resync: time.Second},
	steps: []step{
		create("a"),
		handler("h", nil, 0),
		startInformer(),
		advance(1500 * time.Millisecond),
		fail("LIST", 3, answer{Code: 500}),
		fail("WATCH", 3, answer{Code: 500}),
		endWatch("expire"),
		nextRequest(),
		nextRequest(),
		nextRequest(),
		nextRequest(),
		advance(3500 * time.Millisecond),
	},
}

func TestD5NoResyncWithoutWatch(t *testing.T) {
	compareSides(t, caseD5)
}

// caseD6 watches from "": the list answered no resourceVersion (as some
// aggregated APIs do), so the watch starts at "" and opens with synthetic
// ADDED events in key order, not version order. client-go's Reflector.watch
// keeps the version where it was (propagateRVFromStart false) until an
// event other than ADDED arrives: the watch is restarted from "" again, not
// from the version of the last synthetic ADDED, which would skip changes.
var caseD6 = scenario{
	name:        "D6 a watch from \"\" moves the version only after a non-ADDED event",
	doc:         "client-go Reflector.watch (propagateRVFromStart), handleAnyWatch (eventReceivedBesidesAdded)",
	emptyListRV: true,
	steps: []step{
		create("b", "a"),
		handler("h", nil, 0),
		startInformer(),
		endWatch("normal"),
		update("b", "app=z"),
		endWatch("normal"),
	},
}

func TestD6WatchFromEmptyVersion(t *testing.T) {
	compareSides(t, caseD6)
}

// caseD7 loses a change before the cache takes it: the transform fails
// once for pod "bad", so the queue refuses the watch event (client-go's
// Reflector logs "Unable to add watch event object to store" and goes on).
// A resync re-sends only what the cache holds, so "bad" stays missing
// through two resync periods; the next relist (a 410) brings it.
var caseD7 = scenario{
	name: "D7 a change the cache never took comes back with a relist, not a resync",
	doc:  "client-go handleAnyWatch (a store error is logged), DeltaFIFO.Resync/RealFIFO.Resync (the cache's keys), Reflector.list",
	cfg:  config{Resync: time.Second, TransformFailsOnce: "bad"},
	steps: []step{
		create("a"),
		handler("h", nil, 0),
		startInformer(),
		create("bad"),
		advance(2500 * time.Millisecond),
		endWatch("expire"),
		nextRequest(),
		advance(1500 * time.Millisecond),
	},
}

func TestD7LostChangeComesBackWithRelist(t *testing.T) {
	compareSides(t, caseD7)
}

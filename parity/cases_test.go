// cases_test.go holds the named scenarios of the informer's everyday
// life: events on a watch, bookmarks, watches that end, relists.
//
// client-go counterpart: the functions each case names.
//
// Tutorial: none (test machinery).

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

// caseBookmarks moves the version with bookmarks: a watch ended after a
// bookmark is restarted from the bookmark's version, which no object has.
var caseBookmarks = scenario{
	name: "bookmarks move the version a re-watch starts from",
	doc:  "client-go handleAnyWatch (watch.Bookmark), Reflector.watch (AllowWatchBookmarks)",
	steps: []step{
		create("a"),
		handler("h", nil, 0),
		startInformer(),
		create("x"),
		del("x"),
		bookmark(),
		endWatch("normal"),
		update("a", "app=1"),
		bookmark(),
		bookmark(),
		endWatch("normal"),
	},
}

func TestBookmarks(t *testing.T) { compareSides(t, caseBookmarks) }

// casePagedListExpiredContinue lists in pages (the server has no watch
// cache, so a list at "0" pages, and pages hold two pods); the token of a
// later page has expired: client-go's ListPager makes one full list
// instead, at the version first asked for. Later relists page too
// (paginatedResult), and one at a compacted version is 410: the Reflector
// lists again at "".
var casePagedListExpiredContinue = scenario{
	name:    "paged lists, an expired continue token, a relist at a compacted version",
	doc:     "client-go tools/pager ListPager.list (FullListIfExpired), Reflector.list (paginatedResult, isExpiredError)",
	pageCap: 2,
	noCache: true,
	steps: []step{
		create("a", "b", "c", "d", "e"),
		handler("h", nil, 0),
		fail("LIST", 1, answer{Code: 410, Continue: true}),
		startInformer(),
		create("f"),
		compact(),
		endWatch("expire"),
		nextRequest(),
		del("a"),
	},
}

func TestPagedListExpiredContinue(t *testing.T) { compareSides(t, casePagedListExpiredContinue) }

// caseWatchEnds ends watches in every way a server or a network can: the
// server's timeout (a normal end, at once re-watched), a watch that ends
// within a second with no event (a "very short watch": the cycle ends and,
// after a backoff, relists), an HTTP/2 connection lost to unanswered pings,
// a line no decoder reads and an ERROR event 500 (each an error: relist).
var caseWatchEnds = scenario{
	name: "watch timeouts, a very short watch, a lost connection, garbage, an ERROR 500",
	doc:  "client-go handleAnyWatch (VeryShortWatchError), apimachinery StreamWatcher.receive, Reflector.watch",
	steps: []step{
		create("a"),
		handler("h", nil, 0),
		startInformer(),
		advance(5 * time.Minute),
		endWatch("normal"),
		endWatch("normal"),
		nextRequest(),
		advance(2 * time.Second),
		endWatch(string(faultLost)),
		nextRequest(),
		update("a", "app=1"),
		endWatch("garbage"),
		nextRequest(),
		create("b"),
		endWatch("error500"),
		nextRequest(),
		del("b"),
	},
}

func TestWatchEnds(t *testing.T) { compareSides(t, caseWatchEnds) }

// caseTooManyRequests answers 429 with Retry-After: to the first list, to a
// later page of a relist, and to a watch. client-go's REST client waits the
// seconds the server asked for and asks again, the same request, up to ten
// times (rest.Request.request, withRetry.IsNextRetry, checkWait); a watch
// refused with 429 is retried after a backoff, without a relist
// (Reflector.watch, isWatchErrorRetriable).
var caseTooManyRequests = scenario{
	name:    "429 with Retry-After on a list, a later page and a watch",
	doc:     "client-go rest.Request.request/Watch (withRetry, checkWait), Reflector.watch (isWatchErrorRetriable)",
	pageCap: 2,
	noCache: true,
	steps: []step{
		create("a", "b", "c"),
		handler("h", nil, 0),
		fail("LIST", 2, answer{Code: 429, RetryAfter: 1}),
		startInformer(),
		nextRequest(),
		nextRequest(),
		advance(2 * time.Second),
		fail("LIST", 1, answer{Code: 429, RetryAfter: 2, Continue: true}),
		endWatch("expire"),
		nextRequest(),
		nextRequest(),
		advance(3 * time.Second),
		fail("WATCH", 1, answer{Code: 429, RetryAfter: 1}),
		endWatch("normal"),
		nextRequest(),
		advance(3 * time.Second),
		create("d"),
	},
}

func TestTooManyRequests(t *testing.T) { compareSides(t, caseTooManyRequests) }

// caseGone answers 410: an ERROR event on the watch (relist at the last
// version seen), an HTTP 410 to a watch request, and a 410 to a relist at a
// compacted version (list again at "" at once).
var caseGone = scenario{
	name:    "410 on a watch (event and answer) and on a list",
	doc:     "client-go Reflector.watch, Reflector.list (isExpiredError, setIsLastSyncResourceVersionUnavailable), relistResourceVersion",
	noCache: true,
	steps: []step{
		create("a", "b"),
		handler("h", nil, 0),
		startInformer(),
		update("a", "app=1"),
		endWatch("expire"),
		nextRequest(),
		fail("WATCH", 1, answer{Code: 410}),
		endWatch("normal"),
		nextRequest(),
		fail("LIST", 1, answer{Code: 410}),
		endWatch("expire"),
		nextRequest(),
		create("c"),
	},
}

func TestGone(t *testing.T) { compareSides(t, caseGone) }

// caseServerDown takes the server down (the watch's connection reset, then
// connections refused: a refused watch is retried after a backoff, without
// a relist) while a pod is deleted and another deleted and created again
// under the same name; a compaction makes the next watch 410, so the
// Reflector relists: the deleted pod arrives as a tombstone, the re-created
// one as one update whose UID changed.
var caseServerDown = scenario{
	name: "the server goes down; a relist finds a pod gone and one re-created",
	doc:  "client-go Reflector.watch (isWatchErrorRetriable: connection refused), DeltaFIFO.Replace (tombstones), processDeltas",
	steps: []step{
		create("a", "b"),
		handler("h", nil, 0),
		startInformer(),
		serverDown(),
		nextRequest(),
		del("a"),
		del("b"),
		create("b"),
		compact(),
		serverUp(),
		nextRequest(),
		nextRequest(),
		nextRequest(),
	},
}

func TestServerDown(t *testing.T) { compareSides(t, caseServerDown) }

// caseLateHandler adds handlers while the informer runs: each first gets
// an add, marked as in the initial list, for every object the cache holds
// (under blockDeltas, so nothing slips between), then the changes after
// it; its registration syncs once those adds are handled. One with its own
// resync period shorter than the informer's check period has it raised to
// the check period. After the stop, AddEventHandler fails.
var caseLateHandler = scenario{
	name: "handlers added late, and removed; AddEventHandler after the stop",
	doc:  "client-go sharedIndexInformer.AddEventHandlerWithOptions (blockDeltas, isInInitialList), determineResyncPeriod",
	cfg:  config{Resync: 10 * time.Second},
	steps: []step{
		create("a", "b"),
		handler("early", nil, 0),
		startInformer(),
		create("c"),
		handler("late", period(time.Second), 0),
		update("a", "app=1"),
		advance(10 * time.Second),
		handler("slowlate", nil, 30*time.Millisecond),
		advance(20 * time.Millisecond),
		del("b"),
		advance(time.Second),
		removeHandler("late"),
		update("c", "app=2"),
		advance(10 * time.Second),
		stopInformer(),
		handler("afterstop", nil, 0),
	},
}

func TestLateHandler(t *testing.T) { compareSides(t, caseLateHandler) }

// caseSlowHandler gives one handler 50 ms of work per call while another
// keeps up: the slow one's calls queue in its own buffer, and it gets
// every change, in order per object, later; nobody waits for it.
var caseSlowHandler = scenario{
	name: "a slow handler delays only itself",
	doc:  "client-go processorListener (pop's unbounded buffer, run)",
	cfg:  config{Resync: 30 * time.Second},
	steps: []step{
		create("a", "b", "c"),
		handler("slow", nil, 50*time.Millisecond),
		handler("fast", nil, 0),
		startInformer(),
		update("a", "app=1"),
		del("b"),
		create("d"),
		advance(60 * time.Millisecond),
		update("a", "app=2"),
		advance(time.Second),
		advance(30 * time.Second),
		advance(time.Second),
	},
}

func TestSlowHandler(t *testing.T) { compareSides(t, caseSlowHandler) }

// caseTransformAndIndex runs a transform and an index on every object:
// the index follows every change (labels move a pod from one value to
// another, a deletion takes it out).
var caseTransformAndIndex = scenario{
	name: "a transform and an index on every object",
	doc:  "client-go SetTransform (the queue's transformer), threadSafeMap's indexes (updateSingleIndex)",
	cfg:  config{Transform: true, Index: true},
	steps: []step{
		createWith("a", "app=x"),
		createWith("b", "app=y"),
		handler("h", nil, 0),
		startInformer(),
		createWith("c", "app=x"),
		update("a", "app=y"),
		update("b", ""),
		del("c"),
		endWatch("expire"),
		nextRequest(),
	},
}

func TestTransformAndIndex(t *testing.T) { compareSides(t, caseTransformAndIndex) }

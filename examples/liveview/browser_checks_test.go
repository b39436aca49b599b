// browser_checks_test.go holds the browser test's checks of the page's
// defects that issue 22 lists, each named after what the learner must see:
// every panel filled at once, the language button, selectable text, a feed
// that reads top-down and holds still, no step banked on an empty queue.
// The checks made while the scenes play are in browser_scenes_test.go; a
// page that says so when its program is gone is checked with issue 30's
// (browser_user_test.go).

package main

import (
	"fmt"
	"time"
)

// checkFirstPaint: opened at once after the start, the page fills every
// panel before the first BOOKMARK (defect 1: a null list broke the page
// until then), with no resync and the RealFIFO (defect 10, the default
// queue), and lays out at 1024x700 (defect 3).
func checkFirstPaint(p page, began time.Time) {
	p.t.Helper()
	p.wait("every panel filled", `document.querySelectorAll("#server-objects tr").length === 3 &&
		document.querySelectorAll("#wire-requests li").length > 0 && document.getElementById("queue-meta").textContent !== "" &&
		document.querySelectorAll("#cache tr").length === 3 && document.querySelectorAll("#handlers .handler").length === 2 &&
		document.querySelectorAll("#feed li").length > 0`)
	// A streaming list ends with a BOOKMARK of its own; any other comes
	// with the bookmark interval.
	if p.eval(`feed.filter(e => e.kind === "BOOKMARK").length > 1`) == true {
		p.t.Fatalf("the panels were filled only after the first BOOKMARK (%v after the start)", time.Since(began))
	}
	// (a696ccf's page had a menu for the period and disabled buttons.)
	if r := p.str(`last.informer.resyncPeriod + " " + (document.querySelector("[data-control=resyncperiod][aria-pressed=true]") || {dataset: {period: (document.getElementById("resync-period") || {}).value}}).dataset.period + " " +
		(b => b.disabled || b.getAttribute("aria-disabled") === "true")(document.querySelector("[data-control=resync]")) + " " + document.querySelector("button.kind.on").dataset.kind`); r != "0s 0s true RealFIFO" {
		p.t.Fatalf("resync period, its control, Resync now disabled, the queue: %q, want resync off and the RealFIFO", r)
	}
	p.checkLayout("on the first paint at 1024x700")
	p.clean("on the first paint")
}

// checkLanguageButton: the language button translates the connection pill
// too (defect 6: it stayed "connecting…").
func checkLanguageButton(p page) {
	p.t.Helper()
	p.click("#lang")
	p.wait("the page in Chinese", `document.documentElement.lang === "zh-CN" && document.getElementById("conn").textContent === "实时"`)
	p.click("#lang")
	p.wait("the page in English", `document.documentElement.lang === "en" && document.getElementById("conn").textContent === "live"`)
}

// checkSelectableText: text selected in the request list stays selected
// while snapshots come (defect 13: each snapshot rebuilt the list).
func checkSelectableText(p page) {
	p.t.Helper()
	p.eval(`(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("#wire-requests li"));
		getSelection().removeAllRanges(); getSelection().addRange(r); })()`)
	p.snapshots(2)
	if p.eval(`getSelection().toString() !== "" && getSelection().anchorNode.isConnected`) != true {
		p.t.Fatal("the selection in the request list was lost to the snapshots")
	}
	p.eval(`getSelection().removeAllRanges()`)
}

// checkFeedReadsDownAndHolds: the feed is in time order, top-down (defect
// 11); scrolled up, it stays where the reader is; at the bottom, it
// follows; a Pop's cache line comes before its handler calls (defect 2).
func checkFeedReadsDownAndHolds(p page) {
	p.t.Helper()
	p.control("burst")
	p.wait("a feed longer than its panel", `(f => f.scrollHeight > f.clientHeight + 50)(document.getElementById("feed"))`)
	if p.eval(`(l => +l[0].dataset.seq < +l[l.length - 1].dataset.seq)(document.querySelectorAll("#feed li"))`) != true {
		p.t.Fatal("the feed is not oldest first")
	}
	p.eval(`document.getElementById("feed").scrollTop = 0`)
	p.wait("the feed held", `document.getElementById("feed-follow").className.includes("warn")`)
	key := p.createPod()
	p.wait("the new pod in the feed", fmt.Sprintf(`feed.some(e => e.kind === "OnAdd" && e.key === %q)`, key))
	if top := p.num(`document.getElementById("feed").scrollTop`); top != 0 {
		p.t.Fatalf("the feed moved under a reader who scrolled up: scrollTop %v", top)
	}
	checkCacheBeforeHandlers(p, key)
	// Back to the end, and a line arrives before the scroll event does (as
	// on a busy machine): the feed follows all the same. The line's number
	// sits between two real ones, so no real entry is skipped.
	p.eval(`(f => { f.scrollTop = f.scrollHeight;
		onLog([{seq: lastSeq + 0.5, at: "", panel: "cache", kind: "test", text: "a line before the scroll event"}]); })(document.getElementById("feed"))`)
	p.wait("the feed following", `document.getElementById("feed-follow").className.includes("ok")`)
	p.control("update")
	p.wait("the update in the feed", `feed[feed.length - 1].kind === "OnUpdate"`)
	p.wait("the feed at its end", `(f => f.scrollHeight - f.scrollTop - f.clientHeight < 8)(document.getElementById("feed"))`)
}

// checkCacheBeforeHandlers: in the page's feed, since the informer
// started, key's first cache line (or the relist's whole-cache line) comes
// before its first handler call.
func checkCacheBeforeHandlers(p page, key string) {
	p.t.Helper()
	order := p.str(fmt.Sprintf(`(() => {
		const from = Math.max(0, feed.map(e => e.kind).lastIndexOf("informer started"));
		const after = (i, f) => { const j = feed.slice(from).findIndex(f); return j < 0 ? -1 : from + j; };
		const c = after(0, e => e.panel === "cache" && (e.key === %[1]q || e.kind === "cache: replaced"));
		const h = after(0, e => e.panel === "handlers" && e.key === %[1]q);
		return c + " " + h;
	})()`, key))
	var c, h int
	fmt.Sscan(order, &c, &h)
	if c < 0 || h < 0 || c > h {
		p.t.Fatalf("%s: the cache line is entry %d, the first handler call %d: the cache must come first", key, c, h)
	}
}

// checkNoBankedStep: with the consumer paused and the queue empty, Pop one
// item is off, and a step asked for anyway is refused; a later create
// waits in the queue for its own step (defect 12).
func checkNoBankedStep(p page) {
	p.t.Helper()
	p.control("pause")
	p.wait("an empty paused queue", `last.queue.paused && last.queue.deltas.every(d => d.type === "Bookmark") && document.getElementById("step").getAttribute("aria-disabled") === "true"`)
	n := p.num(`answers`)
	p.eval(`post("step")`) // as a click that got through would
	p.wait("the refusal", fmt.Sprintf(`answers > %v`, n))
	if ok := p.str(`document.getElementById("answer").dataset.ok`); ok != "false" {
		p.t.Fatal("a step on an empty queue was accepted")
	}
	key := p.createPod()
	p.wait("the pod queued", fmt.Sprintf(`last.queue.deltas.some(d => d.key === %q)`, key))
	p.snapshots(2)
	if p.eval(fmt.Sprintf(`last.cache.objects.some(o => o.key === %q)`, key)) == true {
		p.t.Fatal("a create went to the cache without a step: a step was banked")
	}
	p.control("step")
	p.wait("the pod in the cache", fmt.Sprintf(`last.cache.objects.some(o => o.key === %q)`, key))
	p.control("resume")
	p.wait("the consumer running", `!last.queue.paused`)
}

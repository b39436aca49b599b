// browser_reader_test.go plays the scene with a server outage, the missed
// deletion, at a reader's pace (issue 38): the test spends 20 to 30 s on
// each step, as a learner reading its narration does, before it presses
// Next. The Reflector's backoff grows all that time, so the steps after
// the outage wait as long as it lasts: while they run, the guide must say
// what they wait for (and, while the Reflector backs off, when it tries
// again) and tell nothing it has not seen. Then Replay, a scene closed,
// and a pod created must each be answered as usual.

package main

import (
	"fmt"
	"time"
)

// readerPauses are the seconds a reader spends on each step of the missed
// deletion before pressing Next (the last: before Replay).
var readerPauses = []time.Duration{30 * time.Second, 25 * time.Second, 20 * time.Second, 20 * time.Second, 20 * time.Second, 20 * time.Second}

// readerPause is a reader reading: the test waits on purpose, the one wait
// of the browser test that is a time and not a condition. The page is
// watched meanwhile: trouble fails at once.
func readerPause(p page, d time.Duration) {
	p.t.Helper()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		time.Sleep(min(time.Second, time.Until(end))) // a reader's pace: the pause is the point
		p.clean("while a reader read the step")
	}
}

// whileRunningJS tells what is wrong with the guide while a step runs or
// a scene prepares: it must say what it waits for, and for how long; while
// the Reflector backs off, when it tries again; and tell no narration yet.
// It answers "done" once the step is no longer running, "backoff" when it
// showed the Reflector's countdown, "" otherwise.
const whileRunningJS = `(() => {
	const g = document.getElementById("guide"), st = g.dataset.status;
	if (st !== "running" && st !== "preparing") return "done";
	const pending = waiters.find(w => w.gen === generation);
	if (!pending) return "";
	if (!pending.what || !document.getElementById("guide-wait")) return "bad: the guide does not say what the step waits for"; // (a696ccf's)
	const wait = document.getElementById("guide-wait").textContent, text = document.getElementById("guide-text").textContent;
	const what = pending.what[lang] || pending.what.en;
	if (!wait.includes(what)) return "bad: the guide does not say it waits for " + JSON.stringify(what) + ": " + JSON.stringify(wait);
	if (text !== t(st === "running" ? "guide.runningText" : "guide.preparingText")) return "bad: while it runs, the guide tells " + JSON.stringify(text.slice(0, 160));
	if (last.wire.state === "backing off" && (Date.now() - stateAt) < 500 && last.wire.leftMs > 1500) {
		const says = t("guide.waitBackoff", {left: "@"}).split("@")[0];
		return wait.includes(says) ? "backoff" : "bad: the Reflector backs off, the guide does not say when it tries again: " + JSON.stringify(wait);
	}
	return "";
})()`

// watchRunning waits until step i of the scene playing has finished,
// checking all along that the guide says what it waits for; it reports
// whether the guide showed the Reflector's countdown.
func watchRunning(p page, what string, i int) bool {
	p.t.Helper()
	countdown := false
	deadline := time.Now().Add(stepWait)
	for {
		r := p.str(whileRunningJS)
		p.clean("while " + what + " ran")
		switch {
		case r == "done":
			waitStep(p, what, i)
			return countdown
		case r == "backoff":
			countdown = true
		case r != "":
			p.t.Fatalf("%s, step %d: %s", what, i+1, r[len("bad: "):])
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s, step %d did not finish within %v", what, i+1, stepWait)
		}
		time.Sleep(100 * time.Millisecond) // polling the guide, with a deadline
	}
}

// checkReadersPace (issue 38, "scene 3 fails for anyone who reads"): the
// missed deletion played at a reader's pace to its end, every step
// checked as in the brisk pass; then Replay, which must prepare saying
// why it waits; then Close, after which a Create reaches the cache and the
// slow handler's scene plays.
func checkReadersPace(p page) {
	p.t.Helper()
	p.size(1280, 800)
	before := p.str(modesJS)
	what := "the missed deletion at a reader's pace in " + p.lang
	chooseScene(p, "missed")
	n := int(p.num(`SCENES.find(s => s.id === "missed").steps.length`))
	countdowns := 0
	for i := range n {
		began := time.Now()
		if i > 0 {
			p.click("#guide-next")
		}
		if watchRunning(p, what, i) {
			countdowns++
		}
		checkHighlights(p, what, i)
		checkInView(p, what, i)
		checkStep(p, what, i)
		checkSceneStep(p, "missed", i)
		p.checkLayout(fmt.Sprintf("%s, step %d", what, i+1))
		if p.lang == "zh" {
			checkChinese(p, fmt.Sprintf("%s, step %d", what, i+1))
		}
		p.t.Logf("  %s, step %d: done after %v; the reader reads %v", what, i+1, time.Since(began).Round(time.Millisecond), readerPauses[i])
		readerPause(p, readerPauses[i])
	}
	p.t.Logf("%s: every step finished; the guide counted the Reflector's backoff down in %d of them", what, countdowns)
	// Replay: preparing, the guide says what it waits for.
	p.click("#guide-replay")
	watchRunning(p, what+", replayed", 0)
	closeScene(p, what, before)
	// After Close, a pod created is seen by the informer as usual.
	key := p.createPod()
	p.wait("the pod created after Close in the cache", fmt.Sprintf(`last.cache.objects.some(o => o.key === %q)`, key))
	chooseScene(p, "slow")
	watchRunning(p, "the slow handler after the missed deletion", 0)
	closeScene(p, "the slow handler after the missed deletion", before)
}

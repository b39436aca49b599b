// browser_scenes_test.go plays every guided scene in the browser, back to
// back in one page, on both queues and at three window sizes, clicking
// Next as a learner does; each step must finish, highlight the panels it
// names, bring the first into view, keep the layout whole and, in Chinese,
// show no English sentence. Along the way it checks the defects of issues
// 22 and 30 that a scene brings out, and at each scene's end (on the
// RealFIFO) it takes the docs' screenshot.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// sceneIDs are the scenes of web/scenes.js, in menu order.
var sceneIDs = []string{"first", "rewatch", "missed", "slow", "resync", "fifos"}

// windows are the sizes the scenes play at, by turns: a large screen, a
// laptop's, a small window.
var windows = [][2]int{{1920, 1080}, {1280, 720}, {1024, 700}}

// modesJS reads what a scene may change and Close puts back: the server
// up, step mode, the queue, the resync period, slowHandler's work.
const modesJS = `JSON.stringify([last.server.up, last.queue.paused, last.informer.queue, last.informer.resyncPeriod, last.handlers[1].delay])`

// playEveryScene plays every scene from the menu, back to back with no
// reload, on the RealFIFO and then on the DeltaFIFO, at the three window
// sizes by turns, closing each at its end; on the way one scene is closed
// after its first step and opened again, and one is left half-way for
// another. The first pass takes the docs' screenshots.
func playEveryScene(p page, shots string) {
	p.t.Helper()
	var played []string
	turn := map[string]int{"en": 0, "zh": 1}[p.lang]
	for pass, queue := range []string{"RealFIFO", "DeltaFIFO"} {
		switchQueue(p, queue)
		for _, id := range sceneIDs {
			w, h := windows[turn%len(windows)][0], windows[turn%len(windows)][1]
			turn++
			p.size(w, h)
			what := fmt.Sprintf("%s on the %s in %s at %dx%d", id, queue, p.lang, w, h)
			before := p.str(modesJS)
			began := time.Now()
			switch {
			case pass == 0 && id == "rewatch": // closed after its first step, then opened again
				chooseScene(p, id)
				waitStep(p, what, 0)
				closeScene(p, what, before)
				played = append(played, id+" (closed after step 1)")
				chooseScene(p, id)
			case pass == 0 && id == "slow": // the missed deletion left half-way for it
				leaveSceneHalfWay(p, id, what)
				played = append(played, "missed (left at step 2)")
			default:
				chooseScene(p, id)
			}
			playScene(p, id, what, func() { // the docs' screenshot of the last step, as it is told
				if pass == 0 {
					takeShots(p, shots, id, w, h)
				}
			})
			p.t.Logf("scene %s: %v", what, time.Since(began).Round(time.Millisecond))
			closeScene(p, what, before)
			played = append(played, id+" ("+queue+")")
			p.clean("after scene " + what)
		}
	}
	p.t.Logf("scenes played (%s): %d: %s", p.lang, len(played), strings.Join(played, ", "))
}

// takeShots takes the docs' screenshot of scene id, and the window a
// learner sees when LIVEVIEW_WINDOW_SHOTS names a folder.
func takeShots(p page, shots, id string, w, h int) {
	p.t.Helper()
	suffix := ".png"
	if p.lang == "zh" {
		suffix = ".zh-CN.png"
	}
	if dir := os.Getenv("LIVEVIEW_WINDOW_SHOTS"); dir != "" { // what a learner's window shows, to look at
		p.capture(filepath.Join(dir, fmt.Sprintf("window-%s-%dx%d%s", id, w, h, suffix)), false)
	}
	p.screenshot(filepath.Join(shots, "liveview-"+id+suffix), w, h)
	if id == "missed" { // the README's picture
		copyFile(p, filepath.Join(shots, "liveview-"+id+suffix), filepath.Join(shots, "liveview"+suffix))
	}
}

// switchQueue puts the informer on the queue with its button, unless it
// is there, and waits until it has synced.
func switchQueue(p page, queue string) {
	p.t.Helper()
	if p.str(`last.informer.queue`) != queue {
		p.press(`button.kind[data-kind=` + queue + `]`)
	}
	p.wait("a synced "+queue, fmt.Sprintf(`last.informer.queue === %q && last.informer.synced`, queue))
}

// chooseScene picks the scene from the menu and presses Play, as a
// learner does. (A page without Play, such as a696ccf's, starts a scene
// as it is chosen.)
func chooseScene(p page, id string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event("change")); })(document.getElementById("scene"))`, id))
	if p.eval(`!!document.getElementById("scene-play")`) == true {
		p.click("#scene-play")
	}
}

// stepWait bounds a step: a step that waits for the Reflector waits as
// long as its backoffs (web/scenes.js, reflectorMs: 3 min), and a step's
// preparation as long again.
const stepWait = 200 * time.Second

// waitStep waits until step i has finished, and fails unless it is done.
func waitStep(p page, what string, i int) {
	p.t.Helper()
	p.waitFor(stepWait, fmt.Sprintf("%s: step %d finished", what, i+1), fmt.Sprintf(
		`(g => !g.hidden && g.dataset.step === "%d" && !["running", "preparing"].includes(g.dataset.status))(document.getElementById("guide"))`, i))
	if st := p.str(`document.getElementById("guide").dataset.status`); st != "done" {
		p.t.Fatalf("%s: step %d did not finish: %s; the feed since the scene began (the last 60 entries):\n%s", what, i+1,
			p.str(`document.getElementById("guide-status").textContent`),
			p.str(`sceneLog.slice(-60).map(e => [e.at, e.panel, e.kind, e.key, e.rv, e.text].join(" ")).join("\n")`))
	}
}

// playScene plays the scene chosen to its end, clicking Next, calls atEnd
// (if any) on its last step, then goes Back and Next again: neither may
// run a step's actions twice.
func playScene(p page, id, what string, atEnd func()) {
	p.t.Helper()
	n := int(p.num(fmt.Sprintf(`SCENES.find(s => s.id === %q).steps.length`, id)))
	for i := range n {
		began := time.Now()
		if i > 0 {
			p.click("#guide-next")
		}
		watchRunning(p, what, i)
		if i == 0 && p.str(`document.getElementById("guide-prep").textContent`) == "" {
			p.t.Fatalf("%s: the scene does not say what it changed before its first step", what)
		}
		checkHighlights(p, what, i)
		checkInView(p, what, i)
		checkStep(p, what, i)
		checkSceneStep(p, id, i)
		p.checkLayout(fmt.Sprintf("%s, step %d", what, i+1))
		if p.lang == "zh" {
			checkChinese(p, fmt.Sprintf("%s, step %d", what, i+1))
		}
		p.t.Logf("  %s, step %d: %v", what, i+1, time.Since(began).Round(time.Millisecond))
	}
	if atEnd != nil {
		atEnd()
	}
	answers := p.num(`answers`)
	p.click("#guide-back")
	p.wait("the step before", fmt.Sprintf(`document.getElementById("guide").dataset.step === "%d"`, n-2))
	p.click("#guide-next")
	p.wait("the last step again", fmt.Sprintf(`document.getElementById("guide").dataset.step === "%d"`, n-1))
	if got := p.num(`answers`); got != answers {
		p.t.Fatalf("%s: Back and Next ran a step's actions again (%v controls posted)", what, got-answers)
	}
}

// closeScene clicks Close: the guide goes, nothing stays outlined, the
// menu says "choose a scene…" again, and what the scenes changed is put
// back as it was before them (before: modesJS then).
func closeScene(p page, what, before string) {
	p.t.Helper()
	restores := p.num(`restores`)
	p.click("#guide-close")
	p.waitFor(60*time.Second, "the page as before "+what, fmt.Sprintf(`restores > %v && %s === %q`, restores, modesJS, before))
	checkNoGuide(p, "after "+what+" was closed")
}

// checkHighlights: the panels the step names are outlined, and so is a
// row of each object it talks about.
func checkHighlights(p page, what string, i int) {
	p.t.Helper()
	bad := p.str(`(() => {
		const st = scene.steps[stepIx], out = [];
		for (const pn of st.panels || []) if (!document.getElementById(pn === "controls" ? "controls" : "p-" + pn).classList.contains("focus")) out.push("panel " + pn);
		for (const k of spot) if (k && ![...document.querySelectorAll(".spot")].some(e => e.textContent.includes(k))) out.push("key " + k);
		if (!document.getElementById("guide-read").textContent.includes(st.next)) out.push("the walkthrough Step");
		return out.join(", ");
	})()`)
	if bad != "" {
		p.t.Fatalf("%s, step %d: not highlighted: %s", what, i+1, bad)
	}
}

// checkSceneStep checks what a scene's step brings out.
func checkSceneStep(p page, id string, i int) {
	p.t.Helper()
	switch fmt.Sprintf("%s/%d", id, i+1) {
	case "first/1": // issue 30, defect 9: a plain LIST sends nobody to the streaming list's file
		if p.str(`last.informer.queue`) == "DeltaFIFO" && strings.Contains(p.str(`document.getElementById("guide-read").textContent`), "watchlist") {
			p.t.Fatalf("on the DeltaFIFO, scene 1 step 1 sends the reader to %s", p.str(`document.getElementById("guide-read").textContent`))
		}
	case "first/2": // defect 2: the cache before the handlers, for the initial list
		checkCacheBeforeHandlers(p, p.str(`ctx.pods[0]`))
		checkJustPopped(p, "ReplacedAll", "Replaced") // issue 30, defect 5
	case "missed/6":
		checkJustPopped(p, "ReplacedAll", "DeletedFinalStateUnknown")
	case "resync/2":
		checkJustPopped(p, "SyncAll", "Sync")
	case "rewatch/2": // defect 8: an ended watch says it ended; one stream at a time
		p.wait("the ended watch", `last.wire.requests.some(r => r.msg === "ended")`)
		if n := p.num(`last.wire.requests.filter(r => r.msg === "streaming").length`); n != 1 {
			p.t.Fatalf("%v WATCH requests say they are streaming, want 1", n)
		}
	case "missed/3": // defect 9: a server down a while: failures counted, the LIST in view, no Go error
		if bad := p.str(`(() => {
			const w = last.wire.requests, out = [];
			if (!w.some(r => r.verb === "LIST") && last.informer.queue === "DeltaFIFO") out.push("no LIST in view");
			if (w.filter(r => r.msg === "failedRefused").length > 2) out.push("failures repeated line by line");
			for (const id of ["p-wire", "feed"]) if (document.getElementById(id).textContent.includes("dial tcp")) out.push(id + " shows the Go error");
			return out.join(", ");
		})()`); bad != "" {
			p.t.Fatalf("with the server down: %s", bad)
		}
	case "missed/4": // defect 8: the 410 says 410 Expired, where the watch ended
		p.waitText("wire-events", "410 Expired")
		p.wait("the watch ended by the 410", `last.wire.requests.some(r => r.msg === "endedError" && r.args.text.startsWith("410 Expired"))`)
	case "resync/1", "fifos/4": // defect 5: a clean restart
		checkCleanRestart(p)
	case "fifos/2": // defect 13: the next Pop is blue
		p.wait("the next key marked", `document.querySelectorAll("#queue li.next").length === 1`)
	case "fifos/3": // defect 13: just popped is yellow, not blue
		p.wait("the popped key marked", `document.querySelector("#cache tr.popped") && document.querySelector("#queue li.next")`)
		if p.eval(`getComputedStyle(document.querySelector("#cache tr.popped")).backgroundColor !== getComputedStyle(document.querySelector("#queue li.next")).backgroundColor`) != true {
			p.t.Fatal("the next Pop and what was just popped have the same colour")
		}
	case "fifos/5": // defect 4: on the RealFIFO, the next batch is marked
		p.wait("the next batch marked", `document.querySelectorAll("#queue li.next").length === 2`)
	case "fifos/6": // defect 4: a PopBatch lights up every key it handed out
		p.wait("both keys popped", `[ctx.a, ctx.b].every(k => [...document.querySelectorAll("#cache tr.popped")].some(r => r.textContent.includes(k)))`)
	}
}

// checkCleanRestart: between the control that restarted the informer and
// the new one's start, the feed shows no fault and no Pop of a paused queue.
func checkCleanRestart(p page) {
	p.t.Helper()
	bad := p.str(`(() => {
		const started = feed.map(e => e.kind).lastIndexOf("informer started");
		const c = feed.slice(0, started).reverse().find(e => ["queue", "resyncperiod", "restart"].includes(e.kind));
		const begin = feed.indexOf(c);
		return feed.slice(begin, started).filter(e => /failed|backoff|ERROR|^Pop/.test(e.kind)).map(e => e.kind + " " + (e.text || "")).join("; ");
	})()`)
	if bad != "" {
		p.t.Fatalf("the restart was not clean: %s", bad)
	}
}

// englishLeft are English words that the Chinese page must not show.
var englishLeft = []string{"items, resourceVersion", "initial list", "informer started", "streaming", "same version",
	"the server", "connecting", "ended by", "connection refused", "cache: stored", "watch ended", "] backoff",
	"Resync now", "Pop one item", "not synced", "just popped", "Just popped", "Guided scenes", "Everything, in order",
	" objects", "very short watch", "did not finish", "Before the scene", "Ready as it was", "choose a scene",
	"handed over", "taken ", "backlog", "next try", "Pops so far", "per call", "waits ", "Waiting for", "The wire", "增量", "线路"}

// checkChinese: in Chinese, no English sentence is left in what the page
// says (issue 22's defect 7, issue 30's defect 8), and a colon after
// Chinese is a Chinese colon; the names of things in the code stay as
// they are.
func checkChinese(p page, when string) {
	p.t.Helper()
	text := p.str(`["answer", "wire-requests", "handlers", "guide", "controls", "p-queue", "p-server", "synced", "conn"].map(id => document.getElementById(id).textContent).join("\n") +
		[...document.querySelectorAll("#feed li")].slice(-60).map(l => l.textContent).join("\n")`)
	for _, w := range englishLeft {
		if i := strings.Index(text, w); i >= 0 {
			p.t.Fatalf("%s, the Chinese page shows %q: …%s…", when, w, text[max(0, i-80):min(len(text), i+80)])
		}
	}
	for _, w := range []string{".go, ", "重新同步 关闭"} { // issue 38: a list of files with 、; no space inside a Chinese phrase
		if i := strings.Index(text, w); i >= 0 {
			p.t.Fatalf("%s, the Chinese page shows %q: …%s…", when, w, text[max(0, i-80):min(len(text), i+80)])
		}
	}
	if m := regexpHanColon.FindStringIndex(text); m != nil {
		p.t.Fatalf("%s, the Chinese page has an ASCII colon after Chinese: …%s…", when, text[max(0, m[0]-60):min(len(text), m[1]+40)])
	}
}

// regexpHanColon matches a Chinese character followed by an ASCII colon.
var regexpHanColon = regexp.MustCompile(`\p{Han}: `)

// checkChineseFrame (defect 8): the Chinese page's title and the labels a
// screen reader says are Chinese.
func checkChineseFrame(p page) {
	p.t.Helper()
	if bad := p.str(`[document.title, ...[...document.querySelectorAll("[aria-label]")].map(e => e.getAttribute("aria-label"))].filter(s => !/\p{Script=Han}/u.test(s)).join(", ")`); bad != "" {
		p.t.Fatalf("the Chinese page's title or labels are not Chinese: %s", bad)
	}
}

func copyFile(p page, from, to string) {
	p.t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		p.t.Fatal(err)
	}
}

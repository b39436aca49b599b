// browser_scenes_test.go plays every guided scene in the browser, in both
// languages and at two window sizes, clicking Next as a learner does; each
// step must finish, highlight the panels it names, keep the layout whole
// and, in Chinese, show no English sentence. Along the way it checks the
// defects of issue 22 that a scene brings out, and at each scene's end it
// takes the docs' screenshot.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// sceneIDs are the scenes of web/scenes.js, in menu order.
var sceneIDs = []string{"first", "rewatch", "missed", "slow", "resync", "fifos"}

// playScenes plays each scene in lang, at 1920x1080 or 1024x700 by turns
// (Chinese the other way round from English), and takes its screenshot.
func playScenes(p page, a *app, lang, shots string) {
	p.t.Helper()
	j := map[string]int{"en": 0, "zh": 1}[lang]
	for i, id := range sceneIDs {
		{
			w, h := 1920, 1080
			if (i+j)%2 == 1 {
				w, h = 1024, 700
			}
			p.size(w, h)
			p.open(a.URL(), lang)
			began := time.Now()
			playScene(p, id, lang, fmt.Sprintf("%s in %s at %dx%d", id, lang, w, h))
			p.t.Logf("scene %s in %s at %dx%d: %v", id, lang, w, h, time.Since(began).Round(time.Millisecond))
			suffix := ".png"
			if lang == "zh" {
				suffix = ".zh-CN.png"
			}
			if dir := os.Getenv("LIVEVIEW_WINDOW_SHOTS"); dir != "" { // what a learner's window shows, to look at
				p.capture(filepath.Join(dir, fmt.Sprintf("window-%s-%dx%d%s", id, w, h, suffix)), false)
			}
			p.screenshot(filepath.Join(shots, "liveview-"+id+suffix))
			if id == "missed" { // the README's picture
				copyFile(p, filepath.Join(shots, "liveview-"+id+suffix), filepath.Join(shots, "liveview"+suffix))
			}
			p.clean("after scene " + id)
		}
	}
}

// playScene plays one scene to its end, then goes Back and Next again:
// neither may run a step's actions twice.
func playScene(p page, id, lang, what string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event("change")); })(document.getElementById("scene"))`, id))
	n := int(p.num(fmt.Sprintf(`SCENES.find(s => s.id === %q).steps.length`, id)))
	for i := range n {
		began := time.Now()
		if i > 0 {
			p.click("#guide-next")
		}
		defer func() { p.t.Logf("  %s, step %d: %v", what, i+1, time.Since(began).Round(time.Millisecond)) }()
		p.wait(fmt.Sprintf("%s: step %d finished", what, i+1), fmt.Sprintf(
			`(g => g.dataset.step === "%d" && g.dataset.status !== "running")(document.getElementById("guide"))`, i))
		if st := p.str(`document.getElementById("guide").dataset.status`); st != "done" {
			p.t.Fatalf("%s: step %d did not finish: %s; the feed since the step began:\n%s", what, i+1,
				p.str(`document.getElementById("guide-status").textContent`),
				p.str(`stepLog.slice(0, 40).map(e => [e.at, e.panel, e.kind, e.key, e.rv, e.text].join(" ")).join("\n")`))
		}
		checkHighlights(p, what, i)
		checkSceneStep(p, id, i)
		p.checkLayout(fmt.Sprintf("%s, step %d", what, i+1))
		if lang == "zh" {
			checkChinese(p, fmt.Sprintf("%s, step %d", what, i+1))
		}
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
	case "first/2": // defect 2: the cache before the handlers, for the initial list
		checkCacheBeforeHandlers(p, p.str(`ctx.pods[0]`))
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
	"Resync now", "Pop one item", "not synced", "just popped", "Guided scenes", "Everything, in order"}

// checkChinese: in Chinese, no English sentence is left in what the page
// says (defect 7); the names of things in the code stay as they are.
func checkChinese(p page, when string) {
	p.t.Helper()
	text := p.str(`["answer", "wire-requests", "handlers", "guide", "controls", "p-queue", "p-server", "synced", "conn"].map(id => document.getElementById(id).textContent).join("\n") +
		[...document.querySelectorAll("#feed li")].slice(-60).map(l => l.textContent).join("\n")`)
	for _, w := range englishLeft {
		if i := strings.Index(text, w); i >= 0 {
			p.t.Fatalf("%s, the Chinese page shows %q: …%s…", when, w, text[max(0, i-80):min(len(text), i+80)])
		}
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

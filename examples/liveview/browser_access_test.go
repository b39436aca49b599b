// browser_access_test.go holds the browser test's checks of issue 38 on
// the paths where the page met a learner who is not a mouse on a desktop:
// a keyboard alone (Tab, Enter, Space, arrows; no mouse event at all), a
// phone (390×844, and no sideways scroll at 360 px), a first visit (a hint
// to start with scene 1), step mode with a long queue (its head stays in
// view), and pods past pod-9 (natural order; Update and Delete say which
// pod).

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// tabTo presses Tab until the element of selector has the focus, at most
// 120 times; it fails with the tab order it saw.
func tabTo(p page, selector string) {
	p.t.Helper()
	var seen []string
	for range 120 {
		if p.eval(fmt.Sprintf(`document.activeElement && document.activeElement.matches(%q)`, selector)) == true {
			return
		}
		seen = append(seen, p.str(`(e => e ? (e.id || e.dataset.control || e.tagName) + (e.getAttribute("aria-disabled") === "true" ? "(off)" : "") : "")(document.activeElement)`))
		p.key("Tab")
	}
	p.t.Fatalf("Tab never reached %s; the focus went: %s", selector, strings.Join(seen, " → "))
}

// focusRingJS tells what is wrong with the focus ring of the element that
// has the focus: it must be there, and unlike the outline of a pressed
// control or of a panel the scene talks about.
const focusRingJS = `(e => {
	const s = getComputedStyle(e);
	if (s.outlineStyle === "none" || parseFloat(s.outlineWidth) < 2) return (e.id || e.tagName) + " has the focus but no visible ring: outline " + s.outlineStyle + " " + s.outlineWidth;
	const pressed = getComputedStyle(document.querySelector("#controls .pressed") || document.body).boxShadow;
	if (s.outlineColor === "rgb(130, 80, 223)" || pressed !== "none" && s.boxShadow === pressed) return "the focus ring looks like pressed: " + s.outlineColor + " " + s.boxShadow;
	return "";
})(document.activeElement)`

// checkKeyboardOnly (issue 38, "the keyboard starts every scene it
// passes"): every scene chosen and played, stepped through and closed, and
// a control pressed, with the keyboard only. Arrowing through the menu
// starts nothing; Enter plays; the focus is on Next while a step runs
// (which stays in the tab order, off, with its reason), on Close after
// the last step and on the menu after Close; every focused element shows
// a ring unlike "pressed"; and no mouse event reaches the page.
func checkKeyboardOnly(p page) {
	p.t.Helper()
	p.size(1280, 800)
	p.eval(`window.mouseEvents = 0; for (const t of ["mousedown", "mouseup", "pointerdown"]) addEventListener(t, () => mouseEvents++, true);
		document.activeElement.blur(); scrollTo(0, 0); true`)
	answers := p.num(`answers`)
	tabTo(p, "#scene")
	for range 4 {
		p.key("ArrowDown")
	}
	p.snapshots(2)
	if r := p.str(`[document.getElementById("scene").value, document.getElementById("guide").hidden, answers].join(" ")`); r != fmt.Sprintf("slow true %v", answers) {
		p.t.Fatalf("arrowing down the menu four times: menu, guide hidden, controls posted = %q, want %q; the controls posted: %s", r, fmt.Sprintf("slow true %v", answers),
			p.str(`feed.filter(e => e.panel === "control").slice(-8).map(e => e.kind).join(", ")`))
	}
	if bad := p.str(focusRingJS); bad != "" {
		p.t.Fatal(bad)
	}
	for _, id := range sceneIDs {
		playWithKeys(p, id)
	}
	tabTo(p, "[data-control=create]")
	if bad := p.str(focusRingJS); bad != "" {
		p.t.Fatal(bad)
	}
	n0 := p.num(`answers`)
	p.key(" ")
	p.wait("Create pressed with Space", fmt.Sprintf(`answers > %v && document.getElementById("answer").dataset.of === "create"`, n0))
	if m := p.num(`mouseEvents`); m != 0 {
		p.t.Fatalf("%v mouse events reached the page while it was used with the keyboard only", m)
	}
	p.t.Logf("the keyboard alone: %d scenes chosen, played and closed, a control pressed; no mouse event", len(sceneIDs))
}

// playWithKeys plays scene id with the keyboard, from the menu, which has
// the focus: arrows to it, Enter, Enter on Next for each step, Enter on
// Close.
func playWithKeys(p page, id string) {
	p.t.Helper()
	what := id + " with the keyboard"
	before := p.str(modesJS)
	for range len(sceneIDs) + 1 {
		at := p.num(`document.getElementById("scene").selectedIndex`) - 1 // the first option is "choose a scene…"
		want := float64(slices.Index(sceneIDs, id))
		if at == want {
			break
		}
		if at < want {
			p.key("ArrowDown")
		} else {
			p.key("ArrowUp")
		}
	}
	p.key("Enter")
	p.wait("the scene chosen with Enter", fmt.Sprintf(`!document.getElementById("guide").hidden && document.getElementById("guide").dataset.scene === %q`, id))
	if r := p.str(`(e => e.id + " " + e.getAttribute("aria-disabled") + " " + !!e.title)(document.activeElement)`); r != "guide-next true true" {
		p.t.Fatalf("%s: while the scene prepares, the focus is %q, want Next, off, with its reason", what, r)
	}
	n := int(p.num(fmt.Sprintf(`SCENES.find(s => s.id === %q).steps.length`, id)))
	for i := range n {
		if i > 0 {
			if f := p.str(`document.activeElement.id`); f != "guide-next" {
				p.t.Fatalf("%s: after step %d the focus is on %q, not Next", what, i, f)
			}
			p.key("Enter")
		}
		watchRunning(p, what, i)
		checkStep(p, what, i)
		if bad := p.str(focusRingJS); bad != "" {
			p.t.Fatalf("%s, step %d: %s", what, i+1, bad)
		}
	}
	p.wait("the focus on Close after the last step", `document.activeElement.id === "guide-close"`)
	restores := p.num(`restores`)
	p.key("Enter")
	p.waitFor(60*time.Second, "the page as before "+what, fmt.Sprintf(`restores > %v && %s === %q`, restores, modesJS, before))
	if f := p.str(`document.activeElement.id`); f != "scene" {
		p.t.Fatalf("%s: after Close the focus is on %q, want the scene menu", what, f)
	}
}

// checkPhone (issue 38, "phone"): at 390×844 on a phone, the page neither
// scrolls sideways nor shows zoomed out; while scenes play (scene 1, or
// every scene when all is set), the guide is one line, the panel each step
// names is in view below it, and the narration opens with the guide's
// Text button; every step is checked as on a desktop. Then 360 px wide.
func checkPhone(p page, all bool) {
	p.t.Helper()
	if err := p.tb.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true}, nil); err != nil {
		p.t.Fatal(err)
	}
	p.frames()
	p.checkLayout("on a phone, 390x844")
	zoomed := func(when string, w int) { // a phone shows a page wider than itself zoomed out
		if got := p.num(`innerWidth`); got > float64(w) {
			p.t.Fatalf("%s, the page is %v px wide on a %d px screen: zoomed out", when, got, w)
		}
	}
	zoomed("on a phone, 390x844", 390)
	ids := sceneIDs
	if !all {
		ids = ids[:1]
	}
	for _, id := range ids {
		before := p.str(modesJS)
		what := id + " on a phone in " + p.lang
		chooseScene(p, id)
		n := int(p.num(fmt.Sprintf(`SCENES.find(s => s.id === %q).steps.length`, id)))
		for i := range n {
			if i > 0 {
				p.click("#guide-next")
			}
			watchRunning(p, what, i)
			p.frames()
			p.checkLayout(fmt.Sprintf("%s, step %d", what, i+1))
			zoomed(fmt.Sprintf("%s, step %d", what, i+1), 390)
			if hgt := p.num(`document.getElementById("guide").getBoundingClientRect().height`); hgt > 64 {
				p.t.Fatalf("%s, step %d: the guide is %v px high on an 844 px screen, not one line", what, i+1, hgt)
			}
			checkInView(p, what, i)
			checkStep(p, what, i)
		}
		p.click("#guide-toggle")
		p.wait("the narration opened", `document.getElementById("guide-text").getBoundingClientRect().height > 0 && document.getElementById("guide-toggle").getAttribute("aria-expanded") === "true"`)
		p.click("#guide-toggle")
		closeScene(p, what, before)
	}
	p.size(360, 740)
	p.frames()
	p.checkLayout("at 360 px wide")
	p.size(1280, 800)
	played := "scene 1 played"
	if len(ids) > 1 {
		played = fmt.Sprintf("%d scenes played", len(ids))
	}
	p.t.Logf("a phone: no sideways scroll at 390 and 360 px; %s with the guide one line and every step's panel in view", played)
}

// checkFirstVisit (issue 38, "first load"): a first visit says to start
// with scene 1, and its button plays it; once a scene has played, the hint
// is gone.
func checkFirstVisit(p page) {
	p.t.Helper()
	if p.eval(`(h => !!h && !h.hidden)(document.getElementById("hint")) && !!document.getElementById("hint-play")`) != true {
		p.t.Fatal("a first visit shows no hint to start with scene 1")
	}
	before := p.str(modesJS)
	p.click("#hint-play")
	waitStep(p, "scene 1 from the hint", 0)
	if id := p.str(`document.getElementById("guide").dataset.scene`); id != "first" {
		p.t.Fatalf("the hint played scene %q", id)
	}
	closeScene(p, "scene 1 from the hint", before)
	if p.eval(`document.getElementById("hint").hidden`) != true {
		p.t.Fatal("the first visit's hint stays after a scene was played")
	}
}

// checkNaturalOrder (issue 38, "pods sort as text"): with pod-10 there,
// the panels list pods as a reader counts (pod-2 before pod-10), and
// Update and Delete name the pod they act on, the first one, and act on it.
func checkNaturalOrder(p page) {
	p.t.Helper()
	for p.eval(`last.server.objects.some(o => /pod-\d\d/.test(o.key))`) != true {
		p.createPod()
	}
	p.wait("pod-10 in the cache", `last.cache.objects.length === last.server.objects.length`)
	p.snapshots(2)
	bad := p.str(`(() => {
		const out = [], num = k => +k.split("-").pop();
		for (const id of ["server-objects", "cache"]) {
			const keys = [...document.querySelectorAll("#" + id + " tr td:first-child")].map(td => td.textContent);
			if (keys.some((k, i) => i > 0 && num(keys[i - 1]) > num(k))) out.push(id + ": " + keys.join(" "));
		}
		const first = last.server.objects[0].key.split("/")[1];
		for (const c of ["update", "delete"]) {
			const b = document.querySelector("[data-control=" + c + "]");
			if (!b.textContent.includes(first)) out.push("the " + c + " button says " + JSON.stringify(b.textContent) + ", not which pod (the first: " + first + ")");
		}
		return out.join("\n");
	})()`)
	if bad != "" {
		p.t.Fatalf("pods past pod-9:\n%s", bad)
	}
	first := p.str(`last.server.objects[0].key`)
	if answer := p.control("update"); !strings.Contains(answer, first) {
		p.t.Fatalf("Update answered %q, not about %s", answer, first)
	}
}

// checkQueueHead (issue 38, "step mode hides the next Pop"): paused, with
// twenty deltas and more queued, the next Pop (blue) is in the queue
// list's view, before a step and after it.
func checkQueueHead(p page) {
	p.t.Helper()
	p.size(1280, 800)
	p.control("pause")
	for range 2 {
		p.control("burst")
	}
	p.wait("twenty deltas queued", `last.queue.real && last.queue.deltas.length >= 20`)
	inView := `(l => { const n = l.querySelector(".next"); if (!n) return false; const a = l.getBoundingClientRect(), b = n.getBoundingClientRect();
		return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; })(document.getElementById("queue"))`
	p.wait("the next Pop in view", inView)
	p.control("step")
	p.wait("the step taken", `last.queue.steps === 0`)
	p.snapshots(2)
	p.wait("the next Pop in view after a step", inView)
	p.control("resume")
	p.wait("the queue drained", `(last.queue.real ? last.queue.deltas.filter(d => d.type !== "Bookmark") : last.queue.keys).length === 0`)
}

// checkChineseWords (issue 38, "Chinese"): the Chinese page writes each
// concept with the glossary's word (no 增量 for Delta, no 线路 for the
// wire), a scene's files with 、, and "重新同步周期：关闭" without a stray space.
func checkChineseWords(p page) {
	p.t.Helper()
	p.eval(`post("resyncperiod", {period: "30s"}).then(() => post("resyncperiod", {period: "0s"})), true`)
	p.waitFor(90*time.Second, "two informers started", `feed.filter(e => e.kind === "informer started").length >= 3 && last.informer.resyncPeriod === "0s" && last.informer.synced`)
	before := p.str(modesJS)
	chooseScene(p, "first")
	waitStep(p, "scene 1 in Chinese", 0)
	p.click("#guide-next")
	waitStep(p, "scene 1 in Chinese", 1)
	bad := p.str(`(() => {
		const text = document.body.innerText, out = [];
		for (const w of ["增量", "线路", "重新同步 关闭"]) if (text.includes(w)) out.push(w + ": …" + text.slice(Math.max(0, text.indexOf(w) - 40), text.indexOf(w) + 40).replace(/\n/g, " ") + "…");
		const read = document.getElementById("guide-read").textContent;
		if (read.includes(".go, ")) out.push("the files to read: " + read);
		return out.join("\n");
	})()`)
	if bad != "" {
		p.t.Fatalf("the Chinese page:\n%s", bad)
	}
	closeScene(p, "scene 1 in Chinese", before)
}

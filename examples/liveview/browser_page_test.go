// browser_page_test.go holds the browser test's page driver: evaluate
// JavaScript in a tab, wait for a condition (failing at once on any
// trouble the tab reports), click like a mouse, resize the window, check
// the layout, measure the page's memory, and take screenshots.

package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// page drives one tab for a test.
type page struct {
	t    *testing.T
	tb   *tab
	lang string // the language the page was opened in
}

// eval evaluates expr in the page and returns its value.
func (p page) eval(expr string) any {
	p.t.Helper()
	v, err := p.tb.eval(expr)
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}

func (p page) str(expr string) string {
	p.t.Helper()
	s, _ := p.eval(expr).(string)
	return s
}

func (p page) num(expr string) float64 {
	p.t.Helper()
	n, _ := p.eval(expr).(float64)
	return n
}

// clean fails the test if the page reported any trouble.
func (p page) clean(when string) {
	p.t.Helper()
	if problems := p.tb.trouble(); len(problems) > 0 {
		p.t.Fatalf("%s, the page reported:\n%s", when, strings.Join(problems, "\n"))
	}
}

// wait polls expr until it is truthy, for up to 25 s; the page's trouble
// fails it at once.
func (p page) wait(what, expr string) {
	p.t.Helper()
	p.waitFor(25*time.Second, what, expr)
}

// waitFor is wait with another deadline.
func (p page) waitFor(d time.Duration, what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		v, err := p.tb.eval(expr)
		p.clean("waiting for " + what)
		if err == nil && v != nil && v != false && v != "" && v != 0.0 {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the page never showed %s (%s: %v, %v)", what, expr, v, err)
		}
		time.Sleep(40 * time.Millisecond) // polling the page, with a deadline
	}
}

// waitText waits until the element's text contains every one of want.
func (p page) waitText(id string, want ...string) {
	p.t.Helper()
	w, _ := json.Marshal(want)
	p.wait(fmt.Sprintf("%v in #%s", want, id),
		fmt.Sprintf(`(t => %s.every(w => t.includes(w)))(document.getElementById(%q).textContent)`, w, id))
}

// snapshots waits until the page has rendered n more snapshots of the state.
func (p page) snapshots(n int) {
	p.t.Helper()
	start := p.num(`snapshots`)
	p.wait(fmt.Sprintf("%d more snapshots", n), fmt.Sprintf(`snapshots >= %v`, start+float64(n)))
}

// size sets the window's size.
func (p page) size(w, h int) {
	p.t.Helper()
	if err := p.tb.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": w, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		p.t.Fatal(err)
	}
}

// open loads the page in its language and waits for its live feed.
func (p page) open(url string) {
	p.t.Helper()
	if err := p.tb.call("Page.navigate", map[string]any{"url": url + "?lang=" + p.lang}, nil); err != nil {
		p.t.Fatal(err)
	}
	p.waitLive("a live page")
}

// waitLive waits until the page shows the program's state, live.
func (p page) waitLive(what string) {
	p.t.Helper()
	p.wait(what, `document.getElementById("conn") && document.getElementById("conn").className.includes("ok") && typeof last === "object" && last !== null`)
}

// click scrolls the element of selector into view and clicks its middle
// with the mouse, as a learner does: it waits up to 10 s for a button that
// is off (disabled or aria-disabled: the page has not shown what turns it
// on yet); one missing, hidden or covered fails.
func (p page) click(selector string) {
	p.t.Helper()
	var r map[string]any
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, _ = p.eval(fmt.Sprintf(`(() => {
			const e = document.querySelector(%q);
			if (!e) return null;
			e.scrollIntoView({block: "center", inline: "center"});
			const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
			const hit = document.elementFromPoint(x, y), off = e.disabled || e.getAttribute("aria-disabled") === "true";
			return {x, y, disabled: off, ok: !off && (hit === e || e.contains(hit))};
		})()`, selector)).(map[string]any)
		if r != nil && (r["ok"] == true || r["disabled"] != true) || time.Now().After(deadline) {
			break
		}
		p.clean("waiting for " + selector + " to be enabled")
		time.Sleep(40 * time.Millisecond) // polling the button, with a deadline
	}
	if r == nil || r["ok"] != true {
		p.t.Fatalf("%s cannot be clicked (missing, disabled or covered): %v", selector, r)
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := p.tb.call("Input.dispatchMouseEvent", map[string]any{
			"type": typ, "x": r["x"], "y": r["y"], "button": "left", "clickCount": 1}, nil); err != nil {
			p.t.Fatal(err)
		}
	}
}

// key presses a key on the keyboard: "Tab", "Shift+Tab", "Enter", " "
// (Space), "ArrowDown", "ArrowUp", as a learner's keyboard sends it.
func (p page) key(name string) {
	p.t.Helper()
	k, mods := name, 0
	if rest, ok := strings.CutPrefix(name, "Shift+"); ok {
		k, mods = rest, 8
	}
	codes := map[string]struct {
		code string
		vk   int
		text string
	}{"Tab": {"Tab", 9, ""}, "Enter": {"Enter", 13, "\r"}, " ": {"Space", 32, " "},
		"ArrowDown": {"ArrowDown", 40, ""}, "ArrowUp": {"ArrowUp", 38, ""}, "Escape": {"Escape", 27, ""}}
	c, ok := codes[k]
	if !ok {
		p.t.Fatalf("no key %q", name)
	}
	down := map[string]any{"type": "keyDown", "key": k, "code": c.code, "windowsVirtualKeyCode": c.vk, "modifiers": mods}
	if c.text != "" {
		down["text"] = c.text
	}
	for _, ev := range []map[string]any{down, {"type": "keyUp", "key": k, "code": c.code, "windowsVirtualKeyCode": c.vk, "modifiers": mods}} {
		if err := p.tb.call("Input.dispatchKeyEvent", ev, nil); err != nil {
			p.t.Fatal(err)
		}
	}
}

// control clicks a control's button, waits for its answer, which must be
// ok, and returns the answer's text.
func (p page) control(name string) string {
	p.t.Helper()
	return p.press(fmt.Sprintf(`[data-control=%s]`, name))
}

// press is control for the button of selector.
func (p page) press(selector string) string {
	p.t.Helper()
	// The same expressions every time: each new one the page is asked to
	// evaluate is a script it keeps, which the churn's measure would count.
	p.eval(`window.answersBefore = answers, true`)
	p.click(selector)
	p.wait("the answer to "+selector, `answers > window.answersBefore`)
	if ok := p.str(`document.getElementById("answer").dataset.ok`); ok != "true" {
		p.t.Fatalf("%s was refused: %s", selector, p.str(`document.getElementById("answer").textContent`))
	}
	return p.str(`document.getElementById("answer").textContent`)
}

// createPod clicks Create and returns the new pod's key.
func (p page) createPod() string {
	p.t.Helper()
	answer := p.control("create")
	i := strings.Index(answer, "default/pod-")
	if i < 0 {
		p.t.Fatalf("Create answered %q: no pod", answer)
	}
	return strings.Fields(answer[i:])[0]
}

// checkLayout fails when anything sticks out sideways: the page, a panel,
// or a key broken over two lines or running past its panel.
func (p page) checkLayout(when string) {
	p.t.Helper()
	bad := p.str(`(() => {
		const out = [];
		if (document.scrollingElement.scrollWidth > innerWidth + 1) out.push("the page scrolls sideways: " + document.scrollingElement.scrollWidth + " > " + innerWidth);
		for (const pn of document.querySelectorAll(".panel")) {
			if (pn.scrollWidth > pn.clientWidth + 1) out.push(pn.id + " overflows: " + pn.scrollWidth + " > " + pn.clientWidth);
			const box = pn.getBoundingClientRect();
			for (const k of pn.querySelectorAll(".k, td:first-child")) {
				const r = k.getBoundingClientRect();
				if (!k.textContent || r.width === 0) continue;
				if (k.getClientRects().length > 1) out.push(pn.id + ": " + k.textContent + " is broken over lines");
				if (r.right > box.right + 1) out.push(pn.id + ": " + k.textContent + " runs past the panel");
			}
		}
		const hist = document.getElementById("server-history");
		if (hist.getBoundingClientRect().width < 180) out.push("the history column is " + hist.getBoundingClientRect().width + " px wide");
		return out.join("\n");
	})()`)
	if bad != "" {
		p.t.Fatalf("%s, the layout is broken:\n%s", when, bad)
	}
}

// frames waits until the page has drawn two frames (after a resize).
func (p page) frames() {
	p.t.Helper()
	if err := p.tb.call("Runtime.evaluate", map[string]any{"awaitPromise": true,
		"expression": `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`}, nil); err != nil {
		p.t.Fatal(err)
	}
}

// screenshot saves a PNG of the whole page at 1280 px wide, scrolled to
// its top (the scene's guide, which stays at the window's top, is drawn
// where it belongs), then puts the window back to w×h.
func (p page) screenshot(path string, w, h int) {
	p.t.Helper()
	p.size(1280, 800)
	p.eval(`scrollTo(0, 0), true`)
	p.frames()
	// A window as tall as the page, laid out before the capture, so that
	// the lists that follow their newest line are at it (a capture beyond
	// the window would lay the page out anew as it draws).
	p.size(1280, int(p.num(`document.scrollingElement.scrollHeight`)))
	p.frames()
	p.frames()
	p.capture(path, false)
	p.size(w, h)
}

// capture saves a PNG of the window, or of the whole page.
func (p page) capture(path string, whole bool) {
	p.t.Helper()
	var shot struct{ Data string }
	if err := p.tb.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": whole}, &shot); err != nil {
		p.t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		p.t.Fatalf("the screenshot is no PNG (%v)", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

// memory is what the page holds: its JavaScript heap after a garbage
// collection, and its DOM (elements in the document; nodes counted by
// the browser, detached ones included).
type memory struct {
	heap     int64
	elements int
	nodes    int
}

func (m memory) String() string {
	return fmt.Sprintf("heap %.0f KB, DOM %d elements (%d nodes)", float64(m.heap)/1024, m.elements, m.nodes)
}

// memory collects the garbage and measures the page.
func (p page) memory() memory {
	p.t.Helper()
	if err := p.tb.call("HeapProfiler.collectGarbage", nil, nil); err != nil {
		p.t.Fatal(err)
	}
	var heap struct{ UsedSize float64 }
	if err := p.tb.call("Runtime.getHeapUsage", nil, &heap); err != nil {
		p.t.Fatal(err)
	}
	var dom struct{ Nodes int }
	if err := p.tb.call("Memory.getDOMCounters", nil, &dom); err != nil {
		p.t.Fatal(err)
	}
	return memory{heap: int64(heap.UsedSize), elements: int(p.num(`document.getElementsByTagName("*").length`)), nodes: dom.Nodes}
}

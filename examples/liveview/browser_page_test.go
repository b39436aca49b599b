// browser_page_test.go holds the browser test's page driver: evaluate
// JavaScript, wait for a condition (failing at once on any trouble the page
// reports), click like a mouse, resize the window, check the layout, and
// take screenshots.

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

// page drives the page through c.
type page struct {
	t *testing.T
	c *cdp
}

// eval evaluates expr in the page and returns its value.
func (p page) eval(expr string) any {
	p.t.Helper()
	v, err := p.c.eval(expr)
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
	if len(p.c.problems) > 0 {
		p.t.Fatalf("%s, the page reported:\n%s", when, strings.Join(p.c.problems, "\n"))
	}
}

// wait polls expr until it is truthy; the page's trouble fails it at once.
func (p page) wait(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(25 * time.Second)
	for {
		v, err := p.c.eval(expr)
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
	if err := p.c.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": w, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		p.t.Fatal(err)
	}
}

// open loads the page in lang and waits for its live feed.
func (p page) open(url, lang string) {
	p.t.Helper()
	if err := p.c.call("Page.navigate", map[string]any{"url": url + "?lang=" + lang}, nil); err != nil {
		p.t.Fatal(err)
	}
	p.wait("a live page", `document.getElementById("conn") && document.getElementById("conn").className.includes("ok") && typeof last === "object" && last !== null`)
}

// click scrolls the element of selector into view and clicks its middle
// with the mouse, as a learner does: a button hidden or covered fails.
func (p page) click(selector string) {
	p.t.Helper()
	r, _ := p.eval(fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return null;
		e.scrollIntoView({block: "center", inline: "center"});
		const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		return {x, y, ok: !e.disabled && (hit === e || e.contains(hit))};
	})()`, selector)).(map[string]any)
	if r == nil || r["ok"] != true {
		p.t.Fatalf("%s cannot be clicked (missing, disabled or covered): %v", selector, r)
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := p.c.call("Input.dispatchMouseEvent", map[string]any{
			"type": typ, "x": r["x"], "y": r["y"], "button": "left", "clickCount": 1}, nil); err != nil {
			p.t.Fatal(err)
		}
	}
}

// control clicks a control's button and waits for its answer, which must be ok.
func (p page) control(name string) {
	p.t.Helper()
	n := p.num(`answers`)
	p.click(fmt.Sprintf(`[data-control=%s]`, name))
	p.wait("the answer to "+name, fmt.Sprintf(`answers > %v`, n))
	if ok := p.str(`document.getElementById("answer").dataset.ok`); ok != "true" {
		p.t.Fatalf("%s was refused: %s", name, p.str(`document.getElementById("answer").textContent`))
	}
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
	if err := p.c.call("Runtime.evaluate", map[string]any{"awaitPromise": true,
		"expression": `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`}, nil); err != nil {
		p.t.Fatal(err)
	}
}

// screenshot saves a PNG of the whole page at 1280 px wide.
func (p page) screenshot(path string) {
	p.t.Helper()
	p.size(1280, 800)
	p.frames()
	p.capture(path, true)
}

// capture saves a PNG of the window, or of the whole page.
func (p page) capture(path string, whole bool) {
	p.t.Helper()
	var shot struct{ Data string }
	if err := p.c.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": whole}, &shot); err != nil {
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

// browser_facts_test.go holds the browser test's checks that every label
// of the page is true and explained (issue 38), run on every step of every
// scene: what a step's narration states against the panels at the moment
// it is told (checkNarration), every term linked to the page's glossary
// (checkTerms), and numbers that say what they count (checkLabels).

package main

import (
	"fmt"
	"os"
	"time"
)

// narrationJS lists what the narration shown states that the panels do not
// show. A step's narration marks each fact it states (scenes.js, fact): a
// key, a version, a time, a count, an order, and the rows that must show
// it. Every number the narration states outside those marks must be one a
// mark states or checks (names with numbers excepted: client-go's
// versions, the walkthrough's StepNN, the status 410), so that no number
// goes unchecked.
const narrationJS = `(withPrep => {
	const out = [];
	const exact = (row, w) => row.textContent.trim() === w || [...row.querySelectorAll("*")].some(e => e.textContent.trim() === w);
	const shows = (row, words) => words.every(w => w.startsWith("=") ? exact(row, w.slice(1)) : row.textContent.includes(w));
	const facts = [...document.querySelectorAll(withPrep ? "#guide-text .fact, #guide-prep .fact" : "#guide-text .fact")];
	if (document.getElementById("guide-text").dataset.told !== "now") out.push("the narration is not the one just told");
	for (const el of facts) {
		const f = JSON.parse(el.dataset.fact), said = JSON.stringify(el.textContent.trim()) + " (" + f.sel + ")";
		let rows = [...document.querySelectorAll(f.sel)];
		if (f.before) {
			rows = rows.filter(r => !f.before.from || +r.dataset.seq > f.before.from);
			const i = rows.findIndex(r => shows(r, f.before.first)), j = rows.findIndex(r => shows(r, f.before.then));
			if (i < 0 || j < 0 || i > j) out.push(said + ": " + JSON.stringify(f.before.first) + " at row " + i + ", " + JSON.stringify(f.before.then) + " at row " + j);
		} else if (f.re) {
			if (!rows.some(r => new RegExp(f.re).test(r.textContent.trim()))) out.push(said + ": no row matches /" + f.re + "/: " + rows.map(r => r.textContent.trim()).join(" | "));
		} else if (f.count !== undefined) {
			const n = f.has ? rows.filter(r => shows(r, f.has)).length : rows.length;
			if (n !== f.count) out.push(said + ": " + n + " rows" + (f.has ? " show " + JSON.stringify(f.has) : "") + ", the narration says " + f.count);
		} else if (!rows.some(r => shows(r, f.has))) {
			out.push(said + ": no row shows " + JSON.stringify(f.has) + "; the rows: " + rows.slice(-8).map(r => r.textContent.trim().slice(0, 160)).join(" | "));
		}
	}
	const backed = facts.map(el => el.textContent + " " + el.dataset.fact).join(" ");
	const plain = document.getElementById("guide-text").cloneNode(true);
	for (const e of plain.querySelectorAll(".fact, code, .const")) e.remove();
	const text = plain.textContent.replace(/client-go (v\d+\.\d+\.\d+|≤\d+\.\d+|\d+\.\d+–\d+\.\d+)|Step\d\d|\b410\b/g, "");
	for (const n of new Set(text.match(/\d+(\.\d+)?/g) || [])) {
		if (!new RegExp("(^|[^\\d.])" + n.replace(".", "\\.") + "(?![\\d])").test(backed)) out.push("the narration states " + n + " with no fact that shows it: " + plain.textContent.trim().slice(0, 300));
	}
	return out.join("\n");
})`

// checkNarration: what the step's narration states, the panels show now;
// on the first step, what the scene's preparation says too (it tells how
// the world was before the first step).
func checkNarration(p page, what string, i int) {
	p.t.Helper()
	if bad := p.str(fmt.Sprintf("%s(%v)", narrationJS, i == 0)); bad != "" {
		p.t.Fatalf("%s, step %d: the narration says what the panels do not show:\n%s\nthe narration: %s", what, i+1, bad,
			p.str(`document.getElementById("guide-prep").textContent + "\n" + document.getElementById("guide-text").textContent`))
	}
}

// termsJS lists the terms a block of text mentions without a link to the
// page's glossary, and links to no entry. The blocks: the narration, the
// scene's preparation line, each panel's teaching line, the wire's legend.
// A term is named as terms.js names it, in either language, as a whole word
// (a Chinese name not as the start of a longer one: 索引 in 索引器).
const termsJS = `(() => {
	if (typeof TERMS === "undefined") return "the page has no glossary to link its terms to";
	const out = [], esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const zh = TERMS.flatMap(x => x.zh.names);
	const pattern = x => new RegExp([...new Set([...x.en.names, ...x.zh.names])].map(n => /^[\x00-\x7f]+$/.test(n)
		? "(?<![\\w-])" + esc(n) + "(?![\\w-])"
		: esc(n) + zh.filter(m => m.length > n.length && m.startsWith(n)).map(m => "(?!" + esc(m.slice(n.length)) + ")").join("")).join("|"));
	for (const block of document.querySelectorAll("#guide-text, #guide-prep, .teach, #wire-legend")) {
		const plain = block.cloneNode(true);
		for (const a of plain.querySelectorAll("a.term")) a.remove();
		for (const x of TERMS) {
			const m = pattern(x).exec(plain.textContent);
			if (m && !block.querySelector('a.term[href="#term-' + x.id + '"]')) out.push((block.id || block.dataset.t) + " mentions " + JSON.stringify(m[0]) + " with no link to its term");
		}
		for (const a of block.querySelectorAll("a.term")) if (!document.getElementById(a.getAttribute("href").slice(1))) out.push(a.textContent + " links to no entry");
	}
	return out.join("\n");
})()`

// checkTerms: every term mentioned links to the page's glossary.
func checkTerms(p page, when string) {
	p.t.Helper()
	if bad := p.str(termsJS); bad != "" {
		p.t.Fatalf("%s, terms without their link:\n%s", when, bad)
	}
}

// labelsJS lists numbers that do not say what they count: an English
// plural after 1, a Delta as Type@version, a handler whose handed over is
// not taken plus backlog, a backoff without its unit and meaning.
const labelsJS = `(() => {
	const out = [];
	const text = document.body.innerText;
	if (document.documentElement.lang === "en") {
		const m = text.match(/(^|[^\d.])1 (pods|deltas|keys|objects|items|events|updates|calls|Pops)\b.{0,40}/);
		if (m) out.push("a plural after 1: " + m[0].trim());
	}
	const at = (document.getElementById("p-queue").innerText + document.getElementById("feed").innerText).match(/[A-Za-z]@\d+/);
	if (at) out.push("a version written as " + at[0]);
	for (const hd of document.querySelectorAll("#handlers .handler")) {
		const n = c => +((hd.querySelector(c) || {textContent: ""}).textContent.match(/\d+/) || [NaN])[0];
		if (!(n(".handed") === n(".taken") + n(".pending"))) out.push("a handler's calls handed over are not taken plus backlog: " + hd.firstElementChild.textContent);
	}
	const w = document.getElementById("wire-state").textContent;
	if (last.wire.state === "backing off" && !w.includes((I18N[lang]["wire.backoff"] || "backing off: next try in").split("{")[0])) out.push("the backoff reads " + JSON.stringify(w));
	if (/\d(ms|s)\b/.test(w) && lang === "en") out.push("a duration with no space before its unit: " + w);
	return out.join("\n");
})()`

// checkLabels: every number on the page says what it counts.
func checkLabels(p page, when string) {
	p.t.Helper()
	if bad := p.str(labelsJS); bad != "" {
		p.t.Fatalf("%s, numbers that do not say what they count:\n%s", when, bad)
	}
}

// checkStep runs the checks of issue 38 that hold on every step: the
// narration against the panels, the terms, the labels.
// LIVEVIEW_NARRATION=off leaves them out, to try another check alone
// against a page that has none of their marks (a696ccf's).
func checkStep(p page, what string, i int) {
	p.t.Helper()
	if os.Getenv("LIVEVIEW_NARRATION") == "off" {
		return
	}
	when := fmt.Sprintf("%s, step %d", what, i+1)
	checkNarration(p, what, i)
	checkTerms(p, when)
	checkLabels(p, when)
}

// checkNumbers (issue 38, "numbers a learner misreads"): after a burst and
// with the server down a while, every number on the page says what it
// counts (labelsJS), in both languages.
func checkNumbers(p page) {
	p.t.Helper()
	p.control("burst")
	p.wait("every handler idle", `last.handlers.every(h => h.pending === 0) && last.cache.objects.length === last.server.objects.length`)
	p.wait("a Bookmark popped or a DeltaFIFO", `!last.queue.real || last.queue.popped.some(x => x.deltas.some(d => d.type === "Bookmark"))`)
	checkLabels(p, "after a burst")
	p.control("down")
	p.wait("the Reflector backing off", `last.wire.state === "backing off"`)
	checkLabels(p, "with the server down")
	p.control("up")
	p.waitFor(90*time.Second, "the Reflector watching again", `last.wire.state === "watching"`)
}

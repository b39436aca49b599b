// app.js: the live view's page, its core: the language, the words (i18n.js),
// the stream of the program's feed (shared by every tab: stream.js;
// "state": a snapshot of every panel, drawn by panels.js; "log": new feed
// entries, kept by feed.js) and the controls, posted to the program. A
// panel is only rebuilt when what it shows changed, so text stays
// selectable. A control that cannot work now is aria-disabled, not
// disabled: it stays in the tab order and says why. Plain JavaScript, no
// library, nothing from the network. guide.js, loaded last, starts it all.
"use strict";

let lang = pickLanguage();
let last = null;          // the last state
let conn = "connecting";  // connecting, connected, disconnected
let staleSince = 0;       // when the program stopped answering (ms)
const hot = new Map();    // key -> time (ms) until which it shows as just popped
let spot = new Set();     // keys the scene talks about (guide.js)

function pickLanguage() {
  const p = new URLSearchParams(location.search).get("lang");
  if (p === "en" || p === "zh") return p;
  const saved = localStorage.getItem("liveview-lang");
  if (saved === "en" || saved === "zh") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

// t translates key, filling {name} with vars (themselves translated when
// they are words, such as "off"). A text with two forms, "one|other",
// takes the first when vars.n is 1.
function t(key, vars) {
  let s = (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
  if (s.includes("|") && vars && "n" in vars) s = s.split("|")[String(vars.n) === "1" ? 0 : 1];
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(I18N.en["w." + v] ? t("w." + v) : v);
  return s;
}

// say renders a server message ({msg, args, text}) in the reader's
// language; a duration d sent with its milliseconds is shown with its unit.
function say(m) {
  if (!m || !m.msg || !I18N.en["m." + m.msg]) return (m && m.text) || "";
  return t("m." + m.msg, m.args && m.args.ms ? {...m.args, d: dur(+m.args.ms)} : m.args);
}

// h makes an element: h("li", {class: "x"}, "text", child...). An
// attribute that is undefined, null or false is left out; "" is kept (an
// option's value="" is the menu's "choose a scene…").
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === "") continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

const byId = id => document.getElementById(id);

// fill replaces an element's children, unless they would be the same: a
// reader's selection survives the snapshots that change nothing. A list
// of the newest last that is scrolled to its end stays at its end; the
// queue, read from its head, keeps the next Pop in view instead. It
// reports whether it changed.
function fill(id, ...children) {
  const e = byId(id);
  const next = document.createElement(e.tagName);
  next.append(...children.flat());
  if (next.innerHTML === e.innerHTML) return false;
  const atEnd = e.scrollHeight - e.scrollTop - e.clientHeight < 8;
  e.replaceChildren(...next.childNodes);
  if (e.dataset.head !== undefined) {
    const head = e.querySelector(".next") || e.firstElementChild;
    if (head && (head.offsetTop < e.scrollTop || head.offsetTop + head.offsetHeight > e.scrollTop + e.clientHeight)) e.scrollTop = head.offsetTop;
  } else if (atEnd) e.scrollTop = e.scrollHeight;
  if (e.classList.contains("list")) e.dataset.end = atEnd ? "1" : "";
  return true;
}

// A list of the newest last that was at its end stays there when its
// lines wrap anew (a narrower window, a panel that moved); a reader who
// scrolled it keeps their place. (The feed does the same in feed.js.)
const followers = new ResizeObserver(entries => {
  for (const {target: e} of entries) if (e.dataset.end === "1") e.scrollTop = e.scrollHeight;
});
for (const e of document.querySelectorAll(".list:not([data-head]):not(#feed)")) {
  e.addEventListener("scroll", () => { e.dataset.end = e.scrollHeight - e.scrollTop - e.clientHeight < 8 ? "1" : ""; });
  followers.observe(e);
}

function setText(id, text, className) {
  const e = byId(id);
  if (e.textContent !== text) e.textContent = text;
  if (className !== undefined && e.className !== className) e.className = className;
}

// word translates a feed kind or a handler's note when it is not a name
// from the code; control names show as their button.
function word(w) {
  if (!w) return "";
  if (I18N.en["w." + w]) return t("w." + w);
  if (I18N.en["c." + w]) return t("c." + w);
  if (w.endsWith(" failed")) return word(w.slice(0, -7)) + " " + t("failed.suffix");
  return w;
}

// mark returns the classes of a row about key: the scene's subject, just
// popped. Only rows of current state light up as popped (objects, cache,
// handler calls): not the queue (a queued row is a newer item of that key)
// nor the lists of past events.
function mark(key, extra, notPopped) {
  const c = [extra];
  if (key && spot.has(key)) c.push("spot");
  if (key && !notPopped && (hot.get(key) || 0) > Date.now()) c.push("popped");
  return c.filter(Boolean).join(" ") || null;
}

// colon joins a label and what follows, as each language writes it.
function colon() { return lang === "zh" ? "：" : ": "; }

// clock renders a time (ms) as 15:04:05, the same in both languages.
function clock(ms) { return new Date(ms).toTimeString().slice(0, 8); }

// dur renders milliseconds with their unit: 450 ms, 9.4 s, 2 min 5 s.
function dur(ms) {
  ms = Math.max(0, Math.round(ms));
  if (ms < 1000) return t("u.ms", {v: ms});
  if (ms < 60000) return t("u.s", {v: String(Math.round(ms / 100) / 10)});
  return t("u.min", {m: Math.floor(ms / 60000), s: Math.floor(ms / 1000) % 60});
}

// goMillis reads a Go duration ("0s", "200ms", "1.6s", "1m30s") in milliseconds.
function goMillis(d) {
  let ms = 0;
  for (const [, v, u] of (d || "").matchAll(/([\d.]+)(ms|s|m|h)/g)) ms += parseFloat(v) * {ms: 1, s: 1000, m: 60000, h: 3600000}[u];
  return ms;
}

// explain410 follows a "too old resource version: 8 (9)" with what its
// numbers mean.
function explain410(text) {
  const m = /too old resource version: (\d+) \((\d+)\)/.exec(text || "");
  return m ? text + " " + t("expl.410", {asked: m[1], oldest: m[2]}) : text || "";
}

function translatePage() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = t("doc.title");
  byId("lang").textContent = lang === "zh" ? "English" : "中文";
  for (const e of document.querySelectorAll("[data-t]")) {
    const v = t(e.dataset.t);
    if (e.classList.contains("teach") || e.classList.contains("legend-text")) linkedHTML(e, v); else e.textContent = v;
  }
  for (const e of document.querySelectorAll("[data-t-aria]")) e.setAttribute("aria-label", t(e.dataset.tAria));
  for (const e of document.querySelectorAll("[data-t-title]")) e.title = t(e.dataset.tTitle);
  for (const b of document.querySelectorAll("[data-control]")) {
    b.dataset.tip = I18N.en["tip." + b.dataset.control] ? t("tip." + b.dataset.control) : "";
    if (!isOff(b)) b.title = b.dataset.tip;
  }
  renderTerms();
  showConn();
  if (last) render(last);
  renderFeed(true);
  renderGuide();
  showHint();
}

function showConn() {
  setText("conn", t(conn), "pill " + ({connected: "ok", disconnected: "bad"}[conn] || ""));
  const stale = byId("stale");
  stale.hidden = conn !== "disconnected" || !last;
  stale.textContent = t("stale", {at: clock(staleSince)});
  document.body.classList.toggle("stale", conn === "disconnected");
  if (last) enableControls(last);
}

// setOff turns a control off (aria-disabled, with why as its hover and
// description) or on (why empty): it stays in the tab order either way.
function setOff(b, why) {
  if (why) {
    if (b.getAttribute("aria-disabled") !== "true") b.setAttribute("aria-disabled", "true");
    if (b.dataset.why !== why) { b.dataset.why = why; b.title = why; }
  } else if (b.hasAttribute("aria-disabled")) {
    b.removeAttribute("aria-disabled");
    delete b.dataset.why;
    b.title = b.dataset.tip || "";
  }
}

// isOff reports whether a control is off.
function isOff(b) { return b.getAttribute("aria-disabled") === "true" || b.disabled; }

let snapshots = 0;        // snapshots received (the browser test counts them)
function render(s) {
  last = s;
  setText("synced", t(s.informer.synced ? "synced" : "not synced") + " · lastSyncResourceVersion " + s.informer.lastSyncRV,
    "pill " + (s.informer.synced ? "ok" : "warn"));
  renderServer(s.server || {});
  renderWire(s.wire || {});
  renderQueue(s.queue || {}, s.informer);
  renderCache(s.cache || {});
  renderHandlers(s.handlers || []);
  enableControls(s);
}

// post sends a control with its parameters and shows the answer; it
// resolves to the answer ({ok, text, msg, args}).
let answers = 0;
let lastAnswer = null;    // {control, j, backoffMs}: shown again in the other language
let answeredSeq = 0;      // the feed's newest entry when this tab's last control had run
async function post(control, params) {
  const body = new URLSearchParams(params || {});
  let j;
  try {
    const r = await fetch("api/" + control, {method: "POST", body});
    j = await r.json();
  } catch (err) {
    j = {ok: false, text: String(err)};
  }
  answers++;
  if (j.seq) answeredSeq = Math.max(answeredSeq, j.seq);
  // A pod changed while the Reflector backs off reaches the informer only at its next try.
  const w = last && last.wire;
  const backoffMs = ["create", "update", "delete", "burst"].includes(control) && j.ok && w && w.state === "backing off" ? w.leftMs : null;
  lastAnswer = {control, j, backoffMs};
  showAnswer();
  return j;
}

// showAnswer shows the last control's answer, or a note (tell).
function showAnswer() {
  const answer = byId("answer");
  if (!lastAnswer) { answer.textContent = ""; return; }
  const {control, j, note, backoffMs} = lastAnswer;
  answer.textContent = note ? note() : (j.ok ? "✓ " : "✗ ") + word(control) + colon() + say(j) +
    (backoffMs !== null && backoffMs !== undefined ? " " + t("answer.backoff", {left: dur(backoffMs)}) : "");
  answer.className = note || j.ok ? "ok" : "bad";
  Object.assign(answer.dataset, {of: control || "", ok: String(!!(note || j.ok)), n: String(answers)});
}

// tell shows a note of the page's own where the answers go (text is a
// function, so that it follows the language).
function tell(text) {
  lastAnswer = {note: text};
  showAnswer();
}

function buttonParams(b) {
  const p = {};
  for (const k of ["n", "on", "kind", "period", "name"]) if (b.dataset[k]) p[k] = b.dataset[k];
  return p;
}

// receive takes one message of the shared stream (stream.js).
function receive(m) {
  switch (m.type) {
  case "sync": // what the leading tab has, for a tab that joins
    if (m.conn) receive({type: "conn", conn: m.conn, at: m.at});
    if (m.state) receive({type: "state", state: m.state});
    if (m.entries && m.state) onLog(m.entries);
    break;
  case "state":
    snapshots++;
    if (!last || last.boot !== m.state.boot) { // a new program: its feed starts over, before its entries
      answeredSeq = 0;
      onNewProgram(!!last);
    }
    render(m.state);
    onGuideState(m.state);
    break;
  case "log":
    if (last) onLog(m.entries);
    break;
  case "conn":
    if (m.conn === "disconnected" && conn !== "disconnected") staleSince = m.at;
    conn = m.conn;
    showConn();
    break;
  }
}

// onNewProgram starts the feed over for a program that started since the
// last state (restarted: a scene playing stops, the world it set up is
// gone, and the old program's last answer goes with it).
function onNewProgram(restarted) {
  resetFeed();
  if (!restarted) return;
  const at = clock(Date.now());
  tell(() => t("answer.newProgram", {at}));
  onGuideRestart();
}

byId("controls").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-control]");
  if (b && !isOff(b)) post(b.dataset.control, buttonParams(b));
});
byId("lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("liveview-lang", lang);
  translatePage();
  showAnswer();
});

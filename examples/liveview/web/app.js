// app.js: fills the live view's panels from the program's stream (shared
// by every tab: stream.js; "state": a snapshot of every panel; "log": new
// feed entries, kept by feed.js) and posts the controls. A panel is only
// rebuilt when what it shows changed, so text stays selectable. Plain
// JavaScript, no library, nothing from the network. guide.js, loaded last,
// starts it all.
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
// they are words, such as "off").
function t(key, vars) {
  let s = (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(I18N.en["w." + v] ? t("w." + v) : v);
  return s;
}

// say renders a server message ({msg, args, text}) in the reader's language.
function say(m) { return m && m.msg && I18N.en["m." + m.msg] ? t("m." + m.msg, m.args) : (m && m.text) || ""; }

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
// scrolled to its end stays at its end.
function fill(id, ...children) {
  const e = byId(id);
  const next = document.createElement(e.tagName);
  next.append(...children.flat());
  if (next.innerHTML === e.innerHTML) return e;
  const atEnd = e.scrollHeight - e.scrollTop - e.clientHeight < 8;
  e.replaceChildren(...next.childNodes);
  if (atEnd) e.scrollTop = e.scrollHeight;
  return e;
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

function typeSpan(type) { return h("span", {class: "t " + type}, type); }

// colon joins a label and what follows, as each language writes it.
function colon() { return lang === "zh" ? "：" : ": "; }

// clock renders a time (ms) as 15:04:05, the same in both languages.
function clock(ms) { return new Date(ms).toTimeString().slice(0, 8); }

function translatePage() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = t("doc.title");
  byId("lang").textContent = lang === "zh" ? "English" : "中文";
  for (const e of document.querySelectorAll("[data-t]")) {
    const v = t(e.dataset.t);
    if (e.classList.contains("teach")) e.innerHTML = v; else e.textContent = v;
  }
  for (const e of document.querySelectorAll("[data-t-aria]")) e.setAttribute("aria-label", t(e.dataset.tAria));
  for (const name of ["compact", "down", "resync", "step", "restart", "queue", "pause", "resume"]) {
    for (const b of document.querySelectorAll(`[data-control=${name}]`)) b.title = t("tip." + name);
  }
  showConn();
  if (last) render(last);
  renderFeed(true);
  renderGuide();
}

function showConn() {
  setText("conn", t(conn), "pill " + ({connected: "ok", disconnected: "bad"}[conn] || ""));
  const stale = byId("stale");
  stale.hidden = conn !== "disconnected" || !last;
  stale.textContent = t("stale", {at: clock(staleSince)});
  document.body.classList.toggle("stale", conn === "disconnected");
  for (const b of document.querySelectorAll("#controls button, #controls select")) b.classList.toggle("off", conn === "disconnected");
  if (last) enableControls(last);
}

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

function renderServer(srv) {
  setText("server-rv", t(srv.up ? "server up" : "server down"), "pill " + (srv.up ? "ok" : "bad"));
  fill("server-objects", (srv.objects || []).map(o =>
    h("tr", {class: mark(o.key)}, h("td", {}, o.key), h("td", {}, "rv " + o.rv), h("td", {class: "muted"}, o.labels))));
  setText("server-window", t("window", {rv: srv.rv, oldest: srv.oldest, kept: srv.kept}));
  fill("server-history", (srv.history || []).map(e => {
    const [type, key] = e.key.split(" ");
    return h("li", {class: mark(key, null, true)}, typeSpan(type), h("span", {class: "k"}, key), " ", h("span", {class: "muted"}, "rv " + e.rv));
  }));
}

function renderWire(w) {
  setText("wire-state", t(w.state || "listing") + (w.backoff ? " " + w.backoff : "") + " · " + t("for") + " " + w.for,
    "pill " + ({watching: "ok", "backing off": "warn", failed: "bad"}[w.state] || ""));
  fill("wire-requests", (w.requests || []).map(r =>
    h("li", {class: r.times > 1 ? "repeat" : null}, h("span", {class: "t"}, r.verb), h("span", {class: "q"}, "?" + r.query), h("br"),
      h("span", {class: "muted"}, r.at + " → "), h("span", {class: /^(410|failed|conn)/.test(r.result) || /ERROR/.test(r.result) ? "bad" : null}, r.result ? say(r) : "…"),
      r.times > 1 ? h("span", {class: "muted"}, " " + t("times", {n: r.times, at: r.at})) : null)));
  fill("wire-events", (w.events || []).map(e =>
    h("li", {class: mark(e.key, null, true)}, typeSpan(e.type), h("span", {class: "k"}, e.key), e.rv ? " rv " + e.rv : "", e.text ? " " + e.text : "", " ", h("span", {class: "muted"}, e.at))));
}

// deltaSpan shows a Delta: its type and version, a tombstone's type, a
// relist's number of objects; withKey adds the key in front.
function deltaSpan(d, withKey) {
  return h("span", {class: "delta " + d.type + (d.tombstone ? " tomb" : "")},
    (withKey && d.key ? d.key + " " : "") + d.type + (d.rv ? "@" + d.rv : "") + (d.tombstone ? " DeletedFinalStateUnknown" : "") +
    (d.type === "ReplacedAll" ? " · " + t("objects", {n: d.n || 0}) : ""));
}

function renderQueue(q, inf) {
  setText("queue-kind", q.kind || "");
  byId("queue-kind").title = inf.gates;
  for (const b of document.querySelectorAll("button.kind")) b.classList.toggle("on", b.dataset.kind === inf.queue);
  const paused = q.paused ? " · " + t("queue.paused") : "";
  const next = i => i < (q.next || 0) ? "next" : null;
  if (q.real) { // a RealFIFO: every delta, in order
    setText("queue-meta", t("queue.metaReal", {n: q.deltas.length, pops: q.pops || 0}) + paused);
    fill("queue", q.deltas.length ? q.deltas.map((d, i) => h("li", {class: mark(d.key, next(i), true)}, deltaSpan(d), " ", h("b", {class: "k"}, d.key)))
      : h("li", {class: "muted"}, t("queue.empty")));
  } else {
    const keys = q.keys || [];
    setText("queue-meta", t("queue.meta", {n: keys.length, pops: q.pops || 0}) + paused);
    fill("queue", keys.length ? keys.map((k, i) => h("li", {class: mark(k.key, next(i), true)}, h("b", {class: "k"}, k.key), " ", k.deltas.map(deltaSpan)))
      : h("li", {class: "muted"}, t("queue.empty")));
  }
  // What just left the queue, so that a step that speaks of it (a relist's
  // Replace, a resync) finds it here after the run loop took it.
  fill("queue-popped", (q.popped || []).length ? q.popped.map(p => h("li", {class: mark(p.deltas.map(d => d.key).find(k => spot.has(k)), null, true)},
    h("span", {class: "t"}, p.op), " ", p.deltas.map(d => deltaSpan(d, true)), " ", h("span", {class: "muted"}, p.at)))
    : h("li", {class: "muted"}, t("queue.nonePopped")));
  const pause = byId("pause"); // one button: Pause the consumer, or Resume it
  const control = q.paused ? "resume" : "pause";
  if (pause.dataset.control !== control) {
    pause.dataset.control = control;
    pause.dataset.t = "c." + control;
    pause.textContent = t("c." + control);
    pause.title = t("tip." + control);
  }
  pause.classList.toggle("on", !!q.paused);
}

function renderCache(c) {
  const objects = c.objects || [];
  fill("cache", objects.length ? objects.map(o =>
    h("tr", {class: mark(o.key)}, h("td", {}, o.key), h("td", {}, "rv " + o.rv), h("td", {class: "muted"}, o.labels)))
    : h("tr", {}, h("td", {class: "muted"}, t("cache.empty"))));
  fill("indexes", (c.indexes || []).map(ix => h("div", {},
    h("h3", {}, t("index") + " " + ix.name),
    h("ul", {class: "list"}, ix.buckets.map(b => h("li", {}, h("b", {}, b.value), " → ", b.keys.join(", ")))))));
}

function renderHandlers(hs) {
  fill("handlers", hs.map(hd => h("div", {class: "handler"},
    h("div", {}, h("b", {}, hd.name), " · ", t("delay") + " " + hd.delay, " · ", t("received") + " " + hd.count, " · ",
      h("span", {class: hd.pending > 0 ? "backlog" : null, title: t("tip.backlog")}, t("pending") + " " + hd.pending),
      h("span", {class: "bar", style: "width:" + Math.min(hd.pending * 6, 150) + "px"})),
    h("ol", {class: "list"}, (hd.received || []).slice(-6).map(r =>
      h("li", {class: mark(r.key)}, typeSpan(r.call), h("span", {class: "k"}, r.key), r.rv ? " rv " + r.rv : "", r.note ? " (" + word(r.note) + ")" : ""))))));
}

// enableControls turns off the buttons that cannot work now.
function enableControls(s) {
  const down = conn === "disconnected", q = s.queue || {};
  const queued = (q.keys || []).length + ((q.deltas || []).filter(d => d.type !== "Bookmark").length);
  const set = (sel, off) => { for (const b of document.querySelectorAll(sel)) b.disabled = down || off; };
  set("[data-control]", false);
  set("[data-control=down]", !s.server.up);
  set("[data-control=up]", s.server.up);
  set("[data-control=step]", !q.paused || queued === 0 || q.steps > 0);
  set("[data-control=resync]", s.informer.resyncPeriod === "0s");
  set("[data-control=removehandler]", s.handlers.length <= 2);
  set("[data-control=addhandler]", s.handlers.length >= 5);
  for (const b of document.querySelectorAll("button.kind")) b.disabled = down || b.dataset.kind === s.informer.queue;
  const sel = byId("resync-period");
  sel.disabled = down;
  if (document.activeElement !== sel) sel.value = s.informer.resyncPeriod;
}

// post sends a control with its parameters and shows the answer; it
// resolves to the answer ({ok, text, msg, args}).
let answers = 0;
let lastAnswer = null;    // {control, j}: shown again in the other language
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
  lastAnswer = {control, j};
  showAnswer();
  return j;
}

// showAnswer shows the last control's answer, or a note (tell).
function showAnswer() {
  const answer = byId("answer");
  if (!lastAnswer) return;
  const {control, j, note} = lastAnswer;
  answer.textContent = note ? note() : (j.ok ? "✓ " : "✗ ") + word(control) + colon() + say(j);
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
  for (const k of ["n", "on", "kind"]) if (b.dataset[k]) p[k] = b.dataset[k];
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
// last state (restarted: a scene playing stops, the world it set up is gone).
function onNewProgram(restarted) {
  resetFeed();
  if (restarted) onGuideRestart();
}

byId("controls").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-control]");
  if (b && !b.disabled) post(b.dataset.control, buttonParams(b));
});
byId("resync-period").addEventListener("change", ev => post("resyncperiod", {period: ev.target.value}));
byId("lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("liveview-lang", lang);
  translatePage();
  showAnswer();
});

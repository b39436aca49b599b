// app.js: fills the live view's panels from the server-sent events of
// /events ("state": a snapshot of every panel; "log": new feed entries) and
// posts the controls. Plain JavaScript, no library, nothing from the network.
"use strict";

let lang = pickLanguage();
let last = null;          // the last state
const feed = [];          // the feed entries shown, newest last
const hot = new Map();    // key -> time until which it is highlighted

function pickLanguage() {
  const p = new URLSearchParams(location.search).get("lang");
  if (p === "en" || p === "zh") return p;
  const saved = localStorage.getItem("liveview-lang");
  if (saved === "en" || saved === "zh") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

function t(key, vars) {
  let s = (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.replace("{" + k + "}", v);
  return s;
}

// h makes an element: h("li", {class: "x"}, "text", child...).
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function fill(id, ...children) {
  const e = document.getElementById(id);
  e.replaceChildren(...children);
  return e;
}

function translatePage() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.getElementById("lang").textContent = lang === "zh" ? "English" : "中文";
  for (const e of document.querySelectorAll("[data-t]")) {
    const v = t(e.dataset.t);
    if (e.classList.contains("teach")) e.innerHTML = v; else e.textContent = v;
  }
  for (const [name, tip] of [["compact", "tip.compact"], ["down", "tip.down"], ["resync", "tip.resync"], ["step", "tip.step"]]) {
    document.querySelector(`[data-control=${name}]`).title = t(tip);
  }
  if (last) render(last);
  renderFeed();
}

function isHot(key) { return key && (hot.get(key) || 0) > Date.now(); }

function typeSpan(type) { return h("span", {class: "t " + type}, type); }

// word translates a feed kind or a handler's note when it is not a name
// from the code; control names show as their button.
function word(w) {
  if (I18N.en["w." + w]) return t("w." + w);
  if (I18N.en["c." + w]) return t("c." + w);
  return w;
}

function render(s) {
  last = s;
  const sync = document.getElementById("synced");
  sync.textContent = t(s.informer.synced ? "synced" : "not synced") + " · lastSyncResourceVersion " + s.informer.lastSyncRV;
  sync.className = "pill " + (s.informer.synced ? "ok" : "warn");

  // 1 API server
  const srv = s.server;
  const rv = document.getElementById("server-rv");
  rv.textContent = t(srv.up ? "server up" : "server down");
  rv.className = "pill " + (srv.up ? "ok" : "bad");
  fill("server-objects", ...srv.objects.map(o =>
    h("tr", {class: isHot(o.key) ? "hot" : null}, h("td", {}, o.key), h("td", {}, "rv " + o.rv), h("td", {class: "muted"}, o.labels))));
  fill("server-window", t("window", {rv: srv.rv, oldest: srv.oldest, kept: srv.kept}));
  fill("server-history", ...srv.history.slice().reverse().map(e => {
    const [type, key] = e.key.split(" ");
    return h("li", {}, typeSpan(type), key, " ", h("span", {class: "muted"}, "rv " + e.rv));
  }));

  // 2 the wire
  const w = s.wire;
  const st = document.getElementById("wire-state");
  st.textContent = t(w.state || "listing") + (w.backoff ? " " + w.backoff : "") + " · " + t("for") + " " + w.for;
  st.className = "pill " + ({watching: "ok", "backing off": "warn", failed: "bad"}[w.state] || "");
  fill("wire-requests", ...w.requests.slice().reverse().map(r =>
    h("li", {}, h("span", {class: "t"}, r.verb), "?" + r.query, h("br"), h("span", {class: "muted"}, r.at + " → " + (r.result || "…")))));
  fill("wire-events", ...w.events.slice().reverse().map(e =>
    h("li", {}, typeSpan(e.type), e.key || "", e.rv ? " rv " + e.rv : "", e.text ? " " + e.text : "", " ", h("span", {class: "muted"}, e.at))));

  // 3 the queue
  const q = s.queue;
  document.getElementById("queue-kind").textContent = q.kind || "";
  const keys = q.keys || [];
  const deltaSpan = d => h("span", {class: "delta " + d.type + (d.tombstone ? " tomb" : "")},
    d.type + (d.rv ? "@" + d.rv : "") + (d.tombstone ? " DeletedFinalStateUnknown" : ""));
  for (const b of document.querySelectorAll("button.kind")) b.classList.toggle("on", b.dataset.kind === s.informer.queue);
  document.getElementById("queue-kind").title = s.informer.gates;
  if (q.deltas) { // a RealFIFO: every delta, in order
    fill("queue-meta", t("queue.metaReal", {n: q.deltas.length, pops: q.pops || 0}) + (q.paused ? " · " + t("queue.paused", {steps: q.steps}) : ""));
    fill("queue", ...(q.deltas.length ? q.deltas.map((d, i) =>
      h("li", {class: i === 0 && q.paused ? "hot" : null}, deltaSpan(d), " ", h("b", {}, d.key || ""))) : [h("li", {class: "muted"}, t("queue.empty"))]));
  } else {
    fill("queue-meta", t("queue.meta", {n: keys.length, pops: q.pops || 0}) + (q.paused ? " · " + t("queue.paused", {steps: q.steps}) : ""));
    fill("queue", ...(keys.length ? keys.map((k, i) =>
      h("li", {class: i === 0 && q.paused ? "hot" : null}, h("b", {}, k.key), " ", ...k.deltas.map(deltaSpan)))
      : [h("li", {class: "muted"}, t("queue.empty"))]));
  }
  const pause = document.getElementById("pause");
  pause.textContent = t(q.paused ? "c.resume" : "c.pause");
  pause.classList.toggle("on", !!q.paused);
  pause.dataset.on = q.paused ? "false" : "true";
  document.getElementById("step").disabled = !q.paused;

  // 4 the cache
  const c = s.cache;
  fill("cache", ...(c.objects.length ? c.objects.map(o =>
    h("tr", {class: isHot(o.key) ? "hot" : null}, h("td", {}, o.key), h("td", {}, "rv " + o.rv), h("td", {class: "muted"}, o.labels)))
    : [h("tr", {}, h("td", {class: "muted"}, t("cache.empty")))]));
  fill("indexes", ...c.indexes.map(ix => h("div", {},
    h("h3", {}, t("index") + " " + ix.name),
    h("ul", {class: "list"}, ...ix.buckets.map(b => h("li", {}, h("b", {}, b.value), " → ", b.keys.join(", ")))))));

  // 5 the handlers
  fill("handlers", ...s.handlers.map(hd => h("div", {class: "handler"},
    h("b", {}, hd.name), " · ", t("delay") + " " + hd.delay, " · ", t("received") + " " + hd.count, " · ",
    t("pending") + " " + hd.pending, h("span", {class: "bar", style: "width:" + Math.min(hd.pending * 6, 150) + "px"}),
    h("ol", {class: "list"}, ...hd.received.slice().reverse().slice(0, 6).map(r =>
      h("li", {class: isHot(r.key) ? "hot" : null}, typeSpan(r.call), r.key, r.rv ? " rv " + r.rv : "", r.note ? " (" + word(r.note) + ")" : ""))))));
}

function renderFeed() {
  fill("feed", ...feed.slice().reverse().slice(0, 150).map(e =>
    h("li", {class: "panel-" + e.panel}, h("span", {class: "muted"}, e.at + " "), h("span", {class: "muted"}, "[" + t("p." + e.panel).split(/[:：]/)[0] + "] "),
      h("span", {class: "t " + e.kind}, word(e.kind)), " ", e.key || "", e.rv ? " rv " + e.rv : "", e.text ? " " + e.text : "")));
}

function onLog(entries) {
  for (const e of entries) {
    feed.push(e);
    if (e.kind === "Pop" && e.key) hot.set(e.key, e.ms + 2500);
  }
  feed.splice(0, Math.max(0, feed.length - 300));
  renderFeed();
}

function connect() {
  const conn = document.getElementById("conn");
  const es = new EventSource("events");
  es.addEventListener("open", () => { conn.textContent = t("connected"); conn.className = "pill ok"; });
  es.addEventListener("state", ev => render(JSON.parse(ev.data)));
  es.addEventListener("log", ev => onLog(JSON.parse(ev.data)));
  es.addEventListener("error", () => { conn.textContent = t("disconnected"); conn.className = "pill bad"; });
}

async function post(button) {
  const body = new URLSearchParams();
  if (button.dataset.n) body.set("n", button.dataset.n);
  if (button.dataset.on) body.set("on", button.dataset.on);
  if (button.dataset.kind) body.set("kind", button.dataset.kind);
  const answer = document.getElementById("answer");
  try {
    const r = await fetch("api/" + button.dataset.control, {method: "POST", body});
    const j = await r.json();
    answer.textContent = (j.ok ? "✓ " : "✗ ") + button.dataset.control + ": " + j.text;
  } catch (err) {
    answer.textContent = "✗ " + button.dataset.control + ": " + err;
  }
}

document.getElementById("controls").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-control]");
  if (b) post(b);
});
document.getElementById("lang").addEventListener("click", () => {
  lang = lang === "zh" ? "en" : "zh";
  localStorage.setItem("liveview-lang", lang);
  translatePage();
});
translatePage();
connect();

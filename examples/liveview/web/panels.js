// panels.js draws the live view's five panels from a snapshot of the
// program (app.js's render calls it): the API server, the wire, the queue,
// the cache and the handlers, and turns off the controls that cannot work
// now, saying why. Every number says what it counts and in what unit,
// beside it or as a hover; a term's meaning is its hover (terms.js).
"use strict";

function typeSpan(type) { return h("span", {class: "t " + type, title: typeTip(type)}, type); }

// typeTip is the hover of an event's or a delta's type.
function typeTip(type) {
  const id = {BOOKMARK: "bookmark", Bookmark: "bookmark", ReplacedAll: "replace", Replaced: "replace", SyncAll: "syncall",
    Sync: "syncall", ERROR: "expired", Pop: "pop", PopBatch: "pop"}[type];
  return id ? termDef(id) : undefined;
}

// rvSpan shows a resourceVersion as "rv 7", the term as its hover.
function rvSpan(rv) { return rv ? h("span", {class: "rv", title: termDef("resourceversion")}, "rv " + rv) : ""; }

function renderServer(srv) {
  setText("server-rv", t(srv.up ? "server up" : "server down"), "pill " + (srv.up ? "ok" : "bad"));
  fill("server-objects", (srv.objects || []).map(o =>
    h("tr", {class: mark(o.key)}, h("td", {}, o.key), h("td", {}, rvSpan(o.rv)), h("td", {class: "muted"}, o.labels))));
  fill("server-window",
    h("span", {class: "now"}, t("window.now", {rv: srv.rv})), " · ",
    h("span", {class: "kept"}, t("window.kept", {n: srv.kept || 0})), " · ",
    h("span", {class: "resume", title: termDef("history")}, t("window.resume", {oldest: srv.oldest})), " · ",
    h("span", {class: "bookmarks", title: termDef("bookmark")}, t("window.bookmarks", {d: dur(goMillis(srv.bookmarks))})));
  fill("server-history", (srv.history || []).map(e => {
    const [type, key] = e.key.split(" ");
    return h("li", {class: mark(key, null, true)}, typeSpan(type), h("span", {class: "k"}, key), " ", h("span", {class: "muted"}, rvSpan(e.rv)));
  }));
}

// wireStateText says what the Reflector does, and for how long; backing
// off, it says how long it waits in all, and how long is left.
function wireStateText(w) {
  const state = t(w.state || "listing");
  if (w.state === "backing off") return t("wire.backoff", {left: dur(w.leftMs || 0), wait: dur(w.backoffMs || 0)});
  return t("wire.for", {state, d: dur(w.forMs || 0)});
}

// params are the query parameters a request list may show, with the term
// that explains each.
const params = ["sendInitialEvents", "resourceVersionMatch", "allowWatchBookmarks", "timeoutSeconds", "limit", "resourceVersion"];

function renderWire(w) {
  setText("wire-state", wireStateText(w), "pill " + ({watching: "ok", "backing off": "warn", failed: "bad"}[w.state] || ""));
  byId("wire-state").title = termDef(w.state === "backing off" ? "backoff" : "reflector");
  const requests = w.requests || [];
  fill("wire-requests", requests.map(r =>
    h("li", {class: r.times > 1 ? "repeat" : null}, h("span", {class: "t", title: termDef(r.verb === "LIST" ? "list" : "watch")}, r.verb),
      h("span", {class: "q"}, "?" + r.query), h("br"),
      h("span", {class: "muted"}, r.at + " → "), h("span", {class: /^failed/.test(r.msg) || r.msg === "endedError" ? "bad" : null}, r.result ? explain410(say(r)) : "…"),
      r.times > 1 ? h("span", {class: "muted"}, " " + t("times", {n: r.times, at: r.at})) : null)));
  // What the parameters in view mean: a legend line, each one linked.
  const seen = params.filter(p => requests.some(r => new RegExp("(^|&)" + p + "=").test(r.query)));
  const legend = byId("wire-legend");
  if (legend.dataset.seen !== seen.join() + lang) {
    legend.dataset.seen = seen.join() + lang;
    linkedHTML(legend, seen.length ? t("wire.params") + seen.map(p => "<code>" + p + "</code>").join(lang === "zh" ? "、" : ", ") : "");
  }
  fill("wire-events", (w.events || []).map(e =>
    h("li", {class: mark(e.key, null, true)}, typeSpan(e.type), h("span", {class: "k"}, e.key), e.rv ? " " : "", rvSpan(e.rv),
      e.text ? " " + explain410(e.text) : "", " ", h("span", {class: "muted"}, e.at))));
}

// deltaSpan shows a Delta: its type and version, a tombstone's type, the
// number of objects a ReplacedAll or SyncAll stands for; withKey adds the
// key in front.
function deltaSpan(d, withKey) {
  return h("span", {class: "delta " + d.type + (d.tombstone ? " tomb" : ""), title: typeTip(d.type)},
    withKey && d.key ? [h("span", {class: "k"}, d.key), " "] : "",
    h("span", {class: "dt"}, d.type + (d.rv ? " rv " + d.rv : "")), (d.tombstone ? " DeletedFinalStateUnknown" : "") +
    (d.type === "ReplacedAll" || d.type === "SyncAll" ? " · " + t("objects", {n: d.n || 0}) : ""));
}

function renderQueue(q, inf) {
  setText("queue-kind", q.kind || "");
  byId("queue-kind").title = inf.gates;
  for (const b of document.querySelectorAll("button.kind")) b.classList.toggle("on", b.dataset.kind === inf.queue);
  const paused = q.paused ? " · " + t("queue.paused") : "";
  const pops = (q.bookmarkPops ? t("queue.popsB", {n: q.pops || 0, b: q.bookmarkPops}) : t("queue.pops", {n: q.pops || 0}));
  const next = i => i < (q.next || 0) ? "next" : null;
  if (q.real) { // a RealFIFO: every delta, in order
    setText("queue-meta", t("queue.metaReal", {n: q.deltas.length}) + " · " + pops + paused);
    fill("queue", q.deltas.length ? q.deltas.map((d, i) => h("li", {class: mark(d.key, next(i), true), "data-type": d.type}, deltaSpan(d), " ", h("b", {class: "k"}, d.key)))
      : h("li", {class: "muted"}, t("queue.empty")));
  } else {
    const keys = q.keys || [];
    setText("queue-meta", t("queue.meta", {n: keys.length}) + " · " + pops + paused);
    fill("queue", keys.length ? keys.map((k, i) => h("li", {class: mark(k.key, next(i), true)}, h("b", {class: "k"}, k.key), " ", k.deltas.map(d => deltaSpan(d))))
      : h("li", {class: "muted"}, t("queue.empty")));
  }
  // What just left the queue, so that a step that speaks of it (a relist's
  // Replace, a resync) finds it here after the run loop took it.
  fill("queue-popped", (q.popped || []).length ? q.popped.map(p => h("li", {class: mark(p.deltas.map(d => d.key).find(k => spot.has(k)), null, true)},
    typeSpan(p.op), " ", p.deltas.map(d => deltaSpan(d, true)), " ", h("span", {class: "muted"}, p.at)))
    : h("li", {class: "muted"}, t("queue.nonePopped")));
  const pause = byId("pause"); // one button: Pause the consumer, or Resume it
  const control = q.paused ? "resume" : "pause";
  if (pause.dataset.control !== control) {
    pause.dataset.control = control;
    pause.dataset.t = "c." + control;
    pause.textContent = t("c." + control);
    pause.dataset.tip = pause.title = t("tip." + control);
  }
  pause.classList.toggle("on", !!q.paused);
}

function renderCache(c) {
  const objects = c.objects || [];
  fill("cache", objects.length ? objects.map(o =>
    h("tr", {class: mark(o.key)}, h("td", {}, o.key), h("td", {}, rvSpan(o.rv)), h("td", {class: "muted"}, o.labels)))
    : h("tr", {}, h("td", {class: "muted"}, t("cache.empty"))));
  fill("indexes", (c.indexes || []).map(ix => h("div", {},
    h("h3", {title: termDef("index")}, t("index") + " " + ix.name),
    h("ul", {class: "list"}, ix.buckets.map(b => h("li", {}, h("b", {}, b.value), " → ", b.keys.join(", ")))))));
}

// renderHandlers shows each handler: its work per event, the calls the
// informer handed over, those it took, and its backlog (the difference).
function renderHandlers(hs) {
  fill("handlers", hs.map(hd => {
    const delay = goMillis(hd.delay);
    return h("div", {class: "handler", "data-name": hd.name},
      h("div", {}, h("b", {}, hd.name), " · ", h("span", {class: "work", title: t("tip.work")}, delay ? t("work", {d: dur(delay)}) : t("work.zero")), " · ",
        h("span", {class: "handed", title: t("tip.handed")}, t("handed", {n: hd.count + hd.pending})), " · ",
        h("span", {class: "taken", title: t("tip.taken")}, t("taken", {n: hd.count})), " · ",
        h("span", {class: "pending" + (hd.pending > 0 ? " backlog" : ""), title: termDef("backlog")}, t("pending", {n: hd.pending})),
        h("span", {class: "bar", style: "width:" + Math.min(hd.pending * 6, 150) + "px"})),
      h("ol", {class: "list"}, (hd.received || []).slice(-6).map(r =>
        h("li", {class: mark(r.key)}, typeSpan(r.call), h("span", {class: "k"}, r.key), r.rv ? " " : "", rvSpan(r.rv), r.note ? " (" + word(r.note) + ")" : ""))));
  }));
}

// enableControls turns off the controls that cannot work now, each with
// the reason; Update and Delete name the pod they act on, the first one.
function enableControls(s) {
  const down = conn === "disconnected", q = s.queue || {};
  const queued = (q.keys || []).length + ((q.deltas || []).filter(d => d.type !== "Bookmark").length);
  const first = (s.server.objects[0] || {}).key;
  const why = (sel, reason) => { for (const b of document.querySelectorAll(sel)) setOff(b, down ? t("why.stale") : reason ? t(reason) : ""); };
  why("[data-control]", "");
  why("[data-control=down]", !s.server.up && "why.down");
  why("[data-control=up]", s.server.up && "why.up");
  why("[data-control=step]", !q.paused ? "why.notPaused" : queued === 0 ? "why.empty" : q.steps > 0 ? "why.stepWaiting" : "");
  why("[data-control=resync]", s.informer.resyncPeriod === "0s" && "why.resyncOff");
  why("[data-control=removehandler]", s.handlers.length <= 2 && "why.twoStay");
  why("[data-control=addhandler]", s.handlers.length >= 5 && "why.slotsFull");
  why("[data-control=update], [data-control=delete], [data-control=burst]", !first && "why.noPod");
  for (const b of document.querySelectorAll("button.kind")) if (b.dataset.kind === s.informer.queue && !down) setOff(b, t("why.onIt", {queue: b.dataset.kind}));
  for (const b of document.querySelectorAll("[data-control=resyncperiod]")) {
    const on = goMillis(b.dataset.period) === goMillis(s.informer.resyncPeriod);
    b.setAttribute("aria-pressed", String(on));
    if (on && !down) setOff(b, t("why.period"));
  }
  const pod = first ? first.split("/")[1] : "";
  for (const c of ["update", "delete"]) setText("c-" + c, pod ? t("c." + c + "Of", {pod}) : t("c." + c));
  byId("c-burst").dataset.tip = t("tip.burst", {pods: s.server.objects.slice(0, 3).map(o => o.key.split("/")[1]).join(", ")});
  if (!isOff(byId("c-burst"))) byId("c-burst").title = byId("c-burst").dataset.tip;
}

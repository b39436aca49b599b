// guide.js plays the guided scenes of scenes.js on the live program: the
// scene menu and its Play button, Next / Back / Replay / Close, each step's
// narration in the reader's language with the file to read and the
// walkthrough Step to read next, and the panels, buttons and objects the
// step talks about, highlighted, the first of those panels scrolled into
// view. A step's actions are the page's own controls, posted to the same
// fakeapi and informer the panels show. A step waits for the events it
// tells of, not for the clock: while it runs, the guide says what it waits
// for and for how long (and, while the Reflector backs off, when it tries
// again); its narration comes once the panels show what it tells. Back
// shows an earlier step's narration again, as it was told, without running
// it twice.
//
// A scene first puts the world in the state it needs (prepare.js), and
// says in one line what it changed; Close puts back what the scenes
// changed. A scene left for another, or closed, half-way stops at once:
// its step posts nothing more. Choosing in the menu plays nothing until
// Play (or Enter), so that arrowing through it starts nothing. Buttons
// that wait are aria-disabled, in the tab order, and say why. Loaded last:
// it starts the page.
"use strict";

let scene = null;     // the scene playing
let chosen = "";      // the scene chosen in the menu, played by Play
let stepIx = 0;       // the step shown
let ran = 0;          // how many steps have run
let fresh = false;    // the step shown has just run (not shown again by Back or Next)
let status = "";      // preparing, running, done, failed
let failure = null;   // a failed step's reason: {en, zh} or a function
let ctx = {};         // what the scene's steps learnt (keys, versions, times)
let stepLog = [];     // feed entries since the running step began
let sceneLog = [];    // feed entries since the scene began
let waiters = [];     // conditions a step waits for, oldest first
let generation = 0;   // one more at each start and close: an older step stops
let prepared = null;  // what the scene changed before its first step (prepare.js)
let stateAt = 0;      // when the last state came (ms)
let ticking = 0;      // the interval that counts a wait's seconds
const maxSceneLog = 1000; // a scene's own entries are far fewer: bounded all the same
const waitMs = 90000;     // how long a step waits for what it tells, unless it says

// Stopped is thrown into a step whose scene was left.
class Stopped extends Error {}

// until resolves once cond() returns something truthy, checked at every
// feed entry and snapshot; it rejects after ms, or when the scene is left.
// what is what it waits for, in both languages ({en, zh}).
function until(what, cond, ms) {
  const gen = generation;
  return new Promise((resolve, reject) => {
    const w = {what, cond, resolve, reject, gen, since: Date.now(), ms: ms || waitMs};
    w.timer = setTimeout(() => {
      waiters = waiters.filter(x => x !== w);
      reject(Object.assign(new Error(what.en), {what: () => t("guide.failedText", {what: shown(what), max: dur(w.ms)})}));
    }, w.ms);
    waiters.push(w);
    checkWaiters();
    showWait();
  });
}

function checkWaiters() {
  for (const w of waiters.slice()) {
    let v;
    try { v = w.cond(); } catch (err) { v = false; }
    if (v) { clearTimeout(w.timer); waiters = waiters.filter(x => x !== w); w.resolve(v); }
  }
}

// stopWaiters rejects every wait of a scene that was left.
function stopWaiters() {
  for (const w of waiters) { clearTimeout(w.timer); w.reject(new Stopped("left")); }
  waiters = [];
}

// showWait says what the step (or the preparation) waits for, for how
// long so far, and, while the Reflector backs off, when it tries again.
function showWait() {
  const w = waiters.find(x => x.gen === generation);
  let text = "";
  if (w && (status === "running" || status === "preparing")) {
    text = t("guide.wait", {what: shown(w.what), d: dur(Date.now() - w.since), max: dur(w.ms)});
    if (last && last.wire.state === "backing off") text += " " + t("guide.waitBackoff", {left: dur(last.wire.leftMs - (Date.now() - stateAt))});
  }
  setText("guide-wait", text);
  const counting = status === "running" || status === "preparing";
  if (counting && !ticking) ticking = setInterval(showWait, 1000);
  if (!counting && ticking) { clearInterval(ticking); ticking = 0; }
}

function remember(log, e) {
  log.push(e);
  if (log.length > maxSceneLog) log.splice(0, log.length - maxSceneLog);
}

function onGuideLog(e) {
  if (!scene) return; // nothing keeps the feed for a scene that does not play
  remember(stepLog, e);
  remember(sceneLog, e);
  checkWaiters();
}
function onGuideState() { stateAt = Date.now(); checkWaiters(); if (scene) showWait(); }

// makeApi is what a scene's step may do: post a control (failing the step
// when it is refused), wait for a feed entry since the step began, or for
// a state. Once the scene is left, it posts nothing and waits for nothing.
function makeApi(gen) {
  const live = () => { if (gen !== generation) throw new Stopped("left"); };
  return {
    act: async (control, params) => {
      live();
      const j = await post(control, params);
      live();
      if (!j.ok) throw Object.assign(new Error(control), {what: () => word(control) + colon() + say(j)});
      return j;
    },
    see: (what, pred, ms) => until(what, () => stepLog.find(pred), ms),
    seen: (what, pred, ms) => until(what, () => sceneLog.find(pred), ms), // since the scene began: an effect may come before its step
    // A state counts once it shows what this tab's controls did (upToDate).
    state: (what, pred, ms) => until(what, () => upToDate() && pred(last) && last, ms),
    until,
    log: () => stepLog,
    scene: () => sceneLog,
    now: () => last,
    pods: () => (last ? last.server.objects.map(o => o.key.split("/")[1]) : []),
    kind: () => (last ? last.informer.queue : ""),
  };
}
let api = makeApi(0);

// upToDate: the last state began after this tab's last control had run.
function upToDate() { return last && last.seq >= answeredSeq; }

// sceneText renders a step's text with what the scene learnt; the queue is
// the one the step ran on.
function sceneText(v, i) { return typeof v === "function" ? v(ctx, (ctx.kinds || [])[i] || api.kind()) : v; }

// shown renders what a failure or a line says, in the reader's language.
function shown(v) { return typeof v === "function" ? v() : v ? v[lang] || v.en : ""; }

async function runStep(i) {
  stepIx = i;
  status = "running";
  fresh = true;
  stepLog = [];
  renderGuide(true);
  const st = scene.steps[i], gen = generation;
  try {
    if (st.run) await st.run(api, ctx);
    if (gen !== generation) return;
    (ctx.kinds = ctx.kinds || [])[i] = api.kind();
    (ctx.told = ctx.told || [])[i] = clock(Date.now());
    status = "done";
  } catch (err) {
    if (gen !== generation || err instanceof Stopped) return;
    status = "failed";
    failure = err.what || {en: err.message, zh: err.message};
  }
  ran = Math.max(ran, i + 1);
  renderGuide(true); // the narration has come: the guide grew, its panel may be behind it
  if (document.activeElement === byId("guide-next") && i + 1 >= scene.steps.length) byId("guide-close").focus(); // the last step: Close is next
}

// startScene plays the scene id after putting the world in the state it
// needs; "" closes the scene. A scene that plays is left at once.
async function startScene(id) {
  const next = SCENES.find(s => s.id === id) || null;
  generation++;
  stopWaiters();
  if (!next) { closeScene(); return; }
  scene = next;
  chosen = id;
  localStorage.setItem("liveview-played", "1");
  showHint();
  api = makeApi(generation);
  ran = 0; ctx = {}; sceneLog = []; stepLog = []; stepIx = 0; prepared = null; failure = null; fresh = true;
  status = "preparing";
  renderGuide(true);
  const gen = generation;
  try {
    prepared = await prepare(api, scene);
  } catch (err) {
    if (gen !== generation || err instanceof Stopped) return;
    status = "failed";
    failure = err.what || {en: err.message, zh: err.message};
    renderGuide();
    return;
  }
  if (gen === generation) runStep(0);
}

// closeScene hides the guide and puts back what the scenes changed.
function closeScene() {
  scene = null;
  chosen = "";
  status = "";
  prepared = null;
  stepLog = [];
  sceneLog = [];
  renderGuide();
  restore();
}

// onGuideRestart: the program restarted, and the world a scene set up is
// gone with it; the scene stops, and there is nothing to put back.
function onGuideRestart() {
  if (!scene) return;
  generation++;
  stopWaiters();
  before = null;
  closeScene();
  tell(() => t("guide.restarted"));
}

// guideButtons turns the guide's buttons on or off, each with its reason.
function guideButtons() {
  const busy = status === "running" ? t("why.running") : status === "preparing" ? t("why.preparing") : "";
  setOff(byId("scene-play"), chosen ? "" : t("why.noScene"));
  if (!scene) return;
  setOff(byId("guide-back"), busy || (stepIx === 0 ? t("why.firstStep") : ""));
  setOff(byId("guide-next"), busy || (status === "failed" ? t("guide.failed", {what: shown(failure)}) : "") ||
    (stepIx + 1 >= scene.steps.length ? t("why.lastStep") : ""));
  setOff(byId("guide-replay"), busy);
}

// renderGuide shows the step, or hides the guide when no scene plays;
// moved (a step begins or is shown again) brings its first panel into view.
function renderGuide(moved) {
  const g = byId("guide");
  fill("scene", h("option", {value: ""}, t("scene.none")), SCENES.map(s => h("option", {value: s.id}, s.title[lang])));
  byId("scene").value = chosen;
  for (const e of document.querySelectorAll(".focus, .pressed")) e.classList.remove("focus", "pressed");
  g.hidden = !scene;
  guideButtons();
  showWait();
  if (!scene) {
    for (const id of ["guide-title", "guide-count", "guide-status", "guide-prep", "guide-text", "guide-read"]) byId(id).replaceChildren();
    delete g.dataset.scene;
    spot = new Set();
    if (last) render(last);
    return;
  }
  const st = scene.steps[stepIx];
  Object.assign(g.dataset, {scene: scene.id, step: String(stepIx), status});
  setText("guide-title", scene.title[lang]);
  fill("guide-count", h("span", {class: "wide"}, t("guide.count", {n: stepIx + 1, of: scene.steps.length})),
    h("span", {class: "narrow", "aria-hidden": "true"}, (stepIx + 1) + "/" + scene.steps.length)); // a phone's guide is one line
  setText("guide-status", status === "failed" ? t("guide.failed", {what: shown(failure)}) : t("guide." + status),
    "pill " + ({done: "ok", failed: "bad", running: "warn", preparing: "warn"}[status] || ""));
  linkedHTML(byId("guide-prep"), prepared ? prepared.map(shown).join(lang === "zh" ? "；" : "; ") : "");
  const text = status === "preparing" ? t("guide.preparingText") : status === "running" ? t("guide.runningText")
    : status === "failed" ? shown(failure) : (fresh ? "" : "<i>" + t("guide.shownAt", {at: (ctx.told || [])[stepIx]}) + "</i> ") + sceneText(st[lang], stepIx);
  linkedHTML(byId("guide-text"), text);
  byId("guide-text").dataset.told = status === "done" && fresh ? "now" : "";
  byId("guide-read").innerHTML = t("guide.read", {files: sceneText(st.read, stepIx).split(", ").join(lang === "zh" ? "、" : ", "), step: st.next});
  for (const p of st.panels || []) byId(p === "controls" ? "controls" : "p-" + p).classList.add("focus");
  for (const c of st.press || []) for (const b of document.querySelectorAll(`[data-control=${c}]`)) b.classList.add("pressed");
  spot = new Set(st.keys ? st.keys(ctx) : []);
  document.documentElement.style.setProperty("--guide-height", g.offsetHeight + "px");
  if (moved && st.panels && st.panels.length) { // its top in view, below the guide, unless it is already
    const p = st.panels[0], e = byId(p === "controls" ? "controls" : "p-" + p), top = e.getBoundingClientRect().top;
    if (top < g.getBoundingClientRect().bottom || top > innerHeight - 80) e.scrollIntoView({block: "start"});
  }
  if (last) render(last);
}

// play starts the scene chosen in the menu, and puts the focus on Next.
function play() {
  if (!chosen) return;
  startScene(chosen);
  byId("guide-next").focus();
}

// showHint shows the first visit's hint until a scene has been played.
function showHint() { byId("hint").hidden = localStorage.getItem("liveview-played") === "1"; }

byId("scene").addEventListener("change", ev => { chosen = ev.target.value; guideButtons(); });
byId("scene").addEventListener("keydown", ev => { if (ev.key === "Enter") { ev.preventDefault(); chosen = ev.target.value; play(); } });
byId("scene-play").addEventListener("click", () => { if (!isOff(byId("scene-play"))) play(); });
byId("hint-play").addEventListener("click", () => { chosen = "first"; play(); });
byId("hint-close").addEventListener("click", () => { localStorage.setItem("liveview-played", "1"); showHint(); byId("scene").focus(); });
byId("guide-next").addEventListener("click", () => {
  if (!scene || isOff(byId("guide-next"))) return;
  if (stepIx + 1 < ran) { stepIx++; status = "done"; fresh = false; renderGuide(true); } else runStep(stepIx + 1);
  if (stepIx + 1 >= scene.steps.length && status === "done") byId("guide-close").focus(); // the last step: Close is next
});
byId("guide-back").addEventListener("click", () => {
  if (!scene || isOff(byId("guide-back"))) return;
  stepIx--;
  status = "done";
  fresh = false;
  renderGuide(true);
});
byId("guide-replay").addEventListener("click", () => { if (scene && !isOff(byId("guide-replay"))) { startScene(scene.id); byId("guide-next").focus(); } });
byId("guide-close").addEventListener("click", () => { startScene(""); byId("scene").focus(); });
byId("guide-toggle").addEventListener("click", () => {
  const open = byId("guide").classList.toggle("open");
  byId("guide-toggle").setAttribute("aria-expanded", String(open));
  document.documentElement.style.setProperty("--guide-height", byId("guide").offsetHeight + "px");
});

translatePage();
openStream(receive);
const wanted = new URLSearchParams(location.search).get("scene");
if (wanted) until({en: "the first snapshot", zh: "第一份快照"}, () => last).then(() => startScene(wanted));

// guide.js plays the guided scenes of scenes.js on the live program: the
// scene menu, Next / Back / Replay / Close, each step's narration in the
// reader's language with the file to read and the walkthrough Step to read
// next, and the panels, buttons and objects the step talks about,
// highlighted, the first of those panels scrolled into view. A step's
// actions are the page's own controls, posted to the same fakeapi and
// informer the panels show; Next waits until their effects are seen. Back
// shows an earlier step's text again without running it twice.
//
// A scene first puts the world in the state it needs (prepare.js), and
// says in one line what it changed; Close puts back what the scenes
// changed, so the page is as it was before the first of them. A scene left
// for another, or closed, half-way stops at once: its step posts nothing
// more. Loaded last: it starts the page.
"use strict";

let scene = null;     // the scene playing
let stepIx = 0;       // the step shown
let ran = 0;          // how many steps have run
let status = "";      // preparing, running, done, failed
let failure = null;   // a failed step's reason: {en, zh} or a function
let ctx = {};         // what the scene's steps learnt (keys, names)
let stepLog = [];     // feed entries since the running step began
let sceneLog = [];    // feed entries since the scene began
let waiters = [];     // conditions a step waits for
let generation = 0;   // one more at each start and close: an older step stops
let prepared = null;  // what the scene changed before its first step (prepare.js)
const maxSceneLog = 1000; // a scene's own entries are far fewer: bounded all the same

// Stopped is thrown into a step whose scene was left.
class Stopped extends Error {}

// until resolves once cond() returns something truthy, checked at every
// feed entry and snapshot; it rejects after ms, or when the scene is left.
// what is what it waits for, in both languages ({en, zh}).
function until(what, cond, ms) {
  const gen = generation;
  return new Promise((resolve, reject) => {
    const w = {cond, resolve, reject, gen};
    w.timer = setTimeout(() => { waiters = waiters.filter(x => x !== w); reject(Object.assign(new Error(what.en), {what})); }, ms || 20000);
    waiters.push(w);
    checkWaiters();
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
function onGuideState() { checkWaiters(); }

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
    see: (what, pred) => until(what, () => stepLog.find(pred)),
    seen: (what, pred) => until(what, () => sceneLog.find(pred)), // since the scene began: an effect may come before its step
    // A state counts once it shows what this tab's controls did (upToDate).
    state: (what, pred, ms) => until(what, () => upToDate() && pred(last) && last, ms),
    until,
    log: () => stepLog,
    pods: () => (last ? last.server.objects.map(o => o.key.split("/")[1]) : []),
    kind: () => (last ? last.informer.queue : ""),
  };
}
let api = makeApi(0);

// upToDate: the last state began after this tab's last control had run.
function upToDate() { return last && last.seq >= answeredSeq; }

function sceneText(v) { return typeof v === "function" ? v(ctx, api.kind()) : v; }

// shown renders what a failure or a line says, in the reader's language.
function shown(v) { return typeof v === "function" ? v() : v ? v[lang] || v.en : ""; }

async function runStep(i) {
  stepIx = i;
  status = "running";
  stepLog = [];
  renderGuide(true);
  const st = scene.steps[i], gen = generation;
  try {
    if (st.run) await st.run(api, ctx);
    if (gen !== generation) return;
    status = "done";
  } catch (err) {
    if (gen !== generation || err instanceof Stopped) return;
    status = "failed";
    failure = err.what || {en: err.message, zh: err.message};
  }
  ran = Math.max(ran, i + 1);
  renderGuide();
}

// startScene plays the scene id after putting the world in the state it
// needs; "" closes the scene. A scene that plays is left at once.
async function startScene(id) {
  const next = SCENES.find(s => s.id === id) || null;
  generation++;
  stopWaiters();
  if (!next) { closeScene(); return; }
  scene = next;
  api = makeApi(generation);
  ran = 0; ctx = {}; sceneLog = []; stepLog = []; stepIx = 0; prepared = null; failure = null;
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

// renderGuide shows the step, or hides the guide when no scene plays;
// moved (a step begins or is shown again) brings its first panel into view.
function renderGuide(moved) {
  const g = byId("guide");
  fill("scene", h("option", {value: ""}, t("scene.none")), SCENES.map(s => h("option", {value: s.id}, s.title[lang])));
  byId("scene").value = scene ? scene.id : "";
  for (const e of document.querySelectorAll(".focus, .pressed")) e.classList.remove("focus", "pressed");
  g.hidden = !scene;
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
  setText("guide-count", t("guide.count", {n: stepIx + 1, of: scene.steps.length}));
  setText("guide-status", status === "failed" ? t("guide.failed", {what: shown(failure)}) : t("guide." + status),
    "pill " + ({done: "ok", failed: "bad", running: "warn", preparing: "warn"}[status] || ""));
  setText("guide-prep", prepared ? prepared.map(shown).join(lang === "zh" ? "；" : "; ") : "");
  byId("guide-text").innerHTML = status === "preparing" ? t("guide.preparingText") : sceneText(st[lang]);
  byId("guide-read").innerHTML = t("guide.read", {files: sceneText(st.read), step: st.next});
  for (const p of st.panels || []) byId(p === "controls" ? "controls" : "p-" + p).classList.add("focus");
  for (const c of st.press || []) for (const b of document.querySelectorAll(`[data-control=${c}]`)) b.classList.add("pressed");
  spot = new Set(st.keys ? st.keys(ctx) : []);
  byId("guide-back").disabled = stepIx === 0 || status === "running" || status === "preparing";
  byId("guide-next").disabled = stepIx + 1 >= scene.steps.length || status !== "done";
  byId("guide-replay").disabled = status === "running" || status === "preparing";
  document.documentElement.style.setProperty("--guide-height", g.offsetHeight + "px");
  if (moved && st.panels && st.panels.length) { // its top in view, below the guide, unless it is already
    const p = st.panels[0], e = byId(p === "controls" ? "controls" : "p-" + p), top = e.getBoundingClientRect().top;
    if (top < g.getBoundingClientRect().bottom || top > innerHeight - 80) e.scrollIntoView({block: "start"});
  }
  if (last) render(last);
}

byId("scene").addEventListener("change", ev => startScene(ev.target.value));
byId("guide-next").addEventListener("click", () => {
  if (!scene || status !== "done" || stepIx + 1 >= scene.steps.length) return;
  if (stepIx + 1 < ran) { stepIx++; status = "done"; renderGuide(true); } else runStep(stepIx + 1);
});
byId("guide-back").addEventListener("click", () => {
  if (!scene || stepIx === 0 || status === "running" || status === "preparing") return;
  stepIx--;
  status = "done";
  renderGuide(true);
});
byId("guide-replay").addEventListener("click", () => { if (scene) startScene(scene.id); });
byId("guide-close").addEventListener("click", () => startScene(""));

translatePage();
openStream(receive);
const wanted = new URLSearchParams(location.search).get("scene");
if (wanted) until({en: "the first snapshot", zh: "第一份快照"}, () => last).then(() => startScene(wanted));

// guide.js plays the guided scenes of scenes.js on the live program: the
// scene menu, Next / Back / Replay, each step's narration in the reader's
// language with the file to read and the walkthrough Step to read next,
// and the panels, buttons and objects the step talks about, highlighted.
// A step's actions are the page's own controls, posted to the same fakeapi
// and informer the panels show; Next waits until their effects are seen.
// Back shows an earlier step's text again without running it twice.
// Loaded last: it starts the page.
"use strict";

let scene = null;     // the scene playing
let stepIx = 0;       // the step shown
let ran = 0;          // how many steps have run
let status = "";      // running, done, failed
let failedWhat = "";
let ctx = {};         // what the scene's steps learnt (keys, names)
let stepLog = [];     // feed entries since the running step began
let sceneLog = [];    // feed entries since the scene began
let waiters = [];     // conditions a step waits for

// until resolves once cond() returns something truthy, checked at every
// feed entry and snapshot; it rejects after ms.
function until(what, cond, ms) {
  return new Promise((resolve, reject) => {
    const w = {cond, resolve, what};
    w.timer = setTimeout(() => { waiters = waiters.filter(x => x !== w); reject(new Error(what)); }, ms || 20000);
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

function onGuideLog(e) { stepLog.push(e); sceneLog.push(e); checkWaiters(); }
function onGuideState() { checkWaiters(); }

// api is what a scene's step may do: post a control (failing the step when
// it is refused), wait for a feed entry since the step began, or for a state.
const api = {
  act: async (control, params) => {
    const j = await post(control, params);
    if (!j.ok) throw new Error(word(control) + ": " + say(j));
    return j;
  },
  see: (what, pred) => until(what, () => stepLog.find(pred)),
  seen: (what, pred) => until(what, () => sceneLog.find(pred)), // since the scene began: an effect may come before its step
  state: (what, pred) => until(what, () => last && pred(last) && last),
  until,
  log: () => stepLog,
  pods: () => (last ? last.server.objects.map(o => o.key.split("/")[1]) : []),
  kind: () => (last ? last.informer.queue : ""),
};

function sceneText(v) { return typeof v === "function" ? v(ctx, api.kind()) : v; }

async function runStep(i) {
  stepIx = i;
  status = "running";
  stepLog = [];
  renderGuide();
  const st = scene.steps[i], playing = scene;
  try {
    if (st.run) await st.run(api, ctx);
    if (playing !== scene) return;
    status = "done";
  } catch (err) {
    if (playing !== scene) return;
    status = "failed";
    failedWhat = err.message;
  }
  ran = Math.max(ran, i + 1);
  renderGuide();
}

function startScene(id) {
  scene = SCENES.find(s => s.id === id) || null;
  ran = 0; ctx = {}; waiters = []; sceneLog = [];
  byId("scene").value = scene ? scene.id : "";
  if (scene) runStep(0); else renderGuide();
}

// renderGuide shows the step, or hides the guide when no scene plays.
function renderGuide() {
  const g = byId("guide");
  fill("scene", h("option", {value: ""}, t("scene.none")), SCENES.map(s => h("option", {value: s.id}, s.title[lang])));
  byId("scene").value = scene ? scene.id : "";
  for (const e of document.querySelectorAll(".focus, .pressed")) e.classList.remove("focus", "pressed");
  g.hidden = !scene;
  if (!scene) {
    spot = new Set();
    if (last) render(last);
    return;
  }
  const st = scene.steps[stepIx];
  Object.assign(g.dataset, {scene: scene.id, step: String(stepIx), status});
  setText("guide-title", scene.title[lang]);
  setText("guide-count", t("guide.count", {n: stepIx + 1, of: scene.steps.length}));
  setText("guide-status", status === "failed" ? t("guide.failed", {what: failedWhat}) : t("guide." + status),
    "pill " + ({done: "ok", failed: "bad", running: "warn"}[status] || ""));
  byId("guide-text").innerHTML = sceneText(st[lang]);
  byId("guide-read").innerHTML = t("guide.read", {files: st.read, step: st.next});
  for (const p of st.panels || []) byId(p === "controls" ? "controls" : "p-" + p).classList.add("focus");
  for (const c of st.press || []) for (const b of document.querySelectorAll(`[data-control=${c}]`)) b.classList.add("pressed");
  spot = new Set(st.keys ? st.keys(ctx) : []);
  byId("guide-back").disabled = stepIx === 0 || status === "running";
  byId("guide-next").disabled = stepIx + 1 >= scene.steps.length || status !== "done";
  byId("guide-replay").disabled = status === "running";
  if (last) render(last);
}

byId("scene").addEventListener("change", ev => startScene(ev.target.value));
byId("guide-next").addEventListener("click", () => {
  if (stepIx + 1 < ran) { stepIx++; status = "done"; renderGuide(); } else runStep(stepIx + 1);
});
byId("guide-back").addEventListener("click", () => { stepIx--; status = "done"; renderGuide(); });
byId("guide-replay").addEventListener("click", () => startScene(scene.id));
byId("guide-close").addEventListener("click", () => startScene(""));

translatePage();
connect();
const wanted = new URLSearchParams(location.search).get("scene");
if (wanted) until("the first snapshot", () => last).then(() => startScene(wanted));

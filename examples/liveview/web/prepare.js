// prepare.js puts the world in the state a scene needs before its first
// step, and puts it back when the scenes are closed. Every scene needs the
// server up, the consumer running (no step left over from another story),
// resync off (so that none fires in the middle of the story), three pods
// or more, a Reflector that is not in the middle of a long backoff (a new
// informer lists at once: Start over), and some need slowHandler to work a
// while per event, or a new informer whose backoff starts at 800 ms as the
// story tells (fresh); then it waits until the informer has caught up:
// synced, watching, its cache equal to the server's objects, nothing
// queued, no handler behind. The scene says in one line what it changed.
// The first scene of a session notes how things were (server, step mode,
// queue, resync period, slowHandler's work), and Close puts them back, so
// that the page is as it was before the scenes.
"use strict";

let before = null;                    // how things were before this session's first scene; null: no session
let restoring = Promise.resolve();    // a Close putting things back
let restores = 0;                     // Closes that have put things back (the browser test counts them)

// modesOf reads what a scene may change from a state.
function modesOf(s) {
  return {up: s.server.up, paused: s.queue.paused, queue: s.informer.queue, resync: s.informer.resyncPeriod, slowPresses: []};
}

// settled: the informer has caught up with the server, and nothing waits.
function settled(s) {
  const queued = s.queue.real ? s.queue.deltas.some(d => d.type !== "Bookmark") : s.queue.keys.length > 0;
  const objects = list => list.map(o => o.key + "@" + o.rv).sort().join(" ");
  return s.server.up && s.informer.synced && s.wire.state === "watching" && !s.queue.paused && !queued &&
    s.handlers.every(h => h.pending === 0) && objects(s.cache.objects) === objects(s.server.objects);
}

// longBackoff is how long a Reflector's next try may be away before a
// scene starts a new informer rather than wait for it.
const longBackoff = 3000;

// prepare makes the world ready for sc and returns what it changed, as
// lines in both languages ({en, zh}).
async function prepare(api, sc) {
  await restoring;
  await api.state({en: "a state that shows the last control's effect", zh: "反映出上一个操作效果的状态"}, () => true);
  if (!before) before = modesOf(last);
  const lines = [];
  if (!last.server.up) {
    await api.act("up");
    lines.push({en: "the server was down and is up again", zh: "服务器原本下线，现已重新上线"});
  }
  if (last.queue.paused) {
    await api.act("resume");
    lines.push({en: "the consumer was paused and runs again", zh: "消费者原本暂停，现已恢复运行"});
  }
  const period = last.informer.resyncPeriod;
  if (period !== "0s") {
    await api.act("resyncperiod", {period: "0s"});
    const d = dur(goMillis(period));
    lines.push({en: "resync was every " + d + " and is off, so that none comes in the middle of the story",
      zh: "原本每 " + d + "重新同步一次，现已关闭，免得它在故事中间出现"});
  }
  if (sc.slow) { // slowHandler's work per event between 100 ms and 1 s
    const was = last.handlers[1].delay;
    let now = was;
    while (goMillis(now) < 100 || goMillis(now) > 1000) {
      const press = goMillis(now) < 100 ? "slower" : "faster";
      now = (await api.act(press)).text.split(": ")[1];
      before.slowPresses.push(press);
    }
    if (now !== was) {
      const [w, n] = [dur(goMillis(was)), dur(goMillis(now))];
      lines.push({en: "slowHandler worked " + w + " per call and now works " + n, zh: "slowHandler 原本每个调用耗时 " + w + "，现在是 " + n});
    }
  }
  let made = 0;
  while (api.pods().length + made < 3) {
    await api.act("create");
    made++;
  }
  if (made) lines.push({en: made + (made === 1 ? " pod" : " pods") + " created, as the story needs three", zh: "新建了 " + made + " 个 Pod，故事需要三个"});
  await api.state({en: "a state after these changes", zh: "这些改动之后的状态"}, () => true);
  const w = last.wire;
  if (sc.fresh) {
    await api.act("restart");
    lines.push({en: "a new informer (Start over), so that its Reflector's backoff starts at 800 ms as the story tells",
      zh: "新建了一个 Informer（重新开始），让它的 Reflector 的退避如故事所讲从 800 毫秒开始"});
  } else if (w.state === "failed" || w.state === "backing off" && w.leftMs > longBackoff) {
    const left = dur(w.leftMs || 0);
    await api.act("restart");
    lines.push({en: "the Reflector was backing off after an outage (its next try in " + left + "): a new informer (Start over) lists at once",
      zh: "Reflector 在一次中断之后正在退避（" + left + "后才再试）：新建了一个 Informer（重新开始），它立刻 list"});
  }
  await api.state({en: "an informer caught up with the server", zh: "Informer 追上服务器"}, settled);
  const n = last.server.objects.length;
  const pods = {en: fact(n + " pods", {sel: "#server-objects tr", count: n}), zh: fact(n + " 个 Pod", {sel: "#server-objects tr", count: n})};
  if (!lines.length) return [{en: "Ready as it was: the server up, the consumer running, resync off, " + pods.en,
    zh: "原样就绪：服务器在线，消费者在运行，重新同步已关闭，有 " + pods.zh}];
  return [{en: "Before the scene: " + lines.map(l => l.en).join("; ") + "; now " + pods.en,
    zh: "场景开始前：" + lines.map(l => l.zh).join("；") + "；现在有 " + pods.zh}];
}

// caughtUp resolves once a state shows what this tab's controls did, or
// after a minute (the program went away).
function caughtUp() {
  const end = Date.now() + 60000;
  return new Promise(resolve => { const check = () => (upToDate() || Date.now() > end ? resolve() : setTimeout(check, 50)); check(); });
}

// restore puts back what the session's scenes changed, then says what it
// did where the controls' answers go.
function restore() {
  const b = before;
  before = null;
  if (!b || !last) return;
  restoring = (async () => {
    const en = [], zh = [];
    await caughtUp();
    if (last.informer.queue !== b.queue) {
      await post("queue", {kind: b.queue});
      await caughtUp();
      en.push("the " + b.queue);
      zh.push(b.queue);
    }
    if (last.informer.resyncPeriod !== b.resync) {
      await post("resyncperiod", {period: b.resync});
      await caughtUp();
      en.push(b.resync === "0s" ? "resync off" : "resync every " + dur(goMillis(b.resync)));
      zh.push(b.resync === "0s" ? "重新同步关闭" : "每 " + dur(goMillis(b.resync)) + "重新同步");
    }
    for (const press of b.slowPresses.reverse()) await post(press === "slower" ? "faster" : "slower");
    await caughtUp();
    if (b.slowPresses.length) {
      en.push("slowHandler's work per call");
      zh.push("slowHandler 每个调用的耗时");
    }
    if (last.queue.paused !== b.paused) {
      await post(b.paused ? "pause" : "resume");
      await caughtUp();
      en.push(b.paused ? "the consumer paused" : "the consumer running");
      zh.push(b.paused ? "消费者暂停" : "消费者运行");
    }
    if (last.server.up !== b.up) {
      await post(b.up ? "up" : "down");
      en.push(b.up ? "the server up" : "the server down");
      zh.push(b.up ? "服务器在线" : "服务器下线");
    }
    restores++;
    tell(() => lang === "zh"
      ? (zh.length ? "场景已关闭，恢复为场景之前的样子：" + zh.join("、") : "场景已关闭：页面和场景之前一样")
      : (en.length ? "Scenes closed; back as before them: " + en.join(", ") : "Scenes closed: the page is as it was before them"));
  })();
}

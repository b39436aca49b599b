// scenes.js: the guided scenes, the walkthrough's stories played live on
// the page's own fakeapi and informer (guide.js plays them; scenes 1 and
// 2 here, 3 in scenes_missed.js, 4–6 in scenes_more.js). Each step has its narration in English and
// Chinese, the files to read and the walkthrough Step to read next, the
// panels, buttons and objects it talks about (the first panel is brought
// into view), and what it does: controls it posts and the effects it waits
// for, each named in both languages. A step's run keeps what its
// narration states (keys, versions, times, counts) in the scene's ctx, and
// the narration is told only once the step has seen it: every such fact is
// marked (fact), so that the browser test checks each against the panels
// at the moment it is told. Before its first step a scene gets the world
// it needs (prepare.js): slow says it needs slowHandler to work a while
// per call, fresh a new informer.
"use strict";

const real = kind => kind === "RealFIFO";
const key = name => "default/" + name;

// attr escapes text for an HTML attribute.
const attr = s => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

// fact marks a claim of a narration about the panels, shown as text: sel
// picks the rows it is about; has, the words one of them shows (a word
// that begins with = is the whole text of one element of the row: a key,
// "rv 7"); count, how many rows (with has: how many show it); re, a
// pattern a row's text matches; before {first, then, from}: the first row
// (numbered above from) showing first comes before the first showing then.
function fact(text, f) { return `<span class="fact" data-fact="${attr(JSON.stringify(f))}">${text}</span>`; }

// cst marks a constant of client-go's that a narration states (how the
// backoff grows): no panel shows it.
const cst = text => `<span class="const">${text}</span>`;

// panel names a panel by the number its heading shows.
function panel(name) {
  const n = {server: 1, wire: 2, queue: 3, cache: 4, handlers: 5}[name];
  return fact((lang === "zh" ? "面板 " : "panel ") + n, {sel: "#p-" + name + " h2 .num", has: ["=" + n]});
}

// rows' selectors.
const S = {
  objects: "#server-objects tr", history: "#server-history li", window: "#server-window", serverUp: "#server-rv",
  requests: "#wire-requests li", events: "#wire-events li", wire: "#wire-state",
  queue: "#queue li", popped: "#queue-popped li", meta: "#queue-meta", kind: "#queue-kind",
  cache: "#cache tr", handlerRows: "#handlers li", feed: "#feed li", synced: "#synced", answer: "#answer",
  handler: name => `#handlers .handler[data-name="main.${name}"]`,
};

// W names what a step waits for, in both languages.
const W = {
  replace: {en: "the list's Replace in the queue", zh: "队列里列表的 Replace"},
  initialAdd: {en: "an OnAdd of the initial list", zh: "初始列表的 OnAdd"},
  watching: {en: "a watching, synced informer", zh: "在 watch、已同步的 Informer"},
  bookmark: {en: "a BOOKMARK on the watch (one every 10 s)", zh: "watch 上的一个 BOOKMARK（每 10 秒一个）"},
  slowAdd: {en: "slowHandler's OnAdd", zh: "slowHandler 的 OnAdd"},
  modified: {en: "MODIFIED on the watch", zh: "watch 上的 MODIFIED"},
  ended: {en: "the watch's end", zh: "watch 的结束"},
  rewatch: {en: "the re-watch", zh: "重新 watch"},
  onAdd: {en: "OnAdd in the handlers", zh: "事件处理器的 OnAdd"},
  failedTry: {en: "a failed try on the wire", zh: "网络上传输的内容里一次失败的尝试"},
  backoff: {en: "the Reflector's backoff", zh: "Reflector 的退避"},
  backingOff: {en: "a backing-off Reflector", zh: "退避中的 Reflector"},
  deleted: {en: "the deletion on the server", zh: "服务器上的删除"},
  compacted: {en: "an empty history window", zh: "空的历史窗口"},
  expired: {en: "ERROR 410 Expired on the wire (after the Reflector's backoff)", zh: "网络上传输的内容里的 ERROR 410 Expired（在 Reflector 退避之后）"},
  relist: {en: "the relist's Replace in the queue (after one more backoff)", zh: "队列里重新 list 的 Replace（再退避一次之后）"},
  tombstone: {en: "OnDelete with a tombstone", zh: "带墓碑的 OnDelete"},
};

// Reflector waits: after a backoff of up to 30 s and as much again.
const reflectorMs = 180000;

// after finds the last entry of the log that pred picks, numbered above from.
const after = (log, from, pred) => log.filter(e => e.seq > from && pred(e)).pop();

const SCENES = [
{id: "first", title: {en: "1 · The first list and watch", zh: "1 · 第一次 list 和 watch"}, steps: [
  {panels: ["wire", "server"], press: ["restart"], read: (c, q) => real(q) ? "reflector.go, reflector_watchlist.go" : "reflector.go", next: "Step06 Reflector",
    run: async (api, c) => {
      await api.act("restart");
      const rep = await api.see(W.replace, e => e.panel === "queue" && e.kind === "Replace");
      const started = api.log().find(e => e.kind === "informer started");
      Object.assign(c, {from: started ? started.seq : 0, n: +rep.args.n, rv: rep.rv});
    },
    en: (c, q) => "<b>Start over</b>: a new informer on the same fakeapi. " + (real(q)
      ? "On client-go v0.37.2's pipeline the first list is a <b>streaming list</b> (" + panel("wire") + "): " + fact("one WATCH with <code>sendInitialEvents=true</code>", {sel: S.requests, has: ["WATCH", "sendInitialEvents=true"]}) +
        "; the server sent " + fact("its " + c.n + (c.n === 1 ? " pod" : " pods"), {sel: S.objects, count: c.n}) + " as ADDED events, then " +
        fact("a BOOKMARK at rv " + c.rv, {sel: S.events, has: ["=BOOKMARK", "=rv " + c.rv]}) + ", which marks the end of the list."
      : "The Reflector's first request is " + fact("a <b>LIST</b> with <code>resourceVersion=0</code>", {sel: S.requests, has: ["LIST", "resourceVersion=0"]}) + " (" + panel("wire") +
        "): any state the server has cached will do, and <code>limit=500</code> asks for " + fact("pages of at most 500 objects", {sel: S.requests, has: ["LIST", "limit=500"]}) + ". The answer: " +
        fact(t("m.listAnswered", {n: c.n, rv: c.rv}), {sel: S.requests, has: ["LIST", t("m.listAnswered", {n: c.n, rv: c.rv})]}) + "."),
    zh: (c, q) => "<b>重新开始</b>：在同一个 fakeapi 上新建一个 Informer。" + (real(q)
      ? "在 client-go v0.37.2 的流水线上，第一次 list 是<b>流式列表</b>（" + panel("wire") + "）：" + fact("一个带 <code>sendInitialEvents=true</code> 的 WATCH", {sel: S.requests, has: ["WATCH", "sendInitialEvents=true"]}) +
        "；服务器把" + fact("它的 " + c.n + " 个 Pod", {sel: S.objects, count: c.n}) + "作为 ADDED 事件发来，再发" +
        fact("一个 rv " + c.rv + " 的 BOOKMARK", {sel: S.events, has: ["=BOOKMARK", "=rv " + c.rv]}) + "，标出列表的结尾。"
      : "Reflector 的第一个请求是" + fact("<code>resourceVersion=0</code> 的 <b>LIST</b>", {sel: S.requests, has: ["LIST", "resourceVersion=0"]}) + "（" + panel("wire") +
        "）：服务器缓存里的任何状态都行；<code>limit=500</code> 要求" + fact("每页最多 500 个对象", {sel: S.requests, has: ["LIST", "limit=500"]}) + "。应答：" +
        fact(t("m.listAnswered", {n: c.n, rv: c.rv}), {sel: S.requests, has: ["LIST", t("m.listAnswered", {n: c.n, rv: c.rv})]}) + "。"),
  },
  {panels: ["queue", "cache", "handlers", "feed"], read: "controller.go, informer.go", next: "Step08 RunLoop",
    keys: c => c.pods || [],
    run: async (api, c) => {
      c.pods = api.pods().map(key);
      await api.seen(W.initialAdd, e => e.kind === "OnAdd" && e.note === "initial list");
      await api.state(W.initialAdd, s => s.handlers.every(h => h.pending === 0));
      c.lastAdd = after(api.scene(), c.from, e => e.kind === "OnAdd" && e.note === "initial list" && /fastHandler/.test(e.text)).key;
      c.firstCache = real(api.kind()) ? ["cache: replaced"] : ["cache: stored", "=" + c.lastAdd];
    },
    en: (c, q) => (real(q)
      ? "The whole list went into the queue as one <b>Replace</b>: " + fact("a single ReplacedAll delta holding " + t("objects", {n: c.n}), {sel: S.popped, has: ["ReplacedAll", t("objects", {n: c.n})]}) +
        ", which the run loop Popped at once (" + panel("queue") + ", under <i>Just popped</i>). The cache (" + panel("cache") + ") got every pod <i>first</i>, in one step; then each handler ("
      : "The list went into the queue as one <b>Replace</b>: a Replaced delta per key, which the run loop Popped key by key (" + panel("queue") + ", under <i>Just popped</i>: " +
        fact("the last ones", {sel: S.popped, has: ["=Pop", "Replaced"]}) + "). For each, the cache (" + panel("cache") + ") <i>first</i>, then each handler (") +
      panel("handlers") + ") got <code>OnAdd</code>, marked <i>initial list</i> (" + fact("the last: " + c.lastAdd, {sel: S.handler("fastHandler") + " li", has: ["=OnAdd", "=" + c.lastAdd, t("w.initial list")]}) + "). " +
      fact("The feed (Everything, in order) shows that order", {sel: S.feed, before: {first: c.firstCache.map(w => w.startsWith("=") ? w : word(w)), then: ["=OnAdd", "=" + c.lastAdd], from: c.from}}) +
      ": the cache's line comes before the handler calls.",
    zh: (c, q) => (real(q)
      ? "整个列表作为一次 <b>Replace</b> 进入队列：" + fact("只有一个 ReplacedAll Delta，装着 " + t("objects", {n: c.n}), {sel: S.popped, has: ["ReplacedAll", t("objects", {n: c.n})]}) +
        "，运行循环立刻把它 Pop 了出来（" + panel("queue") + "的“刚被 Pop 出的条目”）。缓存（" + panel("cache") + "）<i>先</i>一步拿到所有 Pod；然后每个事件处理器（"
      : "列表作为一次 <b>Replace</b> 进入队列：每个键一个 Replaced Delta，运行循环逐个键把它们 Pop 了出来（" + panel("queue") + "的“刚被 Pop 出的条目”：" +
        fact("最后几个", {sel: S.popped, has: ["=Pop", "Replaced"]}) + "）。每一个都<i>先</i>写入缓存（" + panel("cache") + "），然后每个事件处理器（") +
      panel("handlers") + "）收到 <code>OnAdd</code>，标着<i>初始列表</i>（" + fact("最后一个：" + c.lastAdd, {sel: S.handler("fastHandler") + " li", has: ["=OnAdd", "=" + c.lastAdd, t("w.initial list")]}) + "）。" +
      fact("“全部事件，按顺序”里正是这个顺序", {sel: S.feed, before: {first: c.firstCache.map(w => w.startsWith("=") ? w : word(w)), then: ["=OnAdd", "=" + c.lastAdd], from: c.from}}) +
      "：缓存的行在事件处理器的调用之前。",
  },
  {panels: ["wire"], read: "reflector_watch.go", next: "Step07 Bookmarks",
    run: async (api, c) => {
      await api.state(W.watching, s => s.wire.state === "watching" && s.informer.synced);
      const bm = await api.seen(W.bookmark, e => e.kind === "BOOKMARK" && e.seq > c.from, 30000);
      await api.state(W.bookmark, s => s.wire.events.some(e => e.type === "BOOKMARK" && e.rv === bm.rv));
      const s = api.now();
      Object.assign(c, {bm: bm.rv, lsrv: s.informer.lastSyncRV, srv: s.server.rv, every: dur(goMillis(s.server.bookmarks))});
    },
    en: (c, q) => (real(q) ? "The same stream stays open: the informer now <b>watches</b> from the list's resourceVersion"
      : "Then the Reflector <b>watches</b> from the list's resourceVersion, with <code>allowWatchBookmarks=true</code>") +
      " (" + panel("wire") + ": " + fact(t("watching"), {sel: S.wire, has: [t("watching")]}) + "). The informer is synced (" +
      fact("top: lastSyncResourceVersion " + c.lsrv, {sel: S.synced, has: ["lastSyncResourceVersion " + c.lsrv]}) + "). " +
      fact("Every " + c.every, {sel: S.window, has: [c.every]}) + " fakeapi sends each watch a <b>BOOKMARK</b> with its newest resourceVersion: " +
      fact("here rv " + c.bm, {sel: S.events, has: ["=BOOKMARK", "=rv " + c.bm]}) +
      (c.bm === c.srv ? ", " + fact("the server's own version now", {sel: S.window, has: [t("window.now", {rv: c.srv})]}) + " (" + panel("server") + "): no pod changed since the list, so the version has not moved"
        : "; the server is at " + fact("rv " + c.srv, {sel: S.window, has: [t("window.now", {rv: c.srv})]}) + " now (" + panel("server") + ")") +
      ". A BOOKMARK says: nothing you watch changed up to this version; a Reflector that resumes from it misses nothing.",
    zh: (c, q) => (real(q) ? "同一个事件流保持打开：Informer 现在从列表的资源版本开始 <b>watch</b>"
      : "接着 Reflector 从列表的资源版本开始 <b>watch</b>，带 <code>allowWatchBookmarks=true</code>") +
      "（" + panel("wire") + "：" + fact(t("watching"), {sel: S.wire, has: [t("watching")]}) + "）。Informer 已同步（" +
      fact("顶部：lastSyncResourceVersion " + c.lsrv, {sel: S.synced, has: ["lastSyncResourceVersion " + c.lsrv]}) + "）。fakeapi " +
      fact("每 " + c.every, {sel: S.window, has: [c.every]}) + "向每个 watch 发一个带最新资源版本的 <b>BOOKMARK</b>：" +
      fact("这里是 rv " + c.bm, {sel: S.events, has: ["=BOOKMARK", "=rv " + c.bm]}) +
      (c.bm === c.srv ? "，" + fact("正是服务器现在的版本", {sel: S.window, has: [t("window.now", {rv: c.srv})]}) + "（" + panel("server") + "）：list 之后没有 Pod 变化，所以版本没有动"
        : "；服务器现在是 " + fact("rv " + c.srv, {sel: S.window, has: [t("window.now", {rv: c.srv})]}) + "（" + panel("server") + "）") +
      "。BOOKMARK 的意思是：到这个版本为止，你 watch 的东西没有变化；从它续接 watch 的 Reflector 不会错过什么。",
  },
  {panels: ["server", "wire", "queue", "cache", "handlers"], press: ["create"], read: "informer.go, processor.go", next: "Step09 SharedInformer",
    keys: c => [c.key],
    run: async (api, c) => {
      c.key = (await api.act("create")).text;
      const slowAdd = await api.see(W.slowAdd, e => e.kind === "OnAdd" && e.key === c.key && /slowHandler/.test(e.text));
      const fastAdd = api.log().find(e => e.kind === "OnAdd" && e.key === c.key && /fastHandler/.test(e.text));
      await api.state(W.slowAdd, s => s.cache.objects.some(o => o.key === c.key) && s.wire.events.some(e => e.key === c.key));
      Object.assign(c, {rv4: slowAdd.rv, tFast: fastAdd.at, tSlow: slowAdd.at, work: dur(goMillis(api.now().handlers[1].delay))});
    },
    en: c => "<b>Create</b> a pod: the server stores " + fact(c.key + " at rv " + c.rv4, {sel: S.objects, has: ["=" + c.key, "=rv " + c.rv4]}) + " (" + panel("server") + ") and sends " +
      fact("ADDED", {sel: S.events, has: ["=ADDED", "=" + c.key, "=rv " + c.rv4]}) + " on the open watch (" + panel("wire") + "); the queue gets an Add; the run loop Pops it; " +
      fact("the cache stores it", {sel: S.cache, has: ["=" + c.key, "=rv " + c.rv4]}) + " (" + panel("cache") + "); then every handler gets <code>OnAdd</code>: " +
      fact("fastHandler at " + c.tFast, {sel: S.feed, has: [c.tFast, "=OnAdd", "=" + c.key, "main.fastHandler"]}) + ", " +
      fact("slowHandler at " + c.tSlow, {sel: S.feed, has: [c.tSlow, "=OnAdd", "=" + c.key, "main.slowHandler"]}) +
      " (the feed's times): each handler has its own goroutine, so neither waits for the other. slowHandler then works " +
      fact(c.work, {sel: S.handler("slowHandler") + " .work", has: [c.work]}) + " on the call before it takes its next one. The pod's rows are outlined in every panel.",
    zh: c => "<b>创建</b>一个 Pod：服务器保存 " + fact(c.key + "，rv " + c.rv4, {sel: S.objects, has: ["=" + c.key, "=rv " + c.rv4]}) + "（" + panel("server") + "），并在打开的 watch 上发送 " +
      fact("ADDED", {sel: S.events, has: ["=ADDED", "=" + c.key, "=rv " + c.rv4]}) + "（" + panel("wire") + "）；队列收到一次 Add；运行循环把它 Pop 出来；" +
      fact("缓存保存它", {sel: S.cache, has: ["=" + c.key, "=rv " + c.rv4]}) + "（" + panel("cache") + "）；然后每个事件处理器收到 <code>OnAdd</code>：" +
      fact("fastHandler 在 " + c.tFast, {sel: S.feed, has: [c.tFast, "=OnAdd", "=" + c.key, "main.fastHandler"]}) + "，" +
      fact("slowHandler 在 " + c.tSlow, {sel: S.feed, has: [c.tSlow, "=OnAdd", "=" + c.key, "main.slowHandler"]}) +
      "（事件流里的时间）：每个事件处理器有自己的 goroutine，谁也不等谁。之后 slowHandler 在这个调用上工作 " +
      fact(c.work, {sel: S.handler("slowHandler") + " .work", has: [c.work]}) + "，才取下一个。这个 Pod 在每个面板里的行都加了框。",
  },
]},
{id: "rewatch", title: {en: "2 · A dropped watch and the re-watch", zh: "2 · watch 断开和重新 watch"}, steps: [
  {panels: ["wire"], press: ["update"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.key],
    run: async (api, c) => {
      c.key = (await api.act("update")).text;
      c.rv = (await api.see(W.modified, e => e.kind === "MODIFIED" && e.key === c.key)).rv;
      await api.state(W.modified, s => s.wire.events.some(e => e.key === c.key && e.rv === c.rv));
    },
    en: c => "A pod changes (<b>Update</b>): " + fact("MODIFIED " + c.key + " at rv " + c.rv, {sel: S.events, has: ["=MODIFIED", "=" + c.key, "=rv " + c.rv]}) +
      " arrives on the watch (" + panel("wire") + "). The story starts with one event because a watch that ends within a second with no event in it ends the whole list/watch cycle (client-go's <code>VeryShortWatchError</code>), and the Reflector would list again.",
    zh: c => "一个 Pod 发生变化（<b>更新</b>）：" + fact("MODIFIED " + c.key + "，rv " + c.rv, {sel: S.events, has: ["=MODIFIED", "=" + c.key, "=rv " + c.rv]}) +
      " 从 watch 上到达（" + panel("wire") + "）。故事从一个事件开始，因为一个不到一秒、没有任何事件就结束的 watch 会结束整个 list/watch 周期（client-go 的 <code>VeryShortWatchError</code>），Reflector 就会重新 list。",
  },
  {panels: ["wire"], press: ["dropwatch"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong",
    run: async (api, c) => {
      await api.act("dropwatch");
      c.ended = +(await api.see(W.ended, e => e.kind === "watch ended")).args.n;
      c.rw = (await api.see(W.rewatch, e => e.kind === "WATCH")).rv;
      await api.state(W.rewatch, s => s.wire.state === "watching" && s.wire.requests.some(r => r.msg === "ended"));
    },
    en: c => "<b>Drop the watch</b>: the server ends every watch, as a restarting API server does. In " + panel("wire") + " " +
      fact("the WATCH line says it ended", {sel: S.requests, has: ["WATCH", t("m.ended", {n: c.ended})]}) + ", and the Reflector <b>re-watches</b> from the last resourceVersion it saw: " +
      fact("one more WATCH, from rv " + c.rw, {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.rw, t("m.streaming")]}) + ", and " +
      fact("no LIST after it", {sel: S.requests + ":last-child", has: ["WATCH", "resourceVersion=" + c.rw]}) + " (the last line). Nothing is missed, nothing is listed again.",
    zh: c => "<b>断开 watch</b>：服务器结束所有 watch，就像 API 服务器重启时那样。" + panel("wire") + "里" +
      fact("那条 WATCH 写着它已结束", {sel: S.requests, has: ["WATCH", t("m.ended", {n: c.ended})]}) + "，Reflector 从它见过的最后一个资源版本<b>重新 watch</b>：" +
      fact("多一个从 rv " + c.rw + " 开始的 WATCH", {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.rw, t("m.streaming")]}) + "，" +
      fact("之后没有 LIST", {sel: S.requests + ":last-child", has: ["WATCH", "resourceVersion=" + c.rw]}) + "（最后一行）。什么都没错过，也不重新 list。",
  },
  {panels: ["wire", "queue", "cache", "handlers"], press: ["create"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.key2],
    run: async (api, c) => {
      c.key2 = (await api.act("create")).text;
      c.rv2 = (await api.see(W.onAdd, e => e.kind === "OnAdd" && e.key === c.key2)).rv;
      await api.state(W.onAdd, s => s.cache.objects.some(o => o.key === c.key2) && s.wire.events.some(e => e.key === c.key2));
    },
    en: c => "The next change (<b>Create</b>) comes on the new watch, " + fact("ADDED " + c.key2 + " at rv " + c.rv2, {sel: S.events, has: ["=ADDED", "=" + c.key2, "=rv " + c.rv2]}) +
      ", and travels on as before: queue, " + fact("cache", {sel: S.cache, has: ["=" + c.key2, "=rv " + c.rv2]}) + ", handlers.",
    zh: c => "下一个变化（<b>创建</b>）从新的 watch 上到达，" + fact("ADDED " + c.key2 + "，rv " + c.rv2, {sel: S.events, has: ["=ADDED", "=" + c.key2, "=rv " + c.rv2]}) +
      "，照旧往下走：队列、" + fact("缓存", {sel: S.cache, has: ["=" + c.key2, "=rv " + c.rv2]}) + "、事件处理器。",
  },
]},
];

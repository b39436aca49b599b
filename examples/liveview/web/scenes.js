// scenes.js: the guided scenes, the walkthrough's stories played live on
// the page's own fakeapi and informer (guide.js plays them). Each step has
// its narration in English and Chinese (a function when it depends on the
// queue), the files to read and the walkthrough Step to read next, the
// panels, buttons and objects it talks about (the first panel is brought
// into view), and what it does: controls it posts and the effects it
// waits for, each named in both languages. Before its first step a scene
// gets the world it needs (prepare.js): slow says it needs slowHandler to
// work a while per event.
"use strict";

const real = kind => kind === "RealFIFO";
const key = name => "default/" + name;
const slow = () => (last ? last.handlers[1].delay : "500ms"); // slowHandler's work per event

// history makes Step 3's history on the first three pods: a changes, b
// changes, a changes again, c is deleted.
async function history(api, ctx) {
  const [a, b, c] = api.pods();
  Object.assign(ctx, {a: key(a), b: key(b), c: key(c)});
  await api.act("update", {name: a});
  await api.act("update", {name: b});
  await api.act("update", {name: a});
  await api.act("delete", {name: c});
}

// pausedOn switches to the queue kind, running, with at least three pods, then pauses.
async function pausedOn(api, kind) {
  if (last.queue.paused) await api.act("resume");
  if (api.kind() !== kind) await api.act("queue", {kind});
  while (api.pods().length < 3) await api.act("create");
  await api.state({en: "a synced " + kind + " with three pods", zh: "已同步、有三个 Pod 的 " + kind}, s => s.informer.queue === kind && s.informer.synced &&
    s.cache.objects.length === s.server.objects.length && s.handlers.every(h => h.pending === 0));
  await api.act("pause");
}

const SCENES = [
{id: "first", title: {en: "1 · The first list and watch", zh: "1 · 第一次 list 和 watch"}, steps: [
  {panels: ["wire", "server"], press: ["restart"], read: (c, k) => real(k) ? "reflector.go, reflector_watchlist.go" : "reflector.go", next: "Step06 Reflector",
    en: (c, k) => real(k)
      ? "<b>Start over</b>: a new informer on the same fakeapi. On client-go v0.37.2's pipeline the first list is a <b>streaming list</b> (panel 2): one WATCH with <code>sendInitialEvents=true</code>; the server sends every pod as ADDED, then a BOOKMARK that marks the end of the list."
      : "<b>Start over</b>: a new informer on the same fakeapi. The Reflector's first request is a <b>LIST</b> with <code>resourceVersion=0</code> (panel 2): whatever the server has cached will do. The answer carries every pod and the list's resourceVersion.",
    zh: (c, k) => real(k)
      ? "<b>重新开始</b>：在同一个 fakeapi 上新建一个 Informer。在 client-go v0.37.2 的流水线上，第一次 list 是<b>流式列表</b>（面板 2）：一个带 <code>sendInitialEvents=true</code> 的 WATCH；服务器把每个 Pod 作为 ADDED 发来，再发一个 BOOKMARK 标出列表的结尾。"
      : "<b>重新开始</b>：在同一个 fakeapi 上新建一个 Informer。Reflector 的第一个请求是 <code>resourceVersion=0</code> 的 <b>LIST</b>（面板 2）：服务器缓存里有什么都行。应答里是每个 Pod 和列表的资源版本。",
    run: async api => { await api.act("restart"); await api.see({en: "the list's Replace", zh: "列表的 Replace"}, e => e.panel === "queue" && e.kind === "Replace"); }},
  {panels: ["queue", "cache", "handlers", "feed"], read: "controller.go, informer.go", next: "Step08 RunLoop",
    keys: c => c.pods || [],
    en: (c, k) => (real(k)
      ? "The whole list went into the queue as one <b>Replace</b>: a single ReplacedAll delta, which the run loop Popped at once (panel 3, under <i>Just popped</i>): the cache (panel 4) got every pod <i>first</i>, then each handler (panel 5) got <code>OnAdd</code> for each"
      : "The list went into the queue as one <b>Replace</b>: a Replaced delta per key, which the run loop Popped key by key (panel 3, under <i>Just popped</i>): for each, the cache (panel 4) <i>first</i>, then each handler (panel 5) got <code>OnAdd</code>") +
      ", marked <i>initial list</i>. The feed shows that order: the cache lines come before the handler calls.",
    zh: (c, k) => (real(k)
      ? "整个列表作为一次 <b>Replace</b> 进入队列：只有一个 ReplacedAll 增量，运行循环立刻把它 Pop 了出来（面板 3 的<i>刚被 Pop 出的</i>）：<i>先</i>把每个 Pod 写入缓存（面板 4），然后每个事件处理器（面板 5）对每个 Pod 收到 <code>OnAdd</code>"
      : "列表作为一次 <b>Replace</b> 进入队列：每个键一个 Replaced 增量，运行循环逐个键把它们 Pop 了出来（面板 3 的<i>刚被 Pop 出的</i>）：每个都<i>先</i>写入缓存（面板 4），然后每个事件处理器（面板 5）收到 <code>OnAdd</code>") +
      "，标着<i>初始列表</i>。事件流里正是这个顺序：缓存的行在事件处理器的调用之前。",
    run: async (api, c) => { c.pods = api.pods().map(key); await api.seen({en: "an OnAdd of the initial list", zh: "初始列表的 OnAdd"}, e => e.kind === "OnAdd" && e.note === "initial list"); }},
  {panels: ["wire"], read: "reflector_watch.go", next: "Step07 Bookmarks",
    en: (c, k) => (real(k) ? "The same stream stays open: the informer now <b>watches</b> from the list's resourceVersion"
      : "Then the Reflector <b>watches</b> from the list's resourceVersion, with <code>allowWatchBookmarks=true</code>") +
      " (panel 2: watching). The informer is synced (top: lastSyncResourceVersion). Every 10 s fakeapi sends a <b>BOOKMARK</b>: no pod changed, only the version moved on.",
    zh: (c, k) => (real(k) ? "同一个事件流保持打开：Informer 现在从列表的资源版本开始 <b>watch</b>"
      : "接着 Reflector 从列表的资源版本开始 <b>watch</b>，带 <code>allowWatchBookmarks=true</code>") +
      "（面板 2：watch 中）。Informer 已同步（顶部：lastSyncResourceVersion）。fakeapi 每 10 秒发一个 <b>BOOKMARK</b>：没有 Pod 变化，只是版本向前推进。",
    run: api => api.state({en: "a watching, synced informer", zh: "在 watch、已同步的 Informer"}, s => s.wire.state === "watching" && s.informer.synced)},
  {panels: ["server", "wire", "queue", "cache", "handlers"], press: ["create"], read: "informer.go, processor.go", next: "Step09 SharedInformer",
    keys: c => [c.key],
    en: () => "<b>Create</b> a pod: the server stores it at a new resourceVersion and sends ADDED on the open watch; the queue gets an Add; the run loop Pops it; the cache stores it; then every handler gets <code>OnAdd</code> (slowHandler " + slow() + " later). Its rows are outlined in every panel.",
    zh: () => "<b>创建</b>一个 Pod：服务器以新的资源版本保存它，并在打开的 watch 上发送 ADDED；队列收到一次 Add；运行循环把它 Pop 出来；缓存保存它；然后每个事件处理器收到 <code>OnAdd</code>（slowHandler 晚 " + slow() + "）。它在每个面板里的行都加了框。",
    run: async (api, c) => { c.key = (await api.act("create")).text; await api.see({en: "OnAdd in slowHandler", zh: "slowHandler 的 OnAdd"}, e => e.kind === "OnAdd" && e.key === c.key && /slowHandler/.test(e.text)); }},
]},
{id: "rewatch", title: {en: "2 · A dropped watch and the re-watch", zh: "2 · watch 断开和重新 watch"}, steps: [
  {panels: ["wire"], press: ["update"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.key],
    en: "A pod changes (<b>Update</b>): MODIFIED arrives on the watch. The story starts with one event because a watch that ends within a second with no event in it ends the whole list/watch cycle (client-go's <code>VeryShortWatchError</code>), and the Reflector would list again.",
    zh: "一个 Pod 发生变化（<b>更新</b>）：MODIFIED 从 watch 上到达。故事从一个事件开始，因为一个不到一秒、没有任何事件就结束的 watch 会结束整个 list/watch 周期（client-go 的 <code>VeryShortWatchError</code>），Reflector 就会重新 list。",
    run: async (api, c) => { c.key = (await api.act("update")).text; await api.see({en: "MODIFIED", zh: "MODIFIED"}, e => e.kind === "MODIFIED" && e.key === c.key); }},
  {panels: ["wire"], press: ["dropwatch"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong",
    en: "<b>Drop the watch</b>: the server ends every watch, as a restarting API server does. In panel 2 the WATCH line says it ended, and the Reflector <b>re-watches</b> from the last resourceVersion it saw: one more WATCH, no LIST. Nothing is missed, nothing is listed again.",
    zh: "<b>断开 watch</b>：服务器结束所有 watch，就像 API 服务器重启时那样。面板 2 里那条 WATCH 写着它已结束，Reflector 从它见过的最后一个资源版本<b>重新 watch</b>：多一个 WATCH，没有 LIST。什么都没错过，也不重新 list。",
    run: async api => {
      await api.act("dropwatch");
      await api.see({en: "the watch's end", zh: "watch 的结束"}, e => e.kind === "watch ended");
      await api.state({en: "the re-watch", zh: "重新 watch"}, s => s.wire.state === "watching");
    }},
  {panels: ["wire", "queue", "cache", "handlers"], press: ["create"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.key2],
    en: "The next change (<b>Create</b>) comes on the new watch and travels on as before: queue, cache, handlers.",
    zh: "下一个变化（<b>创建</b>）从新的 watch 上到达，照旧往下走：队列、缓存、事件处理器。",
    run: async (api, c) => { c.key2 = (await api.act("create")).text; await api.see({en: "OnAdd", zh: "OnAdd"}, e => e.kind === "OnAdd" && e.key === c.key2); }},
]},
{id: "missed", title: {en: "3 · The missed deletion: 410, relist, tombstone", zh: "3 · 错过的删除：410、重新 list、墓碑"}, steps: [
  {panels: ["server", "wire"], press: ["update", "down"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong",
    en: "After one event on the watch, the <b>server goes down</b>. The watch ends and every new try fails: connection refused (panel 2 counts the tries on one line). The Reflector <b>backs off</b>, 800 ms doubling, with jitter; it does not list.",
    zh: "watch 上来过一个事件之后，<b>服务器下线</b>。watch 结束，之后每次尝试都失败：连接被拒绝（面板 2 在一行里计数）。Reflector <b>退避</b>，800 毫秒起逐次翻倍，带抖动；它不重新 list。",
    run: async (api, c) => {
      const k = (await api.act("update")).text;
      await api.see({en: "MODIFIED", zh: "MODIFIED"}, e => e.kind === "MODIFIED" && e.key === k);
      await api.act("down");
      await api.see({en: "a failed try", zh: "一次失败的尝试"}, e => e.kind === "WATCH failed" || e.kind === "LIST failed");
      await api.state({en: "a backing-off Reflector", zh: "退避中的 Reflector"}, s => !s.server.up && s.wire.state !== "watching");
    }},
  {panels: ["server", "cache"], press: ["delete"], read: "fakeapi/store.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    en: "While it is down, a pod is <b>deleted</b>. The server's store and history have the DELETED (panel 1); the informer saw nothing: its cache (panel 4) still holds the pod.",
    zh: "服务器下线期间，一个 Pod 被<b>删除</b>。服务器的存储和历史里有这个 DELETED（面板 1）；Informer 什么都没看到：它的缓存（面板 4）里还有这个 Pod。",
    run: async (api, c) => {
      c.doomed = (await api.act("delete")).text;
      await api.state({en: "the deletion on the server", zh: "服务器上的删除"}, s => s.server.history.some(e => e.key === "DELETED " + c.doomed));
    }},
  {panels: ["server"], press: ["compact"], read: "fakeapi/watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    en: "The history is <b>compacted</b>: the DELETED event is gone from the window. The informer's resourceVersion is now older than the oldest one a watch may resume from.",
    zh: "历史被<b>压缩</b>：DELETED 事件从窗口里消失了。Informer 的资源版本现在比可以续接 watch 的最早版本还要旧。",
    run: async api => { await api.act("compact"); await api.state({en: "an empty window", zh: "空的历史窗口"}, s => s.server.kept === 0); }},
  {panels: ["wire"], press: ["up"], read: "reflector_watch.go, reflector.go", next: "Step11 WhenThingsGoWrong",
    en: "The <b>server is back</b>. The re-watch from the old version gets <b>ERROR 410 Expired</b>: too old resource version. The watch ends (its line in panel 2 says so) and the Reflector <b>lists again</b>.",
    zh: "<b>服务器恢复</b>。从旧版本重新 watch 得到 <b>ERROR 410 Expired</b>：too old resource version。watch 结束（面板 2 里它那一行写着），Reflector <b>重新 list</b>。",
    run: async api => {
      await api.act("up");
      await api.see({en: "ERROR 410", zh: "ERROR 410"}, e => e.kind === "ERROR" && /410/.test(e.text));
      await api.see({en: "the relist's Replace", zh: "重新 list 的 Replace"}, e => e.panel === "queue" && e.kind === "Replace");
    }},
  {panels: ["queue", "handlers"], read: "fifo.go, realfifo_relist.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    en: (c, k) => (real(k)
      ? "The relist reached the queue as one ReplacedAll, Popped at once (panel 3, under <i>Just popped</i>): the cache was replaced in one step, then the handlers got <code>OnDelete</code> with a <b>tombstone</b>, DeletedFinalStateUnknown, for the pod the list lacks"
      : "The relist's Replace found a key in the cache that the list lacks: it queued a <b>tombstone</b>, DeletedFinalStateUnknown (panel 3, under <i>Just popped</i>), and the handlers got <code>OnDelete</code> with it") +
      ": nobody saw the pod's final state. The other pods come as OnUpdate with the same version.",
    zh: (c, k) => (real(k)
      ? "重新 list 作为一个 ReplacedAll 进入队列，立刻被 Pop 出来（面板 3 的<i>刚被 Pop 出的</i>）：缓存一步整体替换，然后事件处理器对列表里没有的那个 Pod 收到带<b>墓碑</b> DeletedFinalStateUnknown 的 <code>OnDelete</code>"
      : "重新 list 的 Replace 发现缓存里有一个列表里没有的键：它排入一个<b>墓碑</b> DeletedFinalStateUnknown（面板 3 的<i>刚被 Pop 出的</i>），事件处理器收到带着它的 <code>OnDelete</code>") +
      "：没有人看到这个 Pod 的最终状态。其他 Pod 以版本不变的 OnUpdate 到达。",
    run: (api, c) => api.seen({en: "OnDelete with a tombstone", zh: "带墓碑的 OnDelete"}, e => e.kind === "OnDelete" && e.key === c.doomed && e.note === "DeletedFinalStateUnknown")},
]},
{id: "slow", slow: true, title: {en: "4 · A slow handler does not hold up a fast one", zh: "4 · 慢的事件处理器不会拖住快的"}, steps: [
  {panels: ["handlers"], press: ["burst"], read: "processor.go", next: "Step09 SharedInformer",
    en: () => "A <b>burst of 10 updates</b>. The queue and the cache keep up; fastHandler takes each call at once; slowHandler works " + slow() + " per event, so its <b>backlog</b> grows (the red bar: calls the informer has handed it that it has not taken yet).",
    zh: () => "<b>连续 10 次更新</b>。队列和缓存跟得上；fastHandler 立刻处理每个调用；slowHandler 每个事件要 " + slow() + "，所以它的<b>积压</b>变长（红条：Informer 已交给它、它还没取走的调用）。",
    run: async api => {
      await api.act("burst", {n: "10"});
      const calls = name => api.log().filter(e => e.kind === "OnUpdate" && (e.text || "").startsWith(name)).length;
      await api.until({en: "slowHandler behind fastHandler", zh: "slowHandler 落后于 fastHandler"}, () => last.handlers[1].pending > 1 ||
        calls("main.fastHandler") >= 3 && calls("main.fastHandler") - calls("main.slowHandler") >= 2);
    }},
  {panels: ["handlers", "queue", "cache"], read: "processor.go, informer_handlers.go", next: "Step09 SharedInformer",
    en: "fastHandler is already done, and so are the queue and the cache: each handler has its own buffer and goroutine, so a slow one holds up neither the fast one nor the queue.",
    zh: "fastHandler 已经处理完了，队列和缓存也是：每个事件处理器有自己的缓冲区和 goroutine，慢的既拖不住快的，也拖不住队列。",
    run: api => api.state({en: "fastHandler done", zh: "fastHandler 处理完"}, s => s.handlers[0].pending === 0)},
  {panels: ["handlers"], read: "processor.go", next: "Step10 Resync",
    en: "slowHandler catches up on its own, in order; nothing was dropped: both handlers received the same number of calls.",
    zh: "slowHandler 自己按顺序追上来；什么都没丢：两个事件处理器收到的调用数一样。",
    run: api => api.state({en: "slowHandler caught up", zh: "slowHandler 追上"}, s => s.handlers.every(h => h.pending === 0) && s.handlers[1].count === s.handlers[0].count, 30000)},
]},
{id: "resync", title: {en: "5 · A resync", zh: "5 · 一次重新同步"}, steps: [
  {panels: ["controls"], read: "informer.go", next: "Step10 Resync",
    en: "Resync is <b>off</b> by default here, as in most controllers. Set the period to <b>30 s</b>: an informer's resync period is fixed when it is made, so the view starts a new one with it (the handlers first finish their calls, then get its list as initial adds).",
    zh: "这里重新同步默认<b>关闭</b>，大多数控制器也是这样。把周期设为 <b>30 秒</b>：Informer 的重新同步周期在创建时就定了，所以视图用它新建一个 Informer（事件处理器先处理完手上的调用，再以初始 add 收到它的列表）。",
    run: async api => {
      await api.act("resyncperiod", {period: "30s"});
      await api.state({en: "a synced informer with a 30s resync", zh: "已同步、每 30 秒重新同步的 Informer"}, s => s.informer.resyncPeriod === "30s" && s.informer.synced);
    }},
  {panels: ["queue", "wire"], press: ["resync"], read: "controller.go, fifo.go, realfifo_relist.go", next: "Step10 Resync",
    en: (c, k) => "<b>Resync now</b> moves the informer's clock 30 s on: the resync timer fires. No request goes to the server (panel 2 stays quiet): the queue gets the cache's own objects again, " +
      (real(k) ? "as one SyncAll" : "as a Sync delta per key") + ", and the run loop Pops them at once (panel 3, under <i>Just popped</i>).",
    zh: (c, k) => "<b>立即重新同步</b>把 Informer 的时钟向前拨 30 秒：重新同步定时器触发。没有请求发往服务器（面板 2 很安静）：队列再次收到缓存自己的对象，" +
      (real(k) ? "作为一个 SyncAll" : "每个键一个 Sync 增量") + "，运行循环立刻把它们 Pop 出来（面板 3 的<i>刚被 Pop 出的</i>）。",
    run: async api => { await api.act("resync"); await api.see({en: "the queue's Resync", zh: "队列的 Resync"}, e => e.panel === "queue" && e.kind === "Resync"); }},
  {panels: ["handlers"], read: "processor.go", next: "Step10 Resync",
    en: "Each handler gets <code>OnUpdate</code> with old and new at the <b>same resourceVersion</b>: a resync, not a change. A controller uses it to check the world again; one that compares versions can skip it.",
    zh: "每个事件处理器收到 <code>OnUpdate</code>，新旧对象的<b>资源版本相同</b>：这是重新同步，不是变化。控制器借它重新检查一遍；比较版本的控制器可以跳过它。",
    run: api => api.seen({en: "OnUpdate with the same version", zh: "版本不变的 OnUpdate"}, e => e.kind === "OnUpdate" && e.note === "same version: relist or resync")},
  {panels: ["controls"], read: "informer.go", next: "Step10 Resync",
    en: "Resync <b>off</b> again (a new informer once more), so that it does not fire in the middle of another story.",
    zh: "再把重新同步<b>关闭</b>（又一个新的 Informer），免得它在别的故事中间触发。",
    run: async api => {
      await api.act("resyncperiod", {period: "0s"});
      await api.state({en: "a synced informer without resync", zh: "已同步、不重新同步的 Informer"}, s => s.informer.resyncPeriod === "0s" && s.informer.synced);
    }},
]},
{id: "fifos", title: {en: "6 · DeltaFIFO vs RealFIFO on the same history", zh: "6 · 同一段历史：DeltaFIFO 与 RealFIFO"}, steps: [
  {panels: ["queue"], press: ["queue", "pause"], read: "fifo.go", next: "Step02 DeltaFIFO",
    en: "First the <b>DeltaFIFO</b>, the queue of client-go ≤1.32 (a clean switch: a new informer; the handlers carry over). The consumer is <b>paused</b>, so what comes in stays in the queue.",
    zh: "先看 <b>DeltaFIFO</b>，client-go ≤1.32 的队列（干净地切换：新建一个 Informer，事件处理器保留）。消费者已<b>暂停</b>，进来的东西都留在队列里。",
    run: api => pausedOn(api, "DeltaFIFO")},
  {panels: ["queue", "server"], press: ["update", "delete"], read: "fifo.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b, c.c],
    en: "The history of Step 3: <b>a</b> changes, <b>b</b> changes, <b>a</b> changes again, <b>c</b> is deleted (a, b, c: the first three pods). The DeltaFIFO queues each key <b>once</b>: a's two Updated deltas sit together, ahead of b.",
    zh: "第 3 步的那段历史：<b>a</b> 变化，<b>b</b> 变化，<b>a</b> 再变化，<b>c</b> 被删除（a、b、c 是前三个 Pod）。DeltaFIFO 每个键只排队<b>一次</b>：a 的两个 Updated 增量挨在一起，排在 b 前面。",
    run: async (api, c) => { await history(api, c); await api.state({en: "three keys queued", zh: "排队的三个键"}, s => s.queue.keys.length === 3); }},
  {panels: ["queue", "cache", "handlers"], press: ["step"], read: "fifo.go, informer.go", next: "Step03 RealFIFO", keys: c => [c.a],
    en: "<b>Pop one item</b>: the DeltaFIFO hands out a's whole story, both Updated deltas at once, before b's change; for each of them in turn the cache is updated, then the handlers are told.",
    zh: "<b>Pop 一个条目</b>：DeltaFIFO 把 a 的整段故事一次交出来，两个 Updated 增量都在，先于 b 的变化；对其中每一个依次先更新缓存，再通知事件处理器。",
    run: async (api, c) => { await api.act("step"); await api.see({en: "a's Pop", zh: "a 的 Pop"}, e => e.kind === "Pop" && e.key === c.a); }},
  {panels: ["queue"], press: ["resume", "queue"], read: "realfifo.go", next: "Step03 RealFIFO",
    en: "Now the same on the <b>RealFIFO</b>, client-go v0.37.2's default: resume, switch (the handlers finish their calls first; a new informer lists), pause again.",
    zh: "现在在 <b>RealFIFO</b> 上做同样的事，它是 client-go v0.37.2 的默认队列：恢复、切换（事件处理器先处理完手上的调用；新的 Informer 重新 list）、再暂停。",
    run: api => pausedOn(api, "RealFIFO")},
  {panels: ["queue"], press: ["update", "delete"], read: "realfifo.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b, c.c],
    en: "The same history on the first three pods: the RealFIFO keeps all four notifications <b>in the order they happened</b>: a, b, a, c. The blue rows are what the next PopBatch takes: a run of distinct keys.",
    zh: "在前三个 Pod 上重复同一段历史：RealFIFO 把四条通知都留着，<b>按发生的顺序</b>：a、b、a、c。蓝色的行是下一次 PopBatch 要取走的：一串互不相同的键。",
    run: async (api, c) => { await history(api, c); await api.state({en: "four deltas queued", zh: "排队的四个增量"}, s => s.queue.deltas.filter(d => d.type !== "Bookmark").length >= 4); }},
  {panels: ["queue", "cache", "handlers"], press: ["step"], read: "realfifo_batch.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b],
    en: "<b>Pop one item</b> is one <b>PopBatch</b>: a and b go to the cache in one transaction, then to the handlers; a's second change waits for the next batch, so nobody sees b before a's first change.",
    zh: "<b>Pop 一个条目</b>就是一次 <b>PopBatch</b>：a 和 b 在一个事务里进入缓存，然后到事件处理器；a 的第二次变化等下一批，所以没有人会在 a 的第一次变化之前看到 b。",
    run: async api => { await api.act("step"); await api.see({en: "a PopBatch", zh: "一次 PopBatch"}, e => e.kind === "PopBatch"); }},
  {panels: ["queue", "cache"], press: ["resume"], read: "realfifo.go, realfifo_batch.go", next: "Step03 RealFIFO",
    en: "Resume. Both queues end with the same cache; the RealFIFO gets there in the order things happened, and applies a relist at once instead of key by key. The whole story: <code>docs/client-go-1.37.md</code>.",
    zh: "恢复。两种队列最后的缓存一样；RealFIFO 按事情发生的顺序到达那里，并且一次性应用重新 list，而不是逐个键。完整的故事见 <code>docs/client-go-1.37.zh-CN.md</code>。",
    run: async api => { await api.act("resume"); await api.state({en: "an empty queue", zh: "空的队列"}, s => (s.queue.real ? s.queue.deltas : s.queue.keys).length === 0); }},
]},
];

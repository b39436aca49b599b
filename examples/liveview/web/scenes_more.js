// scenes_more.js: scenes 4 to 6 (scenes.js has the helpers and says how a
// scene is made): a slow handler beside a fast one, a resync, and the
// DeltaFIFO and the RealFIFO on the same history.
"use strict";

// history makes the walkthrough's Step03 history on the first three pods:
// a changes, b changes, a changes again, c is deleted.
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
  await api.state({en: "a paused " + kind, zh: "已暂停的 " + kind}, s => s.queue.paused);
}

// handled says, as a handler panel shows it, how many calls it was handed.
const handed = (name, n) => fact(String(n), {sel: S.handler(name) + " .handed", has: ["=" + t("handed", {n})]});

SCENES.push(
{id: "slow", slow: true, title: {en: "4 · A slow handler does not hold up a fast one", zh: "4 · 慢的事件处理器不会拖住快的"}, steps: [
  {panels: ["handlers"], press: ["burst"], read: "processor.go", next: "Step09 SharedInformer",
    run: async (api, c) => {
      const j = await api.act("burst", {n: "10"});
      Object.assign(c, {n: j.args.n, pods: j.args.pods, work: dur(goMillis(api.now().handlers[1].delay))});
      const calls = name => api.log().filter(e => e.kind === "OnUpdate" && (e.text || "").startsWith(name)).length;
      await api.until({en: "slowHandler behind fastHandler", zh: "slowHandler 落后于 fastHandler"}, () => last.handlers[1].pending > 1 ||
        calls("main.fastHandler") >= 3 && calls("main.fastHandler") - calls("main.slowHandler") >= 2);
      await api.state({en: "a backlog in slowHandler's panel", zh: "slowHandler 面板里的积压"}, s => s.handlers[1].pending > 0);
    },
    en: c => fact("A <b>burst of " + c.n + " updates</b> over " + c.pods, {sel: S.answer, has: [t("m.burst", {n: c.n, pods: c.pods})]}) +
      ". The queue and the cache keep up; fastHandler takes each call at once; slowHandler works " + fact(c.work, {sel: S.handler("slowHandler") + " .work", has: [c.work]}) +
      " on each, so " + fact("its <b>backlog</b> grows", {sel: S.handler("slowHandler") + " .pending", re: "[1-9]\\d*$"}) +
      " (the red bar): the calls the informer has handed it that it has not taken yet.",
    zh: c => fact("对 " + c.pods + " <b>连续更新 " + c.n + " 次</b>", {sel: S.answer, has: [t("m.burst", {n: c.n, pods: c.pods})]}) +
      "。队列和缓存跟得上；fastHandler 立刻处理每个调用；slowHandler 每个调用要 " + fact(c.work, {sel: S.handler("slowHandler") + " .work", has: [c.work]}) +
      "，所以" + fact("它的<b>积压</b>变长", {sel: S.handler("slowHandler") + " .pending", re: "[1-9]\\d*$"}) + "（红条）：Informer 已交给它、它还没取走的调用。",
  },
  {panels: ["handlers", "queue", "cache"], read: "processor.go, informer_handlers.go", next: "Step09 SharedInformer",
    run: async (api, c) => {
      const s = await api.state({en: "fastHandler done", zh: "fastHandler 处理完"}, s => s.handlers[0].pending === 0 &&
        s.cache.objects.map(o => o.key + o.rv).join() === s.server.objects.map(o => o.key + o.rv).join());
      const o = s.server.objects[0];
      Object.assign(c, {first: o.key, firstRV: o.rv});
    },
    en: c => "fastHandler is already done (" + fact(t("pending", {n: 0}), {sel: S.handler("fastHandler") + " .pending", has: ["=" + t("pending", {n: 0})]}) +
      "), and so are the queue and " + fact("the cache", {sel: S.cache, has: ["=" + c.first, "=rv " + c.firstRV]}) + " (" + panel("cache") +
      ": the server's versions): each handler has its own buffer and goroutine, so a slow one holds up neither the fast one nor the queue.",
    zh: c => "fastHandler 已经处理完了（" + fact(t("pending", {n: 0}), {sel: S.handler("fastHandler") + " .pending", has: ["=" + t("pending", {n: 0})]}) +
      "），队列和" + fact("缓存", {sel: S.cache, has: ["=" + c.first, "=rv " + c.firstRV]}) + "也是（" + panel("cache") +
      "：和服务器的版本一样）：每个事件处理器有自己的缓冲区和 goroutine，慢的既拖不住快的，也拖不住队列。",
  },
  {panels: ["handlers"], read: "processor.go", next: "Step10 Resync",
    run: async (api, c) => {
      const s = await api.state({en: "slowHandler caught up", zh: "slowHandler 追上"}, s => s.handlers.every(h => h.pending === 0) && s.handlers[1].count === s.handlers[0].count);
      c.calls = s.handlers[0].count;
    },
    en: c => "slowHandler caught up on its own, in order; nothing was dropped: fastHandler was handed " + handed("fastHandler", c.calls) +
      " calls in all, slowHandler " + handed("slowHandler", c.calls) + ", and each has taken them all.",
    zh: c => "slowHandler 自己按顺序追上来了；什么都没丢：fastHandler 一共被交给 " + handed("fastHandler", c.calls) +
      " 个调用，slowHandler " + handed("slowHandler", c.calls) + " 个，都已全部取走。",
  },
]},
{id: "resync", title: {en: "5 · A resync", zh: "5 · 一次重新同步"}, steps: [
  {panels: ["controls"], press: ["resyncperiod"], read: "informer.go", next: "Step10 Resync",
    run: async api => {
      await api.act("resyncperiod", {period: "30s"});
      await api.state({en: "a synced informer with a 30 s resync", zh: "已同步、每 30 秒重新同步的 Informer"}, s => s.informer.resyncPeriod === "30s" && s.informer.synced);
    },
    en: () => "Resync is <b>off</b> by default here, as in most controllers. " + fact("Set the period to <b>30 s</b>", {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.30")]}) +
      ": an informer's resync period is fixed when it is made, so the view starts a new one with it (the handlers first finish their calls, then get its list as initial adds).",
    zh: () => "这里重新同步默认<b>关闭</b>，大多数控制器也是这样。" + fact("把周期设为 <b>30 秒</b>", {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.30")]}) +
      "：Informer 的重新同步周期在创建时就定了，所以视图用它新建一个 Informer（事件处理器先处理完手上的调用，再以初始 add 收到它的列表）。",
  },
  {panels: ["queue", "wire"], press: ["resync"], read: "controller.go, fifo.go, realfifo_relist.go", next: "Step10 Resync",
    run: async (api, c) => {
      const reqs = api.now().wire.requests;
      c.lastReq = reqs[reqs.length - 1].at;
      await api.act("resync");
      c.n = +(await api.see({en: "the queue's Resync", zh: "队列的 Resync"}, e => e.panel === "queue" && e.kind === "Resync")).args.n;
      const sync = real(api.kind()) ? "SyncAll" : "Sync";
      await api.state({en: "the resync popped", zh: "被 Pop 出的重新同步"}, s => s.queue.popped.some(p => p.deltas.some(d => d.type === sync)));
    },
    en: (c, q) => "<b>Resync now</b> moves the informer's clock " + fact(t("resync.30"), {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.30")]}) + " on: the resync timer fires. No request goes to the server (" + panel("wire") + ": " +
      fact("its newest request is still the one of " + c.lastReq, {sel: S.requests + ":last-child", has: [c.lastReq]}) + "). The queue gets " +
      (real(q) ? fact("the cache's " + t("objects", {n: c.n}) + " again, as one SyncAll", {sel: S.popped, has: ["SyncAll", t("objects", {n: c.n})]})
        : fact("the cache's " + t("objects", {n: c.n}) + " again, as a Sync delta per key", {sel: S.popped, has: ["Sync"]})) +
      ", and the run loop Pops them at once (" + panel("queue") + ", under <i>Just popped</i>).",
    zh: (c, q) => "<b>立即重新同步</b>把 Informer 的时钟向前拨 " + fact(t("resync.30"), {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.30")]}) + "：重新同步定时器触发。没有请求发往服务器（" + panel("wire") + "：" +
      fact("最新的请求仍是 " + c.lastReq + " 的那个", {sel: S.requests + ":last-child", has: [c.lastReq]}) + "）。队列再次收到" +
      (real(q) ? fact("缓存中的 " + t("objects", {n: c.n}) + "，作为一个 SyncAll", {sel: S.popped, has: ["SyncAll", t("objects", {n: c.n})]})
        : fact("缓存中的 " + t("objects", {n: c.n}) + "，每个键一个 Sync Delta", {sel: S.popped, has: ["Sync"]})) +
      "，运行循环立刻把它们 Pop 出来（" + panel("queue") + "的“刚被 Pop 出的条目”）。",
  },
  {panels: ["handlers"], read: "processor.go", next: "Step10 Resync",
    run: async (api, c) => {
      await api.seen({en: "OnUpdate with the same version", zh: "版本不变的 OnUpdate"}, e => e.kind === "OnUpdate" && e.note === "same version: relist or resync");
      await api.state({en: "every handler done", zh: "每个事件处理器处理完"}, s => s.handlers.every(h => h.pending === 0));
      const e = api.scene().filter(e => e.kind === "OnUpdate" && e.note === "same version: relist or resync" && /fastHandler/.test(e.text)).pop();
      Object.assign(c, {key3: e.key, rv3: e.rv});
    },
    en: c => "Each handler gets <code>OnUpdate</code> with old and new at the <b>same resourceVersion</b> (" +
      fact(c.key3 + " at rv " + c.rv3, {sel: S.handler("fastHandler") + " li", has: ["=OnUpdate", "=" + c.key3, "=rv " + c.rv3, t("w.same version: relist or resync")]}) +
      "): a resync, not a change. A controller uses it to check the world again; one that compares versions can skip it.",
    zh: c => "每个事件处理器收到 <code>OnUpdate</code>，新旧对象的<b>资源版本相同</b>（" +
      fact(c.key3 + "，rv " + c.rv3, {sel: S.handler("fastHandler") + " li", has: ["=OnUpdate", "=" + c.key3, "=rv " + c.rv3, t("w.same version: relist or resync")]}) +
      "）：这是重新同步，不是变化。控制器借它重新检查一遍；比较版本的控制器可以跳过它。",
  },
  {panels: ["controls"], press: ["resyncperiod"], read: "informer.go", next: "Step10 Resync",
    run: async api => {
      await api.act("resyncperiod", {period: "0s"});
      await api.state({en: "a synced informer without resync", zh: "已同步、不重新同步的 Informer"}, s => s.informer.resyncPeriod === "0s" && s.informer.synced);
    },
    en: () => fact("Resync <b>off</b> again", {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.off")]}) + " (a new informer once more), so that it does not fire in the middle of another story.",
    zh: () => fact("再把重新同步<b>关闭</b>", {sel: "[data-control=resyncperiod][aria-pressed=true]", has: [t("resync.off")]}) + "（又一个新的 Informer），免得它在别的故事中间触发。",
  },
]},
{id: "fifos", title: {en: "6 · DeltaFIFO vs RealFIFO on the same history", zh: "6 · 同一段历史：DeltaFIFO 与 RealFIFO"}, steps: [
  {panels: ["queue"], press: ["queue", "pause"], read: "fifo.go", next: "Step02 DeltaFIFO",
    run: api => pausedOn(api, "DeltaFIFO"),
    en: () => "First " + fact("the <b>DeltaFIFO</b>", {sel: S.kind, has: ["DeltaFIFO"]}) + ", the queue of client-go ≤1.32 (a clean switch: a new informer; the handlers carry over). " +
      fact("The consumer is <b>paused</b>", {sel: S.meta, has: [t("queue.paused")]}) + ", so what comes in stays in the queue.",
    zh: () => "先看 " + fact("<b>DeltaFIFO</b>", {sel: S.kind, has: ["DeltaFIFO"]}) + "，client-go ≤1.32 的队列（干净地切换：新建一个 Informer，事件处理器保留）。" +
      fact("消费者已<b>暂停</b>", {sel: S.meta, has: [t("queue.paused")]}) + "，进来的东西都留在队列里。",
  },
  {panels: ["queue", "server"], press: ["update", "delete"], read: "fifo.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b, c.c],
    run: async (api, c) => {
      await history(api, c);
      const s = await api.state({en: "three keys queued", zh: "排队的三个键"}, s => s.queue.keys.length === 3);
      c.rvs = s.queue.keys[0].deltas.map(d => d.rv);
    },
    en: c => "The history of the walkthrough's Step03 RealFIFO: <b>a</b> changes, <b>b</b> changes, <b>a</b> changes again, <b>c</b> is deleted (a, b, c: " + c.a + ", " + c.b + ", " +
      fact(c.c, {sel: S.objects, has: ["=" + c.c], count: 0}) + ", the first three pods in " + panel("server") + "). The DeltaFIFO queues each key <b>once</b>: " + fact("three keys", {sel: S.queue, count: 3}) + "; " +
      fact("a's two Updated deltas (rv " + c.rvs.join(", rv ") + ") sit together", {sel: S.queue, has: ["=" + c.a, ...c.rvs.map(rv => "=Updated rv " + rv)]}) + ", " +
      fact("ahead of b", {sel: S.queue, before: {first: ["=" + c.a], then: ["=" + c.b], from: 0}}) + ".",
    zh: c => "教程 Step03 RealFIFO 的那段历史：<b>a</b> 变化，<b>b</b> 变化，<b>a</b> 再变化，<b>c</b> 被删除（a、b、c 是 " + panel("server") + "里的前三个 Pod：" + c.a + "、" + c.b + "、" +
      fact(c.c, {sel: S.objects, has: ["=" + c.c], count: 0}) + "）。DeltaFIFO 每个键只排队<b>一次</b>：" + fact("三个键", {sel: S.queue, count: 3}) + "；" +
      fact("a 的两个 Updated Delta（rv " + c.rvs.join("、rv ") + "）挨在一起", {sel: S.queue, has: ["=" + c.a, ...c.rvs.map(rv => "=Updated rv " + rv)]}) + "，" +
      fact("排在 b 前面", {sel: S.queue, before: {first: ["=" + c.a], then: ["=" + c.b], from: 0}}) + "。",
  },
  {panels: ["queue", "cache", "handlers"], press: ["step"], read: "fifo.go, informer.go", next: "Step03 RealFIFO", keys: c => [c.a],
    run: async (api, c) => {
      await api.act("step");
      await api.see({en: "a's Pop", zh: "a 的 Pop"}, e => e.kind === "Pop" && e.key === c.a);
      await api.state({en: "a in the cache", zh: "缓存里的 a"}, s => s.cache.objects.some(o => o.key === c.a && o.rv === c.rvs[c.rvs.length - 1]));
    },
    en: c => "<b>Pop one item</b>: the DeltaFIFO hands out a's whole story, " +
      fact("both Updated deltas at once", {sel: S.popped, has: ["=Pop", "=" + c.a, ...c.rvs.map(rv => "=Updated rv " + rv)]}) + " (" + panel("queue") +
      ", under <i>Just popped</i>), before b's change; for each of them in turn the cache is updated, then the handlers are told: " +
      fact("the cache holds a at rv " + c.rvs[c.rvs.length - 1], {sel: S.cache, has: ["=" + c.a, "=rv " + c.rvs[c.rvs.length - 1]]}) + ".",
    zh: c => "<b>Pop 一个条目</b>：DeltaFIFO 把 a 的整段故事一次交出来，" +
      fact("两个 Updated Delta 都在", {sel: S.popped, has: ["=Pop", "=" + c.a, ...c.rvs.map(rv => "=Updated rv " + rv)]}) + "（" + panel("queue") +
      "的“刚被 Pop 出的条目”），先于 b 的变化；对其中每一个依次先更新缓存，再通知事件处理器：" +
      fact("缓存里的 a 是 rv " + c.rvs[c.rvs.length - 1], {sel: S.cache, has: ["=" + c.a, "=rv " + c.rvs[c.rvs.length - 1]]}) + "。",
  },
  {panels: ["queue"], press: ["resume", "queue"], read: "realfifo.go", next: "Step03 RealFIFO",
    run: api => pausedOn(api, "RealFIFO"),
    en: () => "Now the same on " + fact("the <b>RealFIFO</b>", {sel: S.kind, has: ["RealFIFO"]}) + ", client-go v0.37.2's default: resume, switch (the handlers finish their calls first; a new informer lists), " +
      fact("pause again", {sel: S.meta, has: [t("queue.paused")]}) + ".",
    zh: () => "现在在 " + fact("<b>RealFIFO</b>", {sel: S.kind, has: ["RealFIFO"]}) + " 上做同样的事，它是 client-go v0.37.2 的默认队列：恢复、切换（事件处理器先处理完手上的调用；新的 Informer 重新 list）、" +
      fact("再暂停", {sel: S.meta, has: [t("queue.paused")]}) + "。",
  },
  {panels: ["queue"], press: ["update", "delete"], read: "realfifo.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b, c.c],
    run: async (api, c) => {
      await history(api, c);
      await api.state({en: "four deltas queued", zh: "排队的四个 Delta"}, s => s.queue.deltas.filter(d => d.type !== "Bookmark").length >= 4);
    },
    en: c => "The same history on the first three pods: the RealFIFO keeps " + fact("all four notifications", {sel: S.queue + ":not([data-type=Bookmark])", count: 4}) +
      " <b>in the order they happened</b>: " + fact("a, b", {sel: S.queue, before: {first: ["=" + c.a], then: ["=" + c.b], from: 0}}) + ", a, c. " +
      fact("The blue rows", {sel: S.queue + ".next", count: 2}) + " are what the next PopBatch takes: a run of distinct keys.",
    zh: c => "在前三个 Pod 上重复同一段历史：RealFIFO 把" + fact("四条通知", {sel: S.queue + ":not([data-type=Bookmark])", count: 4}) +
      "都留着，<b>按发生的顺序</b>：" + fact("a、b", {sel: S.queue, before: {first: ["=" + c.a], then: ["=" + c.b], from: 0}}) + "、a、c。" +
      fact("蓝色的行", {sel: S.queue + ".next", count: 2}) + "是下一次 PopBatch 要取走的：一串互不相同的键。",
  },
  {panels: ["queue", "cache", "handlers"], press: ["step"], read: "realfifo_batch.go", next: "Step03 RealFIFO", keys: c => [c.a, c.b],
    run: async api => {
      await api.act("step");
      await api.see({en: "a PopBatch", zh: "一次 PopBatch"}, e => e.kind === "PopBatch");
      await api.state({en: "the batch popped", zh: "被 Pop 出的这一批"}, s => s.queue.popped.some(p => p.op === "PopBatch"));
    },
    en: c => "<b>Pop one item</b> is one <b>PopBatch</b>: " + fact("a and b", {sel: S.popped, has: ["=PopBatch", "=" + c.a, "=" + c.b]}) +
      " go to the cache in one transaction, then to the handlers; " + fact("a's second change waits for the next batch", {sel: S.queue, has: ["=" + c.a, "Updated"]}) +
      ", so nobody sees b before a's first change.",
    zh: c => "<b>Pop 一个条目</b>就是一次 <b>PopBatch</b>：" + fact("a 和 b", {sel: S.popped, has: ["=PopBatch", "=" + c.a, "=" + c.b]}) +
      " 在一个事务里进入缓存，然后到事件处理器；" + fact("a 的第二次变化等下一批", {sel: S.queue, has: ["=" + c.a, "Updated"]}) + "，所以没有人会在 a 的第一次变化之前看到 b。",
  },
  {panels: ["queue", "cache"], press: ["resume"], read: "realfifo.go, realfifo_batch.go", next: "Step03 RealFIFO",
    run: async (api, c) => {
      await api.act("resume");
      const s = await api.state({en: "an empty queue", zh: "空的队列"}, s => (s.queue.real ? s.queue.deltas : s.queue.keys).length === 0 &&
        s.cache.objects.length === s.server.objects.length);
      c.n = s.cache.objects.length;
    },
    en: c => "Resume. Both queues end with the same cache (" + fact(t("objects", {n: c.n}), {sel: S.cache, count: c.n}) +
      ", the server's); the RealFIFO gets there in the order things happened, and applies a relist at once instead of key by key. The whole story: <code>docs/client-go-1.37.md</code>.",
    zh: c => "恢复。两种队列最后的缓存一样（" + fact(t("objects", {n: c.n}), {sel: S.cache, count: c.n}) +
      "，和服务器一样）；RealFIFO 按事情发生的顺序到达那里，并且一次性应用重新 list，而不是逐个键。完整的故事见 <code>docs/client-go-1.37.zh-CN.md</code>。",
  },
]},
);

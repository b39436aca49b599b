// scenes_missed.js: scene 3, the missed deletion (scenes.js has the
// helpers and says how a scene is made). The server goes down, a pod is
// deleted and the history compacted while nobody watches; when the server
// is back the Reflector's next try gets 410 Expired, it lists again, and
// the handlers get a tombstone. The scene starts on a new informer
// (fresh), so that the backoff it shows starts at 800 ms as it tells; the
// steps that wait for the Reflector wait as long as its backoff lasts
// (reflectorMs), and the guide counts it down meanwhile.
"use strict";

SCENES.push({id: "missed", fresh: true, title: {en: "3 · The missed deletion: 410, relist, tombstone", zh: "3 · 错过的删除：410、重新 list、墓碑"}, steps: [
  {panels: ["server", "wire"], press: ["update", "down"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.key],
    run: async (api, c) => {
      c.key = (await api.act("update")).text;
      c.rv = (await api.see(W.modified, e => e.kind === "MODIFIED" && e.key === c.key)).rv;
      await api.act("down");
      await api.see(W.failedTry, e => e.kind === "WATCH failed" || e.kind === "LIST failed");
      c.wait1 = dur(+(await api.see(W.backoff, e => e.kind === "backoff")).args.ms);
      await api.state(W.backingOff, s => !s.server.up && s.wire.requests.some(r => r.msg === "failedRefused") && s.wire.events.some(e => e.key === c.key));
    },
    en: c => "After one event on the watch (" + fact("MODIFIED " + c.key + " at rv " + c.rv, {sel: S.events, has: ["=MODIFIED", "=" + c.key, "=rv " + c.rv]}) + "), the <b>server goes down</b> (" +
      panel("server") + ": " + fact(t("server down"), {sel: S.serverUp, has: ["=" + t("server down")]}) + "). The watch ends and the next try fails: " +
      fact("connection refused", {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.rv, t("m.failedRefused")]}) + " (" + panel("wire") + " counts such tries on one line). The Reflector <b>backs off</b>: " +
      fact("its first wait was " + c.wait1, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.wait1})]}) + " (the feed); after each failure it waits twice as long, " +
      cst("from 800 ms up to 30 s, stretched by up to as much again at random") + ". It does not list: it tries the watch from rv " + c.rv + " again.",
    zh: c => "watch 上来过一个事件（" + fact("MODIFIED " + c.key + "，rv " + c.rv, {sel: S.events, has: ["=MODIFIED", "=" + c.key, "=rv " + c.rv]}) + "）之后，<b>服务器下线</b>（" +
      panel("server") + "：" + fact(t("server down"), {sel: S.serverUp, has: ["=" + t("server down")]}) + "）。watch 结束，下一次尝试失败：" +
      fact("连接被拒绝", {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.rv, t("m.failedRefused")]}) + "（" + panel("wire") + "把这样的尝试计在一行里）。Reflector <b>退避</b>：" +
      fact("第一次等了 " + c.wait1, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.wait1})]}) + "（见事件流）；每失败一次，下一次等待翻倍，" +
      cst("从 800 毫秒起，最多 30 秒，再随机拉长至多一倍") + "。它不重新 list：它再次尝试从 rv " + c.rv + " 开始 watch。",
  },
  {panels: ["server", "cache"], press: ["delete"], read: "fakeapi/store.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    run: async (api, c) => {
      c.doomed = (await api.act("delete")).text;
      const s = await api.state(W.deleted, s => s.server.history.some(e => e.key === "DELETED " + c.doomed));
      c.delRV = s.server.history.find(e => e.key === "DELETED " + c.doomed).rv;
      c.cacheRV = (s.cache.objects.find(o => o.key === c.doomed) || {}).rv;
    },
    en: c => "While it is down, " + c.doomed + " is <b>deleted</b>. " + fact("The server's store", {sel: S.objects, has: ["=" + c.doomed], count: 0}) + " no longer has it, and " +
      fact("its history has the DELETED at rv " + c.delRV, {sel: S.history, has: ["=DELETED", "=" + c.doomed, "=rv " + c.delRV]}) + " (" + panel("server") +
      "). The informer saw nothing: " + fact("its cache still holds the pod at rv " + c.cacheRV, {sel: S.cache, has: ["=" + c.doomed, "=rv " + c.cacheRV]}) + " (" + panel("cache") + ").",
    zh: c => "服务器下线期间，" + c.doomed + " 被<b>删除</b>。" + fact("服务器的存储", {sel: S.objects, has: ["=" + c.doomed], count: 0}) + "里已经没有它，" +
      fact("历史里有 rv " + c.delRV + " 的 DELETED", {sel: S.history, has: ["=DELETED", "=" + c.doomed, "=rv " + c.delRV]}) + "（" + panel("server") +
      "）。Informer 什么都没看到：" + fact("它的缓存里还有这个 Pod，rv " + c.cacheRV, {sel: S.cache, has: ["=" + c.doomed, "=rv " + c.cacheRV]}) + "（" + panel("cache") + "）。",
  },
  {panels: ["server"], press: ["compact"], read: "fakeapi/watch.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    run: async (api, c) => {
      await api.act("compact");
      const s = await api.state(W.compacted, s => s.server.kept === 0);
      Object.assign(c, {oldest: s.server.oldest, lsrv: s.informer.lastSyncRV});
    },
    en: c => "The history is <b>compacted</b>: the DELETED event is gone, " + fact("no event is kept", {sel: S.window, has: [t("window.kept", {n: 0})]}) + " (" + panel("server") + "). " +
      fact("A watch may now resume only from rv " + c.oldest + " or newer", {sel: S.window, has: [t("window.resume", {oldest: c.oldest})]}) + "; the informer's last version is " +
      fact("rv " + c.lsrv, {sel: S.synced, has: ["lastSyncResourceVersion " + c.lsrv]}) + " (top: lastSyncResourceVersion), older than that: when the Reflector tries again, it will get 410 Expired.",
    zh: c => "历史被<b>压缩</b>：DELETED 事件没了，" + fact("一个事件也不保留", {sel: S.window, has: [t("window.kept", {n: 0})]}) + "（" + panel("server") + "）。" +
      fact("现在只能从 rv " + c.oldest + " 或更新的版本续接 watch", {sel: S.window, has: [t("window.resume", {oldest: c.oldest})]}) + "；Informer 的最后版本是 " +
      fact("rv " + c.lsrv, {sel: S.synced, has: ["lastSyncResourceVersion " + c.lsrv]}) + "（顶部：lastSyncResourceVersion），比它旧：Reflector 再试时会得到 410 Expired。",
  },
  {panels: ["wire", "server"], press: ["up"], read: "reflector_watch.go", next: "Step11 WhenThingsGoWrong",
    run: async (api, c) => {
      await api.act("up");
      const err = await api.see(W.expired, e => e.kind === "ERROR" && /410/.test(e.text), reflectorMs);
      const m = /too old resource version: (\d+) \((\d+)\)/.exec(err.text) || [];
      const wait = api.scene().filter(e => e.kind === "backoff" && e.seq < err.seq).pop();
      Object.assign(c, {errSeq: err.seq, asked: m[1], oldest4: m[2], lastWait: wait ? dur(+wait.args.ms) : ""});
      await api.state(W.expired, s => s.server.up && s.wire.requests.some(r => r.msg === "endedError"));
    },
    en: c => "The <b>server is back</b> (" + panel("server") + ": " + fact(t("server up"), {sel: S.serverUp, has: ["=" + t("server up")]}) + "), but the Reflector tries again only when its backoff runs out" +
      (c.lastWait ? ": " + fact("its last wait was " + c.lastWait, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.lastWait})]}) : "") +
      ". Its re-watch from rv " + c.asked + " got " + fact("<b>ERROR 410 Expired</b>: too old resource version", {sel: S.events, has: ["=ERROR", "410 Expired", t("expl.410", {asked: c.asked, oldest: c.oldest4})]}) +
      ": asked to resume from " + c.asked + ", the oldest it can resume from is " + c.oldest4 + ". " +
      fact("The watch ended", {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.asked, "410 Expired"]}) + " (its line in " + panel("wire") + " says so).",
    zh: c => "<b>服务器恢复</b>（" + panel("server") + "：" + fact(t("server up"), {sel: S.serverUp, has: ["=" + t("server up")]}) + "），但 Reflector 要等退避结束才再试" +
      (c.lastWait ? "：" + fact("它最后一次等了 " + c.lastWait, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.lastWait})]}) : "") +
      "。它从 rv " + c.asked + " 重新 watch，得到 " + fact("<b>ERROR 410 Expired</b>：too old resource version", {sel: S.events, has: ["=ERROR", "410 Expired", t("expl.410", {asked: c.asked, oldest: c.oldest4})]}) +
      "：要求从 " + c.asked + " 续接，能续接的最早版本是 " + c.oldest4 + "。" +
      fact("这个 watch 结束了", {sel: S.requests, has: ["WATCH", "resourceVersion=" + c.asked, "410 Expired"]}) + "（" + panel("wire") + "里它那一行写着）。",
  },
  {panels: ["wire", "queue"], read: "reflector.go", next: "Step11 WhenThingsGoWrong",
    run: async (api, c) => {
      const rep = await api.seen(W.relist, e => e.panel === "queue" && e.kind === "Replace" && e.seq > c.errSeq, reflectorMs);
      const between = api.scene().filter(e => e.seq > c.errSeq && e.seq < rep.seq);
      const wait = between.filter(e => e.kind === "backoff").pop();
      Object.assign(c, {n5: +rep.args.n, rv5: rep.rv, wait2: wait ? dur(+wait.args.ms) : ""});
      await api.state(W.relist, s => s.wire.state === "watching");
    },
    en: (c, q) => "A 410 ends the list/watch cycle. " + (c.wait2 ? "The Reflector waited " + fact("one more backoff, " + c.wait2, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.wait2})]}) +
      " (it waits one after every cycle), then <b>listed again</b>: " : "The Reflector <b>listed again</b>: ") +
      (real(q) ? fact("a streaming list, one WATCH with <code>sendInitialEvents=true</code>", {sel: S.requests, has: ["WATCH", "sendInitialEvents=true"]})
        : fact("a LIST, answered " + t("m.listAnswered", {n: c.n5, rv: c.rv5}), {sel: S.requests, has: ["LIST", t("m.listAnswered", {n: c.n5, rv: c.rv5})]})) +
      " (" + panel("wire") + "). The queue got " + fact("a <b>Replace</b> with the list's " + t("objects", {n: c.n5}), {sel: S.feed, has: ["=Replace", t("m.listObjects", {n: c.n5})]}) + " (the feed).",
    zh: (c, q) => "410 结束了这一轮 list/watch。" + (c.wait2 ? "Reflector " + fact("又退避了一次，等了 " + c.wait2, {sel: S.feed, has: ["=" + word("backoff"), t("m.backoff", {d: c.wait2})]}) +
      "（每一轮结束后它都要等一次），然后<b>重新 list</b>：" : "Reflector <b>重新 list</b>：") +
      (real(q) ? fact("一次流式列表，一个带 <code>sendInitialEvents=true</code> 的 WATCH", {sel: S.requests, has: ["WATCH", "sendInitialEvents=true"]})
        : fact("一个 LIST，应答为" + t("m.listAnswered", {n: c.n5, rv: c.rv5}), {sel: S.requests, has: ["LIST", t("m.listAnswered", {n: c.n5, rv: c.rv5})]})) +
      "（" + panel("wire") + "）。队列收到" + fact("一次 <b>Replace</b>，带着列表中的 " + t("objects", {n: c.n5}), {sel: S.feed, has: ["=Replace", t("m.listObjects", {n: c.n5})]}) + "（见事件流）。",
  },
  {panels: ["queue", "handlers"], read: (c, q) => real(q) ? "realfifo_relist.go, informer.go" : "fifo.go, informer.go", next: "Step11 WhenThingsGoWrong", keys: c => [c.doomed],
    run: async (api, c) => {
      await api.seen(W.tombstone, e => e.kind === "OnDelete" && e.key === c.doomed && e.note === "DeletedFinalStateUnknown", reflectorMs);
      await api.state(W.tombstone, s => s.handlers.every(h => h.pending === 0));
      const other = after(api.scene(), c.errSeq, e => e.kind === "OnUpdate" && e.note === "same version: relist or resync" && /fastHandler/.test(e.text));
      c.other = other ? other.key : "";
    },
    en: (c, q) => (real(q)
      ? "The relist reached the queue as " + fact("one ReplacedAll", {sel: S.popped, has: ["ReplacedAll", t("objects", {n: c.n5})]}) + ", Popped at once (" + panel("queue") +
        ", under <i>Just popped</i>): the cache was replaced in one step, then the handlers got "
      : "The relist's Replace found a key in the cache that the list lacks: it queued " +
        fact("a <b>tombstone</b>", {sel: S.popped, has: ["=" + c.doomed, "DeletedFinalStateUnknown"]}) + " (" + panel("queue") + ", under <i>Just popped</i>), and the handlers got ") +
      fact("<code>OnDelete</code> with a <b>tombstone</b>, DeletedFinalStateUnknown, for " + c.doomed, {sel: S.feed, has: ["=OnDelete", "=" + c.doomed, "DeletedFinalStateUnknown", "main.fastHandler"]}) +
      " (" + panel("handlers") + ", and the feed): nobody saw the pod's final state." + (c.other ? " " + fact("The other pods came as OnUpdate with the same version", {sel: S.handler("fastHandler") + " li",
        has: ["=OnUpdate", "=" + c.other, t("w.same version: relist or resync")]}) + "." : ""),
    zh: (c, q) => (real(q)
      ? "重新 list 作为" + fact("一个 ReplacedAll", {sel: S.popped, has: ["ReplacedAll", t("objects", {n: c.n5})]}) + "进入队列，立刻被 Pop 出来（" + panel("queue") +
        "的“刚被 Pop 出的条目”）：缓存一步整体替换，然后事件处理器收到"
      : "重新 list 的 Replace 发现缓存里有一个列表里没有的键：它排入" +
        fact("一个<b>墓碑</b>", {sel: S.popped, has: ["=" + c.doomed, "DeletedFinalStateUnknown"]}) + "（" + panel("queue") + "的“刚被 Pop 出的条目”），事件处理器收到") +
      fact(c.doomed + " 的带<b>墓碑</b> DeletedFinalStateUnknown 的 <code>OnDelete</code>", {sel: S.feed, has: ["=OnDelete", "=" + c.doomed, "DeletedFinalStateUnknown", "main.fastHandler"]}) +
      "（" + panel("handlers") + "，以及事件流）：没有人看到这个 Pod 的最终状态。" + (c.other ? fact("其他 Pod 以版本不变的 OnUpdate 到达", {sel: S.handler("fastHandler") + " li",
        has: ["=OnUpdate", "=" + c.other, t("w.same version: relist or resync")]}) + "。" : ""),
  },
]});

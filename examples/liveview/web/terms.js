// terms.js: the page's terms, each with what it means on this page, in
// English and Chinese, and the row of the book's glossary it stands for
// (docs/glossary.md, docs/glossary.zh-CN.md: the same English term, the
// same Chinese word; words_test.go holds them to it). linkTerms links the
// first mention of each term in a block of text to its entry in the
// page's own glossary (the Terms section at the bottom, terms.js renders
// it), with its meaning as a hover; lists show a term's meaning as a hover
// only, so that Tab does not stop at every row. Names from the code
// (PopBatch, ReplacedAll, sendInitialEvents...) are the same in both
// languages.
"use strict";

// A term: id (its anchor, #term-ID), glossary (the English cell of its
// row in docs/glossary.md), and per language: word (the glossary's; in
// Chinese, its cell without what is in brackets), names (how a text
// mentions it, the first one the word), def (what it means here).
const TERMS = [
  {id: "informer", glossary: "informer",
    en: {names: ["informer", "informers"], def: "A client-side cache of one resource: it lists, then watches, and tells its handlers what changed."},
    zh: {names: ["Informer"], def: "某一种资源在客户端的缓存：先 list、再 watch，并告诉事件处理器发生了什么变化。"}},
  {id: "streaming-list", glossary: "streaming list",
    en: {names: ["streaming list"], def: "A watch with sendInitialEvents=true: the current objects as ADDED events, then a BOOKMARK that marks the end of the list."},
    zh: {names: ["流式列表"], def: "带 sendInitialEvents=true 的 watch：先把当前对象作为 ADDED 事件送来，再送一个 BOOKMARK 标出列表的结尾。"}},
  {id: "list", glossary: "list",
    en: {names: ["list", "LIST"], def: "One request for every object of a resource, answered at one resourceVersion."},
    zh: {names: ["list", "LIST"], def: "一次取回某种资源的全部对象，按同一个资源版本作答。"}},
  {id: "watch", glossary: "watch",
    en: {names: ["watch", "WATCH"], def: "A long-lived request that streams the changes after a resourceVersion."},
    zh: {names: ["watch", "WATCH"], def: "一个长期保持的请求，按顺序送来某个资源版本之后的变化。"}},
  {id: "resourceversion", glossary: "resource version (`resourceVersion`)",
    en: {names: ["resourceVersion", "resource version"], def: "The string the server stamps on every write (rv on this page); a client passes it back to say where it is, and never compares it."},
    zh: {names: ["资源版本", "resourceVersion"], def: "服务器在每次写入时打上的字符串（本页写作 rv）；客户端原样传回，表示自己看到了哪里，从不比较大小。"}},
  {id: "bookmark", glossary: "bookmark",
    en: {names: ["BOOKMARK", "bookmark"], def: "A watch event that carries only a resourceVersion: nothing you watch changed up to it. A Reflector that resumes from it misses nothing."},
    zh: {names: ["书签", "BOOKMARK"], def: "只带资源版本的 watch 事件：到这个版本为止，你 watch 的东西没有变化。从它续接 watch 不会错过什么。"}},
  {id: "relist", glossary: "relist",
    en: {names: ["relist", "lists again"], def: "A new full list after a watch could not resume (410 Expired)."},
    zh: {names: ["重新 list"], def: "watch 无法接着进行（410 Expired）之后，再做一次完整的 list。"}},
  {id: "expired", glossary: "410 Expired",
    en: {names: ["410 Expired", "410"], def: "The answer to a watch from a resourceVersion older than the server's history window: the client must relist. \"too old resource version: 8 (9)\" means: asked to resume from 8, the oldest it can resume from is 9."},
    zh: {names: ["410 Expired", "410"], def: "从比服务器历史窗口更早的资源版本续接 watch 得到的应答：客户端必须重新 list。“too old resource version: 8 (9)” 的意思是：要求从 8 续接，能续接的最早版本是 9。"}},
  {id: "history", glossary: "history window",
    en: {names: ["history window", "window"], def: "The recent events the server keeps: a watch from a resourceVersion inside it resumes and gets the events after it; one from before it gets 410 Expired."},
    zh: {names: ["历史窗口"], def: "服务器保留的最近事件：从窗口内的资源版本开始 watch 能接着收到之后的事件；从更早的版本开始会得到 410 Expired。"}},
  {id: "compaction", glossary: "compaction",
    en: {names: ["compaction", "compacted", "Compact"], def: "The server dropping old history; afterwards an older resourceVersion answers 410 Expired."},
    zh: {names: ["压缩"], def: "服务器丢弃旧的历史，之后更早的资源版本只会得到 410 Expired。"}},
  {id: "reflector", glossary: "Reflector",
    en: {names: ["Reflector"], def: "The part of the informer that lists and watches the server and writes what it learns into the queue (reflector.go)."},
    zh: {names: ["Reflector"], def: "Informer 里负责 list 和 watch 服务器、把得知的变化写进队列的部分（reflector.go）。"}},
  {id: "backoff", glossary: "backoff",
    en: {names: ["backoff", "backs off", "backing off"], def: "The Reflector's wait before it tries again after a failure: 800 ms, doubled after each failure up to 30 s, stretched by up to as much again at random, and back to 800 ms every two minutes. It also waits one backoff after every list/watch cycle."},
    zh: {names: ["退避"], def: "Reflector 失败后再试之前的等待：800 毫秒起，每失败一次翻倍，最多 30 秒，再随机拉长至多一倍；每两分钟回到 800 毫秒。每一轮 list/watch 结束后它也会等一次退避。"}},
  {id: "wire", glossary: "wire / on the wire",
    en: {names: ["wire"], def: "What travels between the informer and the server: the HTTP requests LIST and WATCH, their answers and the watch events."},
    zh: {names: ["网络上传输的内容"], def: "Informer 和服务器之间传输的东西：LIST 和 WATCH 这两种 HTTP 请求、它们的应答和 watch 事件。"}},
  {id: "delta", glossary: "delta",
    en: {names: ["Delta", "delta", "Deltas", "deltas"], def: "One change queued for a key: its type (Added, Updated, Deleted, Replaced, Sync; on the RealFIFO also ReplacedAll, SyncAll, Bookmark) and the object."},
    zh: {names: ["Delta"], def: "为某个键排进队列的一次变化：它的类型（Added、Updated、Deleted、Replaced、Sync；RealFIFO 上还有 ReplacedAll、SyncAll、Bookmark）和对象。"}},
  {id: "deltafifo", glossary: "DeltaFIFO",
    en: {names: ["DeltaFIFO"], def: "client-go ≤1.32's queue: each key waits once, with all its Deltas; one Pop takes a key's whole story."},
    zh: {names: ["DeltaFIFO"], def: "client-go ≤1.32 的队列：每个键只排队一次，带着它所有的 Delta；一次 Pop 取走一个键的整段故事。"}},
  {id: "realfifo", glossary: "RealFIFO",
    en: {names: ["RealFIFO"], def: "client-go v0.37.2's default queue: every notification in the order it came; a relist is one ReplacedAll, a resync one SyncAll."},
    zh: {names: ["RealFIFO"], def: "client-go v0.37.2 默认的队列：每条通知按到达的顺序保留；一次重新 list 是一个 ReplacedAll，一次重新同步是一个 SyncAll。"}},
  {id: "pop", glossary: "Pop, PopBatch",
    en: {names: ["PopBatch", "Pop"], def: "The run loop takes from the queue: Pop takes one key's Deltas (DeltaFIFO) or one delta; PopBatch (RealFIFO) takes a run of deltas of distinct keys, written to the cache in one transaction. A whole-queue delta (ReplacedAll, SyncAll, Bookmark) is popped alone."},
    zh: {names: ["PopBatch", "Pop"], def: "运行循环从队列里取：Pop 取一个键的 Delta（DeltaFIFO）或一个 Delta；PopBatch（RealFIFO）取一串键互不相同的 Delta，在一个事务里写入缓存。整个队列级别的 Delta（ReplacedAll、SyncAll、Bookmark）单独被 Pop。"}},
  {id: "replace", glossary: "Replace, ReplacedAll",
    en: {names: ["ReplacedAll", "Replace"], def: "A list's whole answer, written into the queue at once: on the DeltaFIFO a Replaced delta per key (and a tombstone for each cached key the list lacks); on the RealFIFO one ReplacedAll delta holding the list."},
    zh: {names: ["ReplacedAll", "Replace"], def: "一次 list 的完整应答，一次写进队列：DeltaFIFO 上每个键一个 Replaced Delta（缓存里有、列表里没有的键各一个墓碑）；RealFIFO 上是一个装着整个列表的 ReplacedAll Delta。"}},
  {id: "syncall", glossary: "SyncAll, Sync",
    en: {names: ["SyncAll", "Sync"], def: "A resync's delta: on the RealFIFO one SyncAll for the whole cache, on the DeltaFIFO a Sync delta per key."},
    zh: {names: ["SyncAll", "Sync"], def: "重新同步的 Delta：RealFIFO 上整个缓存一个 SyncAll，DeltaFIFO 上每个键一个 Sync。"}},
  {id: "tombstone", glossary: "tombstone (`DeletedFinalStateUnknown`)",
    en: {names: ["tombstone", "DeletedFinalStateUnknown", "tombstones"], def: "What a relist delivers for a cached object the list lacks: it was deleted while nobody watched, so its final state is unknown."},
    zh: {names: ["墓碑", "DeletedFinalStateUnknown"], def: "重新 list 时，缓存里有而列表里没有的对象送来的就是它：它在没人 watch 的时候被删了，最终状态不得而知。"}},
  {id: "run-loop", glossary: "run loop",
    en: {names: ["run loop"], def: "The informer's loop that Pops the queue and processes each item: the cache first, then the handlers (controller.go)."},
    zh: {names: ["运行循环"], def: "Informer 里从队列 Pop 条目并逐个处理的循环：先写缓存，再通知事件处理器（controller.go）。"}},
  {id: "cache", glossary: "cache",
    en: {names: ["cache"], def: "The informer's local copy of the objects, kept by the Indexer; handlers and listers read it instead of asking the server."},
    zh: {names: ["缓存"], def: "Informer 在本地保存的对象副本，由 Indexer 维护；事件处理器和 Lister 读它，而不去问服务器。"}},
  {id: "indexer", glossary: "indexer",
    en: {names: ["Indexer"], def: "The thread-safe store with indexes that holds the cache (store.go)."},
    zh: {names: ["索引器", "Indexer"], def: "带索引的线程安全存储，缓存就在它里面（store.go）。"}},
  {id: "index", glossary: "index",
    en: {names: ["index"], def: "A function from an object to values, and for each value the keys of its objects (namespace; app, by label here)."},
    zh: {names: ["索引"], def: "从对象算出若干值的函数，以及每个值对应的对象键（这里是 namespace，和按标签的 app）。"}},
  {id: "key", glossary: "key",
    en: {names: ["key", "keys"], def: "What the cache and the queue call an object: namespace/name."},
    zh: {names: ["键"], def: "缓存和队列里一个对象的名字：命名空间/名称。"}},
  {id: "handler", glossary: "event handler",
    en: {names: ["handler", "handlers"], def: "OnAdd, OnUpdate and OnDelete, registered on an informer; each handler has its own buffer and goroutine."},
    zh: {names: ["事件处理器"], def: "注册在 Informer 上的 OnAdd、OnUpdate、OnDelete；每个事件处理器有自己的缓冲区和 goroutine。"}},
  {id: "backlog", glossary: "backlog",
    en: {names: ["backlog"], def: "A handler's calls that the informer has handed over and the handler has not taken yet. Handed over = taken + backlog."},
    zh: {names: ["积压"], def: "Informer 已交给某个事件处理器、它还没取走的调用。已交给 = 已取走 + 积压。"}},
  {id: "resync", glossary: "resync",
    en: {names: ["resync", "Resync"], def: "Every resync period, the informer hands every cached object to its handlers again as an OnUpdate with the same resourceVersion, without asking the server."},
    zh: {names: ["重新同步"], def: "每到重新同步周期，Informer 把缓存里的每个对象以资源版本不变的 OnUpdate 再交给事件处理器一次，不询问服务器。"}},
  {id: "synced", glossary: "synced (`HasSynced`)",
    en: {names: ["synced", "lastSyncResourceVersion"], def: "The informer's first list has reached the cache (HasSynced); lastSyncResourceVersion is the newest resourceVersion it has seen: of a list, an event or a BOOKMARK."},
    zh: {names: ["已同步", "lastSyncResourceVersion"], def: "Informer 的第一次 list 已经进了缓存（HasSynced）；lastSyncResourceVersion 是它见到的最新资源版本：来自 list、事件或 BOOKMARK。"}},
  {id: "step-mode", glossary: "step mode",
    en: {names: ["step mode", "paused"], def: "This page's switch that makes the run loop wait before each Pop: each Pop one item lets exactly one Pop (RealFIFO: one PopBatch) through. A Bookmark passes by itself."},
    zh: {names: ["单步模式", "暂停"], def: "本页的开关：让运行循环在每次 Pop 之前等待；每点一次“Pop 一个条目”恰好放过一次 Pop（RealFIFO：一次 PopBatch）。Bookmark 自行通过。"}},
  {id: "sendinitialevents", glossary: "`sendInitialEvents`",
    en: {names: ["sendInitialEvents"], def: "A watch parameter: send the current objects first, as ADDED events, then a BOOKMARK (a streaming list)."},
    zh: {names: ["sendInitialEvents"], def: "watch 的参数：先把当前对象作为 ADDED 事件送来，再送一个 BOOKMARK（流式列表）。"}},
  {id: "resourceversionmatch", glossary: "`resourceVersionMatch`",
    en: {names: ["resourceVersionMatch"], def: "How a list's resourceVersion is read: NotOlderThan means any state at least as new as it (with no version: the newest)."},
    zh: {names: ["resourceVersionMatch"], def: "list 的资源版本怎么理解：NotOlderThan 表示不比它旧的任何状态（不给版本：最新的状态）。"}},
  {id: "allowwatchbookmarks", glossary: "`allowWatchBookmarks`",
    en: {names: ["allowWatchBookmarks"], def: "A watch parameter: the client takes BOOKMARK events."},
    zh: {names: ["allowWatchBookmarks"], def: "watch 的参数：客户端接受 BOOKMARK 事件。"}},
  {id: "timeoutseconds", glossary: "`timeoutSeconds`",
    en: {names: ["timeoutSeconds"], def: "How long the server keeps a watch open, in seconds. The Reflector draws it at random between 5 and 10 minutes for each watch, so that many clients do not all watch again at once."},
    zh: {names: ["timeoutSeconds"], def: "服务器把一个 watch 保持多久，单位秒。Reflector 为每个 watch 在 5 到 10 分钟之间随机取值，免得许多客户端同时重新 watch。"}},
  {id: "limit", glossary: "`limit`",
    en: {names: ["limit"], def: "A list parameter: at most this many objects per answer (a page; the rest come with a continue token). client-go's Reflector asks for 500."},
    zh: {names: ["limit"], def: "list 的参数：每个应答最多这么多个对象（一页；其余的凭 continue 令牌再取）。client-go 的 Reflector 要 500 个。"}},
];

// termById finds a term.
function termById(id) { return TERMS.find(x => x.id === id); }

// termDef is a term's meaning in the reader's language.
function termDef(id) { const x = termById(id); return x ? (x[lang] || x.en).def : ""; }

// termPattern matches a term's names as whole words (a Chinese name
// anywhere).
function termPattern(x) {
  const names = [...new Set([...x.en.names, ...x.zh.names])].sort((a, b) => b.length - a.length);
  const esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A Chinese name is not one that another term's longer name begins with (索引, 索引器).
  const longer = n => TERMS.flatMap(y => y === x ? [] : y.zh.names).filter(m => m.length > n.length && m.startsWith(n)).map(m => esc(m.slice(n.length)));
  const one = n => /^[\x00-\x7f]+$/.test(n) ? "(?<![\\w-])" + esc(n) + "(?![\\w-])"
    : esc(n) + (longer(n).length ? "(?!" + longer(n).join("|") + ")" : "");
  return new RegExp(names.map(one).join("|"));
}
const termPatterns = new Map();

// linkTerms links, in element, the first mention of each term (in text
// outside links) to its entry; longer names first, so that "streaming
// list" is one term, not "list".
function linkTerms(element) {
  const order = TERMS.slice().sort((a, b) => Math.max(...b.en.names.map(n => n.length)) - Math.max(...a.en.names.map(n => n.length)));
  for (const x of order) {
    if (!termPatterns.has(x.id)) termPatterns.set(x.id, termPattern(x));
    const re = termPatterns.get(x.id);
    const walk = document.createTreeWalker(element, NodeFilter.SHOW_TEXT,
      {acceptNode: n => n.parentElement.closest("a") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const m = re.exec(n.data);
      if (!m) continue;
      const rest = n.splitText(m.index);
      rest.splitText(m[0].length);
      const a = h("a", {class: "term", href: "#term-" + x.id, title: termDef(x.id)});
      rest.replaceWith(a);
      a.append(rest);
      break;
    }
  }
  return element;
}

// linkedHTML sets element's HTML and links its terms.
function linkedHTML(element, html) {
  element.innerHTML = html;
  return linkTerms(element);
}

// renderTerms fills the Terms section.
function renderTerms() {
  fill("terms-list", TERMS.flatMap(x => [
    h("dt", {id: "term-" + x.id, tabindex: "-1"}, (x[lang] || x.en).names[0]),
    h("dd", {}, termDef(x.id))]));
}

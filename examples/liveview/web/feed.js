// feed.js keeps the live view's feed: every entry the program logged,
// oldest at the top, read top-down in time order. New entries are appended
// at the bottom; the list follows them only while the reader is at the
// bottom, so it never moves under a reader who scrolled up. Entries are
// appended, not re-rendered, so text stays selectable.
"use strict";

const feed = [];      // the entries shown, oldest first
let lastSeq = 0;      // the newest entry's number
const maxFeed = 400;  // entries kept on the page
let following = true; // the reader is at the bottom: new entries scroll into view
let autoTop = 0;      // where the feed last scrolled itself to

// feedLine renders one entry.
function feedLine(e) {
  let detail = explain410(e.msg ? say(e) : (e.text || ""));
  if (e.note && detail.endsWith(" " + e.note)) detail = detail.slice(0, -e.note.length - 1); // shown translated below
  return h("li", {class: "panel-" + e.panel, "data-seq": e.seq},
    h("span", {class: "muted"}, e.at + " "),
    h("span", {class: "muted"}, "[" + t("p." + e.panel).split(/[:：]/)[0] + "] "),
    h("span", {class: "t " + e.kind}, word(e.kind)), " ",
    e.key ? h("span", {class: "k"}, e.key) : "", e.rv ? " " : "", rvSpan(e.rv),
    detail ? " " + detail : "", e.note ? " (" + word(e.note) + ")" : "");
}

function atBottom(list) { return list.scrollHeight - list.scrollTop - list.clientHeight < 8; }

function showFollow() {
  setText("feed-follow", t(following ? "feed.follow" : "feed.held"), "pill " + (following ? "ok" : "warn"));
}

// renderFeed draws the whole feed again (on a language change).
function renderFeed() {
  const list = byId("feed");
  const top = list.scrollTop;
  list.replaceChildren(...feed.map(feedLine));
  list.scrollTop = following ? list.scrollHeight : top;
  autoTop = list.scrollTop;
  showFollow();
}

function resetFeed() {
  feed.length = 0;
  lastSeq = 0;
  byId("feed").replaceChildren();
}

// onLog appends new entries; an entry seen before (a stream that
// reconnected, another tab's catch-up) is skipped.
function onLog(entries) {
  const list = byId("feed");
  // The reader's scroll event may not have come yet: decide from where the list is now.
  if (atBottom(list)) following = true; // the reader reached the end meanwhile
  else if (following && list.scrollTop < autoTop - 2) following = false; // the reader scrolled up meanwhile
  const lines = [];
  for (const e of entries) {
    if (e.seq <= lastSeq) continue;
    lastSeq = e.seq;
    feed.push(e);
    lines.push(feedLine(e));
    if ((e.kind === "Pop" || e.kind === "PopBatch") && e.keys) for (const k of e.keys) hot.set(k, e.ms + 2500);
    onGuideLog(e);
  }
  const now = Date.now();
  for (const [k, until] of hot) if (until < now) hot.delete(k); // bounded: only keys popped in the last seconds
  list.append(...lines);
  const drop = feed.length - maxFeed;
  if (drop > 0) { // the oldest go; a held reader keeps the line it reads
    const before = list.scrollHeight;
    feed.splice(0, drop);
    for (let i = 0; i < drop; i++) list.firstElementChild.remove();
    if (!following) list.scrollTop -= before - list.scrollHeight;
  }
  if (following) list.scrollTop = list.scrollHeight;
  autoTop = list.scrollTop;
  showFollow();
}

// Only the reader decides whether the feed follows: scrolled to the end,
// it follows; scrolled up, it holds. A change of layout (a narrower window
// wraps more lines) keeps a follower at the end.
byId("feed").addEventListener("scroll", () => {
  const list = byId("feed");
  if (atBottom(list)) following = true;
  else if (list.scrollTop < autoTop - 2) following = false;
  autoTop = list.scrollTop;
  showFollow();
});
new ResizeObserver(() => {
  const list = byId("feed");
  if (following) autoTop = list.scrollTop = list.scrollHeight;
}).observe(byId("feed"));

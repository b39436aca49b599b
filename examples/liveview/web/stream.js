// stream.js: one stream of the program's feed for every tab of the page.
// A browser opens at most six HTTP/1.1 connections to one host, and an
// event stream keeps one for as long as its tab is open: with a stream per
// tab, a seventh tab would wait for a connection, and so would every
// button of every tab. So one tab, the leader, opens /events and hands
// what comes to the other tabs of the same address over a BroadcastChannel.
// The leader is the tab that holds the Web Lock "liveview-stream"; when it
// closes, the lock passes to another tab, which opens the stream in turn.
// The program sends a new stream the entries it keeps, and every tab skips
// the entries it already has, by number (feed.js), so nothing is shown
// twice. A tab that joins asks for what the leader has ("hello"). The
// buttons post their own short requests, which always find a connection.
"use strict";

const streamChannel = "BroadcastChannel" in self ? new BroadcastChannel("liveview") : null;
let leading = false;      // this tab holds the stream
let shared = null;        // what a joining tab needs: the newest state, the connection
let onStream = () => {};  // receives every message, in order

// openStream starts receiving: receive gets {type: "state", state},
// {type: "log", entries} and {type: "conn", conn, at} messages.
function openStream(receive) {
  onStream = receive;
  if (!navigator.locks || !streamChannel) { lead(false); return; } // an older browser: a stream per tab
  streamChannel.addEventListener("message", ev => {
    const m = ev.data;
    if (m.type === "hello") { if (leading && shared) streamChannel.postMessage(helloAnswer()); return; }
    onStream(m);
  });
  navigator.locks.request("liveview-stream", () => { lead(true); return new Promise(() => {}); }); // held until the tab closes
  streamChannel.postMessage({type: "hello"});
}

// helloAnswer is what a joining tab needs to catch up: the connection, the
// newest state, and the feed entries this tab keeps (feed.js).
function helloAnswer() { return {type: "sync", conn: shared.conn, at: shared.at, state: shared.state, entries: feed.slice()}; }

// lead opens the stream and, when broadcast, hands every message on.
function lead(broadcast) {
  leading = true;
  shared = {conn: "connecting", at: 0, state: null};
  const pass = m => {
    if (m.type === "state") shared.state = m.state;
    if (m.type === "conn") Object.assign(shared, {conn: m.conn, at: m.at});
    onStream(m);
    if (broadcast) streamChannel.postMessage(m);
  };
  const es = new EventSource("events");
  es.addEventListener("open", () => pass({type: "conn", conn: "connected", at: Date.now()}));
  es.addEventListener("state", ev => pass({type: "state", state: JSON.parse(ev.data)}));
  es.addEventListener("log", ev => pass({type: "log", entries: JSON.parse(ev.data)}));
  es.addEventListener("error", () => pass({type: "conn", conn: "disconnected", at: Date.now()}));
}

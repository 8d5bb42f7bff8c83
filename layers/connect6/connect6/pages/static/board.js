// Keeps the spectator page current without reloading it: polls the same URL for the game view
// (Accept: application/json, If-None-Match), and when the game changed fetches the page once and
// swaps the live section in place. Stops when the game is over. No framework, no external calls.
(function () {
  "use strict";
  var POLL_MS = 2500, MAX_MS = 30000, FINAL = { completed: true, draw: true };
  var live = document.getElementById("live-state");
  var view = readView(document);
  var etag = null, timer = null, failures = 0, busy = false;

  function readView(doc) {
    var el = doc.getElementById("c6-view");
    return el ? JSON.parse(el.textContent) : {};
  }
  function fingerprint(v) {
    return JSON.stringify([v.status, v.move_count, v.stones_placed, v.updated_at, v.seats, v.to_move]);
  }
  function say(text, state) {
    if (!live) { return; }
    live.textContent = text;
    live.className = "live" + (state ? " " + state : "");
  }
  function url() { return location.pathname + location.search; }
  function schedule(ms) { clearTimeout(timer); timer = setTimeout(poll, ms); }
  function finished() { return FINAL[view.status] === true; }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("live");
    var current = document.getElementById("live");
    if (!fresh || !current) { throw new Error("page without a live section"); }
    current.replaceWith(document.importNode(fresh, true));
    view = readView(doc);
    var data = document.getElementById("c6-view");
    var freshData = doc.getElementById("c6-view");
    if (data && freshData) { data.textContent = freshData.textContent; }
    document.title = doc.title;
  }

  function poll() {
    if (finished()) { return stop(); }
    if (document.hidden || busy) { return; }
    busy = true;
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url(), { headers: headers, cache: "no-store" })
      .then(function (r) {
        if (r.status === 304) { return null; }
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (next) {
        if (!next || fingerprint(next) === fingerprint(view)) { return null; }
        return fetch(url(), { headers: { "Accept": "text/html" }, cache: "no-store" })
          .then(function (r) {
            if (!r.ok) { throw new Error("HTTP " + r.status); }
            return r.text();
          })
          .then(swap);
      })
      .then(function () {
        busy = false; failures = 0;
        if (finished()) { return stop(); }
        say("Live: this page updates itself", "");
        schedule(POLL_MS);
      })
      .catch(function () {
        busy = false; failures += 1;
        say("Connection lost, retrying…", "paused");
        schedule(Math.min(MAX_MS, POLL_MS * Math.pow(2, failures)));
      });
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    say("Game over: final position", "done");
    document.documentElement.setAttribute("data-polling", "stopped");
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !finished()) { schedule(0); }
  });
  if (finished()) { stop(); } else {
    document.documentElement.setAttribute("data-polling", "on");
    schedule(POLL_MS);
  }
})();

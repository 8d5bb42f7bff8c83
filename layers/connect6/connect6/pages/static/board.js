// Keeps the spectator page current without reloading it: polls the same URL for the game view
// (Accept: application/json, If-None-Match), and when the game changed fetches the page once and
// swaps the live section in place. Stops when the game is over. No framework, no external calls.
//
// Replay: the stones carry data-move (the move that placed them); showing move N hides the later
// ones, moves the last-move dots and hides the winning line until the final move. A reader looking
// at an earlier move stays there when the game moves on (the page says so); one at the latest
// move follows the game.
//
// Clock (v1.2): a timed game's #clock carries the mover's deadline (data-deadline); what is left of
// it is counted down here between polls. A pause, a new deadline or the end of the game changes
// the fingerprint, and the page is fetched again; a cancelled game is over like a finished one.
(function () {
  "use strict";
  var POLL_MS = 2500, MAX_MS = 30000, FINAL = { completed: true, draw: true, cancelled: true };
  var SVG_NS = "http://www.w3.org/2000/svg";
  var live = document.getElementById("live-state");
  var view = readView(document);
  var etag = null, timer = null, failures = 0, busy = false;
  var at = null; // the move shown; null: the latest (follow the game)
  var seen = 0; // the number of moves when the reader last chose a move

  function readView(doc) {
    var el = doc.getElementById("c6-view");
    return el ? JSON.parse(el.textContent) : {};
  }
  function readMoves() {
    var box = document.getElementById("replay");
    return box ? JSON.parse(box.getAttribute("data-moves") || "[]") : [];
  }
  function fingerprint(v) {
    var deadline = v.clock ? v.clock.deadline : null;
    return JSON.stringify([v.status, v.move_count, v.stones_placed, v.updated_at, v.seats, v.to_move,
      v.paused === true, v.end_reason, deadline]);
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function duration(seconds) {
    var s = Math.floor(seconds);
    if (!(s > 0)) { return "no time"; }
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) { return plural(d, "day") + (h ? " " + plural(h, "hour") : ""); }
    if (h) { return plural(h, "hour") + (m ? " " + plural(m, "minute") : ""); }
    return m ? plural(m, "minute") : "less than a minute";
  }
  function tick() { // the mover's time left: the service's now (data-now) plus the time since shown
    var clock = document.getElementById("clock"), left = document.getElementById("clock-left");
    if (!clock || !left) { return; }
    if (!clock.c6Shown) { clock.c6Shown = Date.now(); } // this machine's clock only measures time passed
    var deadline = Date.parse(clock.getAttribute("data-deadline") || "");
    var now = Date.parse(clock.getAttribute("data-now") || "") + (Date.now() - clock.c6Shown);
    if (!isNaN(deadline) && !isNaN(now)) { left.textContent = duration((deadline - now) / 1000); }
  }
  function say(text, state) {
    if (!live) { return; }
    live.textContent = text;
    live.className = "live" + (state ? " " + state : "");
  }
  function url() { return location.pathname + location.search; }
  function schedule(ms) { clearTimeout(timer); timer = setTimeout(poll, ms); }
  function finished() { return FINAL[view.status] === true; }

  // ------------------------------------------------------------------ replay
  function total() {
    var box = document.getElementById("replay");
    return box ? parseInt(box.getAttribute("data-total"), 10) || 0 : 0;
  }
  function byId(id) { return document.getElementById(id); }

  function lastMarks(board, stones) {
    Array.prototype.forEach.call(board.querySelectorAll(".replay-mark"), function (m) { m.remove(); });
    stones.forEach(function (point) {
      var stone = board.querySelector('circle.stone[data-point="' + point + '"]');
      if (!stone) { return; }
      var dot = document.createElementNS(SVG_NS, "circle");
      dot.setAttribute("class", "last-mark replay-mark");
      dot.setAttribute("data-point", point);
      dot.setAttribute("cx", stone.getAttribute("cx"));
      dot.setAttribute("cy", stone.getAttribute("cy"));
      dot.setAttribute("r", "6");
      dot.setAttribute("fill", "#e0312b");
      dot.setAttribute("stroke", "#fff");
      dot.setAttribute("stroke-width", "1.5");
      board.appendChild(dot);
    });
  }

  function show(n) {
    var count = total();
    var box = byId("replay");
    var board = document.querySelector("#live svg.c6-board");
    if (!box || !board) { return; }
    box.hidden = false;
    var shown = (n === null || n >= count) ? count : Math.max(0, n);
    at = shown >= count && n === null ? null : shown;
    var latest = shown === count;
    Array.prototype.forEach.call(board.querySelectorAll("[data-move]"), function (el) {
      el.classList.toggle("future", parseInt(el.getAttribute("data-move"), 10) > shown);
    });
    Array.prototype.forEach.call(board.querySelectorAll(".win-mark, .winning-band, .last-mark"),
      function (el) {
        if (!el.classList.contains("replay-mark")) { el.classList.toggle("future", !latest); }
      });
    var move = readMoves()[shown - 1];
    lastMarks(board, latest || !move ? [] : move.stones);
    board.setAttribute("data-showing", String(shown));
    byId("rp-at").textContent = shown === 0 ? "Empty board (move 0 of " + count + ")"
      : "Move " + shown + " of " + count;
    var slider = byId("rp-slider");
    slider.max = String(count);
    slider.value = String(shown);
    byId("rp-first").disabled = byId("rp-back").disabled = shown === 0;
    byId("rp-forward").disabled = byId("rp-last").disabled = latest;
    var behind = byId("rp-behind");
    behind.hidden = latest;
    if (!latest) {
      byId("rp-behind-text").textContent = count > seen
        ? "The game has moved on: move " + count + " is the latest."
        : "You are looking at move " + shown + "; the game " + (finished() ? "ended at" : "is at")
          + " move " + count + ".";
    }
    document.documentElement.setAttribute("data-replay", latest ? "latest" : "earlier");
  }
  function go(n) { seen = total(); show(n >= total() ? null : n); }
  function current() { return at === null ? total() : at; }

  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest ? event.target.closest("button") : null;
    if (!target || !target.id) { return; }
    var actions = {
      "rp-first": function () { go(0); },
      "rp-back": function () { go(current() - 1); },
      "rp-forward": function () { go(current() + 1); },
      "rp-last": function () { go(total()); },
      "rp-latest": function () { go(total()); }
    };
    if (actions[target.id]) { actions[target.id](); }
  });
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "rp-slider") { go(parseInt(event.target.value, 10) || 0); }
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "rp-numbers") {
      document.documentElement.classList.toggle("show-numbers", event.target.checked);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (!byId("replay") || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" && event.target.type !== "checkbox") { return; } // the slider steps itself
    if (tag === "TEXTAREA" || tag === "SELECT") { return; }
    var keys = {
      ArrowLeft: function () { go(current() - 1); },
      ArrowRight: function () { go(current() + 1); },
      Home: function () { go(0); },
      End: function () { go(total()); }
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });

  // ------------------------------------------------------------------ live polling
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
    var numbers = byId("rp-numbers");
    if (numbers) { numbers.checked = document.documentElement.classList.contains("show-numbers"); }
    show(at); // a reader at an earlier move stays there
    tick();
  }

  function poll() {
    if (finished()) { return stop(); }
    tick();
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

  seen = total();
  show(null);
  tick();
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !finished()) { schedule(0); }
  });
  if (finished()) { stop(); } else {
    document.documentElement.setAttribute("data-polling", "on");
    schedule(POLL_MS);
  }
})();

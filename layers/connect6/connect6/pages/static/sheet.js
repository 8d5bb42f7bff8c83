// The move sheet's board. A tap (or click) on a free point places a pending stone, a second tap
// takes it back; the typed fields (stone_1, stone_2) follow the board, and the board follows what
// is typed. "Send move" is enabled once the turn's stones are placed and sends the form: that
// press is the confirmation. Arrow keys move between points, Enter or Space places or takes back.
// Without this script the form works as it is, by typing. No framework, no external calls.
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var data = document.getElementById("c6-sheet");
  var form = document.getElementById("move-form");
  var board = document.querySelector(".sheet-board svg.c6-board");
  var layer = board ? board.querySelector("g.points") : null;
  if (!data || !form || !layer) { return; }
  var state = JSON.parse(data.textContent);
  var need = state.stones_to_place;
  var inputs = ["stone_1", "stone_2"].map(function (name) {
    return form.elements.namedItem(name);
  }).filter(Boolean).slice(0, need);
  var send = document.getElementById("send");
  var summary = document.getElementById("summary");
  var cells = Array.prototype.slice.call(layer.querySelectorAll("rect.pt"));
  var byPoint = {}, grid = {};
  cells.forEach(function (cell) {
    byPoint[cell.getAttribute("data-point")] = cell;
    grid[cell.getAttribute("data-col") + ":" + cell.getAttribute("data-row")] = cell;
  });
  var pending = [];
  var marks = document.createElementNS(SVG_NS, "g");
  marks.setAttribute("class", "pending");
  board.insertBefore(marks, layer);
  document.documentElement.classList.add("js");

  function say(text) { if (summary) { summary.textContent = text; } }
  function free(label) { var c = byPoint[label]; return c && !c.hasAttribute("data-taken"); }
  function plural(n) { return n === 1 ? "1 stone" : n + " stones"; }
  function normal(value) { return (value || "").trim().toLowerCase(); }

  function draw(fillInputs) {
    while (marks.firstChild) { marks.removeChild(marks.firstChild); }
    cells.forEach(function (cell) {
      if (!cell.hasAttribute("data-taken")) { cell.setAttribute("aria-pressed", "false"); }
    });
    pending.forEach(function (label, i) {
      var cell = byPoint[label];
      var size = parseFloat(cell.getAttribute("width"));
      var cx = parseFloat(cell.getAttribute("x")) + size / 2, cy = parseFloat(cell.getAttribute("y")) + size / 2;
      var stone = document.createElementNS(SVG_NS, "circle");
      stone.setAttribute("class", "pending-stone " + state.colour);
      stone.setAttribute("data-point", label);
      stone.setAttribute("cx", cx);
      stone.setAttribute("cy", cy);
      stone.setAttribute("r", size * 0.46);
      stone.setAttribute("fill", "url(#c6-" + state.colour + ")");
      marks.appendChild(stone);
      var number = document.createElementNS(SVG_NS, "text");
      number.setAttribute("class", "pending-number");
      number.setAttribute("x", cx);
      number.setAttribute("y", cy + 6);
      number.setAttribute("text-anchor", "middle");
      number.setAttribute("font-size", "17");
      number.setAttribute("font-weight", "700");
      number.setAttribute("fill", state.colour === "black" ? "#fff" : "#1b1b1b");
      number.textContent = String(i + 1);
      marks.appendChild(number);
      cell.setAttribute("aria-pressed", "true");
    });
    if (fillInputs) {
      inputs.forEach(function (input, i) { input.value = pending[i] || ""; });
    }
    var done = pending.length === need;
    if (send) {
      send.disabled = !done;
      send.textContent = done ? "Send move" : "Place " + plural(need - pending.length);
    }
    if (done) {
      say("Your move " + state.move_number + ": " + pending.join(" and ") +
          ". Press \u201cSend move\u201d to send it, or tap a stone to take it back.");
    } else if (pending.length) {
      say("Placed " + pending.join(", ") + ". Tap one more point, or tap the stone to take it back.");
    } else {
      say("Tap a free point to place " + (need === 1 ? "your stone." : "your " + plural(need) + "."));
    }
  }

  function toggle(label) {
    if (!byPoint[label]) { return; }
    if (!free(label)) { say(label + " is taken."); return; }
    var at = pending.indexOf(label);
    if (at >= 0) {
      pending.splice(at, 1);
    } else if (pending.length < need) {
      pending.push(label);
    } else {
      say("All your stones are placed: tap one to take it back, or send the move.");
      return;
    }
    draw(true);
  }

  function fromInputs() {
    pending = [];
    inputs.forEach(function (input) {
      var label = normal(input.value);
      if (free(label) && pending.indexOf(label) < 0) { pending.push(label); }
    });
    draw(false);
  }

  // Roving focus: one point is in the tab order; the arrows move it.
  var focused = null;
  function focusCell(cell) {
    if (focused) { focused.setAttribute("tabindex", "-1"); }
    focused = cell;
    cell.setAttribute("tabindex", "0");
    cell.focus();
  }

  layer.removeAttribute("aria-hidden");
  layer.setAttribute("role", "group");
  layer.setAttribute("aria-label", "Points of the board: Enter places or takes back a stone");
  cells.forEach(function (cell) {
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", "-1");
    if (cell.hasAttribute("data-taken")) { cell.setAttribute("aria-disabled", "true"); }
  });
  var middle = Math.floor(state.size / 2);
  focused = grid[middle + ":" + middle] || cells[0];
  focused.setAttribute("tabindex", "0");

  layer.addEventListener("click", function (event) {
    var cell = event.target.closest ? event.target.closest("rect.pt") : null;
    if (!cell) { return; }
    if (focused !== cell) { if (focused) { focused.setAttribute("tabindex", "-1"); } focused = cell; cell.setAttribute("tabindex", "0"); }
    toggle(cell.getAttribute("data-point"));
  });
  var STEP = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  layer.addEventListener("keydown", function (event) {
    var cell = event.target;
    if (!cell.getAttribute || !cell.hasAttribute("data-point")) { return; }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle(cell.getAttribute("data-point"));
      return;
    }
    var step = STEP[event.key];
    if (!step) { return; }
    event.preventDefault();
    var col = parseInt(cell.getAttribute("data-col"), 10) + step[0];
    var row = parseInt(cell.getAttribute("data-row"), 10) + step[1];
    var next = grid[col + ":" + row];
    if (next) { focusCell(next); }
  });
  inputs.forEach(function (input) { input.addEventListener("input", fromInputs); });
  form.addEventListener("submit", function (event) {
    var by = event.submitter;
    if (by && by.name === "action") { return; }
    if (send) { send.textContent = "Sending\u2026"; }
  });
  fromInputs();
}());

// The game viewer: steps through the frames of one game, action by action.
// Self-contained (no network); the frames are inline JSON in the page.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var CELL = 40, MARGIN = 24, SIZE = 12;
  var frames = JSON.parse(document.getElementById("frames").textContent);
  // side lines (the record's variations) and the marks in words (pbem/render/annotations.py)
  var annotations = JSON.parse(document.getElementById("lines").textContent);
  var mainFrames = frames, line = null, stack = [];
  // the game's pieces: frame character -> [side, shape, name, facing] (Game.frame_legend)
  var legend = JSON.parse(document.getElementById("pieces").textContent);
  // the game's words for its pieces and Realms (pbem/render/board_words.py: viewer_words)
  var words = JSON.parse(document.getElementById("words").textContent);
  var board = document.getElementById("board");
  // the colours of pbem/render/board_svg.py, so the viewer looks like the SVG boards
  var NEUTRAL = "#f6f4ee", WHITE_TINT = "#f5e2a0", BLACK_TINT = "#c3cfe0", HATCH = "#7f91ab";
  var ACCENT = "#a83208", INK = "#222222";
  var current = 0, flipped = false;

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function xy(sq) {
    var f = sq % SIZE, r = Math.floor(sq / SIZE);
    if (flipped) { f = SIZE - 1 - f; r = SIZE - 1 - r; }
    return [MARGIN + f * CELL, MARGIN + (SIZE - 1 - r) * CELL];
  }
  function isCenter(sq) {
    return sq % SIZE % 3 === 1 && Math.floor(sq / SIZE) % 3 === 1;
  }
  function realmOf(sq) {
    var f = sq % SIZE, r = Math.floor(sq / SIZE);
    return Math.floor(r / 3) * 4 + Math.floor(f / 3);
  }

  function drawPiece(g, ch, sq) {
    var p = xy(sq);
    pieceAt(g, ch, p[0] + CELL / 2, p[1] + CELL / 2);
  }
  function pieceAt(g, ch, cx, cy) {
    var info = legend[ch] || ["white", "disc", "piece", null];
    var white = info[0] === "white", shape = info[1], facing = info[3];
    var dot = [cx, cy];  // Black's pieces carry a light dot: the sides differ by a mark too
    var fill = white ? "#ffffff" : INK, stroke = white ? INK : "#f0f0f0";
    var common = {fill: fill, stroke: stroke, "stroke-width": 2, "class": "piece " + info[0],
                  "data-name": info[2]};
    common["data-piece"] = info[2].toLowerCase();
    if (shape === "square") {
      common.x = cx - 12; common.y = cy - 12; common.width = 24; common.height = 24;
      el("rect", common, g);
    } else if (shape === "diamond") {
      common.points = cx + "," + (cy - 14) + " " + (cx + 14) + "," + cy + " " + cx + "," +
        (cy + 14) + " " + (cx - 14) + "," + cy;
      el("polygon", common, g);
    } else if (shape === "triangle") {
      var f = facing || "N";
      var angle = {N: 0, E: 90, S: 180, W: 270, U: 0}[flipped && f !== "U" ? {N: "S", S: "N", E: "W", W: "E"}[f] : f];
      common.points = (cx) + "," + (cy - 14) + " " + (cx + 12) + "," + (cy + 10) + " " + (cx - 12) + "," + (cy + 10);
      common.transform = "rotate(" + angle + " " + cx + " " + cy + ")";
      var rad = angle * Math.PI / 180;  // the triangle's middle, a little behind the square's
      dot = [cx - 2 * Math.sin(rad), cy + 2 * Math.cos(rad)];
      if (f === "U") { common["data-piece"] = "immobilised"; }
      el("polygon", common, g);
      if (f === "U") {  // immobilised: standing on a bar (by shape, not colour alone)
        el("rect", {x: cx - 13, y: cy + 12, width: 26, height: 4, fill: fill, stroke: stroke,
                    "stroke-width": 1.5, "class": "immobilised-mark"}, g);
      }
    } else {  // "disc", and any shape this viewer does not know
      common.cx = cx; common.cy = cy; common.r = 12;
      el("circle", common, g);
      if (shape === "crown") {  // a ring inside marks the game's leading piece
        el("circle", {cx: cx, cy: cy, r: 6, fill: "none", stroke: stroke, "stroke-width": 2,
                      "class": "crown-mark"}, g);
      }
    }
    if (!white) {
      el("circle", {cx: dot[0], cy: dot[1], r: 3.4, fill: "#f0f0f0", stroke: "none",
                    "class": "side-mark"}, g);
    }
  }

  // the board in words, Realm by Realm, as board_words.BoardWords.lines() says it
  function joinWords(parts) {
    if (parts.length <= 1) { return parts.join(""); }
    return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
  }
  function boardLines(f) {
    var per = words.realms.map(function () { return {w: [], b: []}; });
    for (var sq = 0; sq < SIZE * SIZE; sq++) {
      var ch = f.b.charAt(sq);
      if (ch === ".") { continue; }
      var info = legend[ch] || ["white"], phrase = words.pieces[ch] || "a piece on {sq}";
      var name = "abcdefghijkl".charAt(sq % SIZE) + String(Math.floor(sq / SIZE) + 1);
      per[realmOf(sq)][info[0] === "white" ? "w" : "b"].push(phrase.replace("{sq}", name));
    }
    var lines = [], empty = [];
    words.realms.forEach(function (centre, r) {
      var sides = [];
      ["w", "b"].forEach(function (s) {
        if (per[r][s].length) { sides.push(words.sides[s] + " has " + joinWords(per[r][s])); }
      });
      if (!sides.length) { empty.push(centre); return; }
      var owner = (f.r || "").charAt(r), held = "";
      if (owner === "w" || owner === "b") { held = ", held by " + words.sides[owner]; }
      lines.push("The " + centre + " Realm" + held + ": " + sides.join("; ") + ".");
    });
    if (empty.length && lines.length) {
      lines.push("No pieces in the " + joinWords(empty) + " Realm" + (empty.length > 1 ? "s" : "") + ".");
    }
    if (!lines.length) { lines.push("The board is empty."); }
    if (f.o && (f.o[0] || f.o[1])) {
      lines.push("Off the board: " + words.sides.w + " " + f.o[0] + ", " + words.sides.b + " " + f.o[1] + ".");
    }
    return lines;
  }
  function describeBoard(f) {
    var list = document.getElementById("board-words");
    if (!list) { return; }
    while (list.firstChild) { list.removeChild(list.firstChild); }
    boardLines(f).forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
  }

  // the legend's pieces: this game's own (Game.frame_legend), one line per kind, White's
  function drawLegend() {
    var list = document.getElementById("legend-pieces");
    if (!list) { return; }
    var seen = {};
    Object.keys(legend).sort().forEach(function (ch) {
      var info = legend[ch];
      if (info[0] !== "white") { return; }
      var stuck = info[3] === "U", key = info[2] + (stuck ? " immobilised" : "");
      if (seen[key]) { return; }
      seen[key] = true;
      var item = document.createElement("li");
      var pic = el("svg", {viewBox: "0 0 40 40", width: 24, height: 24, "aria-hidden": "true"}, item);
      pieceAt(pic, ch, 20, stuck ? 18 : 20);
      var words = stuck ? "immobilised " + info[2] + " (on a bar)" : info[2];
      if (info[1] === "triangle" && !stuck) { words += ", pointing the way it faces"; }
      item.appendChild(document.createTextNode(" " + words));
      item.setAttribute("data-piece", key.toLowerCase());
      list.appendChild(item);
    });
  }

  // pieces moved off the board (Medieval), in a strip right of it as the SVG boards
  // draw them: a disc per piece, White's from the top, Black's from the bottom (the edge
  // each leaves by; the other way round when flipped), and the count
  var STRIP = 2 * CELL, VIEW = 2 * MARGIN + SIZE * CELL;
  function drawOff(counts) {
    var g = el("g", {id: "off-board", "font-size": 11, "text-anchor": "middle"}, board);
    var x = VIEW + STRIP / 2 - MARGIN / 2;
    ["white", "black"].forEach(function (key, i) {  // the SVG's classes: "off white"
      var n = counts[i], top = (key === "white") !== flipped, sign = top ? 1 : -1;
      var y = top ? MARGIN + 12 : VIEW - MARGIN - 12;
      var pile = el("g", {"class": "off " + key, "data-count": n,
                          fill: key === "white" ? "#ffffff" : INK,
                          stroke: key === "white" ? INK : "#f0f0f0"}, g);
      for (var k = 0; k < n; k++) {
        el("circle", {cx: x, cy: y + sign * (16 + k * 14), r: 6}, pile);
        if (key === "black") {
          el("circle", {cx: x, cy: y + sign * (16 + k * 14), r: 2, fill: "#f0f0f0",
                        stroke: "none", "class": "side-mark"}, pile);
        }
      }
      el("text", {x: x, y: y + 4, fill: INK}, g).textContent = "off " + n;
    });
  }

  function draw() {
    var f = frames[current];
    while (board.firstChild) { board.removeChild(board.firstChild); }
    var defs = el("defs", {}, board);
    var m = el("marker", {id: "arrowhead", markerWidth: 8, markerHeight: 8, refX: 6, refY: 4,
                          orient: "auto"}, defs);
    el("path", {d: "M0,0 L8,4 L0,8 z", fill: ACCENT}, m);
    var hatch = el("pattern", {id: "hatch-black", width: 8, height: 8,
                               patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"}, defs);
    el("rect", {x: 0, y: 0, width: 8, height: 8, fill: BLACK_TINT}, hatch);
    el("line", {x1: 0, y1: 0, x2: 0, y2: 8, stroke: HATCH, "stroke-width": 2}, hatch);
    var g = el("g", {"class": "squares"}, board);
    for (var sq = 0; sq < SIZE * SIZE; sq++) {
      var p = xy(sq), owner = (f.r || "").charAt(realmOf(sq)), tint = NEUTRAL;
      if (owner === "w") { tint = WHITE_TINT; } else if (owner === "b") { tint = "url(#hatch-black)"; }
      el("rect", {x: p[0], y: p[1], width: CELL, height: CELL, fill: tint, stroke: "#b9b0a0",
                  "stroke-width": 0.5, "class": "square"}, g);
      if (isCenter(sq)) {
        el("circle", {cx: p[0] + CELL / 2, cy: p[1] + CELL / 2, r: 17, fill: "none",
                      stroke: "#7a6a50", "stroke-width": 1.2, "class": "center"}, g);
      }
    }
    for (var i = 0; i <= SIZE; i += 3) {  // Realm borders
      el("line", {x1: MARGIN + i * CELL, y1: MARGIN, x2: MARGIN + i * CELL, y2: MARGIN + SIZE * CELL,
                  stroke: "#3a3020", "stroke-width": 2.5}, g);
      el("line", {x1: MARGIN, y1: MARGIN + i * CELL, x2: MARGIN + SIZE * CELL, y2: MARGIN + i * CELL,
                  stroke: "#3a3020", "stroke-width": 2.5}, g);
    }
    for (var k = 0; k < SIZE; k++) {
      var file = flipped ? SIZE - 1 - k : k, rank = flipped ? k + 1 : SIZE - k;
      el("text", {x: MARGIN + k * CELL + CELL / 2, y: MARGIN - 8, "text-anchor": "middle",
                  "font-size": 12}, g).textContent = "abcdefghijkl".charAt(file);
      el("text", {x: MARGIN - 12, y: MARGIN + k * CELL + CELL / 2 + 4, "text-anchor": "middle",
                  "font-size": 12}, g).textContent = String(rank);
    }
    var pieces = el("g", {"class": "pieces", "data-board": f.b}, board);
    for (sq = 0; sq < SIZE * SIZE; sq++) {
      var ch = f.b.charAt(sq);
      if (ch !== ".") { drawPiece(pieces, ch, sq); }
    }
    (f.m || []).forEach(function (s) {
      var q = xy(s);
      el("circle", {cx: q[0] + CELL / 2, cy: q[1] + CELL / 2, r: 18, fill: "none", stroke: ACCENT,
                    "stroke-width": 3, "stroke-dasharray": "4 3", "class": "event-mark"}, board);
    });
    if (f.f !== undefined) {
      var path = f.p || [f.f, f.to];
      var pts = path.map(function (s) { var q = xy(s); return (q[0] + CELL / 2) + "," + (q[1] + CELL / 2); });
      el("polyline", {points: pts.join(" "), fill: "none", stroke: ACCENT, "stroke-width": 3,
                      "marker-end": "url(#arrowhead)", "class": "arrow"}, board);
    }
    if (f.o) { drawOff(f.o); }
    document.getElementById("caption").textContent = f.c + (f.mk ? " " + f.mk : "");
    showNotes(f);
    var status = f.st;
    for (var j = current; !status && j >= 0; j--) { status = frames[j].st; }
    document.getElementById("status").textContent = status || "";
    document.getElementById("counter").textContent = current + " / " + (frames.length - 1);
    var seen = current === 0 ? "The board at the start" : "The board after " + f.c;
    board.setAttribute("aria-label", seen + (flipped ? ", seen from Black's side" : "") +
                       ". " + (status || ""));
    describeBoard(f);
    var links = document.querySelectorAll("#movelist a[data-frame], .turn-words a, #line-moves a");
    for (var n = 0; n < links.length; n++) {
      var inList = links[n].closest("#line-moves") !== null;
      var here = (line !== null) === inList && Number(links[n].getAttribute("data-frame")) === current;
      links[n].classList.toggle("current", here);
      if (here) { links[n].setAttribute("aria-current", "step"); }
      else { links[n].removeAttribute("aria-current"); }
    }
  }

  // the frame's mark in words, its comments and the side lines that branch at it
  function markWords(f) { return f.mk ? annotations.marks[f.mk] || f.mk : ""; }
  function showNotes(f) {
    var box = document.getElementById("comments"), branches = document.getElementById("branches");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    while (branches.firstChild) { branches.removeChild(branches.firstChild); }
    if (f.mk) {
      var m = document.createElement("p");
      m.className = "mark-words";
      m.textContent = f.n + f.mk + ": " + markWords(f) + ".";
      box.appendChild(m);
    }
    (f.cm || []).forEach(function (text) {
      var p = document.createElement("p");
      p.className = "comment";
      p.textContent = text;
      box.appendChild(p);
    });
    (f.v || []).forEach(function (i) {
      var p = document.createElement("p"), a = document.createElement("a");
      a.href = "#v" + i;
      a.setAttribute("data-line", String(i));
      a.textContent = "Side line instead of " + annotations.lines[i].t + ": " + annotations.lines[i].x;
      p.appendChild(a);
      branches.appendChild(p);
    });
  }

  // each step said in words to a screen reader: the action, its mark and comments, then
  // whose turn it is, and any side line one may step into here
  function announce() {
    var f = frames[current], status = f.st;
    for (var j = current; !status && j >= 0; j--) { status = frames[j].st; }
    var said = current === 0 ? (line ? "The position the side line starts from. " : "Start. ") +
      (status || "") : f.c + ". " + (f.mk ? "Marked " + f.mk + ", " + markWords(f) + ". " : "") + (f.st || "");
    (f.cm || []).forEach(function (c) { said += " Comment: " + c; });
    if (f.v && f.v.length) {
      said += " " + (f.v.length === 1 ? "A side line branches here" : f.v.length +
        " side lines branch here") + ": press V to step into it.";
    }
    document.getElementById("announce").textContent = said.trim();
  }

  // side lines: step into one (its frames replace the game's, from the position before the
  // turn it replaces) and back out to where the reader was
  function showBar() {
    var bar = document.getElementById("line-bar");
    bar.hidden = line === null;
    if (line === null) { return; }
    document.getElementById("line-text").textContent = "instead of " + line.t + ": " + line.x;
    var notes = (line.w || []).map(function (w) { return w + "."; });
    if (line.e) { notes.push("It " + line.e.replace(/^the line /, "") + "."); }
    document.getElementById("line-error").textContent = notes.join(" ");
    var list = document.getElementById("line-moves");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    line.f.forEach(function (f, k) {
      if (k === 0) { return; }
      var item = document.createElement("li"), a = document.createElement("a");
      a.href = "#v" + line.i + "." + k;
      a.setAttribute("data-frame", String(k));
      a.textContent = f.t + ": " + f.n + (f.mk || "");
      item.appendChild(a);
      list.appendChild(item);
    });
  }
  function enter(i) {
    var l = annotations.lines[i];
    if (!l) { return; }
    stack.push({line: line, frames: frames, current: current});
    line = l;
    frames = l.f;
    showBar();
    go(frames.length > 1 ? 1 : 0, true, true);
    announce();
    document.getElementById("announce").textContent = "In the side line instead of " + l.t +
      ". " + document.getElementById("announce").textContent;
    document.getElementById("line-back").focus();
  }
  function leave() {
    if (line === null) { return; }
    var back = stack.pop();
    line = back.line;
    frames = back.frames;
    showBar();
    go(back.current, true, true);
    var at = frames[current].t === "start" ? "the start" : frames[current].t;
    document.getElementById("announce").textContent =
      (line ? "Back in the side line" : "Back in the game") + " at " + at + ".";
    var link = document.querySelector((line ? "#line-moves" : "#movelist") +
                                      " a[data-frame='" + current + "']");
    (link || document.getElementById("next")).focus();
  }

  function fragmentOf(i) {
    var f = frames[i];
    if (f.t === "start") { return "start"; }
    var lastOfTurn = i + 1 >= frames.length || frames[i + 1].t !== f.t;
    return lastOfTurn ? f.t : f.t + "." + (f.s + 1);
  }
  function frameOf(fragment) {
    if (!fragment || fragment === "start") { return 0; }
    var parts = fragment.split("."), found = -1;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].t !== parts[0]) { continue; }
      if (parts.length > 1 && frames[i].s + 1 === Number(parts[1])) { return i; }
      found = i;  // the last frame of the turn
    }
    return found;
  }
  function go(i, fromHash, quiet) {
    current = Math.max(0, Math.min(frames.length - 1, i));
    draw();
    if (!quiet) { announce(); }
    if (!fromHash && line === null) {
      var target = "#" + fragmentOf(current);
      if (location.hash !== target) { history.replaceState(null, "", target); }
    }
  }
  function turnStart(i, direction) {
    var t = frames[i].t;
    if (direction > 0) {
      while (i < frames.length - 1 && frames[i].t === t) { i++; }
      t = frames[i].t;
      while (i < frames.length - 1 && frames[i + 1].t === t) { i++; }
      return i;
    }
    while (i > 0 && frames[i].t === t) { i--; }
    return i;
  }

  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("prev").onclick = function () { go(current - 1); };
  document.getElementById("next").onclick = function () { go(current + 1); };
  document.getElementById("last").onclick = function () { go(frames.length - 1); };
  document.getElementById("prev-turn").onclick = function () { go(turnStart(current, -1)); };
  document.getElementById("next-turn").onclick = function () { go(turnStart(current, 1)); };
  function flip() {
    flipped = !flipped;
    document.getElementById("flip").setAttribute("aria-pressed", flipped ? "true" : "false");
    draw();
    document.getElementById("announce").textContent =
      flipped ? "The board seen from Black's side." : "The board seen from White's side.";
  }
  document.getElementById("flip").onclick = flip;
  // jump to a turn by its label ("11w", "11w.2" for its second action, "start")
  document.getElementById("goto").addEventListener("submit", function (e) {
    e.preventDefault();
    var input = document.getElementById("goto-turn");
    while (line !== null) { leave(); }  // a turn of the game itself
    var wanted = input.value.trim().toLowerCase(), i = wanted ? frameOf(wanted) : -1;
    var error = document.getElementById("goto-error");
    if (i < 0) {
      error.textContent = wanted ? "No turn " + input.value.trim() + " in this game."
                                 : "Write a turn, as the move list names it: 11w, 11b.";
      return;
    }
    error.textContent = "";
    go(i);
    // the focus goes to the move in the list: the keys step on from there
    var link = document.querySelector("#movelist a[data-frame='" + current + "']");
    if (link) { link.focus(); }
  });
  function choose(e) {
    var v = e.target.closest ? e.target.closest("a[data-line]") : null;
    if (v) {  // a side line: from the game itself, or from within a side line
      e.preventDefault();
      var i = Number(v.getAttribute("data-line")), l = annotations.lines[i];
      var parent = l.p === undefined ? null : l.p;
      while (line !== null && line.i !== parent) { leave(); }  // out to the line it leaves
      if ((line === null ? null : line.i) !== parent) { return; }
      go(l.s, true, true);
      enter(i);
      return;
    }
    var a = e.target.closest ? e.target.closest("a[data-frame]") : null;
    if (!a) { return; }
    e.preventDefault();
    var inList = a.closest("#line-moves") !== null;
    if (!inList) { while (line !== null) { leave(); } }
    go(Number(a.getAttribute("data-frame")));
  }
  document.getElementById("movelist").addEventListener("click", choose);
  document.getElementById("branches").addEventListener("click", choose);
  document.getElementById("line-moves").addEventListener("click", choose);
  document.getElementById("line-back").onclick = leave;
  var told = document.querySelector(".turn-words");
  if (told) { told.addEventListener("click", choose); }
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }  // the browser's own shortcuts
    var keys = {ArrowLeft: -1, ArrowRight: 1};
    if (e.key in keys) { go(current + keys[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(frames.length - 1); e.preventDefault(); }
    else if (e.key === "PageUp" || e.key === "ArrowUp") { go(turnStart(current, -1)); e.preventDefault(); }
    else if (e.key === "PageDown" || e.key === "ArrowDown") { go(turnStart(current, 1)); e.preventDefault(); }
    else if (e.key === "f" || e.key === "F") { flip(); }
    else if (e.key === "Escape" && line !== null) { leave(); e.preventDefault(); }
    else if ((e.key === "v" || e.key === "V") && frames[current].v) { enter(frames[current].v[0]); }
  });
  window.addEventListener("hashchange", function () {
    if (location.hash.slice(0, 2) === "#v") { return; }  // a side line's own links
    while (line !== null) { leave(); }
    var i = frameOf(location.hash.slice(1));
    if (i >= 0) { go(i, true); }
  });
  // an archived game opens at its start, a live one (data-open="end") where it stands
  drawLegend();
  var hash = location.hash.slice(1);
  var initial = hash ? frameOf(hash) : (document.body.getAttribute("data-open") === "end" ? -1 : 0);
  go(initial >= 0 ? initial : frames.length - 1, initial >= 0, true);
})();

// The archive index: sort by a column, filter by text. No network, works from file://.
(function () {
  "use strict";
  var table = document.getElementById("games");
  var body = table.tBodies[0];
  var filter = document.getElementById("filter");
  var headers = table.tHead.rows[0].cells;
  var state = {column: -1, ascending: true};

  function value(row, i, kind) {
    var cell = row.cells[i];
    var v = cell.getAttribute("data-sort") || cell.textContent.trim();
    return kind === "number" ? Number(v) : v.toLowerCase();
  }
  Array.prototype.forEach.call(headers, function (th, i) {
    // a real button in each heading: Tab reaches it, Enter and Space sort (the click
    // reaches the heading's handler)
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    th.setAttribute("aria-sort", "none");
    function sort() {
      state.ascending = state.column === i ? !state.ascending : true;
      state.column = i;
      var kind = th.getAttribute("data-key");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = value(a, i, kind), y = value(b, i, kind);
        return (x < y ? -1 : x > y ? 1 : 0) * (state.ascending ? 1 : -1);
      });
      rows.forEach(function (r) { body.appendChild(r); });
      Array.prototype.forEach.call(headers, function (h) { h.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", state.ascending ? "ascending" : "descending");
    }
    th.addEventListener("click", sort);
  });
  filter.addEventListener("input", function () {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    Array.prototype.forEach.call(body.rows, function (row) {
      var text = row.textContent.toLowerCase();
      row.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
    });
  });
})();

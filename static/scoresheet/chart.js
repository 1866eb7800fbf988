// The chart of each side's standing after every hand, drawn as SVG from the sheet's data
// (the #sheet-data JSON of the page) folded by SmearLedger: on the sheet, with the hands a
// phone keeps offline, and on the read-only live page, redrawn whenever htmx swaps it in.
(function (root) {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var W = 320, H = 180, LEFT = 30, RIGHT = 8, TOP = 10, BOTTOM = 22;

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // the standings before any hand (0) and after each, one list per side
  function series(data, extra) {
    var hands = data.hands.concat(extra || []);
    var rows = root.SmearLedger.tally(hands, data.sides.length, data.rules);
    return data.sides.map(function (_, side) {
      return [0].concat(rows.map(function (row) { return row.standings[side]; }));
    });
  }

  function draw(figure, data, extra) {
    var lines = series(data, extra);
    var hands = lines[0].length - 1;
    var values = [].concat.apply([0, data.rules.target], lines);
    var low = Math.min.apply(null, values), high = Math.max.apply(null, values);
    if (high === low) high = low + 1;
    var x = function (i) { return LEFT + (W - LEFT - RIGHT) * (hands ? i / hands : 0); };
    var y = function (v) { return TOP + (H - TOP - BOTTOM) * (high - v) / (high - low); };

    var last = lines.map(function (line) { return line[line.length - 1]; });
    var label = "Standing by hand: " + data.sides.map(function (name, side) {
      return name + " " + last[side];
    }).join(", ") + (hands ? " after " + hands + " hand" + (hands === 1 ? "" : "s") : "") + ".";
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": label,
      "class": "chart__svg", "data-hands": hands });

    // the target and zero lines, with their values on the left
    [[data.rules.target, "chart__target", "to " + data.rules.target], [0, "chart__zero", "0"]]
      .forEach(function (mark) {
        svg.appendChild(el("line", { x1: LEFT, x2: W - RIGHT, y1: y(mark[0]), y2: y(mark[0]),
          "class": mark[1] }));
        svg.appendChild(el("text", { x: LEFT - 4, y: y(mark[0]) + 4, "class": "chart__label",
          "text-anchor": "end" }, mark[2]));
      });
    if (low < 0) {
      svg.appendChild(el("text", { x: LEFT - 4, y: y(low) + 4, "class": "chart__label",
        "text-anchor": "end" }, String(low)));
    }
    // hand numbers along the bottom: every one when few, else about six of them
    var step = Math.max(1, Math.ceil(hands / 6));
    for (var i = 0; i <= hands; i += step) {
      svg.appendChild(el("text", { x: x(i), y: H - 6, "class": "chart__label",
        "text-anchor": "middle" }, String(i)));
    }
    lines.forEach(function (line, side) {
      var points = line.map(function (v, i) { return x(i) + "," + y(v); }).join(" ");
      svg.appendChild(el("polyline", { points: points,
        "class": "chart__line chart__side-" + (side % 8), "data-side": side,
        "data-last": line[line.length - 1] }));
      if (hands <= 30) {
        line.forEach(function (v, i) {
          if (i) svg.appendChild(el("circle", { cx: x(i), cy: y(v), r: 2.5,
            "class": "chart__dot chart__side-" + (side % 8) }));
        });
      }
    });

    var legend = document.createElement("ul");
    legend.className = "chart__legend";
    data.sides.forEach(function (name, side) {
      var item = document.createElement("li");
      item.className = "chart__key chart__side-" + (side % 8);
      item.textContent = name + " " + last[side];
      legend.appendChild(item);
    });
    var old = figure.querySelectorAll(".chart__svg, .chart__legend");
    Array.prototype.forEach.call(old, function (node) { node.remove(); });
    figure.appendChild(svg);
    figure.appendChild(legend);
    figure.hidden = false;
  }

  // every chart under ``scope`` whose data is in the page
  function drawAll(scope, extra) {
    var figures = (scope || document).querySelectorAll("[data-chart]");
    Array.prototype.forEach.call(figures, function (figure) {
      var source = document.getElementById(figure.dataset.chart);
      if (source) draw(figure, JSON.parse(source.textContent), extra);
    });
  }

  root.SmearChart = { draw: draw, drawAll: drawAll, series: series };
  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  // the live page and the sheet swap their parts in: draw what came in
  document.addEventListener("htmx:load", function (event) {
    var scope = event.detail.elt;
    if (scope.matches && scope.matches("[data-chart]")) scope = scope.parentNode;
    if (scope.querySelector && scope.querySelector("[data-chart]")) {
      drawAll(scope, root.SmearPending ? root.SmearPending.hands() : []);
    }
  });
})(window);

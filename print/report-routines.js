/*
  The routines section of ws_print's HTML report (--ws-routines=yes): the
  routines in ws's order, and one routine's cost against its input on
  logarithmic scales.  print/embed.sh puts this file into
  print/report.html where it says so, as a script of its own before the
  report's main script, whose helpers ($, h, el, table, int, whereText,
  stackNode) it uses when start() calls renderRoutines().  Part of ws;
  GNU GPL v2 or later.
*/
"use strict";

function routineName(r) { return whereText(WS.stacks[r.stack][0]); }
function fitText(r) {
  return r.exponent === null ? "no fit" :
    "input^" + r.exponent.toFixed(2) + " (r2 " + r.r2.toFixed(2) + ")";
}
/* The x (input) and y (cost) of a size row as the plot draws them: the
   sizes of 0 lines (an activation that read nothing) and costs of 0
   have no place on a logarithmic axis. */
function plotted(row) { return row[0] >= 1 && row[4] >= 1; }

var MAX_ROUTINE_ROWS = 100;
var routinePlot = null;     /* what the plot drew, for the test hook */
function drawRoutine(k) {
  var svg = $("routine-plot"), r = WS.routines[k];
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  document.querySelectorAll("#routine-table tr.chosen").forEach(function (t) { t.removeAttribute("class"); });
  var row = $("routine-table").querySelector("table").rows[1 + k];
  if (row) row.setAttribute("class", "click chosen");
  var rows = r.sizes.filter(plotted);
  routinePlot = { routine: k, name: routineName(r), points: [], fit: null };
  var W = svg.clientWidth || 900, H = 320, ml = 90, mr = 20, mt = 24, mb = 40;
  svg.setAttribute("height", H);
  el("text", { x: ml, y: 15, class: "title" }, svg, routineName(r) + ": cost " + fitText(r) +
     ", max cost (\u25cf), min to max (|), the fit (dashed)");
  if (rows.length < 2) {
    el("text", { x: ml, y: mt + 30 }, svg, "Fewer than two input sizes: nothing to plot.");
    return;
  }
  var lx = rows.map(function (w) { return Math.log10(w[0]); });
  var lo = rows.map(function (w) { return Math.log10(Math.max(w[2], 1)); });
  var hi = rows.map(function (w) { return Math.log10(w[4]); });
  var x0 = Math.min.apply(null, lx), x1 = Math.max.apply(null, lx);
  var y0 = Math.min.apply(null, lo), y1 = Math.max.apply(null, hi);
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  var pw = W - ml - mr, ph = H - mt - mb;
  function X(v) { return ml + (v - x0) / (x1 - x0) * pw; }
  function Y(v) { return mt + ph - (v - y0) / (y1 - y0) * ph; }
  el("line", { x1: ml, y1: mt + ph, x2: ml + pw, y2: mt + ph, class: "axis" }, svg);
  el("line", { x1: ml, y1: mt, x2: ml, y2: mt + ph, class: "axis" }, svg);
  /* a tick at both ends, and at every power of ten in range that is
     not so close to an end that their labels would overlap */
  function ticks(a, b, px) {
    var t = [a];
    for (var p = Math.ceil(a); p < b; p++)
      if (Math.abs(px(p) - px(a)) >= 40 && Math.abs(px(b) - px(p)) >= 40) t.push(p);
    t.push(b);
    return t;
  }
  ticks(x0, x1, X).forEach(function (v) {
    el("line", { x1: X(v), y1: mt + ph, x2: X(v), y2: mt + ph + 4, class: "axis" }, svg);
    el("text", { x: X(v), y: mt + ph + 16, "text-anchor": "middle" }, svg, int(Math.pow(10, v)));
  });
  ticks(y0, y1, Y).forEach(function (v) {
    el("line", { x1: ml - 4, y1: Y(v), x2: ml, y2: Y(v), class: "axis" }, svg);
    el("text", { x: ml - 6, y: Y(v) + 4, "text-anchor": "end" }, svg, int(Math.pow(10, v)));
  });
  el("text", { x: ml + pw / 2, y: H - 6, "text-anchor": "middle" }, svg,
     "input: the 64-byte lines an activation reads (trms)");
  if (r.exponent !== null) {
    /* through the mean of the points with the fit's slope, as the text
       report draws it */
    var mx = 0, my = 0;
    lx.forEach(function (v, i) { mx += v; my += hi[i]; });
    mx /= lx.length; my /= lx.length;
    var f = [x0, my + r.exponent * (x0 - mx), x1, my + r.exponent * (x1 - mx)];
    routinePlot.fit = [X(f[0]), Y(f[1]), X(f[2]), Y(f[3])];
    el("line", { x1: routinePlot.fit[0], y1: routinePlot.fit[1], x2: routinePlot.fit[2],
                 y2: routinePlot.fit[3], class: "fit" }, svg);
  }
  rows.forEach(function (w, i) {
    var g = el("g", { class: "size" }, svg), cx = X(lx[i]);
    el("line", { x1: cx, y1: Y(lo[i]), x2: cx, y2: Y(hi[i]), class: "range" }, g);
    el("circle", { cx: cx, cy: Y(hi[i]), r: 3 }, g);
    el("title", {}, g, int(w[0]) + (w[0] === 1 ? " line: " : " lines: ") + int(w[1]) +
       (w[1] === 1 ? " activation" : " activations") + ", cost min " + int(w[2]) + ", mean " +
       int(w[3]) + ", max " + int(w[4]));
    routinePlot.points.push({ size: w[0], max: w[4], min: w[2], cx: cx, cy: Y(hi[i]), low: Y(lo[i]) });
  });
}

function renderRoutines() {
  var rs = WS.routines || [];
  if (!rs.length) return;
  $("routines-section").hidden = false;
  var most = 0, flagged = 0;
  rs.forEach(function (r) { most = Math.max(most, r.cost); flagged += r.flagged; });
  $("routines-hint").textContent = int(rs.length) + (rs.length === 1 ? " routine" : " routines") +
    " with an activation, in ws's order: those called out first (a fit with r2 0.8 or more over " +
    "input sizes that span a factor of 4, a cost of 1 % of the costliest routine's or more) by " +
    "exponent times that share, then the others by cost; " + int(flagged) +
    (flagged === 1 ? " grows" : " grow") + " faster than its input. Click a routine for its plot.";
  var t = table(["", "routine", "cost against input", "sizes", "calls", "cost", "share",
                 "trms-max", "induced by threads", "by system calls"],
    rs.slice(0, MAX_ROUTINE_ROWS).map(function (r, k) {
      return [k + 1, routineName(r), fitText(r) + (r.flagged ? ": grows faster than its input" : ""),
              r.sizes.length, int(r.calls), int(r.cost), (100 * r.cost / most).toFixed(1) + "\u00a0%",
              int(r.trmsMax), int(r.threadInduced), int(r.syscallInduced)];
    }), drawRoutine, [0, 1, 1]);
  $("routine-table").appendChild(t);
  if (rs.length > MAX_ROUTINE_ROWS)
    $("routine-table").appendChild(h("p", { class: "hint" }, "The first " + MAX_ROUTINE_ROWS + " of " +
      int(rs.length) + " routines; ws_print --json lists them all."));
  var first = 0;
  for (var k = 0; k < rs.length; k++)
    if (rs[k].exponent !== null && rs[k].exponent > 0) { first = k; break; }
  drawRoutine(first);
  window.addEventListener("resize", function () { if (routinePlot) drawRoutine(routinePlot.routine); });
}

/*
  The heap over time in ws_print's HTML report (version 6 files): the live
  heap bytes at each sample, drawn as massif's curve on an axis of its own
  in bytes.  print/embed.sh puts this file into print/report.html as a
  script of its own before the report's main script, whose helpers ($, h,
  el, int, unit, tlabel, niceStep) it uses when start() calls
  renderHeapTime().  Part of ws; GNU GPL v2 or later.
*/
"use strict";

function bytesLabel(b) {             /* 0, 512, 1.5k, 20M, 3G: on an axis */
  var sc = [[1 << 30, "G"], [1 << 20, "M"], [1 << 10, "k"]];
  for (var i = 0; i < sc.length; i++)
    if (b >= sc[i][0]) return +(b / sc[i][0]).toPrecision(3) + sc[i][1];
  return String(b);
}
/* The time axis of the heap's charts: x of time t, and the run's end. */
var HT = { left: 62, right: 14, tmax: 1 };
function htX(t, W) { return HT.left + (W - HT.left - HT.right) * t / HT.tmax; }
function htAxis(svg, W, y) {
  el("line", { x1: HT.left, y1: y, x2: W - HT.right, y2: y, class: "axis" }, svg);
  var step = niceStep(HT.tmax, 8);
  for (var t = 0; t <= HT.tmax; t += step) {
    el("line", { x1: htX(t, W), y1: y, x2: htX(t, W), y2: y + 4, class: "axis" }, svg);
    el("text", { x: htX(t, W), y: y + 15, "text-anchor": "middle" }, svg, tlabel(t, HT.tmax));
  }
}
/* The live heap bytes at each sample: a step from each sample to the
   next (the bytes stand until an allocation or a free changes them). */
function drawHeapCurve() {
  var svg = $("heap-curve"), W = svg.clientWidth || 900, H = 170, top = 12, bottom = H - 24;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("height", H);
  var max = 0;
  WS.heap.forEach(function (b) { if (b > max) max = b; });
  var ymax = max || 1, ystep = niceStep(ymax, 4);
  function y(b) { return bottom - (bottom - top) * b / ymax; }
  for (var b = 0; b <= ymax; b += ystep) {
    el("line", { x1: HT.left, y1: y(b), x2: W - HT.right, y2: y(b), class: "grid" }, svg);
    el("text", { x: HT.left - 4, y: y(b) + 4, "text-anchor": "end" }, svg, bytesLabel(b));
  }
  htAxis(svg, W, bottom);
  var d = "", peak = 0;
  for (var i = 0; i < WS.t.length; i++) {
    var x = htX(WS.t[i], W).toFixed(1);
    d += (i ? "H" + x + "V" : "M" + x + " ") + y(WS.heap[i]).toFixed(1);
    if (WS.heap[i] > WS.heap[peak]) peak = i;
  }
  el("path", { d: d, class: "heap", id: "heap-line", "data-points": WS.t.length }, svg);
  el("text", { x: HT.left + 4, y: top - 2, class: "title" }, svg, "live heap bytes");
  if (WS.t.length) {
    var g = el("g", { class: "peak" }, svg);
    el("circle", { cx: htX(WS.t[peak], W), cy: y(WS.heap[peak]), r: 3.5 }, g);
    el("title", {}, g, "the most live heap bytes: " + int(WS.heap[peak]) + " at t=" + int(WS.t[peak]) + unit());
  }
}
function renderHeapTime() {
  if (!WS.heap) return;
  HT.tmax = WS.t.length ? Math.max(WS.t[WS.t.length - 1], 1) : 1;
  $("heap-time-section").hidden = false;
  var max = 0;
  WS.heap.forEach(function (b) { if (b > max) max = b; });
  $("heap-time-hint").textContent = "The bytes of the live heap chunks (as the program asked for them) at each of " +
    int(WS.t.length) + " samples; the most: " + int(max) + " bytes.";
  drawHeapCurve();
  window.addEventListener("resize", drawHeapCurve);
}

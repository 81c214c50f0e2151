/*
  The heap over time in ws_print's HTML report (version 6 files): the live
  heap bytes at each sample, drawn as massif's curve on an axis of its own
  in bytes, and under it, on the same time axis, the Memoro paper's chunk
  timeline of one allocation site (its heap-chunk records), whose live
  bytes are drawn over the curve.  print/embed.sh puts this file into print/report.html as a
  script of its own before the report's main script, whose helpers ($, h,
  el, int, unit, tlabel, niceStep, whereText) it uses when start() calls
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
  svg.setAttribute("data-ymax", ymax);
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
/* The chosen site's live bytes from its records: +size at each
   allocation, -size at each free (frees first at one time, as the
   heap-site's peak-live counts them). */
function siteSteps(s) {
  var ev = [];
  s.records.forEach(function (r) {
    ev.push([r[0], 1, r[2]]);
    if (r[1] !== null) ev.push([r[1], 0, -r[2]]);
  });
  ev.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
  var live = 0, out = [[0, 0]];
  ev.forEach(function (e) { live += e[2]; out.push([e[0], live]); });
  return out;
}
var HTsite = null;                 /* the index of the site shown */
function drawSiteLine() {
  var svg = $("heap-curve"), old = $("heap-site-line");
  if (old) old.remove();
  if (HTsite === null) return;
  var W = svg.clientWidth || 900, steps = siteSteps(WS.heapSites[HTsite]);
  var ymax = +svg.getAttribute("data-ymax"), top = 12, bottom = +svg.getAttribute("height") - 24;
  function y(b) { return bottom - (bottom - top) * Math.min(b, ymax) / ymax; }
  var d = "";
  steps.forEach(function (p, i) {
    var x = htX(p[0], W).toFixed(1);
    d += (i ? "H" + x + "V" : "M" + x + " ") + y(p[1]).toFixed(1);
  });
  d += "H" + htX(HT.tmax, W).toFixed(1);
  el("path", { d: d, class: "site", id: "heap-site-line", "data-points": steps.length }, svg);
}
function chunkTip(s, r, k) {
  var u = unit(), t = function (v) { return v === null ? null : int(v) + u; };
  return ["record " + (k + 1) + " of " + s.records.length + " (site " + s.id + "): " + int(r[2]) + " bytes",
          "allocated at t=" + t(r[0]) + ", " + (r[1] === null ? "live at exit" : "freed at t=" + t(r[1])),
          r[3] === null ? "never accessed" : "first access t=" + t(r[3]) + ", last t=" + t(r[4]),
          r[5] === null ? null : "bytes " + int(r[5]) + "\u2013" + int(r[6]) + " accessed",
          r[7] === null ? null : int(r[7]) + " reads, " + int(r[8]) + " writes"]
    .filter(function (l) { return l !== null; }).join("\n");
}
/* One row per record: a bar from allocation to free, shaded by size
   (log scale, darker larger), black ticks at the first and last
   access. */
function drawTimeline() {
  var svg = $("heap-timeline"), W = svg.clientWidth || 900;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (HTsite === null) return;
  var s = WS.heapSites[HTsite], recs = s.records, n = recs.length;
  var rowH = Math.max(3, Math.min(14, Math.floor(360 / Math.max(n, 1)))), top = 4;
  var H = top + n * rowH + 24;
  svg.setAttribute("height", H);
  var lo = Infinity, hi = 0;
  recs.forEach(function (r) { lo = Math.min(lo, r[2]); hi = Math.max(hi, r[2]); });
  var span = Math.log(hi + 1) - Math.log(lo + 1);
  recs.forEach(function (r, k) {
    var y0 = top + k * rowH, x0 = htX(r[0], W), x1 = htX(r[1] === null ? HT.tmax : r[1], W);
    var f = span > 0 ? (Math.log(r[2] + 1) - Math.log(lo + 1)) / span : 1;
    var g = el("g", { class: "chunk", "data-record": k }, svg);
    el("rect", { x: x0, y: y0, width: Math.max(x1 - x0, 2), height: Math.max(rowH - 1, 2),
                 fill: "hsl(215,45%," + (80 - 50 * f).toFixed(0) + "%)" }, g);
    if (r[3] !== null)
      [r[3], r[4]].forEach(function (t) {
        el("line", { x1: htX(t, W), y1: y0, x2: htX(t, W), y2: y0 + Math.max(rowH - 1, 2), class: "tick" }, g);
      });
    el("title", {}, g, chunkTip(s, r, k));
  });
  htAxis(svg, W, top + n * rowH + 2);
}
function chooseSite(k) {
  HTsite = k;
  var s = WS.heapSites[k];
  $("heap-timeline-hint").textContent = "Site " + s.id + ": " + int(s.records.length) + " of its " +
    int(s.chunks) + (s.chunks === 1 ? " chunk" : " chunks") + " recorded" +
    (s.records.length < s.chunks ? " (every " + int(Math.pow(2, Math.ceil(Math.log2(s.chunks / s.records.length)))) +
     "th, spread over the run: --ws-heap-chunks)" : "") + ".";
  drawTimeline();
  drawSiteLine();
}
function renderTimeline() {
  var with_records = [];
  (WS.heapSites || []).forEach(function (s, k) { if (s.records && s.records.length) with_records.push(k); });
  if (!with_records.length) return;
  $("heap-timeline-box").hidden = false;
  var pick = $("heap-site");
  with_records.forEach(function (k) {
    var s = WS.heapSites[k];
    pick.appendChild(h("option", { value: k }, "site " + s.id + ": " + whereText(WS.stacks[s.stack][0]) +
                                   " (" + int(s.records.length) + " records)"));
  });
  pick.addEventListener("change", function () { chooseSite(+pick.value); });
  chooseSite(with_records[0]);
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
  renderTimeline();
  window.addEventListener("resize", function () { drawHeapCurve(); drawTimeline(); drawSiteLine(); });
}

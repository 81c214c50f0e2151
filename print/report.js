/*
  The main script of ws_print's HTML report: the working-set charts (zoom,
  hover, marks, regions, peaks, threads), the panels of a peak's stack and
  owners, the hot-page tables, and the page's test hook (?test=...).
  print/embed.sh puts this file into print/report.html where it says so;
  wsp_html.c fills in WS (the file's data, as JSON) where it says
  WS_DATA.  Part of ws; GNU GPL v2 or later.
*/
"use strict";
var WS = /*@WS_DATA@*/null;

/* Errors go into the page too, where a test (or a reader) sees them. */
var errors = [];
window.addEventListener("error", function (e) {
  errors.push(String(e.message));
  document.getElementById("ws-test").textContent += "ERROR: " + e.message + "\n";
});

var SVGNS = "http://www.w3.org/2000/svg";
var $ = function (id) { return document.getElementById(id); };

function el(tag, attrs, parent, text) {
  var e = document.createElementNS(SVGNS, tag);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function h(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function int(n) { return Math.round(n).toLocaleString("en-US"); }
function kb(pages) {
  var k = pages * WS.pagesize / 1024;
  return (k >= 100 || k === Math.floor(k) ? int(k) : k.toFixed(1)) + " kB";
}
function apt(a) { return a[0].toFixed(1) + "/" + a[1] + "/" + a[2]; }   /* avg/peak/total */
function pages(n) { return int(n) + (n === 1 ? " page" : " pages"); }
function unit() { return WS.unit === "ms" ? " ms" : " i"; }
/* the file's samples: more than the arrays hold when ws_print thinned them */
function nSamples() { return WS.thinned ? WS.thinned.samples : WS.t.length; }
function logScale() { return $("log-scale").checked; }
function tlabel(t, span) {            /* a time on the axis: 20M, 1.5k, 3s */
  if (t === 0) return "0";
  var sc = WS.unit === "ms" ? [[1e3, "s"]] : [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  for (var i = 0; i < sc.length; i++)
    if (span >= sc[i][0]) return +(t / sc[i][0]).toPrecision(6) + sc[i][1];
  return +t.toPrecision(6) + (WS.unit === "ms" ? "ms" : "");
}
function niceStep(span, n) {
  var raw = span / Math.max(n, 1), p = Math.pow(10, Math.floor(Math.log10(raw)));
  var m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}
function lowerBound(a, x) {           /* first index with a[i] >= x */
  var lo = 0, hi = a.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}

function upperBound(a, x) {           /* first index with a[i] > x */
  var lo = 0, hi = a.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] <= x) lo = mid + 1; else hi = mid; }
  return lo;
}

/*---- Derived data: regions (a start or region-start to the next stop), named as ws names them ----*/

/* maps keyed by label have no prototype, so that any label is a key */
var marks = [], dumps = [], spans = [], sets = [], regionByLabel = Object.create(null),
    labelIndex = Object.create(null);
function derive() {
  var open = null, latest = null;
  WS.events.forEach(function (e) {
    if (e.kind === "mark") {
      latest = e.label;
      marks.push(e);
      if (!(e.label in labelIndex)) labelIndex[e.label] = Object.keys(labelIndex).length;
    } else if (e.kind === "start" || e.kind === "region-start") {
      if (open === null) open = e.t;
    } else if (e.kind === "stop") {
      if (open !== null) spans.push({ t0: open, t1: e.t, label: latest });
      open = null;
    } else if (e.kind === "dump" && e.how !== "label") {
      dumps.push({ t: e.t, how: e.how, path: e.path });
    } else if (e.kind === "set") {
      sets.push(e);
    }
  });
  WS.dumps.forEach(function (d) { dumps.push({ t: d.t, how: "label", label: d.label, insn: d.insn, data: d.data }); });
  dumps.sort(function (a, b) { return a.t - b.t; });
  if (open !== null) spans.push({ t0: open, t1: tEnd(), label: latest, open: true });
  spans = spans.filter(function (s) { return s.label !== null; });
  WS.regions.forEach(function (r) { regionByLabel[r.label] = r; });
}
function tEnd() {
  var t = WS.t.length ? WS.t[WS.t.length - 1] : 0;
  if (WS.events.length) t = Math.max(t, WS.events[WS.events.length - 1].t);
  return Math.max(t, 1);
}

/*---- The chart ----*/

var view = { t0: 0, t1: 1 };          /* the time range shown */
var geo = null;                       /* geometry of the last drawing */
var PALETTE = ["rgba(70,130,220,.13)", "rgba(230,140,40,.15)", "rgba(60,170,90,.14)",
               "rgba(200,60,160,.12)", "rgba(120,120,120,.14)", "rgba(180,170,40,.16)"];

function series() {
  var s = [{ key: "insn", name: "Instruction working set", cls: "insn" },
           { key: "data", name: "Data working set", cls: "data" }];
  if (WS.shared) {
    s[1].extra = { key: "shared", cls: "shared" };
    s[1].note = "green: pages shared by threads";
  }
  return s;
}

/* Points of one series in the view: every sample, or the min and max of
   each pixel column when there are many more samples than pixels. */
function points(vals, i0, i1, x, y, pw) {
  var pts = [], col = null, lo = 0, hi = 0;
  function flush() {
    pts.push(col + "," + y(lo).toFixed(1));
    if (hi !== lo) pts.push(col + "," + y(hi).toFixed(1));
  }
  for (var i = i0; i < i1; i++) {
    if (i1 - i0 <= 4 * pw) { pts.push(x(WS.t[i]).toFixed(1) + "," + y(vals[i]).toFixed(1)); continue; }
    var c = Math.floor(x(WS.t[i]));
    if (c !== col) { if (col !== null) flush(); col = c; lo = hi = vals[i]; }
    else { lo = Math.min(lo, vals[i]); hi = Math.max(hi, vals[i]); }
  }
  if (col !== null) flush();
  return pts;
}

/* Thread k's line: M at the first sample and after a gap in the samples
   that list the thread, else L; with many more samples than pixels, the
   min and max of each pixel column. */
function threadPath(th, vals, x, y, pw) {
  var d = [], j0 = lowerBound(th.i, geo.i0), j1 = lowerBound(th.i, geo.i1);
  var dense = j1 - j0 > 4 * pw, col = null, lo = 0, hi = 0, prev = -2, gap = true;
  function flush() {
    d.push((gap ? "M" : "L") + col + " " + y(lo).toFixed(1));
    if (hi !== lo) d.push("L" + col + " " + y(hi).toFixed(1));
    gap = false;
  }
  for (var j = j0; j < j1; j++) {
    var i = th.i[j], broke = i !== prev + 1;
    prev = i;
    if (!dense) { d.push((broke ? "M" : "L") + x(WS.t[i]).toFixed(1) + " " + y(vals[j]).toFixed(1)); continue; }
    var c = Math.floor(x(WS.t[i]));
    if (c !== col || broke) {
      if (col !== null) flush();
      gap = gap || broke; col = c; lo = hi = vals[j];
    } else { lo = Math.min(lo, vals[j]); hi = Math.max(hi, vals[j]); }
  }
  if (col !== null) flush();
  return d.join("") || "M0 0";
}
/* hues apart from the insn blue, data red and shared green */
function threadColor(k) { return "hsl(" + ((270 + k * 137.5) % 360).toFixed(0) + ",60%,45%)"; }
var threadShown = [];

function draw() {
  var svg = $("chart");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  var W = svg.clientWidth || 900, H = 470;
  var ml = 64, mr = 16, top = 18, bottom = 34, flagY = [30, 43];
  var pw = Math.max(W - ml - mr, 50);
  var panels = [{ y: 66, h: 110 }, { y: 216, h: H - bottom - 216 }];
  svg.setAttribute("height", H);
  var span = Math.max(view.t1 - view.t0, 1e-9);
  var x = function (t) { return ml + (t - view.t0) / span * pw; };
  var i0 = Math.max(lowerBound(WS.t, view.t0) - 1, 0);
  var i1 = Math.min(upperBound(WS.t, view.t1) + 1, WS.t.length);
  geo = { ml: ml, pw: pw, x: x, span: span, panels: panels, i0: i0, i1: i1, top: top, H: H, bottom: bottom };

  /* region spans behind everything, with their tabs in the top strip */
  var bands = el("g", {}, svg);
  if ($("show-regions").checked) spans.forEach(function (s, k) {
    if (s.t1 < view.t0 || s.t0 > view.t1) return;
    var a = Math.max(x(s.t0), ml), b = Math.min(x(s.t1), ml + pw), w = Math.max(b - a, 1);
    var fill = PALETTE[labelIndex[s.label] % PALETTE.length];
    el("rect", { x: a, y: top, width: w, height: H - bottom - top, fill: fill }, bands);
    var g = el("g", { class: "span", "data-span": k }, svg);
    el("rect", { x: a, y: 2, width: w, height: 14, fill: fill.replace(/[\d.]+\)$/, "0.45)") }, g);
    if (w > 30) el("text", { x: a + 3, y: 13 }, g, s.label);
    el("title", {}, g, "region " + s.label);
    g.addEventListener("click", function () { showSpan(k); });
  });

  var titles = [];                    /* the panels' titles, which peak numbers avoid */
  series().forEach(function (s, p) {
    var P = panels[p], vals = WS[s.key], vmax = 0;
    for (var i = i0; i < i1; i++) vmax = Math.max(vmax, vals[i]);
    if (s.extra) for (var j = i0; j < i1; j++) vmax = Math.max(vmax, WS[s.extra.key][j]);
    var step = Math.max(niceStep(Math.max(vmax, 1), P.h > 150 ? 5 : 3), 1);
    var ymax = Math.max(Math.ceil(Math.max(vmax, 1) / step) * step, 1);
    var ticks = [], v;
    var y = function (v) { return P.y + P.h - v / ymax * P.h; };
    if (logScale()) {
      /* log10(1 + pages): 0 stays at the bottom, a spike far above a
         small working set and the small one both stay readable */
      ymax = Math.pow(10, Math.ceil(Math.log10(Math.max(vmax, 1) + 1)));
      y = function (v) { return P.y + P.h - Math.log10(1 + v) / Math.log10(1 + ymax) * P.h; };
      for (v = 1; v <= ymax; v *= 10) ticks.push(v);
      ticks.unshift(0);
    } else {
      for (v = 0; v <= ymax + 1e-9; v += step) ticks.push(v);
    }
    P.yscale = y;
    var title = el("text", { x: ml, y: P.y - 7, class: "title" }, svg, s.name + " (pages" +
       (logScale() ? ", log scale" : "") + (s.note ? "; " + s.note : "") + ")");
    titles.push({ x0: ml, x1: ml + title.getComputedTextLength(), y0: P.y - 19, y1: P.y - 4 });
    ticks.forEach(function (v) {
      el("line", { x1: ml, x2: ml + pw, y1: y(v), y2: y(v), class: "grid" }, svg);
      el("text", { x: ml - 6, y: y(v) + 4, "text-anchor": "end" }, svg, int(v));
    });
    el("line", { x1: ml, x2: ml, y1: P.y, y2: P.y + P.h, class: "axis" }, svg);
    el("line", { x1: ml, x2: ml + pw, y1: P.y + P.h, y2: P.y + P.h, class: "axis" }, svg);
    var clip = "clip" + p;
    var cp = el("clipPath", { id: clip }, svg);
    el("rect", { x: ml, y: P.y - 2, width: pw, height: P.h + 4 }, cp);
    var line = el("polyline", { class: s.cls, id: "line-" + s.key, "clip-path": "url(#" + clip + ")",
                                points: points(vals, i0, i1, x, y, pw).join(" ") }, svg);
    line.setAttribute("data-points", line.points.numberOfItems);
    if (s.extra)
      el("polyline", { class: s.extra.cls, id: "line-" + s.extra.key, "clip-path": "url(#" + clip + ")",
                       points: points(WS[s.extra.key], i0, i1, x, y, pw).join(" ") }, svg);
  });

  /* per-thread lines: one path per thread id in each panel, broken
     where the thread was not alive */
  WS.threads.forEach(function (th, k) {
    if (!threadShown[k]) return;
    ["insn", "data"].forEach(function (key, p) {
      var P = panels[p];
      el("path", { class: "thread", "data-tid": th.tid, stroke: threadColor(k),
                   "clip-path": "url(#clip" + p + ")",
                   d: threadPath(th, th[key], x, P.yscale, pw) }, svg);
    });
  });

  /* peaks: a marker over the peak's sample in its panel, to click, the
     largest of each kind standing out and drawn last (on top); then
     their numbers, the largest first: each beside its marker, left of it
     or above it, wherever it overlaps no marker, label or panel title and
     stays inside the plot (a number with no such place is left out: the
     marker's title and the Peaks table still name it) */
  if ($("show-peaks").checked) {
    var boxes = titles.slice(), pm = shownPeaks().filter(function (n) {
      return WS.peaks[n].t >= view.t0 && WS.peaks[n].t <= view.t1;
    }).map(function (n) {
      var pk = WS.peaks[n], P = panels[pk.kind === "insn" ? 0 : 1], big = isLargest(n), r = big ? 7 : 5;
      var m = { n: n, big: big, r: r, px: x(pk.t), py: Math.max(P.yscale(pk.size), P.y) };
      boxes.push({ x0: m.px - r, x1: m.px + r, y0: m.py - 2 * r, y1: m.py + 2 });
      return m;
    });
    pm.slice().sort(function (a, b) { return a.big - b.big || b.n - a.n; }).forEach(function (m) {
      var pk = WS.peaks[m.n];
      m.g = el("g", { class: "peak" + (m.big ? " largest" : ""), "data-peak": m.n }, svg);
      el("path", { d: "M" + (m.px - m.r) + " " + (m.py - 2 * m.r) + "h" + 2 * m.r + "l-" + m.r + " " + (m.r + 2) + "z" }, m.g);
      el("title", {}, m.g, "peak #" + m.n + ": " + pk.kind + " " + pages(pk.size) + " at t = " + int(pk.t) +
         (pk.why ? " (" + whyText(pk) + ")" : ""));
      m.g.addEventListener("click", function () { showPeak(m.n); });
    });
    var free = function (b) {
      return b.x0 >= ml && b.x1 <= ml + pw && b.y0 >= top && boxes.every(function (o) {
        return b.x1 <= o.x0 || o.x1 <= b.x0 || b.y1 <= o.y0 || o.y1 <= b.y0;
      });
    };
    pm.slice().sort(function (a, b) { return b.big - a.big || a.n - b.n; }).forEach(function (m) {
      var t = el("text", { x: 0, y: 0 }, m.g, "#" + m.n + (m.big ? " largest" : ""));
      var w = t.getComputedTextLength(), spots = [[m.px + m.r + 1, m.py - 4], [m.px - m.r - 1 - w, m.py - 4]];
      for (var k = 0; k < 8; k++)
        spots.push([Math.min(Math.max(m.px - w / 2, ml), ml + pw - w), m.py - 2 * m.r - 3 - 12 * k]);
      var at = spots.filter(function (c) { return free({ x0: c[0], x1: c[0] + w, y0: c[1] - 10, y1: c[1] + 2 }); })[0];
      if (!at) { m.g.removeChild(t); return; }
      t.setAttribute("x", at[0]); t.setAttribute("y", at[1]);
      boxes.push({ x0: at[0], x1: at[0] + w, y0: at[1] - 10, y1: at[1] + 2 });
    });
  }

  /* the time axis under the lower panel */
  var yb = panels[1].y + panels[1].h, tstep = niceStep(span, Math.max(Math.floor(pw / 90), 2));
  for (var t = Math.ceil(view.t0 / tstep) * tstep; t <= view.t1 + 1e-9 * span; t += tstep) {
    el("line", { x1: x(t), x2: x(t), y1: yb, y2: yb + 4, class: "axis" }, svg);
    el("text", { x: x(t), y: yb + 16, "text-anchor": "middle" }, svg, tlabel(t, Math.max(view.t1, 1)));
  }
  el("text", { x: ml + pw, y: yb + 30, "text-anchor": "end" }, svg,
     WS.unit === "ms" ? "time (ms since start-up)" : "time (instructions executed)");

  /* marks and parameter changes (ws set, v.clo, WS_SET...): a dashed
     line through both panels and a flag to click, named in two rows of
     labels kept apart, in time order */
  var rowEnd = [-1e9, -1e9];
  var flags = sets.map(function (e, k) { return { t: e.t, set: k }; });
  if ($("show-marks").checked) flags = flags.concat(marks.map(function (m, k) { return { t: m.t, mark: k }; }));
  flags.sort(function (a, b) { return a.t - b.t || (a.set === undefined) - (b.set === undefined); });
  flags.forEach(function (f) {
    if (f.t < view.t0 || f.t > view.t1) return;
    var isSet = f.set !== undefined, e = isSet ? sets[f.set] : marks[f.mark];
    var label = isSet ? paramText(e.param, e.value) : e.label;
    var mx = x(f.t), row = rowEnd[0] < mx ? 0 : rowEnd[1] < mx ? 1 : -1;
    el("line", { x1: mx, x2: mx, y1: top, y2: yb, class: isSet ? "markline setline" : "markline" }, svg);
    var g = el("g", isSet ? { class: "flag set", "data-set": f.set } : { class: "flag", "data-mark": f.mark }, svg);
    var fy = flagY[Math.max(row, 0)];
    el("path", { d: "M" + mx + " " + (fy - 9) + "l8 4.5l-8 4.5z", fill: isSet ? "#1b7f6b" : "#444" }, g);
    if (row >= 0) {
      el("text", { x: mx + 10, y: fy }, g, label);
      rowEnd[row] = mx + 14 + label.length * 6.8;
    }
    el("title", {}, g, (isSet ? "set " : "mark ") + label + " at t = " + int(f.t));
    g.addEventListener("click", function () { if (isSet) showSet(f.set); else showMark(f.mark); });
  });
  dumps.forEach(function (d, k) {
    if (d.t < view.t0 || d.t > view.t1) return;
    var dx = x(d.t), g = el("g", {}, svg);
    el("path", { class: "dump", d: "M" + (dx - 5) + " " + (yb + 1) + "h10l-5 7z" }, g);
    el("title", {}, g, "dump at t = " + int(d.t));
    g.addEventListener("click", function () { showDump(k); });
  });

  /* hover and drag-to-zoom on a transparent layer over the panels */
  var cross = el("line", { class: "cross", y1: panels[0].y, y2: yb, visibility: "hidden" }, svg);
  var dots = [el("circle", { r: 3.5, style: "fill: var(--insn)", visibility: "hidden" }, svg),
              el("circle", { r: 3.5, style: "fill: var(--data)", visibility: "hidden" }, svg)];
  var sel = el("rect", { class: "sel", y: panels[0].y, height: yb - panels[0].y, width: 0, visibility: "hidden" }, svg);
  var layer = el("rect", { id: "layer", x: ml, y: panels[0].y, width: pw, height: yb - panels[0].y,
                           fill: "transparent" }, svg);
  geo.cross = cross; geo.dots = dots;
  var dragFrom = null;
  function px(ev) { return ev.clientX - svg.getBoundingClientRect().left; }
  layer.addEventListener("mousedown", function (ev) { dragFrom = px(ev); ev.preventDefault(); });
  layer.addEventListener("mousemove", function (ev) {
    var xx = px(ev);
    hover(xx, ev.clientY - $("wrap").getBoundingClientRect().top);
    if (dragFrom !== null) {
      sel.setAttribute("x", Math.min(dragFrom, xx)); sel.setAttribute("width", Math.abs(xx - dragFrom));
      sel.setAttribute("visibility", "visible");
    }
  });
  layer.addEventListener("mouseleave", function () { unhover(); });
  window.onmouseup = function (ev) {
    if (dragFrom === null) return;
    var a = dragFrom, b = px(ev);
    dragFrom = null;
    sel.setAttribute("visibility", "hidden");
    if (Math.abs(b - a) >= 5) zoomTo(tOf(Math.min(a, b)), tOf(Math.max(a, b)));
    else clickAt(a);
  };
  if (hovered) showSample(hovered.i, hovered.y);
  $("range").textContent = "t = " + int(view.t0) + " \u2026 " + int(view.t1) + unit() +
    " (" + int(Math.max(i1 - i0, 0)) + " of " + int(WS.t.length) + " samples" +
    (WS.thinned ? "; the file has " + int(nSamples()) : "") + ")";
}

function tOf(px) { return view.t0 + (px - geo.ml) / geo.pw * geo.span; }

/* The sample nearest to time t, or -1. */
function nearest(t) {
  if (!WS.t.length) return -1;
  var i = lowerBound(WS.t, t);
  if (i >= WS.t.length) return WS.t.length - 1;
  if (i > 0 && t - WS.t[i - 1] < WS.t[i] - t) return i - 1;
  return i;
}

function sampleText(i) {
  var s = (WS.thinned ? "a sample of " + int(nSamples())
                      : "sample " + int(i + 1) + " of " + int(WS.t.length)) + "\n" +
          "t     " + int(WS.t[i]) + unit() + "\n" +
          "insn  " + pages(WS.insn[i]) + " (" + kb(WS.insn[i]) + ")\n" +
          "data  " + pages(WS.data[i]) + " (" + kb(WS.data[i]) + ")";
  if (WS.shared) s += "\nshared " + int(WS.shared[i]) + " data pages";
  return s;
}

var hovered = null;                   /* {i, y}: shown again after a redraw */
function hover(xx, yy) {
  var i = nearest(tOf(xx));
  if (i >= 0) showSample(i, yy);
}
function showSample(i, yy) {
  hovered = { i: i, y: yy };
  var sx = geo.x(WS.t[i]);
  geo.cross.setAttribute("x1", sx); geo.cross.setAttribute("x2", sx);
  geo.cross.setAttribute("visibility", "visible");
  ["insn", "data"].forEach(function (k, p) {
    geo.dots[p].setAttribute("cx", sx);
    geo.dots[p].setAttribute("cy", geo.panels[p].yscale(WS[k][i]));
    geo.dots[p].setAttribute("visibility", "visible");
  });
  var tip = $("tip");
  tip.textContent = sampleText(i);
  tip.setAttribute("data-sample", i);
  tip.hidden = false;
  var left = sx + 14;
  if (left + tip.offsetWidth > geo.ml + geo.pw) left = sx - 14 - tip.offsetWidth;
  tip.style.left = left + "px";
  tip.style.top = Math.max(yy - tip.offsetHeight - 8, 0) + "px";
}
function unhover() {
  hovered = null;
  $("tip").hidden = true;
  if (!geo) return;
  geo.cross.setAttribute("visibility", "hidden");
  geo.dots.forEach(function (d) { d.setAttribute("visibility", "hidden"); });
}

function zoomTo(t0, t1) {
  var full = tEnd();
  t0 = Math.max(t0, 0); t1 = Math.min(t1, full);
  if (t1 - t0 < 2) { var c = (t0 + t1) / 2; t0 = Math.max(c - 1, 0); t1 = Math.min(c + 1, full); }
  view.t0 = t0; view.t1 = t1;
  draw();
}
function zoomBy(f) {
  var c = (view.t0 + view.t1) / 2, half = (view.t1 - view.t0) * f / 2;
  zoomTo(c - half, c + half);
}

/*---- Details of what was clicked ----*/

function regionText(label) {
  var r = regionByLabel[label];
  if (!r) return "No region line for \u201c" + label + "\u201d in the trailer" +
                 (WS.complete ? "." : " (the run did not finish).");
  return "Region \u201c" + label + "\u201d (all regions of this name): " + r.regions +
    " region(s), " + int(r.samples) + " samples; insn avg/peak/total " + apt(r.insn) +
    ", data avg/peak/total " + apt(r.data) + " pages.";
}
function details(lines, zoom) {
  var d = $("details");
  d.textContent = "";
  lines.forEach(function (l) { d.appendChild(typeof l === "string" ? h("div", {}, l) : l); });
  if (zoom) {
    var b = h("button", { type: "button" }, "Zoom to it");
    b.addEventListener("click", function () { zoomTo(zoom[0], zoom[1]); });
    d.appendChild(b);
  }
}
function around(t) { var w = Math.max((view.t1 - view.t0) / 8, 10); return [t - w, t + w]; }
/* A parameter and its value as the header names them: T and \u03c4 in the
   time unit, others (peak-thresh...) as ws names them. */
function paramText(param, v) {
  var name = { tau: "\u03c4", every: "T" }[param];
  return name ? name + " = " + int(v) + unit() : param + " = " + int(v);
}
/* The header's words for a parameter's changes: ", V from t = T" each. */
function changesOf(param) {
  return sets.filter(function (e) { return e.param === param; }).map(function (e) {
    return ", " + int(e.value) + unit() + " from t = " + int(e.t) + unit();
  }).join("");
}
/* tau at time t: the header's, or the last change before t. */
function tauAt(t) {
  var tau = WS.tau;
  sets.forEach(function (e) { if (e.param === "tau" && e.t <= t) tau = e.value; });
  return tau;
}
function showSet(k) {
  var e = sets[k];
  details([paramText(e.param, e.value) + " from t = " + int(e.t) + unit() + " on (ws set, v.clo or a " +
           "client request changed it; the header lists every change)."], around(e.t));
}
function showMark(k) {
  var m = marks[k];
  details(["Mark \u201c" + m.label + "\u201d at t = " + int(m.t) + unit() + ".", regionText(m.label)], around(m.t));
}
function showSpan(k) {
  var s = spans[k];
  details(["A region from t = " + int(s.t0) + " to " + int(s.t1) + unit() +
           (s.open ? " (still open at the end)" : "") + ", named \u201c" + s.label + "\u201d by its latest mark.",
           regionText(s.label)], [s.t0, s.t1]);
}
function showDump(k) {
  var d = dumps[k];
  var what = d.how === "file" ? "ws dump to the file " + d.path :
             d.how === "monitor" ? "ws dump to gdb or vgdb" :
             "WS_DUMP" + (d.label ? " \u201c" + d.label + "\u201d" : "") +
             ": " + int(d.insn) + " insn and " + int(d.data) + " data pages";
  details([what + " at t = " + int(d.t) + unit() + "."], around(d.t));
}
/* A code address as Valgrind shows it: function (file:line) or (in object). */
function whereText(w) {
  var loc = w.loc === "???" ? "" : w.loc.charAt(0) === "(" ? " (in " + w.loc.slice(1) : " (" + w.loc + ")";
  /* code without a symbol, named by its object and offset */
  if (w.loc.charAt(0) === "(" && w.fn.indexOf(w.loc.slice(1, -1) + "+0x") === 0) loc = "";
  return w.fn + loc;
}
/* The line that names a stack in a phrase: the program's own (own),
   else the first in a source file (not a header, where the C++
   library's templates are), else the innermost. */
function namingFrame(k, own) {
  var st = WS.stacks[k];
  if (own !== null && own !== undefined && st[own]) return st[own];
  for (var i = 0; i < st.length; i++)
    if (/^[^(]+\.([a-z+]+):\d+$/i.test(st[i].loc) &&
        !/\.(h|hh|hpp|hxx|h\+\+|tcc|inl|ipp|tpp):/i.test(st[i].loc)) return st[i];
  return st[0];
}
function ownerText(o) {
  switch (o.kind) {
  case "heap":
  case "freed":
    return (o.block === null ? o.kind + " blocks" : o.kind + " block " + o.block + " (" + int(o.size) +
            " bytes)") + " from " + whereText(namingFrame(o.stack, null));
  case "code": return o.name + " in " + o.object;
  case "heap-other": return "heap outside live blocks (allocator data, free memory)";
  case "global": return "global " + o.name;
  case "stack": return "stack of thread " + o.tid;
  case "file": return "file " + o.name;
  case "anon": return "anonymous memory";
  case "rest": return "the other owners";
  default: return o.kind;
  }
}
/* A stack, one line per frame; "->" marks the line own. */
function stackNode(k, own) {
  return h("div", { class: "frames" }, WS.stacks[k].map(function (f, i) {
    return (i === own ? "->" : "  ") + (i ? "by " : "at ") + f.ip + ": " + whereText(f) +
           (f.inline ? " [inlined]" : "");
  }).join("\n"));
}
function whyText(p) {
  var w = [];
  if (p.why.indexOf("largest") >= 0) w.push("the largest " + p.kind + " sample");
  p.regions.forEach(function (l) { w.push("the largest of region \u201c" + l + "\u201d"); });
  if (p.why.indexOf("detected") >= 0) w.push("flagged by the detector");
  return w.join(", ");
}
function peakTitle(n) {
  var p = WS.peaks[n];
  return "Peak #" + n + ": " + p.kind + " " + pages(p.size) + " (" + kb(p.size) + ") at t = " + int(p.t) + unit() +
    (p.why ? ", " + int(p.size - p.baseline) + " above a baseline of " + int(p.baseline) + "; " + whyText(p) : "") + ".";
}
function showPeak(n) {
  var p = WS.peaks[n], same = [], lines = [peakTitle(n)];
  if (p.why) {
    lines.push((p.rise ? "The working set rose in " : "At the sample, the program was in ") +
               whereText(namingFrame(p.stack, p.own)) + " (\u201c->\u201d: the first line in the program\u2019s own code):");
  } else {
    WS.peaks.forEach(function (q, m) { if (q.stack === p.stack && m !== n) same.push("#" + m); });
    lines.push("The running thread's call stack" +
               (same.length ? " (also of peak" + (same.length > 1 ? "s " : " ") + same.join(", ") + ")" : "") + ":");
  }
  lines.push(stackNode(p.stack, p.own));
  if (p.owners.length) {
    /* a live heap owner's bytes, and how many lie in the window */
    var windows = (WS.heapWindows || []).filter(function (w) { return w.peak === n; });
    if (!windows.length) {
      lines.push(p.kind === "insn" && p.why ? "Its code pages, by the function that brought each in:"
                                            : "The data working set at this sample, by owner:");
      lines.push(table(["pages", "kB", "owner"], p.owners.map(function (o) {
        return [int(o.pages), kb(o.pages), ownerText(o.owner)];
      }), null, [0, 0, 1]));
    } else {
      lines.push("The data working set at this sample, by owner (a heap owner's live bytes, allocated, " +
                 "and how many of them lie in the window, touched now):");
      lines.push(table(["pages", "kB", "live bytes", "in the window", "owner"], p.owners.map(function (o) {
        var w = o.owner.kind === "heap" ? windows.filter(function (x) { return x.stack === o.owner.stack; })[0] : null;
        return [int(o.pages), kb(o.pages), w ? int(w.live) : "", w ? int(w.window) : "", ownerText(o.owner)];
      }), null, [0, 0, 0, 0, 1]));
    }
    p.owners.forEach(function (o) {
      if (o.owner.kind !== "heap" && o.owner.kind !== "freed") return;
      lines.push(int(o.pages) + " pages of " + o.owner.kind + " blocks, allocated at:");
      lines.push(stackNode(o.owner.stack, -1));
    });
  }
  details(lines, around(p.t));
}
/* The peaks on the chart: all of a version 4 file's (a few of each
   kind); of an older file, which lists every peak the detector found,
   the 10 largest of each kind. */
function shownPeaks() {
  var all = WS.peaks.map(function (p, n) { return n; });
  if (WS.version >= 4) return all;
  var keep = [];
  ["insn", "data"].forEach(function (k) {
    keep = keep.concat(all.filter(function (n) { return WS.peaks[n].kind === k; })
      .sort(function (a, b) { return WS.peaks[b].size - WS.peaks[a].size || a - b; }).slice(0, 10));
  });
  return keep.sort(function (a, b) { return a - b; });
}
/* The largest peak of a kind: the one the file says is the largest
   sample, or (older files) the first of the largest size. */
function largestPeak(kind) {
  var best = -1;
  WS.peaks.forEach(function (p, n) {
    if (p.kind !== kind) return;
    if (p.why ? p.why.indexOf("largest") >= 0 : best < 0 || p.size > WS.peaks[best].size) best = n;
  });
  return best;
}
function isLargest(n) { return largestPeak(WS.peaks[n].kind) === n; }
function jumpToLargest() {
  var n = largestPeak("data");
  if (n < 0) n = largestPeak("insn");
  if (n < 0) { details(["The file lists no peak."]); return; }
  /* the peak's window (tau back from its sample) and two samples on
     each side: a few samples' worth of the run, whatever its length */
  var t = WS.peaks[n].t, i = lowerBound(WS.t, t), tau = tauAt(t);
  zoomTo(Math.min(WS.t[Math.max(i - 2, 0)], t - tau), WS.t[Math.min(i + 2, WS.t.length - 1)]);
  showPeak(n);
}
function clickAt(px) {
  for (var k = 0; k < marks.length; k++)
    if (Math.abs(geo.x(marks[k].t) - px) <= 4 && $("show-marks").checked) return showMark(k);
  var t = tOf(px);
  for (var j = 0; j < spans.length; j++)
    if (spans[j].t0 <= t && t <= spans[j].t1 && $("show-regions").checked) return showSpan(j);
}

/*---- Tables ----*/

/* left: per column, 1 to align it left (default: the first column). */
function table(head, rows, onclick, left) {
  var t = h("table"), tr = h("tr");
  var isLeft = function (i) { return left ? left[i] : !i; };
  head.forEach(function (c, i) { tr.appendChild(h("th", { class: isLeft(i) ? "l" : "" }, c)); });
  t.appendChild(tr);
  rows.forEach(function (r, k) {
    var row = h("tr", onclick ? { class: "click" } : {});
    r.forEach(function (c, i) { row.appendChild(h("td", { class: isLeft(i) ? "l" : "num" }, String(c))); });
    if (onclick) row.addEventListener("click", function () { onclick(k); });
    t.appendChild(row);
  });
  return t;
}

/* Pages in whole kB as ws's own summary gives them: sum pages over n
   samples (1: a count of pages), rounded half up from the unrounded sum,
   so that an average's kB is ws's and not those of its rounding. */
function kbOf(sum, n) {
  var d = Math.max(n, 1) * 1024;
  return int(Math.floor((sum * WS.pagesize + d / 2) / d)) + " kB";
}
function renderSummary() {
  var rows = [], s = WS.summary;
  ["insn", "data"].forEach(function (k) {
    var v = WS[k], peak = 0, sum = 0;
    for (var i = 0; i < v.length; i++) { peak = Math.max(peak, v[i]); sum += v[i]; }
    /* a thinned view's arrays hold some samples: the file's count, sum
       and peak come with it */
    var n = v.length;
    if (WS.thinned) { n = WS.thinned.samples; sum = WS.thinned[k][2]; peak = WS.thinned[k][1]; }
    var mean = n ? Math.round(sum / n * 10) / 10 : 0;
    var a = s && s[k] ? s[k] : [mean, peak, null];
    /* an older file's trailer may average other samples than its own */
    var avgKb = a[0] === mean ? kbOf(sum, n) : kbOf(a[0] * 10, 10);
    rows.push([k, a[0].toFixed(1), int(a[1]), a[2] === null ? "?" : int(a[2]),
               avgKb, kbOf(a[1], 1), a[2] === null ? "?" : kbOf(a[2], 1)]);
  });
  var box = $("summary");
  box.appendChild(table(["", "avg", "peak", "total", "avg", "peak", "total"], rows));
  if (s && s.insn_lines) {
    box.appendChild(table(["lines of " + int(WS.linesize) + " bytes", "avg", "peak", "total"],
      [["insn", s.insn_lines[0].toFixed(1), int(s.insn_lines[1]), int(s.insn_lines[2])],
       ["data", s.data_lines[0].toFixed(1), int(s.data_lines[1]), int(s.data_lines[2])]]));
    box.appendChild(h("p", { class: "hint" }, "Data density " + s.density.toFixed(3) +
      ": the lines in the window over the lines of the pages in it (1: every line of every page used)."));
  }
  box.appendChild(h("p", { class: "hint" }, "Pages of " + int(WS.pagesize) + " bytes, then kB. " +
    (s ? "From the trailer." : "Computed from the samples; the totals of distinct pages are only in a trailer.") +
    " " + int(nSamples()) + " samples." + (WS.thinned ? " The chart draws, of each of " +
    int(WS.thinned.buckets) + " equal spans of the run, its first and last samples and those with " +
    "the smallest and largest values." : "")));
}

function renderRegions() {
  var box = $("regions");
  if (!WS.regions.length) {
    box.appendChild(h("p", { class: "hint" }, WS.complete ?
      "None: a region is named by the latest WS_MARK when WS_STOP ends it." :
      "None in the file: regions are written at exit."));
    return;
  }
  var lines = WS.regions.length && WS.regions[0].insn_lines;
  box.appendChild(table(["label", "regions", "samples", "insn avg/peak/total", "data avg/peak/total"]
      .concat(lines ? ["insn lines", "data lines"] : []),
    WS.regions.map(function (r) {
      return [r.label, r.regions, int(r.samples), apt(r.insn), apt(r.data)]
        .concat(lines ? [apt(r.insn_lines), apt(r.data_lines)] : []);
    }), function (k) {
      var label = WS.regions[k].label, first = null;
      spans.forEach(function (s, j) { if (s.label === label && first === null) first = j; });
      if (first !== null) showSpan(first); else details([regionText(label)]);
    }));
}

/*---- Locality curves: log2 x, linear y ----*/

function curvePlot(parent, xs, series, xname, knees) {
  var W = 340, H = 170, ml = 48, mr = 44, mt = 10, mb = 30, pw = W - ml - mr, ph = H - mt - mb;
  var svg = el("svg", { width: W, height: H }, parent);
  var lo = Math.log2(xs[0]), hi = Math.max(Math.log2(xs[xs.length - 1]), lo + 1);
  var x = function (v) { return ml + (Math.log2(v) - lo) / (hi - lo) * pw; };
  knees.forEach(function (k) {
    el("rect", { class: "knee", x: x(k.tau_from), y: mt, width: x(k.tau_to) - x(k.tau_from), height: ph }, svg);
  });
  el("line", { x1: ml, x2: ml + pw, y1: mt + ph, y2: mt + ph, class: "axis" }, svg);
  el("line", { x1: ml, x2: ml, y1: mt, y2: mt + ph, class: "axis" }, svg);
  for (var e = Math.ceil(lo); e <= hi; e += Math.max(1, Math.ceil((hi - lo) / 6)))
    el("text", { x: x(Math.pow(2, e)), y: mt + ph + 13, "text-anchor": "middle" }, svg, "2^" + e);
  el("text", { x: ml + pw / 2, y: H - 3, "text-anchor": "middle" }, svg, xname);
  series.forEach(function (s, k) {
    var top = Math.max.apply(null, s.vals.concat([s.max || 0])) || 1;
    var y = function (v) { return mt + ph - v / top * ph; };
    el("polyline", { class: s.cls, "data-points": s.vals.length, points: s.vals.map(function (v, i) {
      return x(xs[i]).toFixed(1) + "," + y(v).toFixed(1); }).join(" ") }, svg);
    el("text", { x: k ? ml + pw + 4 : ml - 4, y: mt + 9, "text-anchor": k ? "start" : "end" }, svg,
       top >= 100 ? int(top) : +top.toFixed(3));
    el("text", { x: k ? ml + pw + 4 : ml - 4, y: mt + ph, "text-anchor": k ? "start" : "end" }, svg, "0");
  });
}

function renderCurves() {
  if (!WS.curves || !WS.curves.length) return;
  $("curves-section").hidden = false;
  WS.curves.forEach(function (c) {
    var box = $("curves").appendChild(h("div", { class: "curve" }));
    var what = (c.kind === "insn" ? "code " : "data ") + c.unit + "s";
    box.appendChild(h("div", {}, c.scope + ", " + what));
    if (c.estimate) {
      var e = c.points[0];
      box.appendChild(h("p", { class: "hint" }, "Estimated from observed windows (--ws-curves=sampled): "
        + "one standard error of s at \u03c4 = " + e.tau + " is " + (e.s_err === undefined ? "unknown" : e.s_err)
        + ", of m " + (e.m_err === undefined ? "unknown" : e.m_err) + "; each value's error is in the text report."
        + (c.points.some(function (p) { return p.from === "epochs"; })
           ? " The longer \u03c4 come from ws's epochs: surely within their errors (from epochs), or only a range between"
             + " the windows and the epochs (from bounds), whose middle is drawn." : "")));
    }
    curvePlot(box, c.points.map(function (p) { return p.tau; }),
              [{ cls: "m", vals: c.points.map(function (p) { return p.m; }) },
               { cls: "s", vals: c.points.map(function (p) { return p.s; }) }],
              "\u03c4 (instructions)", c.knees);
    curvePlot(box, c.lru.map(function (p) { return p.size; }),
              [{ cls: "m", vals: c.lru.map(function (p) { return p.miss; }), max: 1 }],
              "LRU cache size (" + c.unit + "s)", []);
    c.knees.forEach(function (k) { box.appendChild(h("p", { class: "hint knee-text" }, k.text)); });
  });
}

function eventText(e) {
  switch (e.kind) {
  case "mark": return "mark " + e.label;
  case "set": return "set " + e.param + " " + int(e.value);
  case "dump": return e.how === "label" ? "WS_DUMP " + e.label : e.how === "file" ? "ws dump " + e.path : "ws dump (monitor)";
  case "thread-start": case "thread-exit": return e.kind + " " + e.tid;
  case "peak": return "peak #" + e.peak;
  case "other": return e.text;
  default: return e.kind;
  }
}
function renderEvents() {
  var box = $("events"), shown = WS.events.slice(0, 500);
  var threads = WS.events.filter(function (e) { return e.kind === "thread-start"; }).length;
  box.appendChild(h("p", { class: "hint" }, int(WS.events.length) + " events, " + threads +
    " thread start(s)." + (WS.events.length > 500 ? " The first 500:" : "") + " Click one to zoom to it."));
  if (!shown.length) return;
  box.appendChild(table(["t", "event"], shown.map(function (e) { return [int(e.t), eventText(e)]; }),
    function (k) { var r = around(shown[k].t); details([eventText(shown[k]) + " at t = " + int(shown[k].t) + unit()], r); zoomTo(r[0], r[1]); }));
  box.querySelectorAll("td:first-child").forEach(function (td) { td.className = "num"; });
}

function renderPeaks() {
  if (!WS.peaks.length) return;
  $("peaks-section").hidden = false;
  if (WS.version < 4) {
    $("peaks").appendChild(h("p", { class: "hint" }, WS.peaks.length + " peaks, each at its largest sample " +
      "(the chart marks the 10 largest of each kind). Click one for its call stack and what the data " +
      "working set held."));
    $("peaks").appendChild(table(["#", "t", "kind", "pages", "kB", "innermost function"],
      WS.peaks.map(function (p, n) {
        return ["#" + n, int(p.t), p.kind, int(p.size), kb(p.size), whereText(WS.stacks[p.stack][0])];
      }), function (n) { showPeak(n); }, [1, 0, 1, 0, 0, 1]));
    return;
  }
  $("peaks").appendChild(h("p", { class: "hint" }, "Of each kind the largest samples, then the peaks that " +
    "stand out most (pages above the detector\u2019s baseline), the most prominent first" +
    (WS.found !== null ? "; the detector found " + int(WS.found) : "") +
    ". Click one (or its marker on the chart) for where the working set rose and what its window held."));
  $("peaks").appendChild(table(["#", "kind", "t", "pages", "kB", "above baseline", "why", "where it rose"],
    WS.peaks.map(function (p, n) {
      return ["#" + n, p.kind, int(p.t), int(p.size), kb(p.size), int(p.size - p.baseline), whyText(p),
              whereText(namingFrame(p.stack, p.own))];
    }), function (n) { showPeak(n); }, [1, 1, 0, 0, 0, 0, 1, 1]));
}

/* The hot pages of each kind, hottest first, as the trailer lists them. */
function renderHot() {
  if (!WS.hot.length) return;
  $("hot-section").hidden = false;
  [["insn", "Hot instruction pages (accesses: instructions executed from the page)"],
   ["data", "Hot data pages (accesses: loads and stores)"]].forEach(function (k) {
    var rows = WS.hot.filter(function (p) { return p.kind === k[0]; });
    if (!rows.length) return;
    $("hot").appendChild(h("p", { class: "hint" }, k[1]));
    var head = ["rank", "accesses", "page", "first accessed in"];
    if (k[0] === "data") head.push("owner");
    var t = table(head, rows.map(function (p) {
      var r = [p.rank, int(p.accesses), p.addr, whereText(p)];
      if (p.owner) r.push(ownerText(p.owner));
      return r;
    }), null, [0, 0, 0, 1, 1]);
    t.id = "hot-" + k[0];
    $("hot").appendChild(t);
  });
}

/* One checkbox per thread id: its lines in both panels. */
function renderThreads() {
  if (!WS.threads.length) return;
  var box = $("threads");
  box.hidden = false;
  WS.threads.forEach(function (th, k) {
    threadShown[k] = WS.threads.length <= 16;
    var cb = h("input", { type: "checkbox", id: "thread-" + th.tid });
    cb.checked = threadShown[k];
    cb.addEventListener("change", function () { threadShown[k] = cb.checked; draw(); });
    var lab = h("label");
    var sw = h("span", { class: "swatch" });
    sw.style.background = threadColor(k);
    lab.appendChild(cb); lab.appendChild(sw); lab.appendChild(document.createTextNode(String(th.tid)));
    box.appendChild(lab);
  });
}

/*---- Test hook: ?test=hover:N, zoom:T0:T1, click:mark:K, click:set:K,
       click:span:K, click:peak:K, threads:on (every thread's toggle on), click:site:K
       (the K-th row of the heap table), click:node:K (the K-th frame of
       the flame graph), heap:size|rank|colour:KEY, click:routine:K (the
       K-th row of the routines table), joined by ;
       ----*/

function runTests(spec) {
  var out = { samples: WS.t.length, points: {}, pointsAll: {}, hover: null };
  ["insn", "data"].forEach(function (k) { out.pointsAll[k] = +$("line-" + k).getAttribute("data-points"); });
  spec.split(";").forEach(function (cmd) {
    var a = cmd.split(":");
    if (a[0] === "zoom") zoomTo(+a[1], +a[2]);
    if (a[0] === "jump") { $("jump-largest").click(); out.details = $("details").textContent; out.view = [view.t0, view.t1]; }
    if (a[0] === "log" && !logScale()) $("log-scale").click();
    if (a[0] === "threads")
      document.querySelectorAll("#threads input").forEach(function (cb) {
        if (!cb.checked) cb.click();
      });
    if (a[0] === "heap") {            /* heap:size:KEY, heap:rank:KEY, heap:colour:KEY */
      $("heap-" + a[1]).value = a[2];
      $("heap-" + a[1]).dispatchEvent(new Event("change"));
    }
    if (a[0] === "click" && a[1] === "routine") {
      $("routine-table").querySelector("table").rows[1 + (+a[2])].click();
    } else if (a[0] === "click" && (a[1] === "site" || a[1] === "node")) {
      if (a[1] === "site") $("heap-sites").rows[1 + (+a[2])].click();
      else document.querySelector("#flame g[data-node='" + (+a[2]) + "']").dispatchEvent(new MouseEvent("click", { bubbles: true }));
      out.details = $("heap-details").textContent;
    } else if (a[0] === "click") {
      var cls = { mark: "flag", set: "flag", span: "span", peak: "peak" }[a[1]];
      var g = document.querySelector("g." + cls + "[data-" + a[1] + "='" + (+a[2]) + "']");
      if (g) g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      out.details = $("details").textContent;
    }
    if (a[0] === "hover") {
      /* as a person would: zoom in first when samples are too close
         together to point at one (less than 4 pixels apart) */
      var i = +a[1], n = WS.t.length, gap = Infinity;
      if (i > 0) gap = geo.x(WS.t[i]) - geo.x(WS.t[i - 1]);
      if (i + 1 < n) gap = Math.min(gap, geo.x(WS.t[i + 1]) - geo.x(WS.t[i]));
      if (gap < 4 || geo.x(WS.t[i]) < geo.ml || geo.x(WS.t[i]) > geo.ml + geo.pw)
        zoomTo(WS.t[Math.max(i - 20, 0)], WS.t[Math.min(i + 20, n - 1)]);
      var r = $("chart").getBoundingClientRect();
      var mid = geo.panels[1].y + geo.panels[1].h / 2;
      $("layer").dispatchEvent(new MouseEvent("mousemove", {
        bubbles: true, clientX: r.left + geo.x(WS.t[i]), clientY: r.top + mid }));
      out.hover = $("tip").hidden ? null : $("tip").textContent;
      out.hoverSample = +$("tip").getAttribute("data-sample");
    }
  });
  ["insn", "data"].forEach(function (k) { out.points[k] = +$("line-" + k).getAttribute("data-points"); });
  /* what the page shows: peak markers, hot table rows, thread series */
  out.peakMarkers = document.querySelectorAll("#chart g.peak").length;
  /* each marker's label as drawn (null: none), and the plot's x range */
  out.peakLabels = Array.prototype.map.call(document.querySelectorAll("#chart g.peak"), function (g) {
    var t = g.querySelector("text"), b = t ? t.getBBox() : null;
    return { peak: +g.getAttribute("data-peak"), text: t ? t.textContent : null,
             box: b ? [b.x, b.y, b.x + b.width, b.y + b.height] : null };
  });
  out.plot = [geo.ml, geo.ml + geo.pw];
  out.meta = $("meta").textContent;
  out.setFlags = Array.prototype.map.call(document.querySelectorAll("#chart g.set"), function (g) {
    var t = g.querySelector("text");
    return { set: +g.getAttribute("data-set"), text: t ? t.textContent : null };
  });
  out.largestMarkers = Array.prototype.map.call(document.querySelectorAll("#chart g.peak.largest"),
    function (g) { return +g.getAttribute("data-peak"); });
  out.hot = {};
  ["insn", "data"].forEach(function (k) {
    var t = $("hot-" + k);
    out.hot[k] = t ? Array.prototype.slice.call(t.rows, 1).map(function (r) {
      return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
    }) : [];
  });
  out.threadSeries = {};
  document.querySelectorAll("#chart path.thread").forEach(function (p) {
    var tid = p.getAttribute("data-tid");
    out.threadSeries[tid] = (out.threadSeries[tid] || 0) + 1;
  });
  out.threadToggles = document.querySelectorAll("#threads input").length;
  /* the heap section: its table's rows and the flame graph's frames */
  var ht = $("heap-sites");
  out.heapSites = ht ? Array.prototype.slice.call(ht.rows, 1).map(function (r) {
    return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
  }) : [];
  out.flame = flameNodes.map(function (n, k) {
    var r = document.querySelector("#flame g[data-node='" + k + "'] rect");
    return { name: n.name, value: n.value, sites: n.sites.length, width: +r.getAttribute("width"),
             fill: r.getAttribute("fill") };
  });
  out.heapHidden = $("heap-section").hidden;
  /* the heap over time: its curve's points and what its peak says */
  var hl = $("heap-line"), hp = document.querySelector("#heap-curve g.peak title");
  out.heapTime = { hidden: $("heap-time-section").hidden, points: hl ? +hl.getAttribute("data-points") : 0,
                   peak: hp ? hp.textContent : null };
  /* the chunk timeline: the site shown, its rows, ticks, tooltips and
     live-bytes line; the flame graph's legend */
  var sl = $("heap-site-line");
  out.timeline = { hidden: $("heap-timeline-box").hidden,
                   site: HTsite === null ? null : WS.heapSites[HTsite].id,
                   rows: document.querySelectorAll("#heap-timeline g.chunk").length,
                   ticks: document.querySelectorAll("#heap-timeline line.tick").length,
                   tips: Array.prototype.map.call(document.querySelectorAll("#heap-timeline g.chunk title"),
                                                  function (t) { return t.textContent; }),
                   fills: Array.prototype.map.call(document.querySelectorAll("#heap-timeline g.chunk rect"),
                                                   function (r) { return r.getAttribute("fill"); }),
                   siteLine: sl ? +sl.getAttribute("data-points") : 0 };
  out.heapColour = $("heap-colour").value;
  out.heapLegend = $("heap-legend-score").hidden ? null : $("heap-legend-score").querySelectorAll(".swatch").length;
  /* the routines section: its table's rows and what the plot drew */
  var rt = $("routine-table").querySelector("table");
  out.routines = rt ? Array.prototype.slice.call(rt.rows, 1).map(function (r) {
    return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
  }) : [];
  out.routinesHidden = $("routines-section").hidden;
  out.routinePlot = routinePlot;
  out.heapHint = $("heap-hint").textContent;
  out.summaryRows = Array.prototype.slice.call($("summary").querySelector("table").rows, 1).map(function (r) {
    return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
  });
  var tables = $("summary").querySelectorAll("table");
  out.summaryLineRows = tables.length > 1 ? Array.prototype.slice.call(tables[1].rows, 1).map(function (r) {
    return Array.prototype.map.call(r.cells, function (c) { return c.textContent; });
  }) : [];
  out.summaryText = $("summary").textContent;
  out.curves = Array.prototype.map.call(document.querySelectorAll("#curves .curve"), function (b) {
    return { title: b.firstChild.textContent,
             lines: Array.prototype.map.call(b.querySelectorAll("polyline"), function (p) { return +p.getAttribute("data-points"); }),
             knees: Array.prototype.map.call(b.querySelectorAll(".knee-text"), function (p) { return p.textContent; }) };
  });
  out.errors = errors;
  $("ws-test").textContent += JSON.stringify(out);
}

/*---- Start ----*/

function start() {
  if (!WS) { $("status").textContent = "No data: this is the template; ws_print --html fills it in."; return; }
  document.title = "ws report: " + WS.command;
  $("cmd").textContent = WS.command;
  derive();
  $("meta").textContent = WS.file + " \u00b7 pid " + WS.pid + " \u00b7 T = " + int(WS.every) + unit() +
    changesOf("every") + " \u00b7 \u03c4 = " + int(WS.tau) + unit() + changesOf("tau") + " \u00b7 pages of " +
    int(WS.pagesize) + " bytes \u00b7 " + int(nSamples()) + " samples \u00b7 " + WS.tool;
  if (!WS.complete) {
    $("status").className = "warn";
    $("status").textContent = "The run did not finish: the file has no trailer" +
      (WS.cutLine ? " and its cut last line was left out" : "") + ". Showing what is there.";
  }
  renderThreads();
  view.t0 = 0; view.t1 = tEnd();
  draw();
  renderSummary(); renderRegions(); renderEvents(); renderPeaks(); renderHot(); renderHeapTime(); renderHeap(); renderRoutines();
  renderCurves();
  $("zoom-in").addEventListener("click", function () { zoomBy(0.5); });
  $("zoom-out").addEventListener("click", function () { zoomBy(2); });
  $("reset").addEventListener("click", function () { zoomTo(0, tEnd()); });
  $("show-regions").addEventListener("change", draw);
  $("show-marks").addEventListener("change", draw);
  $("show-peaks").addEventListener("change", draw);
  $("log-scale").addEventListener("change", draw);
  $("jump-largest").addEventListener("click", jumpToLargest);
  window.addEventListener("resize", draw);
  var m = /[?&]test=([^&]*)/.exec(location.search);
  if (m) runTests(decodeURIComponent(m[1]));
}
start();

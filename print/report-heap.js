/*
  The heap usage section of ws_print's HTML report (version 4 files): the
  allocation sites' flame graph and table.  print/embed.sh puts this file
  into print/report.html where it says so, as a script of its own before
  the report's main script, whose helpers ($, h, el, table, int, unit,
  whereText, stackNode) it uses when start() calls renderHeap().  Part of
  ws; GNU GPL v2 or later.
*/
"use strict";

var HEAP_KEYS = { wasted: "bytes never touched", idle: "bytes idle after their last use",
                  bytes: "bytes allocated", neverBytes: "bytes in chunks never touched" };
/* The Memoro paper's severity indicator: 12 colours from blue (a score
   of 1) through green and yellow to red (0); a score's colour is number
   floor((1 - score) x 12), 11 at most. */
var SEVERITY = ["#2b6cb0", "#2f8fbf", "#38a9b4", "#3fae86", "#4fae55", "#84bd45",
                "#b7c93c", "#e2d23a", "#f2b736", "#ef9130", "#e3652b", "#cc3125"];
function severity(score) { return Math.min(11, Math.floor((1 - score) * 12)); }
function siteValue(s, key) { return s[key] === null || s[key] === undefined ? 0 : s[key]; }
function milli(x) { return x.toFixed(3); }
/* A site's usage; with chunks below the resolution it is a bound. */
function usageText(s) { return (s.below ? "\u2264 " : "") + milli(s.usage); }
/* A site's score for the flame graph's colours, 0 (wasted) to 1 (well
   used): usage, useful lifetime, or (the default) the worst of those and
   of the share of its chunks ever read, so that a site whose chunks are
   only written (a cache never consulted) or never touched is red however
   fully and however long it wrote them. */
function siteScore(s, colour) {
  if (colour === "score") return s.score === null ? 1 : s.score;
  if (colour !== "worst") return s[colour];
  var read = s.chunks ? (s.chunks - s.never - s.writeOnly) / s.chunks : 1;
  return Math.min(s.usage, s.useful, read);
}
function siteLines(s) {
  var u = unit();
  return ["Site " + s.id + ": " + int(s.chunks) + (s.chunks === 1 ? " chunk, " : " chunks, ") +
            int(s.bytes) + " bytes allocated, peak live " + int(s.peakLive) + " bytes" +
            (s.exitLive !== null ? ", " + int(s.exitLive) + " live at exit" : "") + ".",
          "usage " + (s.below ? "at most " : "") + milli(s.usage) + " (" + int(s.wasted) +
            " bytes never touched), useful " + milli(s.useful) + " (" + int(s.idle) +
            " bytes idle after their last use)."].concat(
          s.below ? [int(s.below) + (s.below === 1 ? " chunk" : " chunks") + " below the resolution (" +
                     (s.below === 1 ? "its" : "their") + " figures are bounds)."] : [],
          ["never touched " + int(s.never) + ", read-only " + int(s.readOnly) + ", write-only " +
            int(s.writeOnly) + ", by several threads " + int(s.threads) + " chunks.",
          "On average: lifetime " + int(s.lifetime) + u + ", first access " + int(s.firstDelay) + u +
            " after allocation, idle " + int(s.idleTail) + u + " before the free.",
          "Allocated at:", stackNode(s.stack)].concat(
          s.marks && s.marks.length ? ["Marked: in the top 90th percentile of the sites by " +
                                       s.marks.join(" and by ") + "."] : []));
}
function heapDetails(lines) {
  var d = $("heap-details");
  d.textContent = "";
  lines.forEach(function (l) { d.appendChild(typeof l === "string" ? h("div", {}, l) : l); });
}
function showSite(k) { heapDetails(siteLines(WS.heapSites[k])); }

/* The tree of allocation stacks, outermost frame first, a frame named
   as the text report names it (function and file:line, so that each
   allocation site is a frame of its own); each node with the sites
   whose stacks pass through it. */
function heapTree() {
  var root = { name: "all sites", kids: [], byName: Object.create(null), sites: [] };
  WS.heapSites.forEach(function (s, k) {
    var frames = WS.stacks[s.stack], node = root;
    root.sites.push(k);
    for (var i = frames.length - 1; i >= 0; i--) {
      var name = whereText(frames[i]), next = node.byName[name];
      if (!next) {
        next = { name: name, kids: [], byName: Object.create(null), sites: [] };
        node.byName[name] = next;
        node.kids.push(next);
      }
      next.sites.push(k);
      node = next;
    }
  });
  return root;
}
var flameNodes = [];
function drawFlame() {
  var svg = $("flame"), size = $("heap-size").value, colour = $("heap-colour").value;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  flameNodes = [];
  var root = heapTree(), W = svg.clientWidth || 900, rowH = 18, depth = 0;
  function value(n) {
    var v = 0;
    n.sites.forEach(function (k) { v += siteValue(WS.heapSites[k], size); });
    return v;
  }
  function measure(n, d) {
    n.value = value(n);
    depth = Math.max(depth, d);
    n.kids.forEach(function (c) { measure(c, d + 1); });
    n.kids.sort(function (a, b) { return b.value - a.value || (a.name < b.name ? -1 : 1); });
  }
  measure(root, 0);
  var H = (depth + 1) * rowH + 4;
  svg.setAttribute("height", H);
  if (!root.value) {
    el("text", { x: 4, y: 14 }, svg, "No site has any " + HEAP_KEYS[size] + ".");
    return;
  }
  function score(n) {                /* the sites' score, weighted by bytes */
    var sum = 0, w = 0;
    n.sites.forEach(function (k) { var s = WS.heapSites[k]; sum += siteScore(s, colour) * s.bytes; w += s.bytes; });
    return w ? sum / w : 1;
  }
  function place(n, x0, d, scale) {
    var w = n.value * scale;
    if (w < 0.5) return;
    var sc = score(n), g = el("g", { "data-node": flameNodes.length }, svg);
    flameNodes.push(n);
    el("rect", { x: x0, y: H - (d + 1) * rowH, width: Math.max(w, 0.5), height: rowH - 1,
                 fill: colour === "score" ? SEVERITY[severity(sc)]
                       : "hsl(" + (sc * 120).toFixed(0) + "," + (sc > 0.5 ? 55 : 75) + "%,55%)" }, g);
    if (w > 30) {
      var chars = Math.floor((w - 6) / 6.6), label = n.name.length > chars ? n.name.slice(0, Math.max(chars - 1, 1)) + "\u2026" : n.name;
      el("text", { x: x0 + 3, y: H - d * rowH - 5 }, g, label);
    }
    var mk = n.sites.length === 1 ? WS.heapSites[n.sites[0]].marks || [] : [];
    el("title", {}, g, n.name + "\n" + int(n.value) + " " + HEAP_KEYS[size] + " (" +
       (n.value / root.value * 100).toFixed(1) + "%)\n" + (colour === "worst" ? "score" : colour) + " " +
       milli(sc) + ", " +
       n.sites.length + (n.sites.length === 1 ? " site" : " sites") +
       (mk.length ? "\nmarked: top 90th percentile of " + mk.join(" and of ") : ""));
    var idx = flameNodes.length - 1;
    g.addEventListener("click", function () { chooseNode(idx); });
    var x = x0;
    n.kids.forEach(function (c) { place(c, x, d + 1, scale); x += c.value * scale; });
  }
  place(root, 0, 0, W / root.value);
  $("heap-legend-score").hidden = colour !== "score";
  $("heap-legend-bar").hidden = colour === "score";
}
/* The legend of the severity colours: score 1 to 0, left to right. */
function severityLegend() {
  var box = $("heap-legend-score");
  box.appendChild(document.createTextNode("score 1 "));
  SEVERITY.forEach(function (c, k) {
    var sw = h("span", { class: "swatch", title: "score " + (1 - k / 12).toFixed(3) + " to " +
                         (k === 11 ? "0" : (1 - (k + 1) / 12).toFixed(3)) });
    sw.style.background = c;
    box.appendChild(sw);
  });
  box.appendChild(document.createTextNode(" 0"));
}
function chooseNode(idx) {
  var n = flameNodes[idx];
  document.querySelectorAll("#flame g.chosen").forEach(function (g) { g.removeAttribute("class"); });
  var g = document.querySelector("#flame g[data-node='" + idx + "']");
  if (g) g.setAttribute("class", "chosen");
  if (n.sites.length === 1) return showSite(n.sites[0]);
  var size = $("heap-size").value;
  var sites = n.sites.slice().sort(function (a, b) {
    return siteValue(WS.heapSites[b], size) - siteValue(WS.heapSites[a], size); });
  heapDetails([n.name + ": " + n.sites.length + " sites, " + int(n.value) + " " + HEAP_KEYS[size] +
               ". Click a site for its figures and stack.",
               table(["site", HEAP_KEYS[size], "bytes", "usage", "useful", "innermost function"],
                     sites.map(function (k) {
                       var s = WS.heapSites[k];
                       return [s.id, int(siteValue(s, size)), int(s.bytes), usageText(s), milli(s.useful),
                               whereText(WS.stacks[s.stack][0])];
                     }), function (r) { showSite(sites[r]); }, [0, 0, 0, 0, 0, 1])]);
}
var heapRows = [];
function renderHeapTable() {
  var key = $("heap-rank").value, box = $("heap-table");
  box.textContent = "";
  heapRows = WS.heapSites.map(function (s, k) { return k; }).sort(function (a, b) {
    var sa = WS.heapSites[a], sb = WS.heapSites[b];
    return siteValue(sb, key) - siteValue(sa, key) || sb.bytes - sa.bytes || sa.id - sb.id;
  });
  var t = table(["site", HEAP_KEYS[key], "chunks", "bytes", "peak live", "usage", "useful",
                 "never", "read-only", "write-only", "threads", "innermost function", "marked"],
    heapRows.map(function (k) {
      var s = WS.heapSites[k];
      return [s.id, int(siteValue(s, key)), int(s.chunks), int(s.bytes), int(s.peakLive),
              usageText(s), milli(s.useful), int(s.never), int(s.readOnly), int(s.writeOnly),
              int(s.threads), whereText(WS.stacks[s.stack][0]),
              s.marks && s.marks.length ? "\u2691 " + s.marks.join(", ") : ""];
    }), function (r) { showSite(heapRows[r]); }, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
  t.id = "heap-sites";
  box.appendChild(t);
}
/* How many sites the paper's marks flag, in words ("" for none). */
function marksHint() {
  var n = WS.heapSites.filter(function (s) { return s.marks && s.marks.length; }).length;
  return n ? " " + int(n) + (n === 1 ? " site is" : " sites are") + " marked \u2691: in the top 90th " +
    "percentile of the sites by peak-live bytes or by chunks, as the Memoro paper marks them." : "";
}
function renderHeap() {
  if (!WS.heapSites.length && WS.heapUsage !== false) return;
  $("heap-section").hidden = false;
  if (!WS.heapSites.length) {
    $("heap-hint").textContent = "Heap usage was not followed in this run (--ws-heap=no or --ws-heap-usage=no).";
    $("heap-controls").hidden = true;
    return;
  }
  var scored = WS.heapSites.every(function (s) { return s.score !== null && s.score !== undefined; });
  if (!scored) $("heap-colour").querySelector("option[value='score']").remove();
  else $("heap-colour").value = "score";
  severityLegend();
  var bytes = 0, wasted = 0, idle = 0, chunks = 0;
  WS.heapSites.forEach(function (s) { bytes += s.bytes; wasted += s.wasted; idle += s.idle; chunks += s.chunks; });
  $("heap-hint").textContent = int(WS.heapSites.length) + (WS.heapSites.length === 1 ? " allocation site, " :
    " allocation sites, ") + int(chunks) + (chunks === 1 ? " chunk, " : " chunks, ") +
    int(bytes) + " bytes allocated: " + int(wasted) + " bytes never touched, " + int(idle) +
    " bytes idle after their last use. Figures at the granularity of the " + int(WS.pagesize) +
    "-byte pages (see the manual)." + marksHint();
  drawFlame();
  renderHeapTable();
  $("heap-size").addEventListener("change", drawFlame);
  $("heap-colour").addEventListener("change", drawFlame);
  $("heap-rank").addEventListener("change", renderHeapTable);
  window.addEventListener("resize", drawFlame);
}

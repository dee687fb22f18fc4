"""The gallery's stylesheet and script (written once to ``assets/``; no CDN, no web fonts).

The script works from ``file://``: it reads the JSON embedded in the page
(``<script type="application/json" id="svot-data">``), never fetches anything.

* **Filter.** ``#domain=sokoban&split=test_id`` (also ``size=5``; a value may
  list several, ``split=test_id,test_ood``; a ``?query`` works the same when
  there is no hash) hides every ``.card`` whose ``data-domain`` / ``data-size`` /
  ``data-split`` does not match. On the index the selects filter in place (and
  update the hash); on a dataset page they open the page of the chosen
  domain × size × split (or the index, filtered, when there is none).
  ``<body data-filter="...">`` and ``#svot-count`` show what is applied.
* **Image check.** After ``load``, ``#svot-status`` gets ``data-images-total``,
  ``data-images-loaded`` (``complete && naturalWidth > 0``) and
  ``data-images-broken``, and says so in words; ``data-ready="1"`` marks it done.
"""

CSS = """\
:root {
  --bg: #f6f7f9; --fg: #1d232b; --muted: #5b6573; --card: #ffffff; --line: #d9dee5;
  --ok: #1f7a3a; --ok-bg: #e3f4e8; --bad: #b3261e; --bad-bg: #fbe7e6; --accent: #2457a6;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); }
header.top { padding: 14px 20px 10px; background: var(--card); border-bottom: 1px solid var(--line); }
header.top h1 { margin: 0 0 4px; font-size: 20px; }
header.top .crumbs { font-size: 13px; color: var(--muted); }
nav.filter { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 10px 20px;
  background: #eef1f5; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
nav.filter label { font-size: 13px; color: var(--muted); }
nav.filter select { font: inherit; padding: 2px 4px; }
#svot-count, #svot-status { font-size: 13px; color: var(--muted); }
#svot-status[data-images-broken]:not([data-images-broken="0"]) { color: var(--bad); font-weight: 600; }
main { padding: 16px 20px 40px; }
.grid { display: grid; gap: 16px; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); align-items: start; }
.grid.tiles { grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 0; }
.card[hidden] { display: none; }
.card h2 { font-size: 15px; margin: 0 0 6px; word-break: break-all; }
.card h2 a { text-decoration: none; }
.badges { display: flex; flex-wrap: wrap; gap: 4px; margin-bottom: 8px; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 9px; background: #e8ecf2; color: var(--muted); }
.badge.ood { background: #fff1d6; color: #8a5a00; }
.badge.bad { background: var(--bad-bg); color: var(--bad); }
.strip { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0 10px; }
figure.frame { margin: 0; width: 84px; text-align: center; }
figure.frame img { width: 84px; height: 84px; image-rendering: pixelated; border: 2px solid var(--line); border-radius: 4px; display: block; background: #fff; }
figure.frame.start img { border-color: var(--accent); }
figure.frame.bad img { border-color: var(--bad); }
figure.frame figcaption { font-size: 11px; color: var(--muted); line-height: 1.2; margin-top: 2px; }
figure.frame.bad figcaption { color: var(--bad); }
.actions { margin: 0 0 8px; }
.actions ol { display: inline; padding: 0; margin: 0; list-style: none; }
.actions li { display: inline; }
.actions li + li::before { content: " \\2192  "; color: var(--muted); }
.actions li.bad { color: var(--bad); }
.actions li.bad span { text-decoration: line-through; }
pre { white-space: pre-wrap; margin: 0; font: 12px/1.35 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--muted); font-size: 13px; }
table.steps { border-collapse: collapse; width: 100%; margin: 4px 0 8px; table-layout: fixed; }
table.steps th, table.steps td { border-top: 1px solid var(--line); padding: 5px 6px; vertical-align: top; text-align: left; }
table.steps th { font-size: 12px; color: var(--muted); font-weight: 600; }
table.steps col.n { width: 76px; } table.steps col.img { width: 64px; } table.steps col.state { width: 34%; }
table.steps td.img img { width: 56px; height: 56px; image-rendering: pixelated; border: 1px solid var(--line); border-radius: 3px; display: block; }
table.steps tr.bad td.n { color: var(--bad); }
.cz { margin: 0 0 4px; }
.cv { margin: 0; color: var(--muted); font-size: 12px; }
.goal { margin: 0 0 6px; }
ol.choices { margin: 4px 0 0; padding-left: 0; list-style: none; }
ol.choices li { padding: 3px 8px; margin: 2px 0; border-radius: 4px; border: 1px solid var(--line); }
ol.choices li .letter { font-weight: 700; margin-right: 6px; }
ol.choices li.correct { background: var(--ok-bg); border-color: var(--ok); color: var(--ok); font-weight: 600; }
ol.choices li.correct::after { content: "  \\2713 correct"; }
.tile .thumbs { display: flex; gap: 4px; margin: 6px 0; }
.tile .thumbs img { width: 64px; height: 64px; image-rendering: pixelated; border: 1px solid var(--line); border-radius: 3px; }
.empty { color: var(--muted); padding: 20px 0; }
footer { padding: 10px 20px 24px; color: var(--muted); font-size: 12px; }
"""

JS = """\
(function () {
  "use strict";
  var FIELDS = ["domain", "size", "split"];
  var el = document.getElementById("svot-data");
  var data = el ? JSON.parse(el.textContent) : { kind: "index", root: "", pages: [] };

  function parse(text) {
    var f = {};
    (text || "").replace(/^[#?]/, "").split("&").forEach(function (kv) {
      if (!kv) { return; }
      var i = kv.indexOf("=");
      var k = decodeURIComponent(i < 0 ? kv : kv.slice(0, i));
      var v = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1).replace(/\\+/g, " "));
      if (FIELDS.indexOf(k) >= 0 && v && v !== "all") {
        f[k] = v.split(",").filter(function (x) { return x; });
      }
    });
    return f;
  }

  function serialize(f) {
    return FIELDS.filter(function (k) { return f[k] && f[k].length; })
      .map(function (k) { return k + "=" + f[k].map(encodeURIComponent).join(","); }).join("&");
  }

  function matches(attrs, f) {
    return FIELDS.every(function (k) { return !f[k] || f[k].indexOf(String(attrs(k))) >= 0; });
  }

  function current() {
    return parse(location.hash.length > 1 ? location.hash : location.search);
  }

  function apply(f) {
    var cards = document.querySelectorAll(".card");
    var shown = 0;
    Array.prototype.forEach.call(cards, function (c) {
      var ok = matches(function (k) { return c.getAttribute("data-" + k); }, f);
      c.hidden = !ok;
      if (ok) { shown += 1; }
    });
    var count = document.getElementById("svot-count");
    if (count) { count.textContent = shown + " of " + cards.length + " shown"; }
    var empty = document.getElementById("svot-empty");
    if (empty) { empty.hidden = shown > 0 || cards.length === 0; }
    document.body.setAttribute("data-filter", serialize(f));
    FIELDS.forEach(function (k) {
      var s = document.getElementById("filter-" + k);
      if (!s) { return; }
      var want = f[k] && f[k].length === 1 ? f[k][0] : "all";
      if (data.kind === "page" && !f[k]) { want = String(data.page[k]); }
      var has = Array.prototype.some.call(s.options, function (o) { return o.value === want; });
      s.value = has ? want : "all";
    });
  }

  function fromSelects() {
    var f = {};
    FIELDS.forEach(function (k) {
      var s = document.getElementById("filter-" + k);
      if (s && s.value !== "all") { f[k] = [s.value]; }
    });
    return f;
  }

  function onChange() {
    var f = fromSelects();
    if (data.kind === "page") {
      var exact = data.pages.filter(function (p) {
        return FIELDS.every(function (k) { return f[k] && f[k][0] === String(p[k]); });
      });
      if (exact.length === 1) { location.href = data.root + exact[0].href; return; }
      location.href = data.root + "index.html#" + serialize(f);
      return;
    }
    location.hash = serialize(f);
    apply(f);
  }

  FIELDS.forEach(function (k) {
    var s = document.getElementById("filter-" + k);
    if (s) { s.addEventListener("change", onChange); }
  });
  var reset = document.getElementById("filter-reset");
  if (reset) {
    reset.addEventListener("click", function (ev) {
      ev.preventDefault();
      if (data.kind === "page") { location.href = data.root + "index.html"; return; }
      location.hash = "";
      apply({});
    });
  }
  window.addEventListener("hashchange", function () { apply(current()); });
  apply(current());

  window.addEventListener("load", function () {
    var imgs = document.images, loaded = 0, broken = [];
    Array.prototype.forEach.call(imgs, function (img) {
      if (img.complete && img.naturalWidth > 0) { loaded += 1; } else { broken.push(img.getAttribute("src")); }
    });
    var st = document.getElementById("svot-status");
    if (!st) { return; }
    st.setAttribute("data-images-total", String(imgs.length));
    st.setAttribute("data-images-loaded", String(loaded));
    st.setAttribute("data-images-broken", String(broken.length));
    st.textContent = broken.length ? broken.length + " of " + imgs.length + " images failed to load: " + broken.slice(0, 5).join(", ")
      : "all " + imgs.length + " images loaded";
    st.setAttribute("data-ready", "1");
  });
})();
"""

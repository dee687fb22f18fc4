"""The gallery's stylesheet and script (written once to ``assets/``; no CDN, no web fonts).

The script works from ``file://``: it reads the JSON embedded in the page
(``<script type="application/json" id="svot-data">``), never fetches anything.

* **Filter.** ``#domain=<name>&split=test_id`` (also ``size=5``; a value may
  list several, ``split=test_id,test_ood``; a ``?query`` works the same when
  there is no hash) hides every ``.card`` whose ``data-domain`` / ``data-size`` /
  ``data-split`` does not match. On the index the selects filter in place (and
  update the hash); on a dataset page they open the page of the chosen
  domain × size × split (or the index, filtered, when there is none).
  ``<body data-filter="...">`` and ``#svot-count`` show what is applied.
* **Predictions.** ``#wrong=1`` shows only the cards with a wrong prediction
  (``data-wrong`` not empty), ``#metric=answer`` only those where that metric
  was predicted (with ``wrong=1``: was wrong). They filter the page in place.
* **Search.** ``#svot-search-input`` looks ids up in ``search-index.js``
  (``window.SVOT_IDS``, ``[id, page]`` pairs; a script, so it loads from
  ``file://``) and lists links to ``page#id``; Enter opens the only or exact
  match. ``#q=<text>`` fills it in from the URL. The card named by the URL's
  ``#<id>`` gets the class ``target``.
* **Enlarge.** Clicking an image in ``main`` opens ``#svot-lightbox`` with it at
  full size and its alt text; a click, Escape or the close button closes it.
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
.grid { display: grid; gap: 16px; grid-template-columns: repeat(auto-fill, minmax(640px, 1fr)); align-items: start; }
.card.target { outline: 3px solid var(--accent); }
.card h2 a { color: inherit; }
nav.pager { margin: 0 0 12px; font-size: 13px; color: var(--muted); }
nav.pager a, nav.pager span.off { margin: 0 3px; }
nav.pager a[aria-current] { font-weight: 700; color: var(--fg); text-decoration: none; }
nav.pager .off { color: #aab; }
.nwrong { color: var(--bad); font-size: 11px; }
#svot-search { position: relative; margin: 0; }
#svot-search input { font: inherit; width: 240px; padding: 2px 6px; }
#svot-search-results { position: absolute; top: 100%; left: 0; z-index: 5; margin: 2px 0 0; padding: 4px 0; list-style: none;
  background: var(--card); border: 1px solid var(--line); border-radius: 4px; min-width: 320px; max-height: 360px; overflow: auto; }
#svot-search-results li { padding: 2px 10px; font-size: 13px; }
#svot-lightbox { position: fixed; inset: 0; z-index: 10; background: rgba(20, 24, 30, 0.85); display: flex; align-items: center; justify-content: center; }
#svot-lightbox[hidden] { display: none; }
#svot-lightbox figure { margin: 0; text-align: center; color: #fff; }
#svot-lightbox img { width: min(80vh, 90vw); height: min(80vh, 90vw); image-rendering: pixelated; background: #fff; border-radius: 4px; }
#svot-lightbox figcaption { margin-top: 8px; font-size: 14px; }
#svot-lightbox button { position: absolute; top: 14px; right: 18px; font-size: 22px; background: none; color: #fff; border: 0; cursor: pointer; }
.goalline { margin: 0 0 6px; }
table.pred-goal { border-collapse: collapse; margin: 4px 0 8px; width: 100%; font-size: 13px; }
table.pred-goal th, table.pred-goal td { border: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
table.pred-goal tr.bad td:last-child { background: var(--bad-bg); color: var(--bad); }
table.pred-goal tr.ok td:last-child { background: var(--ok-bg); color: var(--ok); }
.said { color: var(--muted); font-size: 12px; }
.fmark { display: inline-block; font-size: 11px; padding: 0 5px; margin: 2px 3px 0 0; border-radius: 8px; }
.fmark.ok { background: var(--ok-bg); color: var(--ok); } .fmark.bad { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
.pstate, .preason { margin-top: 6px; padding: 4px 6px; border-left: 3px solid var(--ok); background: #f7faf8; }
.pstate.bad, .preason.bad { border-left-color: var(--bad); background: #fdf5f4; }
.pstate b, .preason b { font-size: 12px; color: var(--muted); }
.preason p { margin: 2px 0 0; }
ul.pissues, details.pissues { color: var(--bad); font-size: 12px; }
.badge.okb { background: var(--ok-bg); color: var(--ok); }
ol.choices li.picked { border-width: 2px; border-color: var(--bad); }
ol.choices li.picked:not(.correct) { background: var(--bad-bg); color: var(--bad); }
ol.choices li.picked:not(.correct)::after { content: "  \\2717 model's choice"; }
ol.choices li.picked.correct::after { content: "  \\2713 correct, model's choice"; }
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
figure.frame, figure.pimg { margin: 0; width: 128px; text-align: center; }
figure.frame img, figure.pimg img { width: 128px; height: 128px; image-rendering: pixelated; border: 2px solid var(--line); border-radius: 4px; display: block; background: #fff; cursor: zoom-in; }
figure.pimg img { border-style: dashed; }
.strip .pair { display: flex; gap: 3px; padding: 3px; background: #eef1f5; border-radius: 6px; }
figure.pimg.ok img { border-color: var(--ok); } figure.pimg.bad img { border-color: var(--bad); }
figure.pimg figcaption { font-size: 11px; color: var(--muted); }
figure.pimg.bad figcaption { color: var(--bad); font-weight: 600; }
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
table.steps col.n { width: 76px; } table.steps col.img { width: 108px; } table.steps col.state { width: 34%; }
table.steps td.img img { width: 96px; height: 96px; image-rendering: pixelated; border: 1px solid var(--line); border-radius: 3px; display: block; cursor: zoom-in; }
table.steps td.img figure.pimg, table.steps td.img figure.pimg img { width: 96px; }
table.steps td.img figure.pimg img { height: 96px; }
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
.tile .thumbs img { width: 96px; height: 96px; image-rendering: pixelated; border: 1px solid var(--line); border-radius: 3px; }
.empty { color: var(--muted); padding: 20px 0; }
footer { padding: 10px 20px 24px; color: var(--muted); font-size: 12px; }
"""

JS = """\
(function () {
  "use strict";
  var FIELDS = ["domain", "size", "split"];
  var PFIELDS = ["wrong", "metric"];  // prediction filters: applied in place on every page
  var el = document.getElementById("svot-data");
  var data = el ? JSON.parse(el.textContent) : { kind: "index", root: "", pages: [] };

  function parse(text) {
    var f = {};
    (text || "").replace(/^[#?]/, "").split("&").forEach(function (kv) {
      if (!kv) { return; }
      var i = kv.indexOf("=");
      var k = decodeURIComponent(i < 0 ? kv : kv.slice(0, i));
      var v = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1).replace(/\\+/g, " "));
      if ((FIELDS.indexOf(k) >= 0 || PFIELDS.indexOf(k) >= 0 || k === "q") && v && v !== "all") {
        f[k] = v.split(",").filter(function (x) { return x; });
      }
    });
    return f;
  }

  function serialize(f) {
    return FIELDS.concat(PFIELDS).filter(function (k) { return f[k] && f[k].length; })
      .map(function (k) { return k + "=" + f[k].map(encodeURIComponent).join(","); }).join("&");
  }

  function words(v) { return (v || "").split(" ").filter(function (x) { return x; }); }

  function matches(attrs, f) {
    if (!FIELDS.every(function (k) { return !f[k] || f[k].indexOf(String(attrs(k))) >= 0; })) { return false; }
    var metric = f.metric ? f.metric[0] : null;
    if (f.wrong) {
      var wrong = words(attrs("wrong"));
      return metric ? wrong.indexOf(metric) >= 0 : wrong.length > 0;
    }
    return !metric || words(attrs("predicted")).indexOf(metric) >= 0;
  }

  function current() {
    return parse(location.hash.length > 1 ? location.hash : location.search);
  }

  function apply(f) {
    var cards = document.querySelectorAll("article.card");
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
    var w = document.getElementById("filter-wrong");
    if (w) { w.checked = !!f.wrong; }
    var m = document.getElementById("filter-metric");
    if (m) { m.value = f.metric ? f.metric[0] : "all"; }
  }

  function predFilters() {
    var f = {};
    var w = document.getElementById("filter-wrong");
    if (w && w.checked) { f.wrong = ["1"]; }
    var m = document.getElementById("filter-metric");
    if (m && m.value !== "all") { f.metric = [m.value]; }
    return f;
  }

  function onPredChange() {
    var f = current();
    delete f.wrong; delete f.metric; delete f.q;
    var p = predFilters();
    if (p.wrong) { f.wrong = p.wrong; }
    if (p.metric) { f.metric = p.metric; }
    history.replaceState(null, "", "#" + serialize(f));
    apply(f);
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
  ["filter-wrong", "filter-metric"].forEach(function (id) {
    var s = document.getElementById(id);
    if (s) { s.addEventListener("change", onPredChange); }
  });

  // --- search by id (window.SVOT_IDS from search-index.js) ---
  var ids = window.SVOT_IDS || [];
  var input = document.getElementById("svot-search-input");
  var results = document.getElementById("svot-search-results");
  function found(text) {
    var q = text.trim().toLowerCase();
    if (!q) { return []; }
    var exact = ids.filter(function (e) { return e[0].toLowerCase() === q; });
    if (exact.length) { return exact; }
    return ids.filter(function (e) { return e[0].toLowerCase().indexOf(q) >= 0; });
  }
  function link(e) { return data.root + e[1] + "#" + encodeURIComponent(e[0]); }
  function showResults(text) {
    if (!results) { return []; }
    var hits = found(text);
    results.innerHTML = "";
    hits.slice(0, 20).forEach(function (e) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = link(e); a.textContent = e[0]; li.appendChild(a); results.appendChild(li);
    });
    if (text.trim() && !hits.length) {
      var li = document.createElement("li"); li.textContent = "no id contains \u201c" + text.trim() + "\u201d"; results.appendChild(li);
    } else if (hits.length > 20) {
      var more = document.createElement("li"); more.textContent = (hits.length - 20) + " more\u2026"; results.appendChild(more);
    }
    results.hidden = !text.trim();
    results.setAttribute("data-hits", String(hits.length));
    return hits;
  }
  if (input) {
    input.addEventListener("input", function () { showResults(input.value); });
    document.getElementById("svot-search").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var hits = showResults(input.value);
      if (hits.length === 1) { location.href = link(hits[0]); }
    });
    var q = current().q;
    if (q) { input.value = q.join(","); showResults(input.value); }
  }

  function markTarget() {
    Array.prototype.forEach.call(document.querySelectorAll("article.card.target"), function (c) { c.classList.remove("target"); });
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && id.indexOf("=") < 0 ? document.getElementById(id) : null;
    if (el && el.classList.contains("card")) { el.classList.add("target"); el.hidden = false; el.scrollIntoView(); }
  }

  // --- click an image to enlarge it ---
  var box = document.getElementById("svot-lightbox");
  function closeBox() { if (box) { box.hidden = true; box.removeAttribute("data-src"); } }
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (box && !box.hidden) { closeBox(); ev.preventDefault(); return; }
    if (box && t && t.tagName === "IMG" && t.closest("main")) {
      ev.preventDefault();
      var big = box.querySelector("img");
      big.src = t.getAttribute("src");
      big.alt = t.alt;
      box.querySelector("figcaption").textContent = t.alt;
      box.setAttribute("data-src", t.getAttribute("src"));
      box.hidden = false;
    }
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") { closeBox(); } });
  var reset = document.getElementById("filter-reset");
  if (reset) {
    reset.addEventListener("click", function (ev) {
      ev.preventDefault();
      if (data.kind === "page") { location.href = data.root + "index.html"; return; }
      location.hash = "";
      apply({});
    });
  }
  window.addEventListener("hashchange", function () { apply(current()); markTarget(); });
  apply(current());
  markTarget();

  window.addEventListener("load", function () {
    var imgs = Array.prototype.filter.call(document.images, function (img) { return !img.closest("#svot-lightbox"); });
    var loaded = 0, broken = [];
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

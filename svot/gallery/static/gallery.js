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
      var v = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " "));
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
      var li = document.createElement("li"); li.textContent = "no id contains “" + text.trim() + "”"; results.appendChild(li);
    } else if (hits.length > 20) {
      var more = document.createElement("li"); more.textContent = (hits.length - 20) + " more…"; results.appendChild(more);
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

"""Writing the gallery: one page per domain × size × split, an index, images, assets, a manifest.

Layout under ``out/``::

    index.html                       every split as a tile; filter by domain, size, split
    <domain>-<N>x<N>/<split>.html    the split's first per_page instances; <split>-2.html the next, ...
    img/<sha256[:20]>.png            every image once, named by content (as ImageFolder exports)
    assets/gallery.css, gallery.js   the only stylesheet and script (no CDN, no web fonts)
    search-index.js                  every instance id and its page (search by id, offline)
    gallery.json                     what was written, with sha256 per file

With ``predictions=`` (``svot gallery --predictions preds.jsonl``) each card
also shows the model's answers beside the truth, wrong fields marked, the
predicted images beside the true ones (:mod:`svot.gallery.predictions`), and
the pages get the filters "wrong only" and "metric".

Every link is relative, so the folder works from ``file://`` and can be copied
anywhere. The output is a pure function of the exported data, ``per_page`` and the predictions:
no time stamps, no absolute paths, a fixed order everywhere; the same data
gives the same bytes.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from svot._version import __version__
from svot.dataset.reader import SplitSource, find_splits, read_export_info
from svot.dataset.records import png_name
from svot.dataset.writers import atomic_write_bytes, atomic_write_json, sha256_file
from svot.errors import ConfigError, DatasetError
from svot.jsonl import read_json_file
from svot.gallery.assets import CSS, JS
from svot.gallery.data import read_cards
from svot.gallery.predictions import METRICS, IMAGE_OK, read_predictions, score_card
from svot.safe_paths import OutsideRootError, contained, remove_within

DEFAULT_PER_PAGE = 20
MANIFEST = "gallery.json"
SEARCH_INDEX = "search-index.js"
IMG_DIR = "img"
ASSETS_DIR = "assets"
SPLIT_LABELS = {"train": "train", "val": "val", "test_id": "test (ID)", "test_ood": "test (OOD)"}
FIELDS = ("domain", "size", "split")
CHECK, CROSS = "\u2713", "\u2717"


@dataclass
class Page:
    source: SplitSource
    instances: int
    cards: list[dict]
    number: int = 1  # 1-based page of the split
    count: int = 1  # pages of the split
    wrong_per_page: list[int] = field(default_factory=list)  # cards with a wrong prediction, per page

    @staticmethod
    def href_of(source: SplitSource, number: int) -> str:
        return f"{source.dataset}/{source.split}" + ("" if number == 1 else f"-{number}") + ".html"

    @property
    def href(self) -> str:
        return self.href_of(self.source, self.number)

    @property
    def title(self) -> str:
        s = self.source
        return f"{s.domain} {s.size}\u00d7{s.size} \u00b7 {SPLIT_LABELS.get(s.split, s.split)}"

    def nav(self) -> dict:
        s = self.source
        return {"domain": s.domain, "size": s.size, "split": s.split, "href": self.href_of(s, 1),
                "instances": self.instances, "pages": self.count}


@dataclass
class GalleryResult:
    out: Path
    pages: list[str]  # relative paths of the dataset pages, in order
    images: int
    manifest: dict = field(repr=False)

    @property
    def index(self) -> Path:
        return self.out / "index.html"


# --------------------------------------------------------------------------- html pieces


def _e(text) -> str:
    return escape("" if text is None else str(text), quote=True)


def _png_size(png: bytes) -> tuple[int, int]:
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise DatasetError("an image in the export is not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


class _Images:
    """PNG bytes → relative file name under img/ (content-addressed, each written once)."""

    def __init__(self):
        self.files: dict[str, bytes] = {}

    def tag(self, png: bytes | None, root: str, alt: str) -> str:
        if png is None:
            return f'<span class="noimg" title="{_e(alt)}">no image</span>'
        name = png_name(png)
        self.files.setdefault(name, png)
        w, h = _png_size(png)
        return f'<img src="{root}{IMG_DIR}/{name}" width="{w}" height="{h}" alt="{_e(alt)}">'


def _json_script(obj) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="svot-data">{text}</script>'


def _head(title: str, root: str) -> str:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n"
        f'<link rel="stylesheet" href="{root}{ASSETS_DIR}/gallery.css">\n'
        "</head>\n"
    )


def _filter_nav(pages: list[Page], metrics: list[str] | None = None) -> str:
    domains, sizes, splits = [], [], []
    for p in pages:
        s = p.source
        if s.domain not in domains:
            domains.append(s.domain)
        if s.size not in sizes:
            sizes.append(s.size)
        if s.split not in splits:
            splits.append(s.split)
    sizes.sort()
    splits.sort(key=lambda x: list(SPLIT_LABELS).index(x) if x in SPLIT_LABELS else len(SPLIT_LABELS))

    def select(name: str, values, label=lambda v: str(v)) -> str:
        opts = ['<option value="all">all</option>'] + [
            f'<option value="{_e(v)}">{_e(label(v))}</option>' for v in values
        ]
        return f'<label for="filter-{name}">{name}</label> <select id="filter-{name}">{"".join(opts)}</select>'

    return (
        '<nav class="filter">'
        + select("domain", domains)
        + select("size", sizes, lambda n: f"{n}\u00d7{n}")
        + select("split", splits, lambda s: SPLIT_LABELS.get(s, s))
        + (_prediction_filters(metrics) if metrics else "")
        + '<a href="#" id="filter-reset">show all</a>'
        + '<form id="svot-search" role="search"><label for="svot-search-input">id</label> '
        + '<input id="svot-search-input" type="search" placeholder="search an instance id" autocomplete="off">'
        + '<ul id="svot-search-results" hidden></ul></form>'
        + '<span id="svot-count"></span><span id="svot-status">checking images\u2026</span>'
        + "</nav>\n"
    )


def _prediction_filters(metrics: list[str]) -> str:
    opts = '<option value="all">any</option>' + "".join(f'<option value="{m}">{m}</option>' for m in metrics)
    return ('<label><input type="checkbox" id="filter-wrong"> wrong only</label>'
            f'<label for="filter-metric">metric</label> <select id="filter-metric">{opts}</select>')


def _pager(page: Page, root: str) -> str:
    if page.count <= 1:
        return ""
    s = page.source

    def link(n: int, text: str, rel: str = "") -> str:
        href = root + Page.href_of(s, n)
        wrong = page.wrong_per_page[n - 1] if page.wrong_per_page else 0
        extra = f' title="{wrong} with a wrong prediction"' if page.wrong_per_page else ""
        label = text + (f' <span class="nwrong">{wrong}\u2717</span>' if wrong else "")
        cur = ' aria-current="page"' if n == page.number and not rel else ""
        return f'<a href="{_e(href)}"{cur}{rel}{extra}>{label}</a>'

    first = (page.number - 1) * len(page.cards) if page.number < page.count else None
    parts = [link(page.number - 1, "\u2190 prev", ' rel="prev"') if page.number > 1 else '<span class="off">\u2190 prev</span>']
    for n in range(1, page.count + 1):
        if n in (1, page.count) or abs(n - page.number) <= 3:
            parts.append(link(n, str(n)))
        elif parts[-1] != "\u2026":
            parts.append("\u2026")
    parts.append(link(page.number + 1, "next \u2192", ' rel="next"') if page.number < page.count else '<span class="off">next \u2192</span>')
    del first
    return f'<nav class="pager" aria-label="pages">page {page.number} of {page.count}: {" ".join(parts)}</nav>\n'



def _footer(info: dict, per_page: int) -> str:
    bits = [f"svot {__version__} gallery", f"{per_page} instances per page"]
    if info:
        bits.append("export: " + ", ".join(f"{k} {info[k]}" for k in sorted(info)))
    sep = " \u00b7 "
    return f"<footer>{_e(sep.join(bits))}</footer>\n"


def _field_marks(fields: dict) -> str:
    return "".join(f'<span class="fmark {"ok" if ok else "bad"}">{_e(f)} {CHECK if ok else CROSS}</span>'
                   for f, ok in fields.items())


def _pred_goal(pred: dict, card: dict) -> str:
    rows = []
    c = pred.get("choice")
    if c:
        rows.append(f'<tr class="{"ok" if c["ok"] else "bad"}"><th>choice</th><td>{_e(card.get("correct_choice"))}</td>'
                    f'<td>{_e(c["letter"] or "(no letter)")} {CHECK if c["ok"] else CROSS}'
                    f'<div class="said">{_e(c["text"])}</div></td></tr>')
    a = pred.get("answer")
    if a:
        rows.append(f'<tr class="{"ok" if a["ok"] else "bad"}"><th>answer</th><td>{_e(card.get("answer"))}</td>'
                    f'<td>{_e(a["text"])}<div>{_field_marks(a["fields"])}</div></td></tr>')
    if not rows:
        return ""
    return ('<table class="pred-goal"><thead><tr><th></th><th>truth</th><th>model</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _pred_step(ps: dict, images: _Images, root: str, iid: str, n) -> str:
    out = []
    st = ps.get("state")
    if st:
        out.append(f'<div class="pstate {"ok" if st["ok"] else "bad"}"><b>model state</b> {_field_marks(st["fields"])}'
                   f'<pre>{_e(st["text"])}</pre></div>')
    rz = ps.get("reasoning")
    if rz:
        out.append(f'<div class="preason {"ok" if rz["ok"] else "bad"}"><b>model reasoning</b> {_field_marks(rz["fields"])}'
                   f'<p>{_e(rz["text"])}</p></div>')
    return "".join(out)


def _pred_image(ps: dict, images: _Images, root: str, iid: str, n) -> str:
    im = ps.get("image")
    if not im:
        return ""
    rv = im.get("r_v")
    cls = "" if rv is None else (" ok" if im.get("ok") else " bad")
    cap = "model" + ("" if rv is None else f" r_v {rv:.2f}")
    return (f'<figure class="pimg{cls}">' + images.tag(im.get("png"), root, f"{iid}: model's v{n} ({im['path']})")
            + f"<figcaption>{_e(cap)}</figcaption></figure>")


def _card(card: dict, images: _Images, root: str) -> str:
    iid = card["id"]
    steps = card["steps"]
    pred = card.get("pred")
    psteps = pred["steps"] if pred else [{} for _ in steps]
    dist = card.get("distribution") or ""
    badges = [f'<span class="badge{" ood" if dist == "ood" else ""}">{_e(dist.upper() or "?")}</span>',
              f'<span class="badge">map {_e(card.get("map_index"))} \u00b7 sequence {_e(card.get("seq_index"))}</span>',
              f'<span class="badge">{_e(card.get("sequence_kind"))}</span>',
              f'<span class="badge">{len(steps)} step{"s" if len(steps) != 1 else ""}</span>']
    bad = sum(1 for s in steps if not s.get("applicable", True))
    if bad:
        badges.append(f'<span class="badge bad">{bad} not applicable</span>')
    if card.get("ended_early"):
        badges.append('<span class="badge bad">ended early</span>')
    if pred:
        badges.append(f'<span class="badge {"bad" if pred["wrong"] else "okb"}">model: '
                      + (f'wrong {", ".join(pred["wrong"])}' if pred["wrong"] else "all right") + "</span>")

    frames = [
        '<figure class="frame start">'
        + images.tag(card.get("image"), root, f"{iid}: initial state")
        + "<figcaption>start</figcaption></figure>"
    ]
    for s, ps in zip(steps, psteps):
        ok = s.get("applicable", True)
        cap = f'{_e(s["step"])} \u00b7 {_e(s.get("action_text"))}' + ("" if ok else " \u2717")
        true_fig = (
            f'<figure class="frame{"" if ok else " bad"}">'
            + images.tag(s.get("image"), root, f"{iid}: after step {s['step']} ({s.get('action_text')})")
            + f"<figcaption>{cap}</figcaption></figure>"
        )
        model_fig = _pred_image(ps, images, root, iid, s["step"])
        frames.append(f'<div class="pair">{true_fig}{model_fig}</div>' if model_fig else true_fig)

    acts = "".join(
        f'<li{"" if s.get("applicable", True) else " class=bad"}><span>{_e(s.get("action_text"))}</span></li>' for s in steps
    )
    rows = []
    for s, ps in zip(steps, psteps):
        ok = s.get("applicable", True)
        rows.append(
            f'<tr{"" if ok else " class=bad"}><td class="n">{_e(s["step"])}. {_e(s.get("action_text"))}'
            + ("" if ok else "<br>not applicable")
            + "</td><td class=img>"
            + images.tag(s.get("image"), root, f"{iid}: v{s['step']}")
            + _pred_image(ps, images, root, iid, s["step"])
            + f'</td><td><pre>{_e(s.get("state_text"))}</pre>{_pred_step(ps, images, root, iid, s["step"])}</td>'
            + f'<td><p class="cz">{_e(s.get("reasoning"))}</p><p class="cv">{_e(s.get("reasoning_visual"))}</p></td></tr>'
        )
    table = (
        '<table class="steps"><colgroup><col class="n"><col class="img"><col class="state"><col></colgroup>'
        "<thead><tr><th>action</th><th>image</th><th>state</th><th>reasoning</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    letters = "ABCDEFGH"
    correct = card.get("correct_choice")
    picked = (pred.get("choice") or {}).get("letter") if pred else None

    def choice_class(letter: str) -> str:
        cls = (["correct"] if letter == correct else []) + (["picked"] if letter == picked else [])
        return f' class="{" ".join(cls)}"' if cls else ""

    choices = "".join(
        f'<li{choice_class(letters[i])} data-letter="{letters[i]}">'
        f'<span class="letter">{letters[i]}</span>{_e(c)}</li>'
        for i, c in enumerate(card.get("choices") or [])
    )
    prompt = card.get("prompt") or card.get("task")
    wrong = " ".join(pred["wrong"]) if pred else ""
    predicted = " ".join(pred["metrics"]) if pred else ""
    issues = "".join(f"<li>{_e(x)}</li>" for x in (pred or {}).get("issues", []))
    return (
        f'<article class="card" id="{_e(iid)}" data-domain="{_e(card["domain"])}" data-size="{_e(card["size"])}" '
        f'data-split="{_e(card["split"])}" data-kind="{_e(card.get("sequence_kind"))}"'
        + (f' data-predicted="{_e(predicted)}" data-wrong="{_e(wrong)}"' if pred else "")
        + ">\n"
        f'<h2><a href="#{_e(iid)}">{_e(iid)}</a></h2>\n'
        f'<div class="badges">{"".join(badges)}</div>\n'
        f'<div class="strip">{"".join(frames)}</div>\n'
        f'<div class="actions"><b>Actions:</b> <ol>{acts}</ol></div>\n'
        f'<div class="goalline"><b>Goal (final state):</b> {_e(card.get("answer"))}</div>\n'
        + (_pred_goal(pred, card) if pred else "")
        + (f'<ul class="pissues">{issues}</ul>' if issues else "")
        + f'<div class="goal"><b>Which is the final state?</b><ol class="choices">{choices}</ol></div>\n'
        f'<details class="prompt"><summary>prompt</summary><pre>{_e(prompt)}</pre></details>\n'
        f'<details class="initial"><summary>initial state</summary><pre>{_e(card.get("initial_state_text"))}</pre></details>\n'
        f'<details class="chain" open><summary>states and reasoning, step by step</summary>{table}</details>\n'
        "</article>\n"
    )


def _tile(page: Page, images: _Images) -> str:
    s = page.source
    thumbs = "".join(images.tag(c.get("image"), "", f"{c['id']}: initial state") for c in page.cards[:4])
    return (
        f'<article class="card tile" id="page-{_e(s.dataset)}-{_e(s.split)}" data-domain="{_e(s.domain)}" '
        f'data-size="{s.size}" data-split="{_e(s.split)}">\n'
        f'<h2><a href="{_e(page.href)}">{_e(page.title)}</a></h2>\n'
        f'<div class="badges"><span class="badge{" ood" if s.distribution == "ood" else ""}">{_e(s.distribution.upper())}</span>'
        f'<span class="badge">{page.instances} instances, {page.count} page{"s" if page.count != 1 else ""}</span>'
        + (f'<span class="badge bad">{sum(page.wrong_per_page)} with a wrong prediction</span>' if page.wrong_per_page else "")
        + "</div>\n"
        f'<div class="thumbs">{thumbs}</div>\n'
        "</article>\n"
    )


def _scripts(root: str) -> str:
    return (f'<script src="{root}{SEARCH_INDEX}"></script>\n'
            f'<script src="{root}{ASSETS_DIR}/gallery.js"></script>\n')


def _lightbox() -> str:
    return ('<div id="svot-lightbox" hidden><figure><img alt=""><figcaption></figcaption></figure>'
            '<button type="button" id="svot-lightbox-close" aria-label="close">\u2715</button></div>\n')


def render_page(page: Page, firsts: list[Page], images: _Images, info: dict, per_page: int, metrics: list[str]) -> str:
    root = "../"
    s = page.source
    data = {"kind": "page", "root": root, "page": {"domain": s.domain, "size": s.size, "split": s.split,
                                                   "number": page.number, "count": page.count},
            "pages": [p.nav() for p in firsts], "metrics": metrics}
    cards = "".join(_card(c, images, root) for c in page.cards)
    first = (page.number - 1) * per_page + 1
    shown = f"instances {first}\u2013{first + len(page.cards) - 1} of {page.instances}" if page.cards else "no instances"
    return (
        _head(f"{page.title} \u2014 SVoT gallery", root)
        + "<body>\n"
        + f'<header class="top"><h1>{_e(page.title)}</h1><div class="crumbs"><a href="{root}index.html">all splits</a> \u00b7 '
        + f"{shown} of {_e(s.dataset)} {_e(s.split)}</div></header>\n"
        + _filter_nav(firsts, metrics)
        + '<main>\n' + _pager(page, root)
        + '<p class="empty" id="svot-empty" hidden>No instance on this page matches the filter; '
        + f'<a href="{root}index.html">see every split</a>.</p>\n'
        + (f'<div class="grid">\n{cards}</div>\n' if cards else '<p class="empty">This split holds no instances.</p>\n')
        + _pager(page, root)
        + "</main>\n"
        + _lightbox()
        + _footer(info, per_page)
        + _json_script(data)
        + "\n" + _scripts(root) + "</body>\n</html>\n"
    )


def render_index(firsts: list[Page], images: _Images, info: dict, per_page: int, metrics: list[str],
                 prediction_issues: list) -> str:
    data = {"kind": "index", "root": "", "pages": [p.nav() for p in firsts], "metrics": metrics}
    total = sum(p.instances for p in firsts)
    datasets = len({p.source.dataset for p in firsts})
    issues = ""
    if prediction_issues:
        items = "".join(f"<li>{_e(x)}</li>" for x in prediction_issues[:50])
        issues = (f'<details class="pissues"><summary>{len(prediction_issues)} prediction line(s) or ids not shown</summary>'
                  f"<ul>{items}</ul></details>\n")
    return (
        _head("SVoT dataset gallery", "")
        + "<body>\n"
        + '<header class="top"><h1>SVoT dataset gallery</h1>'
        + f'<div class="crumbs">{len(firsts)} splits: {datasets} datasets (domain \u00d7 size) \u00d7 splits, '
        + f"{total} instances in the export</div></header>\n"
        + _filter_nav(firsts, [])
        + "<main>\n" + issues + '<p class="empty" id="svot-empty" hidden>No split matches the filter.</p>\n'
        + f'<div class="grid tiles">\n{"".join(_tile(p, images) for p in firsts)}</div>\n</main>\n'
        + _lightbox()
        + _footer(info, per_page)
        + _json_script(data)
        + "\n" + _scripts("") + "</body>\n</html>\n"
    )


def _search_index(pages: list[Page]) -> str:
    ids = [[c["id"], p.href] for p in pages for c in p.cards]
    text = json.dumps(ids, separators=(",", ":"), ensure_ascii=True).replace("</", "<\\/")
    return f"window.SVOT_IDS = {text};\n"


# --------------------------------------------------------------------------- build


def _prepare(out: Path) -> dict:
    """The previous gallery's manifest (to remove files it wrote that are no longer needed), or {}."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"gallery output {str(out)!r} exists and is not a directory")
    if not out.exists():
        return {}
    manifest = out / MANIFEST
    if manifest.is_file():
        try:
            old = read_json_file(manifest, what="the gallery manifest")  # regular, bounded, any nesting an error
        except DatasetError:
            return {}
        return old if isinstance(old, dict) and isinstance(old.get("files"), dict) else {}
    if any(out.iterdir()):
        raise DatasetError(
            f"gallery output {str(out)!r} is not empty and holds no {MANIFEST} (not a gallery); "
            "choose an empty or new directory"
        )
    return {}


def _split_pages(src: SplitSource, cards: list[dict], per_page: int) -> list[Page]:
    chunks = [cards[i:i + per_page] for i in range(0, len(cards), per_page)] or [[]]
    wrong = [sum(1 for c in ch if c.get("pred") and c["pred"]["wrong"]) for ch in chunks]
    has_pred = any(c.get("pred") for c in cards)
    return [Page(src, len(cards), ch, i + 1, len(chunks), wrong if has_pred else []) for i, ch in enumerate(chunks)]


def build_gallery(
    data_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    per_page: int = DEFAULT_PER_PAGE,
    predictions: str | os.PathLike | None = None,
) -> GalleryResult:
    """Write a static HTML gallery of an export (``svot export --out data_dir``) to ``out_dir``.

    Every instance of every domain × size × split, ``per_page`` per page
    (``<split>.html``, ``<split>-2.html``, ...): step images (click one to
    enlarge it), actions, the goal, the prompt, state texts, reasoning chains,
    the four choices with the correct one marked; an index of every split, a
    search by instance id, and a client-side filter by domain, size and split
    (also from the URL: ``index.html#domain=<name>&split=test_id``).
    ``predictions``: a JSON Lines file as ``svot evaluate`` reads; each card then
    shows the model's answers beside the truth, and pages filter by
    ``#wrong=1&metric=answer``. Works offline from ``file://``. Rebuilding into
    the same ``out_dir`` replaces the previous gallery.
    """
    if isinstance(per_page, bool) or not isinstance(per_page, int) or per_page < 1:
        raise ConfigError(f"per_page must be a positive integer, got {per_page!r}")
    data_dir, out = Path(data_dir), Path(out_dir)
    sources = find_splits(data_dir)
    info = read_export_info(data_dir)
    preds = read_predictions(predictions) if predictions is not None else None
    old = _prepare(out)

    pages: list[Page] = []
    firsts: list[Page] = []
    metrics_seen: set[str] = set()
    shown_ids: set[str] = set()
    for src in sources:
        cards = read_cards(src)
        if preds is not None:
            for c in cards:
                rec = preds.by_id.get(c["id"])
                if rec is not None:
                    c["pred"] = score_card(c, rec, preds.path.parent)
                    metrics_seen.update(c["pred"]["metrics"])
                    shown_ids.add(c["id"])
        split_pages = _split_pages(src, cards, per_page)
        firsts.append(split_pages[0])
        pages += split_pages
    metrics = [m for m in METRICS if m in metrics_seen]
    issues = []
    if preds is not None:
        issues = [f"line {no}: {msg}" for no, msg in preds.issues]
        issues += [f"id {i!r} is not in the export" for i in sorted(set(preds.by_id) - shown_ids)]

    images = _Images()
    texts: dict[str, str] = {}
    for p in pages:
        texts[p.href] = render_page(p, firsts, images, info, per_page, metrics)
    texts["index.html"] = render_index(firsts, images, info, per_page, metrics, issues)
    texts[SEARCH_INDEX] = _search_index(pages)

    files: dict[str, bytes] = {f"{ASSETS_DIR}/gallery.css": CSS.encode(), f"{ASSETS_DIR}/gallery.js": JS.encode()}
    for name in sorted(images.files):
        files[f"{IMG_DIR}/{name}"] = images.files[name]
    for rel in sorted(texts):
        files[rel] = texts[rel].encode("utf-8")

    out.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        path = out / rel
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            continue
        atomic_write_bytes(path, data)
    for rel in sorted(set(old.get("files", {})) - set(files)):
        try:  # a name from the old manifest: deleted only if it lies under the gallery (svot.safe_paths)
            stale = contained(out, rel, what="gallery manifest entry")
        except OutsideRootError:
            continue
        if stale.is_file() or stale.is_symlink():
            remove_within(out, stale)
            try:
                stale.parent.rmdir()  # only if now empty
            except OSError:
                pass

    manifest = {
        "package": "svot",
        "version": __version__,
        "per_page": per_page,
        "export": info,
        "predictions": None if preds is None else {
            "file": preds.path.name, "instances": len(shown_ids), "issues": issues,
            "image_ok_r_v": IMAGE_OK,
        },
        "pages": [p.nav() for p in firsts],
        "files": {rel: {"sha256": sha256_file(out / rel), "bytes": len(files[rel])} for rel in sorted(files)},
    }
    atomic_write_json(out / MANIFEST, manifest)
    return GalleryResult(out, [p.href for p in pages], len(images.files), manifest)

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
from pathlib import Path

from markupsafe import Markup

from svot._version import __version__
from svot.dataset.reader import SplitSource, find_splits, read_export_info
from svot.dataset.records import png_name
from svot.dataset.writers import atomic_write_bytes, atomic_write_json, sha256_file
from svot.errors import ConfigError, DatasetError
from svot.gallery import jinja as templates
from svot.gallery.assets import CSS, JS
from svot.gallery.data import read_cards
from svot.gallery.predictions import METRICS, IMAGE_OK, read_predictions, score_card
from svot.jsonl import read_json_file
from svot.safe_paths import OutsideRootError, contained, remove_within

DEFAULT_PER_PAGE = 20
MANIFEST = "gallery.json"
SEARCH_INDEX = "search-index.js"
IMG_DIR = "img"
ASSETS_DIR = "assets"
SPLIT_LABELS = {"train": "train", "val": "val", "test_id": "test (ID)", "test_ood": "test (OOD)"}
FIELDS = ("domain", "size", "split")


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


# --------------------------------------------------------------------------- views
# The markup lives in Jinja2 templates (svot/gallery/templates/, autoescaped); the functions below
# only turn cards and pages into the plain values those templates lay out.


def _png_size(png: bytes) -> tuple[int, int]:
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise DatasetError("an image in the export is not a PNG")
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


class _Images:
    """PNG bytes → relative file name under img/ (content-addressed, each written once)."""

    def __init__(self):
        self.files: dict[str, bytes] = {}

    def tag(self, png: bytes | None, root: str, alt: str) -> Markup:
        if png is None:
            return Markup('<span class="noimg" title="{}">no image</span>').format(alt)
        name = png_name(png)
        self.files.setdefault(name, png)
        w, h = _png_size(png)
        return Markup('<img src="{}" width="{}" height="{}" alt="{}">').format(f"{root}{IMG_DIR}/{name}", w, h, alt)


def _json_for_script(obj) -> Markup:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return Markup(text.replace("</", "<\\/").replace("<!--", "<\\!--"))


def _filters(pages: list[Page], metrics: list[str]) -> dict:
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
    return {"domain": [(d, d) for d in domains], "size": [(n, f"{n}\u00d7{n}") for n in sizes],
            "split": [(s, SPLIT_LABELS.get(s, s)) for s in splits], "metrics": metrics}


def _pager(page: Page, root: str) -> dict | None:
    if page.count <= 1:
        return None
    s = page.source

    def link(n: int, text: str, rel: str = "") -> dict:
        return {"kind": "link", "href": root + Page.href_of(s, n), "text": text, "rel": rel,
                "current": n == page.number and not rel,
                "title": f"{page.wrong_per_page[n - 1]} with a wrong prediction" if page.wrong_per_page else "",
                "wrong": page.wrong_per_page[n - 1] if page.wrong_per_page else 0}

    items = [link(page.number - 1, "\u2190 prev", "prev") if page.number > 1 else {"kind": "off", "text": "\u2190 prev"}]
    for n in range(1, page.count + 1):
        if n in (1, page.count) or abs(n - page.number) <= 3:
            items.append(link(n, str(n)))
        elif items[-1]["kind"] != "gap":
            items.append({"kind": "gap"})
    items.append(link(page.number + 1, "next \u2192", "next") if page.number < page.count
                 else {"kind": "off", "text": "next \u2192"})
    return {"number": page.number, "count": page.count, "items": items}


def _footer(info: dict, per_page: int) -> str:
    bits = [f"svot {__version__} gallery", f"{per_page} instances per page"]
    if info:
        bits.append("export: " + ", ".join(f"{k} {info[k]}" for k in sorted(info)))
    return " \u00b7 ".join(bits)


def _model_figure(ps: dict, images: _Images, root: str, iid: str, n) -> dict | None:
    im = ps.get("image")
    if not im:
        return None
    rv = im.get("r_v")
    cls = "" if rv is None else (" ok" if im.get("ok") else " bad")
    return {"cls": "pimg" + cls, "caption": "model" + ("" if rv is None else f" r_v {rv:.2f}"),
            "img": images.tag(im.get("png"), root, f"{iid}: model's v{n} ({im['path']})")}


def _field_list(fields: dict) -> list[tuple[str, bool]]:
    return list(fields.items())


def _card_view(card: dict, images: _Images, root: str) -> dict:
    """What ``_card.html.j2`` shows of one instance (images registered with ``images`` as a side effect)."""
    iid = card["id"]
    steps = card["steps"]
    pred = card.get("pred")
    psteps = pred["steps"] if pred else [{} for _ in steps]
    dist = card.get("distribution") or ""
    badges = [("badge" + (" ood" if dist == "ood" else ""), dist.upper() or "?"),
              ("badge", f"map {card.get('map_index')} \u00b7 sequence {card.get('seq_index')}"),
              ("badge", "" if card.get("sequence_kind") is None else str(card.get("sequence_kind"))),
              ("badge", f"{len(steps)} step{'s' if len(steps) != 1 else ''}")]
    bad = sum(1 for s in steps if not s.get("applicable", True))
    if bad:
        badges.append(("badge bad", f"{bad} not applicable"))
    if card.get("ended_early"):
        badges.append(("badge bad", "ended early"))
    if pred:
        badges.append(("badge " + ("bad" if pred["wrong"] else "okb"),
                       "model: " + (f"wrong {', '.join(pred['wrong'])}" if pred["wrong"] else "all right")))

    frames = [{"true": {"cls": "frame start", "caption": "start",
                        "img": images.tag(card.get("image"), root, f"{iid}: initial state")}, "model": None}]
    rows = []
    for s, ps in zip(steps, psteps):
        ok = s.get("applicable", True)
        frames.append({
            "true": {"cls": "frame" + ("" if ok else " bad"),
                     "caption": f"{s['step']} \u00b7 {s.get('action_text')}" + ("" if ok else " \u2717"),
                     "img": images.tag(s.get("image"), root, f"{iid}: after step {s['step']} ({s.get('action_text')})")},
            "model": _model_figure(ps, images, root, iid, s["step"]),
        })
        state, reason = ps.get("state"), ps.get("reasoning")
        rows.append({
            "step": s["step"], "action_text": s.get("action_text"), "ok": ok,
            "img": images.tag(s.get("image"), root, f"{iid}: v{s['step']}"),
            "model": _model_figure(ps, images, root, iid, s["step"]),
            "state_text": s.get("state_text"), "reasoning": s.get("reasoning"),
            "reasoning_visual": s.get("reasoning_visual"),
            "pstate": state and {"ok": state["ok"], "fields": _field_list(state["fields"]), "text": state["text"]},
            "preason": reason and {"ok": reason["ok"], "fields": _field_list(reason["fields"]), "text": reason["text"]},
        })
    letters = "ABCDEFGH"
    correct = card.get("correct_choice")
    picked = (pred.get("choice") or {}).get("letter") if pred else None
    choices = [{"letter": letters[i], "text": c,
                "classes": " ".join((["correct"] if letters[i] == correct else [])
                                    + (["picked"] if letters[i] == picked else []))}
               for i, c in enumerate(card.get("choices") or [])]
    answer = (pred or {}).get("answer")
    return {
        "id": iid, "domain": card["domain"], "size": card["size"], "split": card["split"],
        "kind": card.get("sequence_kind"), "pred": bool(pred),
        "predicted": " ".join(pred["metrics"]) if pred else "", "wrong": " ".join(pred["wrong"]) if pred else "",
        "badges": badges, "frames": frames, "rows": rows, "choices": choices,
        "acts": [(s.get("action_text"), s.get("applicable", True)) for s in steps],
        "answer": card.get("answer"), "correct_choice": correct,
        "pred_choice": (pred or {}).get("choice"),
        "pred_answer": answer and {**answer, "fields": _field_list(answer["fields"])},
        "issues": (pred or {}).get("issues", []),
        "prompt": card.get("prompt") or card.get("task"), "initial_state_text": card.get("initial_state_text"),
    }


def _common(title: str, root: str, data: dict, firsts: list[Page], metrics: list[str], info: dict,
            per_page: int) -> dict:
    return {"title": title, "root": root, "assets_dir": ASSETS_DIR, "search_index": SEARCH_INDEX,
            "filters": _filters(firsts, metrics), "footer": _footer(info, per_page),
            "data_json": _json_for_script(data)}


def render_page(page: Page, firsts: list[Page], images: _Images, info: dict, per_page: int, metrics: list[str]) -> str:
    root = "../"
    s = page.source
    data = {"kind": "page", "root": root, "page": {"domain": s.domain, "size": s.size, "split": s.split,
                                                   "number": page.number, "count": page.count},
            "pages": [p.nav() for p in firsts], "metrics": metrics}
    first = (page.number - 1) * per_page + 1
    shown = f"instances {first}\u2013{first + len(page.cards) - 1} of {page.instances}" if page.cards else "no instances"
    return templates.render(
        "page.html.j2", **_common(f"{page.title} \u2014 SVoT gallery", root, data, firsts, metrics, info, per_page),
        heading=page.title, shown=shown, dataset=s.dataset, split=s.split, pager=_pager(page, root),
        cards_list=[_card_view(c, images, root) for c in page.cards],
    )


def _tile_view(page: Page, images: _Images) -> dict:
    s = page.source
    return {"dataset": s.dataset, "split": s.split, "domain": s.domain, "size": s.size, "href": page.href,
            "title": page.title, "ood": s.distribution == "ood", "distribution": s.distribution.upper(),
            "instances": page.instances, "pages": page.count,
            "wrong": sum(page.wrong_per_page) if page.wrong_per_page else None,
            "thumbs": [images.tag(c.get("image"), "", f"{c['id']}: initial state") for c in page.cards[:4]]}


def render_index(firsts: list[Page], images: _Images, info: dict, per_page: int, metrics: list[str],
                 prediction_issues: list) -> str:
    data = {"kind": "index", "root": "", "pages": [p.nav() for p in firsts], "metrics": metrics}
    return templates.render(
        "index.html.j2", **_common("SVoT dataset gallery", "", data, firsts, [], info, per_page),
        splits=len(firsts), datasets=len({p.source.dataset for p in firsts}),
        total=sum(p.instances for p in firsts), issues=prediction_issues[:50],
        issues_count=len(prediction_issues), tiles=[_tile_view(p, images) for p in firsts],
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

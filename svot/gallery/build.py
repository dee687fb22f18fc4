"""Writing the gallery: one page per domain × size × split, an index, images, assets, a manifest.

Layout under ``out/``::

    index.html                       every page as a tile; filter by domain, size, split
    <domain>-<N>x<N>/<split>.html    up to per_page sample instances of that split
    img/<sha256[:20]>.png            every image once, named by content (as ImageFolder exports)
    assets/gallery.css, gallery.js   the only stylesheet and script (no CDN, no web fonts)
    gallery.json                     what was written, with sha256 per file

Every link is relative, so the folder works from ``file://`` and can be copied
anywhere. The output is a pure function of the exported data and ``per_page``:
no time stamps, no absolute paths, a fixed order everywhere; the same data
gives the same bytes.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from svot.dataset.records import png_name
from svot.dataset.writers import atomic_write_bytes, atomic_write_json, sha256_file
from svot.errors import ConfigError, DatasetError
from svot.gallery.assets import CSS, JS
from svot.gallery.data import SplitSource, find_splits, read_export_info, read_samples
from svot.safe_paths import OutsideRootError, contained, remove_within

DEFAULT_PER_PAGE = 12
MANIFEST = "gallery.json"
IMG_DIR = "img"
ASSETS_DIR = "assets"
SPLIT_LABELS = {"train": "train", "val": "val", "test_id": "test (ID)", "test_ood": "test (OOD)"}
FIELDS = ("domain", "size", "split")


@dataclass
class Page:
    source: SplitSource
    instances: int
    cards: list[dict]

    @property
    def href(self) -> str:
        return f"{self.source.dataset}/{self.source.split}.html"

    @property
    def title(self) -> str:
        s = self.source
        return f"{s.domain} {s.size}\u00d7{s.size} \u00b7 {SPLIT_LABELS.get(s.split, s.split)}"

    def nav(self) -> dict:
        s = self.source
        return {"domain": s.domain, "size": s.size, "split": s.split, "href": self.href,
                "instances": self.instances, "shown": len(self.cards)}


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


def _filter_nav(pages: list[Page]) -> str:
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
        + '<a href="#" id="filter-reset">show all</a>'
        + '<span id="svot-count"></span><span id="svot-status">checking images\u2026</span>'
        + "</nav>\n"
    )


def _footer(info: dict, per_page: int) -> str:
    from svot import __version__

    bits = [f"svot {__version__} gallery", f"up to {per_page} samples per page"]
    if info:
        bits.append("export: " + ", ".join(f"{k} {info[k]}" for k in sorted(info)))
    sep = " \u00b7 "
    return f"<footer>{_e(sep.join(bits))}</footer>\n"


def _card(card: dict, images: _Images, root: str) -> str:
    iid = card["id"]
    steps = card["steps"]
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

    frames = [
        '<figure class="frame start">'
        + images.tag(card.get("image"), root, f"{iid}: initial state")
        + "<figcaption>start</figcaption></figure>"
    ]
    for s in steps:
        ok = s.get("applicable", True)
        cap = f'{_e(s["step"])} \u00b7 {_e(s.get("action_text"))}' + ("" if ok else " \u2717")
        frames.append(
            f'<figure class="frame{"" if ok else " bad"}">'
            + images.tag(s.get("image"), root, f"{iid}: after step {s['step']} ({s.get('action_text')})")
            + f"<figcaption>{cap}</figcaption></figure>"
        )

    acts = "".join(
        f'<li{"" if s.get("applicable", True) else " class=bad"}><span>{_e(s.get("action_text"))}</span></li>' for s in steps
    )
    rows = []
    for s in steps:
        ok = s.get("applicable", True)
        rows.append(
            f'<tr{"" if ok else " class=bad"}><td class="n">{_e(s["step"])}. {_e(s.get("action_text"))}'
            + ("" if ok else "<br>not applicable")
            + "</td><td class=img>"
            + images.tag(s.get("image"), root, f"{iid}: v{s['step']}")
            + f'</td><td><pre>{_e(s.get("state_text"))}</pre></td>'
            + f'<td><p class="cz">{_e(s.get("reasoning"))}</p><p class="cv">{_e(s.get("reasoning_visual"))}</p></td></tr>'
        )
    table = (
        '<table class="steps"><colgroup><col class="n"><col class="img"><col class="state"><col></colgroup>'
        "<thead><tr><th>action</th><th>image</th><th>state</th><th>reasoning</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    letters = "ABCDEFGH"
    correct = card.get("correct_choice")
    choices = "".join(
        f'<li{" class=correct" if letters[i] == correct else ""} data-letter="{letters[i]}">'
        f'<span class="letter">{letters[i]}</span>{_e(c)}</li>'
        for i, c in enumerate(card.get("choices") or [])
    )
    return (
        f'<article class="card" id="{_e(iid)}" data-domain="{_e(card["domain"])}" data-size="{_e(card["size"])}" '
        f'data-split="{_e(card["split"])}" data-kind="{_e(card.get("sequence_kind"))}">\n'
        f"<h2>{_e(iid)}</h2>\n"
        f'<div class="badges">{"".join(badges)}</div>\n'
        f'<div class="strip">{"".join(frames)}</div>\n'
        f'<div class="actions"><b>Actions:</b> <ol>{acts}</ol></div>\n'
        f'<div class="goal"><b>Which is the final state?</b><ol class="choices">{choices}</ol></div>\n'
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
        f'<span class="badge">{len(page.cards)} of {page.instances} instances</span></div>\n'
        f'<div class="thumbs">{thumbs}</div>\n'
        "</article>\n"
    )


def render_page(page: Page, pages: list[Page], images: _Images, info: dict, per_page: int) -> str:
    root = "../"
    s = page.source
    data = {"kind": "page", "root": root, "page": {"domain": s.domain, "size": s.size, "split": s.split},
            "pages": [p.nav() for p in pages]}
    cards = "".join(_card(c, images, root) for c in page.cards)
    return (
        _head(f"{page.title} \u2014 SVoT gallery", root)
        + "<body>\n"
        + f'<header class="top"><h1>{_e(page.title)}</h1><div class="crumbs"><a href="{root}index.html">all pages</a> \u00b7 '
        + f"{len(page.cards)} of {page.instances} instances of {_e(s.dataset)} {_e(s.split)}</div></header>\n"
        + _filter_nav(pages)
        + '<main>\n<p class="empty" id="svot-empty" hidden>No sample on this page matches the filter; '
        + f'<a href="{root}index.html">see every page</a>.</p>\n'
        + (f'<div class="grid">\n{cards}</div>\n' if cards else '<p class="empty">This split holds no instances.</p>\n')
        + "</main>\n"
        + _footer(info, per_page)
        + _json_script(data)
        + f'\n<script src="{root}{ASSETS_DIR}/gallery.js"></script>\n</body>\n</html>\n'
    )


def render_index(pages: list[Page], images: _Images, info: dict, per_page: int) -> str:
    data = {"kind": "index", "root": "", "pages": [p.nav() for p in pages]}
    total = sum(p.instances for p in pages)
    datasets = len({p.source.dataset for p in pages})
    return (
        _head("SVoT dataset gallery", "")
        + "<body>\n"
        + '<header class="top"><h1>SVoT dataset gallery</h1>'
        + f'<div class="crumbs">{len(pages)} pages: {datasets} datasets (domain \u00d7 size) \u00d7 splits, '
        + f"{total} instances in the export</div></header>\n"
        + _filter_nav(pages)
        + '<main>\n<p class="empty" id="svot-empty" hidden>No page matches the filter.</p>\n'
        + f'<div class="grid tiles">\n{"".join(_tile(p, images) for p in pages)}</div>\n</main>\n'
        + _footer(info, per_page)
        + _json_script(data)
        + f'\n<script src="{ASSETS_DIR}/gallery.js"></script>\n</body>\n</html>\n'
    )


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
            old = json.loads(manifest.read_text())
        except (OSError, ValueError, RecursionError):
            return {}
        return old if isinstance(old, dict) and isinstance(old.get("files"), dict) else {}
    if any(out.iterdir()):
        raise DatasetError(
            f"gallery output {str(out)!r} is not empty and holds no {MANIFEST} (not a gallery); "
            "choose an empty or new directory"
        )
    return {}


def build_gallery(data_dir: str | os.PathLike, out_dir: str | os.PathLike, per_page: int = DEFAULT_PER_PAGE) -> GalleryResult:
    """Write a static HTML gallery of an export (``svot export --out data_dir``) to ``out_dir``.

    One page per domain × size × split with up to ``per_page`` instances spread
    evenly over the split (step images, actions, state texts, reasoning chains,
    the four choices with the correct one marked), an index of every page,
    and a client-side filter by domain, size and split (also from the URL:
    ``index.html#domain=sokoban&split=test_id``). Works offline from ``file://``.
    Rebuilding into the same ``out_dir`` replaces the previous gallery.
    """
    if isinstance(per_page, bool) or not isinstance(per_page, int) or per_page < 1:
        raise ConfigError(f"per_page must be a positive integer, got {per_page!r}")
    data_dir, out = Path(data_dir), Path(out_dir)
    sources = find_splits(data_dir)
    info = read_export_info(data_dir)
    old = _prepare(out)

    pages = []
    for src in sources:
        n, cards = read_samples(src, per_page)
        pages.append(Page(src, n, cards))

    images = _Images()
    texts: dict[str, str] = {}
    for p in pages:
        texts[p.href] = render_page(p, pages, images, info, per_page)
    texts["index.html"] = render_index(pages, images, info, per_page)

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

    from svot import __version__

    manifest = {
        "package": "svot",
        "version": __version__,
        "per_page": per_page,
        "export": info,
        "pages": [p.nav() for p in pages],
        "files": {rel: {"sha256": sha256_file(out / rel), "bytes": len(files[rel])} for rel in sorted(files)},
    }
    atomic_write_json(out / MANIFEST, manifest)
    return GalleryResult(out, [p.href for p in pages], len(images.files), manifest)

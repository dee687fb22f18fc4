"""The dataset gallery: layout, offline links, determinism, and a real browser (headless Chromium).

The browser tests need Debian's ``chromium`` (``/usr/bin/chromium``; ``.ci/run``
installs it) and are skipped, with that reason, where it is missing. They read
the page after ``load`` with ``--dump-dom``: the gallery script writes the
image check into ``#svot-status`` and hides the cards the URL filter excludes.
The interactive ones (paging, search, enlarge, the predictions filters) drive
Chromium over the DevTools protocol (:mod:`tests.ecosystem.cdp`) with real
mouse clicks and typed text.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from svot.cli import main
from svot.dataset import export, make_config
from svot.errors import ConfigError, DatasetError
from svot.gallery import build_gallery

CHROMIUM = Path("/usr/bin/chromium")
MAPS = {"train": 3, "test_id": 2, "test_ood": 1}  # 15, 4, 2 instances per (domain, size)
SPLITS = list(MAPS)
DATASETS = ["maze-5x5", "sokoban-5x5"]  # paper order: maze before sokoban
PER_PAGE = 4
SCREENSHOT_COPY = Path("/tmp/gallery_screenshot.png")

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium is missing (apt-get install -y chromium; .ci/run installs it)"
)


def _export(out: Path, **kw):
    cfg = make_config(out, domains=["sokoban", "maze"], sizes=[5], splits=SPLITS, maps_per_split=MAPS, image_size=96, **kw)
    return export(cfg, quiet=True)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("data")
    _export(out)
    return out


@pytest.fixture(scope="module")
def gallery(data_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gallery") / "g"
    build_gallery(data_dir, out, per_page=PER_PAGE)
    return out


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


class _Cards(HTMLParser):
    """Cards (``<article class="card ...">``), links, images, choices and the status element of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards: list[dict] = []
        self.links: list[str] = []
        self.images: list[str] = []
        self.status: dict = {}
        self.count_text = ""
        self.body: dict = {}
        self.empty_hidden = None
        self._in_count = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "body":
            self.body = a
        if tag == "article" and "card" in cls:
            self.cards.append({**a, "hidden": "hidden" in a, "choices": [], "correct": [], "images": []})
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):  # (the enlarge overlay's img has no src until used)
            self.images.append(a["src"])
            if self.cards:
                self.cards[-1]["images"].append(a["src"])
        if tag == "li" and a.get("data-letter") and self.cards:
            self.cards[-1]["choices"].append(a["data-letter"])
            if "correct" in cls:
                self.cards[-1]["correct"].append(a["data-letter"])
        if a.get("id") == "svot-status":
            self.status = a
        if a.get("id") == "svot-empty":
            self.empty_hidden = "hidden" in a
        self._in_count = a.get("id") == "svot-count"

    def handle_data(self, data):
        if self._in_count:
            self.count_text += data

    def handle_endtag(self, tag):
        self._in_count = False


def _parse(html: str) -> _Cards:
    p = _Cards()
    p.feed(html)
    return p


def _chromium(tmp_path: Path, url: str, *extra: str) -> str:
    profile = tmp_path / f"chromium-profile-{len(list(tmp_path.glob('chromium-profile-*')))}"
    profile.mkdir()
    cmd = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
        f"--user-data-dir={profile}", *extra, url,
    ]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _dom(tmp_path: Path, page: Path, fragment: str = "") -> _Cards:
    return _parse(_chromium(tmp_path, page.as_uri() + fragment, "--dump-dom"))


# --------------------------------------------------------------------------- without a browser


def test_layout_links_and_cards(gallery, data_dir):
    pages = [f"{d}/{s}.html" for d in DATASETS for s in SPLITS]
    index = _parse((gallery / "index.html").read_text())
    assert [c["data-domain"] + "-5x5/" + c["data-split"] + ".html" for c in index.cards] == pages
    assert set(pages) <= set(index.links)
    for rel in pages:
        page = gallery / rel
        doc = _parse(page.read_text())
        name, split = rel.split("/")
        table = pq.read_table(data_dir / name / f"{split[:-5]}.parquet").to_pylist()
        by_id = {r["id"]: r for r in table}
        assert [c["id"] for c in doc.cards] == [r["id"] for r in table[:PER_PAGE]]  # page 1: the first PER_PAGE
        for card in doc.cards:
            row = by_id[card["id"]]
            assert (card["data-domain"], card["data-size"], card["data-split"]) == (row["domain"], "5", row["split"])
            assert card["choices"] == ["A", "B", "C", "D"] and card["correct"] == [row["correct_choice"]]
            # the start image and one per step in the strip, one per step in the table
            assert len(card["images"]) == 1 + 2 * row["n_steps"]
            first = (page.parent / card["images"][0]).resolve()
            assert first.read_bytes() == row["image"]["bytes"]
        for src in doc.images:
            assert not src.startswith(("/", "http:", "https:", "file:")) and (page.parent / src).is_file(), src
    # paging: every instance of a split is on exactly one of its pages, in the export's order
    for d in DATASETS:
        for s in SPLITS:
            table = pq.read_table(data_dir / d / f"{s}.parquet", columns=["id"]).to_pylist()
            n_pages = -(-len(table) // PER_PAGE)
            names = [f"{s}.html"] + [f"{s}-{k}.html" for k in range(2, n_pages + 1)]
            ids = [c["id"] for n in names for c in _parse((gallery / d / n).read_text()).cards]
            assert ids == [r["id"] for r in table]
            assert not (gallery / d / f"{s}-{n_pages + 1}.html").exists()
    # the search index names every instance's page
    index_js = (gallery / "search-index.js").read_text()
    pairs = json.loads(index_js.split("=", 1)[1].rstrip().rstrip(";"))
    assert len(pairs) == sum(pq.read_metadata(data_dir / d / f"{s}.parquet").num_rows for d in DATASETS for s in SPLITS)
    for iid, href in pairs[::7]:
        assert iid in {c["id"] for c in _parse((gallery / href).read_text()).cards}


def test_offline_nothing_external(gallery):
    for p in gallery.rglob("*"):
        if p.suffix in (".html", ".css", ".js"):
            text = p.read_text()
            assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import|fonts\.g", text), p
            assert not re.search(r"(src|href)=\"/", text), p
    assert not list(gallery.rglob("*.tmp"))


def test_same_data_same_bytes(gallery, data_dir, tmp_path):
    again = tmp_path / "again"
    build_gallery(data_dir, again, per_page=PER_PAGE)
    assert _tree(again) == _tree(gallery)
    build_gallery(data_dir, again, per_page=PER_PAGE)  # rebuilding in place changes nothing
    assert _tree(again) == _tree(gallery)
    build_gallery(data_dir, again, per_page=1)  # other pages: files no longer written are removed
    manifest_files = set(json.loads((again / "gallery.json").read_text())["files"])
    assert set(_tree(again)) - {"gallery.json"} == manifest_files


def test_cli_and_jsonl_export_give_the_same_pages(data_dir, gallery, tmp_path, capsys):
    jsonl = tmp_path / "jsonl"
    _export(jsonl, format="jsonl")
    out = tmp_path / "g"
    assert main(["gallery", str(jsonl), "--out", str(out), "--per-page", str(PER_PAGE)]) == 0
    assert "wrote 12 pages" in capsys.readouterr().out  # per dataset: train 15 -> 4 pages, test_id 1, test_ood 1
    a, b = _tree(gallery), _tree(out)
    assert {k for k in a if k.startswith("img/")} == {k for k in b if k.startswith("img/")}
    footer = re.compile(rb"<footer>.*?</footer>")
    for rel in a:
        if rel.endswith(".html"):
            assert footer.sub(b"", a[rel]) == footer.sub(b"", b[rel]), rel


def test_errors(data_dir, tmp_path):
    with pytest.raises(DatasetError, match="holds no exported splits"):
        build_gallery(tmp_path, tmp_path / "g")
    with pytest.raises(DatasetError, match="does not exist"):
        build_gallery(tmp_path / "nope", tmp_path / "g")
    with pytest.raises(ConfigError, match="per_page"):
        build_gallery(data_dir, tmp_path / "g", per_page=0)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(DatasetError, match="not a gallery"):
        build_gallery(data_dir, busy)
    preds = tmp_path / "preds"
    export(make_config(preds, domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1, image_size=32,
                       view="predictions"), quiet=True)
    with pytest.raises(DatasetError, match="predictions"):
        build_gallery(preds, tmp_path / "g2")
    assert main(["gallery", str(tmp_path / "nope"), "--out", str(tmp_path / "g3")]) == 2


# --------------------------------------------------------------------------- in headless Chromium


@needs_chromium
def test_images_load_in_chromium(gallery, tmp_path):
    for page in [gallery / "index.html", *(gallery / d / f"{s}.html" for d in DATASETS for s in SPLITS)]:
        doc = _dom(tmp_path, page)
        st = doc.status
        assert st.get("data-ready") == "1", (page, st)
        assert int(st["data-images-total"]) == len(doc.images) > 0
        assert st["data-images-loaded"] == st["data-images-total"] and st["data-images-broken"] == "0", (page, st)
        assert not any(c["hidden"] for c in doc.cards)


@needs_chromium
def test_a_missing_image_is_reported(gallery, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(gallery, broken)
    doc = _parse((broken / "sokoban-5x5" / "test_id.html").read_text())
    (broken / "sokoban-5x5" / doc.images[0]).resolve().unlink()
    st = _dom(tmp_path, broken / "sokoban-5x5" / "test_id.html").status
    assert int(st["data-images-broken"]) >= 1
    assert int(st["data-images-loaded"]) + int(st["data-images-broken"]) == int(st["data-images-total"])


@needs_chromium
def test_filter_from_the_url(gallery, tmp_path):
    index = gallery / "index.html"

    def shown(doc):
        return [(c["data-domain"], c["data-split"]) for c in doc.cards if not c["hidden"]]

    doc = _dom(tmp_path, index, "#domain=sokoban&split=test_id")
    assert shown(doc) == [("sokoban", "test_id")]
    assert sum(c["hidden"] for c in doc.cards) == len(DATASETS) * len(SPLITS) - 1
    assert doc.body["data-filter"] == "domain=sokoban&split=test_id"
    assert doc.count_text == f"1 of {len(DATASETS) * len(SPLITS)} shown"

    doc = _dom(tmp_path, index, "#split=test_id,test_ood")
    assert shown(doc) == [(d, s) for d in ("maze", "sokoban") for s in ("test_id", "test_ood")]

    doc = _dom(tmp_path, index, "?domain=maze")  # a query works like the hash
    assert {d for d, _ in shown(doc)} == {"maze"} and len(shown(doc)) == len(SPLITS)

    page = gallery / "sokoban-5x5" / "test_id.html"
    doc = _dom(tmp_path, page, "#domain=sokoban&split=test_id")
    assert len(shown(doc)) == len(doc.cards) > 0 and doc.empty_hidden
    doc = _dom(tmp_path, page, "#split=train")
    assert shown(doc) == [] and doc.empty_hidden is False


@needs_chromium
def test_screenshot(gallery, tmp_path):
    from PIL import Image, ImageStat

    shots = {}
    for name, url in (("page", (gallery / "sokoban-5x5" / "train.html").as_uri()),
                      ("index", (gallery / "index.html").as_uri() + "#split=train,test_id")):
        path = tmp_path / f"gallery-{name}.png"
        _chromium(tmp_path, url, f"--screenshot={path}", "--window-size=1280,2000")
        with Image.open(path) as im:
            assert im.size == (1280, 2000)
            assert max(ImageStat.Stat(im.convert("L")).stddev) > 10  # not a blank page
        shots[name] = path
    shutil.copyfile(shots["page"], SCREENSHOT_COPY)


# --------------------------------------------------------------------------- predictions, clicks, search (CDP)


def _write_predictions(data_dir: Path, path: Path) -> dict:
    """Predictions for sokoban test_id: instance 0 all right, 1 wrong choice, 2 wrong answer field, 3 a wrong state."""
    rows = pq.read_table(data_dir / "sokoban-5x5" / "test_id.parquet").to_pylist()
    letters = "ABCD"
    want = {}
    lines = []
    img_dir = path.parent / "pred-imgs"
    img_dir.mkdir(exist_ok=True)
    for i, r in enumerate(rows[:4]):
        wrong_letter = next(x for x in letters if x != r["correct_choice"])
        rec = {"id": r["id"], "choice": f"The answer is ({r['correct_choice'] if i != 1 else wrong_letter})",
               "answer": r["answer"] if i != 2 else "Player: (4, 4); blocks: " + r["answer"].split("blocks: ")[1],
               "states": [s["z_text"] for s in r["steps"]]}
        if i == 3:
            rec["states"][0] = rec["states"][0].replace("Player: (", "Player: (9")
        # the true step images as the model's: r_v 1, drawn beside the truth
        names = []
        for j, image in enumerate(r["step_images"]):
            (img_dir / f"{i}-{j}.png").write_bytes(image["bytes"])
            names.append(f"pred-imgs/{i}-{j}.png")
        rec["images"] = names
        lines.append(json.dumps(rec))
        want[r["id"]] = {0: "", 1: "choice", 2: "answer", 3: "states"}[i]
    lines += ["{not json", json.dumps({"id": "no-such-id", "choice": "A"})]
    path.write_text("\n".join(lines) + "\n")
    return want


@pytest.fixture(scope="module")
def pred_gallery(data_dir, tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("pred")
    want = _write_predictions(data_dir, root / "preds.jsonl")
    out = root / "g"
    assert main(["gallery", str(data_dir), "--out", str(out), "--per-page", "3", "--predictions", str(root / "preds.jsonl")]) == 0
    return out, want


def test_prediction_cards_mark_wrong_fields(pred_gallery):
    out, want = pred_gallery
    cards = {c["id"]: c for n in ("test_id.html", "test_id-2.html")
             for c in _parse((out / "sokoban-5x5" / n).read_text()).cards}
    for iid, wrong in want.items():
        assert cards[iid]["data-wrong"] == wrong, iid
        assert cards[iid]["data-predicted"] == "choice answer states images"
        # the predicted images stand beside the true ones: start + 2 per step (truth) + 2 per step (model)
        n_steps = (len(cards[iid]["images"]) - 1) // 4
        assert len(cards[iid]["images"]) == 1 + 4 * n_steps
    others = _parse((out / "sokoban-5x5" / "test_ood.html").read_text()).cards  # no prediction for these
    assert others and all("data-wrong" not in c and "data-predicted" not in c for c in others)
    html = (out / "sokoban-5x5" / "test_id.html").read_text()
    assert '<span class="fmark bad">player \u2717</span>' in html  # instance 2's wrong answer field
    manifest = json.loads((out / "gallery.json").read_text())
    issues = manifest["predictions"]["issues"]
    assert any(x.startswith("line 5: not JSON") for x in issues) and "id 'no-such-id' is not in the export" in issues


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (apt-get install -y chromium; .ci/run installs it)")
    from tests.ecosystem.cdp import Browser

    b = Browser(CHROMIUM, 1280, 1600)
    yield b
    b.close()


def _visible_ids(b) -> list[str]:
    return b.eval("Array.from(document.querySelectorAll('article.card')).filter(c => !c.hidden).map(c => c.id)")


@needs_chromium
def test_browser_images_paging_search_enlarge(gallery, browser, tmp_path):
    b = browser
    page1 = gallery / "sokoban-5x5" / "train.html"
    b.open(page1.as_uri())
    status = b.eval("(() => { const s = document.getElementById('svot-status'); return [s.dataset.imagesTotal, s.dataset.imagesLoaded, s.dataset.imagesBroken]; })()")
    assert int(status[0]) > 0 and status[1] == status[0] and status[2] == "0"
    first_ids = _visible_ids(b)
    # paging: a real click on "next" opens page 2 with the next instances, every image loaded there too
    b.click('nav.pager a[rel="next"]')
    b.wait_for("location.pathname.endsWith('/train-2.html') && document.readyState === 'complete' && "
               "document.getElementById('svot-status').dataset.ready === '1'")
    assert b.eval("document.getElementById('svot-status').dataset.imagesBroken") == "0"
    second_ids = _visible_ids(b)
    assert second_ids and not set(second_ids) & set(first_ids)
    # enlarge: clicking a step image opens the overlay with that image; a second click closes it
    src = b.eval("document.querySelector('article.card figure.frame:not(.start) img').getAttribute('src')")
    b.click("article.card figure.frame:not(.start) img")
    assert b.eval("document.getElementById('svot-lightbox').hidden") is False
    assert b.eval("document.querySelector('#svot-lightbox img').getAttribute('src')") == src
    assert b.eval("document.querySelector('#svot-lightbox img').naturalWidth") > 0
    b.screenshot(tmp_path / "gallery-enlarged.png")
    b.click("#svot-lightbox figcaption")
    assert b.eval("document.getElementById('svot-lightbox').hidden") is True
    # search by id, typed into the box: Enter opens the page holding it, the card marked as the target
    pairs = json.loads((gallery / "search-index.js").read_text().split("=", 1)[1].rstrip().rstrip(";"))
    target, href = pairs[-1]
    b.type_text("#svot-search-input", target, enter=True)
    b.wait_for(f"location.pathname.endsWith('/{href}') && document.readyState === 'complete'")
    b.wait_for(f"document.getElementById({json.dumps(target)}).classList.contains('target')")
    # a partial id lists the matches as links
    b.open((gallery / "index.html").as_uri() + "#q=maze-5x5-train")
    hits = b.eval("Array.from(document.querySelectorAll('#svot-search-results a')).map(a => a.textContent)")
    assert hits and all("maze-5x5-train" in h for h in hits)
    assert int(b.eval("document.getElementById('svot-search-results').dataset.hits")) == 15


@needs_chromium
def test_browser_predictions_filter_and_screenshot(pred_gallery, browser, tmp_path):
    out, want = pred_gallery
    b = browser
    page = out / "sokoban-5x5" / "test_id.html"  # 3 per page: instances 0-2 here
    b.open(page.as_uri())
    assert b.eval("document.getElementById('svot-status').dataset.imagesBroken") == "0"
    ids = _visible_ids(b)
    assert len(ids) == 3
    b.click("#filter-wrong")  # a real click on the "wrong only" checkbox
    assert _visible_ids(b) == [i for i in ids if want.get(i)]
    assert "wrong=1" in b.eval("location.hash")
    b.eval("(() => { const s = document.getElementById('filter-metric'); s.value = 'answer'; "
           "s.dispatchEvent(new Event('change')); })()")
    assert _visible_ids(b) == [i for i in ids if want.get(i) == "answer"]
    b.click("#filter-wrong")  # metric alone: the cards where it was predicted
    assert _visible_ids(b) == [i for i in ids if i in want]
    # from the URL, on page 2 (instance 3: a wrong state)
    b.open((out / "sokoban-5x5" / "test_id-2.html").as_uri() + "#wrong=1&metric=states")
    assert _visible_ids(b) == [i for i, w in want.items() if w == "states"]
    assert b.eval("document.getElementById('filter-wrong').checked") is True
    b.open(page.as_uri() + "#wrong=1")
    shot = b.screenshot(tmp_path / "gallery-predictions.png")
    from PIL import Image, ImageStat

    with Image.open(shot) as im:
        assert im.size == (1280, 1600) and max(ImageStat.Stat(im.convert("L")).stddev) > 10
    shutil.copyfile(shot, Path("/tmp/gallery_predictions_screenshot.png"))

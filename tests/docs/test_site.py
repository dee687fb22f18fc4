"""The documentation site: built strict, a generated page per environment family, checked in a real browser.

``mkdocs build --strict`` (mkdocs.yml; the ``docs`` extra) turns every warning into an error: a
broken link or anchor, a page left out of the navigation, an unreadable docstring. Then every
page is opened from disk in headless Chromium (Debian's ``/usr/bin/chromium``, driven over the
DevTools protocol by :mod:`tests.ecosystem.cdp`), which must load every image
(``complete && naturalWidth > 0``) and find every internal link's target page and anchor. The
environment pages must cover every family Gymnasium's registry holds under ``SVoT/`` and
``RuleMaze/``, a toy domain registered from outside included (it gets its page with no edit).

Skipped, with the reason, where the ``docs`` extra or Chromium is missing (.ci/run installs both).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.docs.docs_blocks import REPO
from tests.ecosystem.cdp import Browser

CHROMIUM = Path("/usr/bin/chromium")
needs_mkdocs = pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                                  reason="mkdocs is not installed (pip install -e '.[docs]')")
QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}

# what the page reports: images that did not load, and every link of the page resolved by the browser
PAGE_REPORT = """(() => {
  const imgs = Array.from(document.images);
  return {
    images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src')),
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
    ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
  };
})()"""

# A domain registered from outside the package, before the build: its family must get a page.
TOY_BUILD = """
import sys
sys.path.insert(0, {repo!r})
from svot.extend import register_domain
from tests.toy_domain.lamps import LampsGenerator, LampsSpec
register_domain(LampsSpec(), LampsGenerator())
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", "build", "--strict", "--site-dir", {site!r}]
cli()
"""


# the site's own page generator (docs/_gen/env_pages.py, not a package): its view of the registry's families
_SPEC = importlib.util.spec_from_file_location("svot_docs_env_pages", REPO / "docs" / "_gen" / "env_pages.py")
env_pages = sys.modules[_SPEC.name] = importlib.util.module_from_spec(_SPEC)  # dataclasses look it up there
_SPEC.loader.exec_module(env_pages)


def _registry_families() -> set[str]:
    return {f.slug for f in env_pages.families()}


def build_site(out: Path) -> Path:
    env = dict(os.environ, **QUIET, PYTHONPATH=str(REPO), OMP_NUM_THREADS="1")
    code = TOY_BUILD.format(repo=str(REPO), site=str(out))
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{r.stdout[-4000:]}\n{r.stderr[-8000:]}"
    return out


def check_every_registered_family_has_a_generated_page(site: Path) -> None:
    families = _registry_families() | {"svot-lamps"}
    pages = {p.stem for p in (site / "envs").glob("*.html")} - {"index"}
    assert families <= pages, f"no page for {sorted(families - pages)}"
    lamps = (site / "envs" / "svot-lamps.html").read_text(encoding="utf-8")
    for part in ("SVoT/Lamps-4x4-v0", "SVoT/Lamps-5x5-OOD-v0", "a solved episode", "Version history",
                 "Keyword arguments of"):
        assert part in lamps, part
    sokoban = (site / "envs" / "svot-sokoban.html").read_text(encoding="utf-8")
    for part in ("Table 5", "wall_density", "Discrete(4)", "Box(0, 15, (6, 6), uint8)", "svot-sokoban-solved.gif"):
        assert part in sokoban, part


def check_api_reference_is_rendered_from_docstrings(site: Path) -> None:
    for module, member in [("svot.envs", "svot.envs.SVoTEnv"), ("svot.dataset", "svot.dataset.iter_split"),
                           ("svot.metrics", "svot.metrics.evaluate"), ("svot.rulemaze", "svot.rulemaze"),
                           ("svot.extend", "svot.extend.register_domain"), ("svot.inspect", "svot.inspect.tasks")]:
        page = (site / "api" / f"{module}.html").read_text(encoding="utf-8")
        assert f'id="{member}"' in page, (module, member)
        assert ":class:`" not in page and ":func:`" not in page, f"a Sphinx role shown as typed on {module}'s page"


def check_every_page_loads_its_images_and_every_internal_link_resolves(site: Path) -> None:
    pages = sorted(p for p in site.rglob("*.html") if p.name not in ("404.html", "SUMMARY.html"))
    assert len(pages) > 30
    browser = Browser(CHROMIUM, width=1280, height=900)
    problems, ids_of, links_of, images = [], {}, {}, 0
    try:
        for page in pages:
            url = page.as_uri()
            browser.send("Page.navigate", session=True, url=url)
            browser.wait_for(f"location.href === {json.dumps(url)} && document.readyState === 'complete'")
            report = browser.eval(PAGE_REPORT)
            images += report["images"]
            problems += [f"{page.relative_to(site)}: image {src} did not load" for src in report["broken"]]
            ids_of[page] = set(report["ids"])
            links_of[page] = report["links"]
    finally:
        browser.close()
    for page, links in links_of.items():
        for link in links:
            parts = urlsplit(link)
            if parts.scheme != "file":
                continue
            target = Path(unquote(parts.path))
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{page.relative_to(site)}: link to missing {link}")
            elif parts.fragment and target.suffix == ".html" and target in ids_of \
                    and unquote(parts.fragment) not in ids_of[target]:
                problems.append(f"{page.relative_to(site)}: link to missing anchor {link}")
    in_html = sum(p.read_text(encoding="utf-8").count("<img ") for p in pages)
    assert images == in_html and images > 60, (images, in_html)  # the browser saw every image the pages hold
    assert not problems, "\n".join(problems[:40])


# One test, one build (about 15 s): under pytest-xdist, separate tests could each build the site on
# their own worker.
@needs_mkdocs
@pytest.mark.slow
def test_site_builds_strict_with_generated_env_pages_api_reference_and_working_images_and_links(tmp_path):
    site = build_site(tmp_path / "site")
    check_every_registered_family_has_a_generated_page(site)
    check_api_reference_is_rendered_from_docstrings(site)
    if not CHROMIUM.exists():
        pytest.skip("built strict and checked the pages' content; the browser check needs /usr/bin/chromium "
                    "(apt-get install -y chromium; .ci/run installs it)")
    check_every_page_loads_its_images_and_every_internal_link_resolves(site)

"""mkdocs-gen-files script: the pages no one writes by hand, made at every build.

* ``envs/``: one page per environment family, from Gymnasium's registry (``env_pages``);
* ``api/``: one API reference page per public module, from the docstrings (mkdocstrings' ``:::``);
* ``changelog.md``: CHANGELOG.md as a page;
* ``SUMMARY.md``: the navigation (mkdocs-literate-nav). The guides are listed in the order below
  when they exist; any other ``docs/*.md`` is added after them, so a page another change adds
  (``docs/<topic>.md``) shows up in the navigation without an edit here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).parent))
from env_pages import write_all  # noqa: E402 - the script's own folder, put on the path just above

DOCS = Path(__file__).resolve().parents[1]
REPO = DOCS.parent

# (section, [page file names in order]); a name that does not exist is left out
GUIDES = [
    ("Get started", ["quickstart.md", "environments.md", "conventions.md"]),
    ("Guides", ["rl.md", "datasets.md", "training.md", "scoring.md", "evaluate.md", "agents.md", "rulemaze.md",
                "gallery.md", "pddl.md", "adding_a_domain.md", "jax.md"]),
    ("Speed and quality", ["speed.md", "benchmarks.md", "reliability.md", "paper_fidelity.md"]),
]
ABOUT = ["about_this_site.md"]

# (title, module): each gets api/<module>.md holding ``::: module``
API = [
    ("Environments: svot.envs", "svot.envs"),
    ("Wrappers: svot.wrappers", "svot.wrappers"),
    ("Datasets: svot.dataset", "svot.dataset"),
    ("Scoring: svot.metrics", "svot.metrics"),
    ("RuleMaze: svot.rulemaze", "svot.rulemaze"),
    ("Inspect tasks: svot.inspect", "svot.inspect"),  # no re-exports: its submodules are shown (SUBMODULES)
    ("Agents: svot.agents", "svot.agents"),  # the core re-exported; the adapters are its submodules (SUBMODULES)
    ("JAX: svot.jax", "svot.jax"),
    ("Adding a domain: svot.extend", "svot.extend"),
    ("Domain specs: svot.domains", "svot.domains"),
    ("Problem generation: svot.problem_gen", "svot.problem_gen"),
    ("PDDL: svot.pddl", "svot.pddl"),
    ("Episode GIFs: svot.gif", "svot.gif"),
    ("Gallery: svot.gallery", "svot.gallery"),
    ("Errors: svot.errors", "svot.errors"),
]

SUBMODULES = {"svot.inspect", "svot.agents"}


def title_of(page: Path) -> str:
    m = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M)
    return m[1].strip() if m else page.stem.replace("_", " ").capitalize()


def _write_text(path: str, text: str) -> None:
    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)


def _write_bytes(path: str, data: bytes) -> None:
    with mkdocs_gen_files.open(path, "wb") as f:
        f.write(data)


def main() -> None:
    families = write_all(_write_text, _write_bytes)

    for title, module in API:
        options = "\n    options:\n      show_submodules: true" if module in SUBMODULES else ""
        _write_text(f"api/{module}.md", f"# {title}\n\n::: {module}{options}\n")
        mkdocs_gen_files.set_edit_path(f"api/{module}.md", None)
    _write_text("changelog.md", (REPO / "CHANGELOG.md").read_text(encoding="utf-8"))

    listed = {"index.md", *ABOUT, *(name for _, names in GUIDES for name in names)}
    others = sorted(p.name for p in DOCS.glob("*.md") if p.name not in listed)
    nav = ["* [Home](index.md)"]
    for section, names in GUIDES:
        pages = [n for n in names if (DOCS / n).exists()]
        if section == "Guides":
            pages += others
        if pages:
            nav.append(f"* {section}")
            nav += [f"    * [{title_of(DOCS / n)}]({n})" for n in pages]
    nav.append("* [Environments](envs/index.md)")
    nav += [f"    * [{fam.title}](envs/{fam.slug}.md)" for fam in families]
    nav.append("* API reference")
    nav += [f"    * [{title}](api/{module}.md)" for title, module in API]
    nav.append("* About")
    nav += [f"    * [{title_of(DOCS / n)}]({n})" for n in ABOUT if (DOCS / n).exists()]
    nav.append("    * [Changelog](changelog.md)")
    _write_text("SUMMARY.md", "\n".join(nav) + "\n")


main()

"""MkDocs hook: links from a guide to a file of the repository outside ``docs/``.

A guide read on GitHub may link ``../examples/train_ppo.py`` or ``../README.md``; the site holds
neither, and ``mkdocs build --strict`` would stop on such a link. Here ``../README.md`` becomes the
home page, and a link to any other repository file becomes its path as code (the site has no source
browser), so strict mode still catches every link that misses inside the site.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>\.\./[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")


def on_page_markdown(markdown: str, page, config, files) -> str:
    docs = Path(config["docs_dir"]).resolve()
    repo = docs.parent
    page_dir = (docs / page.file.src_uri).parent

    def rewrite(m: re.Match) -> str:
        target = (page_dir / m["target"]).resolve()
        if target.is_relative_to(docs) or not target.is_relative_to(repo) or not target.exists():
            return m[0]  # inside the site, or not a repository file: MkDocs judges it
        if target == repo / "README.md":
            home = os.path.relpath(docs / "index.md", page_dir)
            return f"[{m['text']}]({home})"
        rel = target.relative_to(repo).as_posix()
        text = m["text"].strip("`")
        return f"`{rel}`" if text in (rel, Path(rel).name, "") else f"{m['text']} (`{rel}`)"

    return _LINK.sub(rewrite, markdown)

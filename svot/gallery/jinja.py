"""The gallery's Jinja2 environment: templates from ``svot/gallery/templates/`` (package data), autoescaped.

A page is ``render("page.html.j2", **context)``; values reach the HTML
escaped unless they are :class:`markupsafe.Markup` (the image tags and the
embedded JSON, built in :mod:`svot.gallery.build`). Undefined names raise, so a
template and its context cannot drift apart silently.
"""

from __future__ import annotations

import jinja2

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("svot.gallery", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def render(name: str, **context) -> str:
    """The template ``name`` filled in with ``context``."""
    return _ENV.get_template(name).render(**context)

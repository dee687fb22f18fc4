"""A Griffe extension for the API reference: the reStructuredText bits of svot's docstrings as Markdown.

svot's docstrings use roles (``:class:`~svot.pddl.Problem```, ``:func:`x```) and literal blocks
introduced by ``::``, which mkdocstrings' Markdown would show as typed. A role becomes a code span
of the name (the last part when the target starts with ``~``, as Sphinx shows it); ``Example::``
becomes ``Example:`` and a lone ``::`` line goes (the indented block after it is a code block in
Markdown too).
"""

from __future__ import annotations

import re

from griffe import Extension

_LITERAL = re.compile(r"(?m)^([ \t]*)::[ \t]*$\n?|(?<=\S)::[ \t]*$")
_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|obj|exc|const|ref):`(~?)([^`<]+?)(?:\s*<[^>]+>)?`")


def _replace(m: re.Match) -> str:
    tilde, target = m[1], m[2].strip()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


class SphinxRoles(Extension):
    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            text = _ROLE.sub(_replace, obj.docstring.value)
            obj.docstring.value = _LITERAL.sub(lambda m: "" if m[1] is not None else ":", text)

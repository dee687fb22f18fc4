"""Rendering: cell labels, tile-atlas images, perception, state text and text grids.

* :mod:`~svot.render.labels` — ``label_grid(spec, state)``, ``label_vocabulary(spec, size)``
* :mod:`~svot.render.image` — ``render_state``, ``render_states``, ``render_labels``, ``cell_bounds``
* :mod:`~svot.render.atlas` / :mod:`~svot.render.sprites` — the cached tiles
* :mod:`~svot.render.perceive` — ``read_labels`` and the :class:`Perceiver` templates
* :mod:`~svot.render.text` — ``describe``, ``parse`` (strict), ``parse_fields`` (lenient)
* :mod:`~svot.render.ansi` — ``render_ansi``

Nothing here knows an environment: everything takes a ``DomainSpec`` and a state dict.
"""

from svot.render.ansi import render_ansi
from svot.render.atlas import TileAtlas, cell_bounds, get_atlas
from svot.render.image import render_labels, render_state, render_states, save_png
from svot.render.labels import label_grid, label_ids, label_vocabulary
from svot.render.perceive import Perceiver, get_perceiver, label_templates, read_label_ids, read_labels
from svot.render.text import StateTextError, describe, parse, parse_fields

__all__ = [
    "Perceiver",
    "StateTextError",
    "TileAtlas",
    "cell_bounds",
    "describe",
    "get_atlas",
    "get_perceiver",
    "label_grid",
    "label_ids",
    "label_templates",
    "label_vocabulary",
    "parse",
    "parse_fields",
    "read_label_ids",
    "read_labels",
    "render_ansi",
    "render_labels",
    "render_state",
    "render_states",
    "save_png",
]

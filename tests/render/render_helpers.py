"""Hypothesis strategies for the renderer tests: random valid state dicts of every domain."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from svot.domains import DOMAINS, get_spec
from svot.render.ansi import edge_kinds
from svot.render.samples import random_state

#: the domains whose walls, if any, are cells (one text character each); the others draw walls on edges
CELL_GRID_DOMAINS = tuple(d for d in DOMAINS if not edge_kinds(get_spec(d)))
SIZES = (4, 5, 6, 7)


@st.composite
def states(draw, domains=DOMAINS, sizes=SIZES):
    """``(spec, state)`` with a random domain, size, density and layout."""
    name = draw(st.sampled_from(domains))
    size = draw(st.sampled_from(sizes))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9]))
    seed = draw(st.integers(0, 2**32 - 1))
    spec = get_spec(name)
    return spec, random_state(spec, size, np.random.default_rng(seed), density=density)


def cell_variance(cell: np.ndarray) -> float:
    """The visual reward's foreground statistic: mean over RGB of the per-channel
    population variance of [0, 1] values (SVoT A.3, delta = 0.002)."""
    x = cell.reshape(-1, 3).astype(np.float64) / 255.0
    return float(x.var(axis=0).mean())

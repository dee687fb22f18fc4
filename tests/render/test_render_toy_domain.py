"""A domain the renderer has never heard of still renders, reads back and round-trips as text."""

from __future__ import annotations

import numpy as np

from svot.domains.base import DomainSpec, Field, add_kind
from svot.render import describe, label_grid, label_vocabulary, parse, read_labels, render_ansi, render_state


class ToySpec(DomainSpec):
    name = "toy_gems"
    title = "Gems"
    pddl = "unused"
    sizes = (4,)
    kinds = ("player", "gem", "rock")
    fields = (Field("player", "Player", "cell"), Field("gems", "Gems", "cells"), Field("rocks", "Rocks", "cells"), Field("score", "Score", "int"))

    def cell_kinds(self, state):
        out: dict = {}
        for g in state["gems"]:
            add_kind(out, g, "gem")
        for r in state["rocks"]:
            add_kind(out, r, "rock")
        add_kind(out, state["player"], "player")
        return out


def test_toy_domain():
    spec = ToySpec()
    s = {"domain": "toy_gems", "size": 4, "player": [1, 1], "gems": [[0, 0], [1, 1]], "rocks": [[3, 2]], "score": 7}
    assert label_vocabulary(spec, 4) == ["empty", "player", "gem", "rock", "player+gem", "player+rock"]
    img = render_state(spec, s)
    assert img.shape == (256, 256, 3)
    assert read_labels(spec, img, 4) == label_grid(spec, s)
    assert label_grid(spec, s)[1][1] == "player+gem"
    gem, rock = img[:64, :64].astype(int), img[192:, 128:192].astype(int)
    assert np.abs(gem - rock).mean() > 5  # generic sprites differ by kind
    assert parse(spec, describe(spec, s)) == s
    assert render_ansi(spec, s).split("\n")[3][4] != "."

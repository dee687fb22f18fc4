"""A domain the renderer has never heard of still renders, reads back and round-trips as text."""

from __future__ import annotations

import numpy as np

from svot.kernel.spec import DomainSpec, Field, add_kind
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


def test_a_domain_without_sample_states_says_so():
    import pytest

    from svot.errors import ConfigError
    from svot.render.samples import random_state

    with pytest.raises(ConfigError, match="random_state knows no domain 'toy_gems'"):
        random_state(ToySpec(), 4, 0)


def test_a_spec_chooses_how_it_looks():
    """The "envs and rendering" hooks of DomainSpec: floor, sprites, label combinations, ANSI characters."""
    from svot.render.ansi import ansi_chars
    from svot.render.sprites import sprite_for

    class Styled(ToySpec):
        floor = (10, 20, 30)
        sprites = {"gem": "coin"}
        label_combos = ("player+gem",)
        ansi_chars = {"gem": "$", "rock": "%"}
        empty_cell_name = "sand"

    plain, styled = ToySpec(), Styled()
    s = {"domain": "toy_gems", "size": 4, "player": [1, 1], "gems": [[0, 0]], "rocks": [[3, 2]], "score": 0}
    assert sprite_for(plain, "gem") == "generic:gem" and sprite_for(styled, "gem") == "coin"
    assert sprite_for(plain, "player") == "player"  # a library sprite of the kind's own name
    assert label_vocabulary(styled, 4) == ["empty", "player", "gem", "rock", "player+gem"]
    assert ansi_chars(styled, 4)["gem"] == "$" and ansi_chars(plain, 4)["player"] == "P"
    assert render_ansi(styled, s).split("\n")[0] == "$ . . ." and "sand" in render_ansi(styled, s)
    corner = render_state(styled, s)[40:50, 200:210]  # an empty cell: the floor
    assert (corner == (10, 20, 30)).all()

"""Tile-atlas images: shape, speed paths agree, tiles distinct, foreground/background variance."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from render_helpers import DOMAINS, SIZES, cell_variance, states

from svot.domains import get_spec
from svot.errors import ConfigError, ProblemError
from svot.render.atlas import cell_bounds, get_atlas
from svot.render.image import render_labels, render_state, render_states
from svot.render.labels import label_grid, label_ids
from svot.render.samples import random_state

DELTA = 0.002  # the visual reward's foreground threshold on [0, 1] values
MIN_RMS = 20.0  # minimum RMS distance (0..255) between two tiles of one domain


def test_cell_bounds_match_the_scoring_split():
    assert cell_bounds(256, 5).tolist() == [0, 51, 102, 154, 205, 256]
    for L, n in [(256, 7), (250, 6), (64, 4), (37, 3)]:
        b = cell_bounds(L, n)
        assert b.tolist() == np.linspace(0, L, n + 1).round().astype(int).tolist()


@pytest.mark.parametrize("name", DOMAINS)
@pytest.mark.parametrize("image_size", [256, 250, (120, 200)])
def test_shape_dtype_and_paths_agree(name, image_size):
    spec = get_spec(name)
    rng = np.random.default_rng(1)
    states_ = [random_state(spec, 5, rng, density=0.4) for _ in range(4)]
    h, w = (image_size, image_size) if isinstance(image_size, int) else image_size
    singles = [render_state(spec, s, image_size) for s in states_]
    for img in singles:
        assert img.shape == (h, w, 3) and img.dtype == np.uint8 and img.flags.writeable
    ids = np.stack([label_ids(spec, s) for s in states_])
    assert np.array_equal(render_labels(spec, ids, image_size), np.stack(singles))
    assert np.array_equal(render_states(spec, states_, image_size), np.stack(singles))
    for k in range(len(states_)):
        out = np.zeros((h, w, 3), np.uint8)
        render_labels(spec, ids[k], image_size, out=out)
        assert np.array_equal(out, singles[k])
    # a second call gives the same pixels, and a returned image is not shared
    again = render_state(spec, states_[0], image_size)
    assert np.array_equal(again, singles[0]) and not np.shares_memory(again, singles[0])


@settings(max_examples=150, deadline=None)
@given(states())
def test_each_cell_is_its_labels_tile(spec_state):
    spec, s = spec_state
    n = s["size"]
    img = render_state(spec, s)
    atlas = get_atlas(spec, n, 256)
    b = cell_bounds(256, n)
    for r, row in enumerate(label_grid(spec, s)):
        for c, lab in enumerate(row):
            h, w = b[r + 1] - b[r], b[c + 1] - b[c]
            assert np.array_equal(img[b[r] : b[r + 1], b[c] : b[c + 1]], atlas.tile(lab, h, w)), (r, c, lab)


@pytest.mark.parametrize("name", DOMAINS)
@pytest.mark.parametrize("size", SIZES)
def test_tiles_pairwise_distinct(name, size):
    atlas = get_atlas(get_spec(name), size, 256)
    for (h, w), stack in atlas.stacks.items():
        tiles = stack[: atlas.vocab_size].astype(np.float64)
        for i, j in itertools.combinations(range(len(tiles)), 2):
            rms = np.sqrt(((tiles[i] - tiles[j]) ** 2).mean())
            assert rms > MIN_RMS, (name, size, (h, w), atlas.labels[i], atlas.labels[j], rms)


@pytest.mark.parametrize("name", DOMAINS)
@pytest.mark.parametrize("size", SIZES)
def test_foreground_variance_separates_empty_from_every_label(name, size):
    """Empty cells are flat (variance <= DELTA), every non-empty label is foreground (> DELTA)."""
    atlas = get_atlas(get_spec(name), size, 256)
    for (h, w), stack in atlas.stacks.items():
        for lab, tile in zip(atlas.labels[: atlas.vocab_size], stack):
            v = cell_variance(tile)
            if lab == "empty":
                assert v < DELTA / 2, (name, size, (h, w), v)
            else:
                assert v > 2 * DELTA, (name, size, (h, w), lab, v)


@settings(max_examples=60, deadline=None)
@given(states())
def test_foreground_mask_of_rendered_images_is_the_non_empty_cells(spec_state):
    spec, s = spec_state
    n = s["size"]
    img = render_state(spec, s)
    b = cell_bounds(256, n)
    fg = np.array([[cell_variance(img[b[r] : b[r + 1], b[c] : b[c + 1]]) > DELTA for c in range(n)] for r in range(n)])
    want = np.array([[lab != "empty" for lab in row] for row in label_grid(spec, s)])
    assert np.array_equal(fg, want)
    try:  # the scoring code's own mask, when that module is present
        from svot.metrics.visual import foreground_mask
    except ImportError:
        return
    assert np.array_equal(foreground_mask(img, n), want)


@pytest.mark.parametrize("name", DOMAINS)
def test_small_cells_keep_the_variance_split(name):
    """Down to the envs' minimum of 8 pixels per cell."""
    for cs in (8, 9, 13):
        atlas = get_atlas(get_spec(name), 6, 6 * cs)
        stack = atlas.stacks[(cs, cs)]
        assert cell_variance(stack[0]) < DELTA
        assert min(cell_variance(t) for t in stack[1 : atlas.vocab_size]) > DELTA


def test_bad_inputs():
    spec = get_spec("sokoban")
    with pytest.raises(ConfigError, match="label ids must lie in 0..6"):
        render_labels(spec, np.full((5, 5), 7))
    with pytest.raises(ConfigError, match=r"shape \(n, n\)"):
        render_labels(spec, np.zeros((5, 4), int))
    with pytest.raises(ConfigError, match="image_size"):
        render_state(spec, random_state(spec, 5, 0), image_size="big")
    s = random_state(spec, 5, 0)
    s["walls"] = [[7, 7]]
    with pytest.raises(ProblemError, match="outside the 5x5 grid"):
        render_state(spec, s)


def test_unlisted_combination_still_renders():
    """A state outside the vocabulary (a coin under the Pacman player) gets a stacked tile."""
    spec = get_spec("pacman")
    s = {"domain": "pacman", "size": 4, "player": [1, 1], "coins": [[1, 1]], "collected": 0, "total": 1}
    img = render_state(spec, s)
    b = cell_bounds(256, 4)
    cell = img[b[1] : b[2], b[1] : b[2]]
    player_only = render_state(spec, {**s, "coins": []})[b[1] : b[2], b[1] : b[2]]
    assert not np.array_equal(cell, player_only)

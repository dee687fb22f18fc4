"""Rendering then perceiving recovers the state's labels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from render_helpers import DOMAINS, SIZES, states

from svot.domains import get_spec
from svot.render.image import render_state
from svot.render.labels import label_grid, label_ids, label_vocabulary
from svot.render.perceive import get_perceiver, label_templates, read_label_ids, read_labels
from svot.render.samples import random_state


@settings(max_examples=300, deadline=None)
@given(states())
def test_read_back_every_cell(spec_state):
    spec, s = spec_state
    img = render_state(spec, s)
    assert read_labels(spec, img, s["size"]) == label_grid(spec, s)
    assert np.array_equal(read_label_ids(spec, img, s["size"]), label_ids(spec, s))


@settings(max_examples=40, deadline=None)
@given(states(), st.sampled_from([97, 180, 333, (150, 240)]))
def test_read_back_at_other_image_sizes(spec_state, size):
    spec, s = spec_state
    img = render_state(spec, s, size)
    assert read_labels(spec, Image.fromarray(img), s["size"]) == label_grid(spec, s)


@pytest.mark.parametrize("name", DOMAINS)
def test_robust_to_noise_and_resampling(name):
    """Perception is nearest-template, so mild noise or a resize round trip does not change it."""
    spec = get_spec(name)
    rng = np.random.default_rng(7)
    for n in SIZES:
        for _ in range(3):
            s = random_state(spec, n, rng)
            img = render_state(spec, s)
            noisy = np.clip(img + rng.normal(0, 12, img.shape), 0, 255).astype(np.uint8)
            assert read_labels(spec, noisy, n) == label_grid(spec, s)
            blurry = np.asarray(Image.fromarray(img).resize((128, 128), Image.BILINEAR).resize((256, 256), Image.BILINEAR))
            assert read_labels(spec, blurry, n) == label_grid(spec, s)


def test_a_wrong_cell_is_read_as_what_it_shows():
    spec = get_spec("sokoban")
    s = random_state(spec, 5, 3)
    img = render_state(spec, s).copy()
    img[:51, :51] = render_state(spec, {**s, "walls": [[0, 0]], "player": [4, 4], "blocks": [], "goals": []})[:51, :51]
    got = read_labels(spec, img, 5)
    assert got[0][0] == "wall"


def test_templates_are_exposed():
    spec = get_spec("gather")
    labels, temps = label_templates(spec, 5, 256)
    assert labels == label_vocabulary(spec, 5)
    assert set(temps) == {(51, 51), (51, 52), (52, 51), (52, 52)}
    assert all(t.shape == (len(labels), 8 * 8 * 3) for t in temps.values())
    p = get_perceiver(spec, 5, 256)
    d = p.distances(render_state(spec, random_state(spec, 5, 0)))
    assert d.shape == (5, 5, len(labels)) and np.allclose(d.min(axis=2), 0)
    assert p.template_images(51, 52).shape == (len(labels), 51, 52, 3)

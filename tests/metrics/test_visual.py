"""Tests for svot.metrics.visual: the visual reward r_v of SVoT (Appendix A.3)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image, ImageFilter

from svot.metrics.visual import (
    VisualScore,
    cell_boundaries,
    composite,
    foreground_mask,
    laplacian_variance,
    s_color,
    s_edge,
    s_hash,
    split_cells,
    visual_reward,
)

BACKGROUND = (200, 220, 240)


# --------------------------------------------------------------------------- helpers


def gray_patch(values: np.ndarray) -> np.ndarray:
    """(h, w) grey levels -> (h, w, 3) uint8 with R = G = B."""
    v = np.asarray(values, dtype=np.uint8)
    return np.repeat(v[:, :, None], 3, axis=2)


def checker_sprite(size: int, c1, c2, check: int = 4) -> np.ndarray:
    yy, xx = np.mgrid[:size, :size]
    mask = ((yy // check + xx // check) % 2 == 0)[..., None]
    return np.where(mask, np.array(c1, np.uint8), np.array(c2, np.uint8)).astype(np.uint8)


def scene(n: int, sprites: dict, size: int = 256) -> np.ndarray:
    """Flat background with a 30x30 checkered sprite 10 px inside each listed cell."""
    img = np.empty((size, size, 3), np.uint8)
    img[:] = BACKGROUND
    b = cell_boundaries(size, n)
    for (i, j), (c1, c2) in sprites.items():
        r0, c0 = b[i] + 10, b[j] + 10
        img[r0 : r0 + 30, c0 : c0 + 30] = checker_sprite(30, c1, c2)
    return img


def blocky(rng: np.random.Generator, shape=(256, 256), block: int = 16) -> np.ndarray:
    h, w = shape
    small = rng.integers(0, 256, (-(-h // block), -(-w // block), 3), dtype=np.uint8)
    return np.kron(small, np.ones((block, block, 1), np.uint8))[:h, :w]


RED = ((255, 40, 40), (30, 30, 160))
GREEN = ((40, 200, 40), (250, 250, 0))


# --------------------------------------------------------------------------- cells


def test_cell_boundaries_follow_rounded_linspace():
    assert cell_boundaries(256, 5).tolist() == [0, 51, 102, 154, 205, 256]
    assert cell_boundaries(256, 7).tolist() == [0, 37, 73, 110, 146, 183, 219, 256]
    assert cell_boundaries(256, 4).tolist() == [0, 64, 128, 192, 256]


def test_split_cells_tiles_the_image():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (100, 133, 3), dtype=np.uint8)
    cells = split_cells(img, 6)
    assert len(cells) == 6 and all(len(row) == 6 for row in cells)
    rebuilt = np.concatenate([np.concatenate(row, axis=1) for row in cells], axis=0)
    np.testing.assert_array_equal(rebuilt, img)
    assert cells[0][0].shape == (17, 22, 3)


def test_split_cells_converts_rgba_and_l():
    rgba = Image.new("RGBA", (20, 20), (10, 20, 30, 0))
    assert split_cells(rgba, 2)[1][1][0, 0].tolist() == [10, 20, 30]
    grey = np.full((20, 20), 77, np.uint8)
    assert split_cells(grey, 2)[0][1].shape == (10, 10, 3)
    assert split_cells(Image.fromarray(grey, "L"), 2)[0][0][3, 3].tolist() == [77, 77, 77]


# --------------------------------------------------------------------------- foreground mask


def test_foreground_mask_flat_background_and_textured_cells():
    img = np.full((256, 256, 3), 128, np.uint8)
    b = cell_boundaries(256, 4)  # 64-px cells

    def cell(i, j):
        return img[b[i] : b[i + 1], b[j] : b[j + 1]]

    cell(0, 1)[:] = checker_sprite(64, (0, 0, 0), (255, 255, 255))  # variance 0.25
    cell(2, 3)[:] = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    # faint noise of +-2 grey levels: variance (2/255)^2 ~ 6e-5 < delta
    cell(3, 0)[:] = 128 + np.where(np.indices((64, 64)).sum(0) % 2 == 0, 2, -2)[..., None]
    # only R varies: half 0, half v -> mean-over-channels variance (v/255)^2 / 4 / 3
    cell(1, 2)[:, :32, 0] = 0
    cell(1, 2)[:, 32:, 0] = 40  # (40/255)^2 / 12 = 0.00205 > 0.002
    cell(3, 3)[:, :32, 0] = 0
    cell(3, 3)[:, 32:, 0] = 38  # (38/255)^2 / 12 = 0.00185 < 0.002

    expected = np.zeros((4, 4), bool)
    expected[0, 1] = expected[2, 3] = expected[1, 2] = True
    np.testing.assert_array_equal(foreground_mask(img, 4), expected)

    # the threshold is delta, compared with ">": cell (3, 3) flips once delta is below its variance
    var_33 = (38 / 255) ** 2 / 12
    assert foreground_mask(img, 4, delta=var_33 * 0.999)[3, 3]
    assert not foreground_mask(img, 4, delta=var_33 * 1.001)[3, 3]
    assert not foreground_mask(img, 4, delta=0.25)[0, 1]  # 0.25 is not > 0.25


# --------------------------------------------------------------------------- s_hash


def _bits_patch(bright: np.ndarray) -> np.ndarray:
    return gray_patch(np.where(bright, 200, 50))


def test_s_hash_hand_computed_16_bit_difference():
    rows = np.arange(8)[:, None] * np.ones((1, 8), int)
    cols = np.ones((8, 1), int) * np.arange(8)[None, :]
    bx = rows < 4  # top half bright, mean 125
    by = bx.copy()
    # swap the left halves of rows 0-1 and rows 4-5: still 32 bright pixels
    by[0:2, 0:4] = False
    by[4:6, 0:4] = True
    assert np.count_nonzero(bx != by) == 16
    x, y = _bits_patch(bx), _bits_patch(by)
    assert s_hash(x, y) == 0.75
    assert s_hash(x, x) == 1.0
    assert s_hash(x, _bits_patch(~bx)) == 0.0
    assert s_hash(x, _bits_patch(cols < 4)) == 0.5  # differs where exactly one of row<4, col<4
    # a 16x16 patch made of 2x2 blocks BOX-downsamples to the same 8x8 image
    big = np.ones((2, 2, 1), np.uint8)
    assert s_hash(np.kron(x, big), np.kron(y, big)) == 0.75


def test_s_hash_pixels_equal_to_the_mean_are_not_set():
    levels = np.repeat(np.array([50, 50, 125, 125, 125, 125, 200, 200]), 8).reshape(8, 8)
    x = gray_patch(levels)  # mean 125: only rows 6-7 are strictly above it
    y = gray_patch(np.where(np.arange(8)[:, None] >= 6, 200, 50) * np.ones((1, 8), int))
    assert s_hash(x, y) == 1.0


def test_s_hash_flat_patches_have_no_bits():
    a = gray_patch(np.full((13, 11), 30))
    b = np.zeros((13, 11, 3), np.uint8)
    b[:] = (255, 0, 90)
    assert s_hash(a, b) == 1.0


@pytest.mark.parametrize("size", [1, 5, 8, 13, 37, 51, 52, 64, 256])
def test_s_hash_downsampling_is_pillow_box(size):
    from svot.metrics.visual import _box_matrix

    rng = np.random.default_rng(size)
    gray = rng.uniform(0, 255, (size, size)).astype(np.float32)
    want = np.asarray(Image.fromarray(gray, "F").resize((8, 8), Image.Resampling.BOX))
    got = _box_matrix(size, 8) @ gray.astype(np.float64) @ _box_matrix(size, 8).T
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-3)


def test_s_hash_uses_bt601_luma():
    # pure red (luma 76.2) above pure blue (luma 29.1): red half is bright
    x = np.zeros((8, 8, 3), np.uint8)
    x[:4, :, 0] = 255
    x[4:, :, 2] = 255
    y = _bits_patch(np.arange(8)[:, None] * np.ones((1, 8)) < 4)
    assert s_hash(x, y) == 1.0
    # green (luma 149.7) above red: swapping red for green on the bottom flips all bits
    z = x.copy()
    z[4:] = (0, 255, 0)
    assert s_hash(x, z) == 0.0


# --------------------------------------------------------------------------- s_edge


def _step(values_per_column, rows=4) -> np.ndarray:
    return gray_patch(np.tile(np.array(values_per_column), (rows, 1)))


def test_s_edge_hand_computed_iou():
    # vertical step between columns 1|2: Sobel |Gx| = 4*255 on columns 1, 2 and 0 elsewhere
    # (edge padding), mean 408 -> edge columns {1, 2}: 8 pixels.
    x = _step([0, 0, 255, 255, 255])
    # horizontal step between rows 1|2 -> edge rows {1, 2}: 10 pixels.
    y = np.ascontiguousarray(np.transpose(_step([0, 0, 255, 255], rows=5), (1, 0, 2)))
    # intersection 2x2 = 4, union 8 + 10 - 4 = 14
    assert s_edge(x, y) == pytest.approx(4 / (14 + 1e-8), abs=1e-15)
    assert s_edge(x, y, eps=0.0) == 4 / 14
    assert s_edge(x, x) == 8 / (8 + 1e-8)


def test_s_edge_threshold_is_the_patch_mean():
    # column differences (edge padded) [10, 255, 245, 0] -> mean 127.5 -> edge columns {1, 2}
    x = _step([0, 10, 255, 255])
    # [200, 255, 55, 0] -> mean 127.5 -> edge columns {0, 1}
    y = _step([0, 200, 255, 255])
    # intersection column 1 (4 px), union columns 0..2 (12 px)
    assert s_edge(x, y, eps=0.0) == 4 / 12


def test_s_edge_empty_maps():
    flat_a = gray_patch(np.full((6, 6), 10))
    flat_b = gray_patch(np.full((6, 6), 240))
    assert s_edge(flat_a, flat_b) == 1.0
    assert s_edge(flat_a, _step([0, 0, 0, 255, 255, 255], rows=6)) == 0.0


# --------------------------------------------------------------------------- s_color


def test_s_color_hand_computed_pearson():
    a, b, c, d = (0, 0, 0), (255, 0, 0), (0, 255, 0), (40, 40, 200)
    x = np.array([[a, a], [b, c]], np.uint8)
    y = np.array([[a, b], [b, d]], np.uint8)
    # h_x: a=2, b=1, c=1; h_y: a=1, b=2, d=1; 512 bins, mean 4/512 each.
    # centred dot = (2*1 + 1*2) - 512*(4/512)^2 = 4 - 1/32;  |h~|^2 = 6 - 1/32 for both.
    assert s_color(x, y) == pytest.approx((4 - 1 / 32) / (6 - 1 / 32), abs=1e-12)
    assert s_color(x, y) == pytest.approx(127 / 191, abs=1e-12)
    assert s_color(x, x) == 1.0


def test_s_color_bins_and_negative_clip():
    one = lambda rgb: np.array([[rgb]], np.uint8)  # noqa: E731
    # 8 bins of width 32 per channel: 0 and 31 share a bin, 32 does not
    assert s_color(one((0, 0, 0)), one((31, 31, 31))) == 1.0
    # two different one-hot histograms correlate negatively (-1/511) -> clipped to 0
    assert s_color(one((0, 0, 0)), one((32, 0, 0))) == 0.0
    # with 2 bins, 0 and 127 share a bin
    assert s_color(one((0, 0, 0)), one((127, 0, 0)), bins=2) == 1.0


def test_s_color_degenerate_constant_histogram():
    levels = np.arange(8) * 32
    r, g, b = np.meshgrid(levels, levels, levels, indexing="ij")
    every_bin = np.stack([r, g, b], axis=-1).reshape(16, 32, 3).astype(np.uint8)  # 512 px, one per bin
    assert s_color(every_bin, every_bin) == 1.0
    other = every_bin.copy()
    other[0, 0] = other[0, 1]  # no longer constant
    assert s_color(every_bin, other) == 0.0
    assert s_color(other, every_bin) == 0.0


# --------------------------------------------------------------------------- composite / laplacian


def test_composite_is_the_weighted_sum():
    x = _step([0, 0, 255, 255, 255])
    y = np.ascontiguousarray(np.transpose(_step([0, 0, 255, 255], rows=5), (1, 0, 2)))
    h, e, c = s_hash(x, y), s_edge(x, y), s_color(x, y)
    assert composite(x, y) == pytest.approx(0.4 * h + 0.3 * e + 0.3 * c, abs=1e-15)
    assert composite(x, y, weights=(1, 0, 0)) == h
    assert composite(x, y, weights=(0, 0, 1)) == c


def test_laplacian_variance_hand_computed():
    spike = np.zeros((3, 3), np.uint8)
    spike[1, 1] = 255
    # responses (edge padded): centre -1020, its 4 neighbours +255, corners 0; mean 0
    assert laplacian_variance(gray_patch(spike)) == pytest.approx((1020**2 + 4 * 255**2) / 9, rel=1e-12)
    assert laplacian_variance(gray_patch(np.full((5, 7), 99))) == 0.0


# --------------------------------------------------------------------------- visual_reward


def test_identical_images_score_one():
    truth = scene(5, {(1, 1): RED, (3, 3): GREEN})
    score = visual_reward(truth, truth, 5)
    assert isinstance(score, VisualScore)
    assert score.matched.all()
    assert score.r_str == 1.0
    assert score.r_qua == pytest.approx(1.0, abs=1e-9)
    assert score.r_v == pytest.approx(1.0, abs=1e-9)
    assert score.fg.sum() == 2 and score.fg[1, 1] and score.fg[3, 3]
    assert score.weights.sum() == pytest.approx(1.0)
    assert score.weights[1, 1] == pytest.approx(10 * score.weights[0, 0])


def test_gaussian_blur_lowers_quality_and_reward():
    truth = scene(5, {(1, 1): RED, (3, 3): GREEN})
    perfect = visual_reward(truth, truth, 5)
    previous = perfect
    for radius in (1, 3):
        blurred = Image.fromarray(truth).filter(ImageFilter.GaussianBlur(radius))
        score = visual_reward(blurred, truth, 5)
        assert score.r_qua < previous.r_qua
        assert score.r_v < previous.r_v
        previous = score
    assert previous.r_qua < 0.5


def test_moved_sprite_fails_source_and_target_cells():
    truth = scene(5, {(1, 1): RED, (3, 3): GREEN})
    pred = scene(5, {(3, 1): RED, (3, 3): GREEN})
    score = visual_reward(pred, truth, 5)
    expected = np.ones((5, 5), bool)
    expected[1, 1] = expected[3, 1] = False
    np.testing.assert_array_equal(score.matched, expected)
    # weights: 2 foreground cells x 10 + 23 background x 1 = 43; lost: (1,1) fg + (3,1) bg
    assert score.r_str == pytest.approx(32 / 43, abs=1e-12)
    # phi over Omega = {(1,1), (3,3)}: pred (1,1) is flat
    cells_t, cells_p = split_cells(truth, 5), split_cells(pred, 5)
    assert laplacian_variance(cells_p[1][1]) == 0.0
    phi_t = (laplacian_variance(cells_t[1][1]) + laplacian_variance(cells_t[3][3])) / 2
    phi_p = laplacian_variance(cells_p[3][3]) / 2
    assert score.phi_truth == pytest.approx(phi_t, rel=1e-12)
    assert score.r_qua == pytest.approx(phi_p / (phi_t + 1e-8), rel=1e-12)
    assert score.r_v == pytest.approx(score.r_str * score.r_qua, rel=1e-15)


def test_matching_threshold_is_s_at_least_tau():
    truth = scene(5, {(1, 1): RED, (3, 3): GREEN})
    blurred = Image.fromarray(truth).filter(ImageFilter.GaussianBlur(1))
    score = visual_reward(blurred, truth, 5)
    s11 = score.S[1, 1]
    assert 0.8 < s11 < 0.95  # blurred sprite: similar, but not identical
    assert score.matched[1, 1]
    assert visual_reward(blurred, truth, 5, tau=s11).matched[1, 1]
    assert not visual_reward(blurred, truth, 5, tau=np.nextafter(s11, 1.0)).matched[1, 1]
    np.testing.assert_array_equal(score.matched, score.S >= 0.8)


def test_empty_foreground_gives_r_qua_one():
    truth = np.full((64, 64, 3), 100, np.uint8)
    score = visual_reward(truth, truth, 4)
    assert not score.fg.any() and score.r_qua == 1.0 and score.r_v == 1.0
    # flat, wrong colour: hash 1, edge 1 (both empty), colour 0 -> S = 0.7 < tau
    other = np.full((64, 64, 3), 200, np.uint8)
    score = visual_reward(other, truth, 4)
    np.testing.assert_allclose(score.S, 0.7)
    assert score.r_v == 0.0 and score.r_qua == 1.0


@pytest.mark.parametrize("n", [4, 5, 6, 7])
@pytest.mark.parametrize("shape", [(256, 256), (100, 133)])
def test_vectorised_cells_match_per_patch_functions(n, shape):
    rng = np.random.default_rng(n)
    truth = blocky(rng, shape, block=8)
    pred = truth.copy()
    pred[10:60, 20:90] = blocky(rng, (50, 70), block=5)
    pred[70:] = np.clip(pred[70:].astype(int) + rng.integers(-40, 40, pred[70:].shape), 0, 255)
    score = visual_reward(pred, truth, n)
    cp, ct = split_cells(pred, n), split_cells(truth, n)
    for i in range(n):
        for j in range(n):
            assert score.s_hash[i, j] == s_hash(cp[i][j], ct[i][j])
            assert score.s_edge[i, j] == s_edge(cp[i][j], ct[i][j])
            assert score.s_color[i, j] == s_color(cp[i][j], ct[i][j])
            assert score.S[i, j] == pytest.approx(composite(cp[i][j], ct[i][j]), abs=1e-15)
    np.testing.assert_array_equal(score.fg, foreground_mask(truth, n))
    fg = score.fg
    lap_p = np.array([[laplacian_variance(c) for c in row] for row in cp])
    lap_t = np.array([[laplacian_variance(c) for c in row] for row in ct])
    assert score.phi_pred == pytest.approx(lap_p[fg].mean(), rel=1e-12)
    assert score.phi_truth == pytest.approx(lap_t[fg].mean(), rel=1e-12)
    assert 0.0 < score.r_str < 1.0


def test_differently_sized_prediction_is_resized_bilinear():
    rng = np.random.default_rng(3)
    truth = blocky(rng, block=32)
    small = Image.fromarray(truth).resize((128, 96), Image.Resampling.NEAREST)
    upscaled = small.resize((256, 256), Image.Resampling.BILINEAR)
    got = visual_reward(small, truth, 5)
    want = visual_reward(upscaled, truth, 5)
    assert got.r_v == want.r_v
    np.testing.assert_array_equal(got.S, want.S)
    got_array = visual_reward(np.asarray(small), truth, 5)
    np.testing.assert_array_equal(got_array.S, want.S)
    # nearest-neighbour upscaling would give a different score: the filter matters
    nearest = visual_reward(small.resize((256, 256), Image.Resampling.NEAREST), truth, 5)
    assert not np.array_equal(nearest.S, got.S)


def test_score_is_read_only():
    truth = scene(4, {(0, 0): RED})
    score = visual_reward(truth, truth, 4)
    with pytest.raises(ValueError):
        score.S[0, 0] = 0.0
    with pytest.raises(AttributeError):
        score.r_v = 0.5  # type: ignore[misc]


def test_results_do_not_depend_on_previous_calls_or_threads():
    rng = np.random.default_rng(11)
    pairs = [(blocky(rng, block=8), blocky(rng, block=8)) for _ in range(4)]
    serial = [visual_reward(p, t, 5).S.copy() for p, t in pairs]
    visual_reward(blocky(rng, (300, 310), block=8), blocky(rng, (300, 310), block=8), 7)  # grow scratch
    again = [visual_reward(p, t, 5).S for p, t in pairs]
    for a, b in zip(serial, again):
        np.testing.assert_array_equal(a, b)
    barrier = threading.Barrier(4)

    def run(k):
        barrier.wait()
        return [visual_reward(*pairs[(k + m) % 4], 5).S for m in range(8)]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, range(4)))
    for k, res in enumerate(results):
        for m, s in enumerate(res):
            np.testing.assert_array_equal(s, serial[(k + m) % 4])


# --------------------------------------------------------------------------- invalid input

GOOD = np.zeros((16, 16, 3), np.uint8)


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((16, 16, 3), np.float32),
        np.zeros((16, 16, 3), bool),
        np.zeros((16, 16, 2), np.uint8),
        np.zeros((2, 16, 16, 3), np.uint8),
        np.zeros((0, 16, 3), np.uint8),
        [[0, 0], [0, 0]],
        Image.new("I", (16, 16)),
    ],
    ids=["float", "bool", "2-channel", "4-d", "empty", "list", "pil-mode-I"],
)
def test_invalid_images_raise(bad):
    with pytest.raises(ValueError):
        visual_reward(bad, GOOD, 4)
    with pytest.raises(ValueError):
        visual_reward(GOOD, bad, 4)
    with pytest.raises(ValueError):
        s_hash(bad, GOOD)
    with pytest.raises(ValueError):
        foreground_mask(bad, 4)


@pytest.mark.parametrize("n", [0, -1, 17, 2.5, True, "4"])
def test_invalid_n_raises(n):
    with pytest.raises(ValueError):
        visual_reward(GOOD, GOOD, n)
    with pytest.raises(ValueError):
        split_cells(GOOD, n)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"weights": (0.5, 0.5)},
        {"weights": (0.4, -0.3, 0.3)},
        {"eps": 0.0},
        {"tau": float("nan")},
        {"fg_weight": 0.0},
        {"delta": -1.0},
    ],
)
def test_invalid_parameters_raise(kwargs):
    with pytest.raises(ValueError):
        visual_reward(GOOD, GOOD, 4, **kwargs)


def test_patch_functions_reject_mismatched_shapes_and_bad_args():
    a, b = np.zeros((8, 8, 3), np.uint8), np.zeros((8, 9, 3), np.uint8)
    for fn in (s_hash, s_edge, s_color, composite):
        with pytest.raises(ValueError):
            fn(a, b)
    with pytest.raises(ValueError):
        s_hash(a, a, k=0)
    with pytest.raises(ValueError):
        s_color(a, a, bins=0)
    with pytest.raises(ValueError):
        composite(a, a, weights=(1.0, 2.0))


# --------------------------------------------------------------------------- properties


@st.composite
def patch_pairs(draw):
    h = draw(st.integers(1, 12))
    w = draw(st.integers(1, 12))
    # few distinct values make ties (and therefore tie handling) likely
    elements = st.sampled_from([0, 31, 32, 100, 128, 255])
    x = draw(arrays(np.uint8, (h, w, 3), elements=elements))
    y = draw(arrays(np.uint8, (h, w, 3), elements=elements))
    return x, y


@settings(max_examples=150, deadline=None)
@given(patch_pairs())
def test_similarities_are_bounded_and_symmetric(pair):
    x, y = pair
    for fn in (s_hash, s_edge, s_color):
        v = fn(x, y)
        assert 0.0 <= v <= 1.0
        assert v == fn(y, x)
    assert 0.0 <= composite(x, y) <= 1.0
    assert s_hash(x, x) == 1.0 and s_color(x, x) == 1.0
    assert s_edge(x, x) == pytest.approx(1.0, abs=1e-8)

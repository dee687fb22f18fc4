"""Throughput of the visual reward r_v (svot.metrics.visual.visual_reward).

Prints r_v evaluations per second for n = 4..7 on synthetic 256x256 blocky
image pairs, and, measured in the same run, the speed-up over scoring the same
cells one by one with the per-patch functions (composite / laplacian_variance).
No thresholds: the numbers are for reading, not for asserting.

    python benchmarks/bench_visual.py [--seconds 1.0] [--size 256]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

try:
    import svot  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from svot.metrics.visual import (  # noqa: E402
    composite,
    foreground_mask,
    laplacian_variance,
    split_cells,
    visual_reward,
)


def blocky(rng: np.random.Generator, size: int) -> np.ndarray:
    """Random image of flat square blocks (block side 8, 16 or 32) on a flat background."""
    block = int(rng.choice([8, 16, 32]))
    cells = -(-size // block)
    small = rng.integers(0, 256, (cells, cells, 3), dtype=np.uint8)
    small[rng.random((cells, cells)) < 0.5] = rng.integers(0, 256, 3, dtype=np.uint8)  # background
    return np.kron(small, np.ones((block, block, 1), np.uint8))[:size, :size]


def make_pairs(rng: np.random.Generator, size: int, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(pred, truth) pairs: pred = truth with a patch replaced and noise on a band."""
    pairs = []
    for _ in range(count):
        truth = blocky(rng, size)
        pred = truth.copy()
        r, c = rng.integers(0, size // 2, 2)
        pred[r : r + size // 4, c : c + size // 4] = blocky(rng, size)[: size // 4, : size // 4]
        band = slice(size // 2, size // 2 + size // 8)
        noise = rng.integers(-25, 26, pred[band].shape)
        pred[band] = np.clip(pred[band].astype(int) + noise, 0, 255).astype(np.uint8)
        pairs.append((pred, truth))
    return pairs


def per_patch_reward(pred: np.ndarray, truth: np.ndarray, n: int) -> float:
    """r_v computed cell by cell with the public per-patch functions (reference speed)."""
    fg = foreground_mask(truth, n)
    cp, ct = split_cells(pred, n), split_cells(truth, n)
    raw = np.where(fg, 10.0, 1.0)
    matched = np.array([[composite(cp[i][j], ct[i][j]) >= 0.8 for j in range(n)] for i in range(n)])
    r_str = raw[matched].sum() / raw.sum()
    if not fg.any():
        return float(r_str)
    phi_p = np.mean([laplacian_variance(cp[i][j]) for i, j in zip(*np.nonzero(fg))])
    phi_t = np.mean([laplacian_variance(ct[i][j]) for i, j in zip(*np.nonzero(fg))])
    return float(r_str * np.clip(phi_p / (phi_t + 1e-8), 0.0, 1.0))


def rate(fn, pairs, n: int, seconds: float) -> float:
    """Calls per second of fn(pred, truth, n), cycling through pairs for about `seconds`."""
    for pred, truth in pairs[:2]:  # warm caches (layouts, scratch buffers)
        fn(pred, truth, n)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        pred, truth = pairs[calls % len(pairs)]
        fn(pred, truth, n)
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1.0)")
    parser.add_argument("--size", type=int, default=256, help="image side in pixels (default 256)")
    parser.add_argument("--pairs", type=int, default=16, help="image pairs cycled through (default 16)")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    pairs = make_pairs(rng, args.size, args.pairs)
    for pred, truth in pairs[:4]:  # the fast path and the per-patch reference agree
        for n in range(4, 8):
            fast, ref = visual_reward(pred, truth, n).r_v, per_patch_reward(pred, truth, n)
            assert abs(fast - ref) < 1e-9, (n, fast, ref)

    print(f"visual_reward on {args.size}x{args.size} RGB pairs, {args.seconds:g} s per measurement")
    print(f"{'n':>3} {'r_v evals/s':>12} {'ms/eval':>8} {'per-patch evals/s':>18} {'speed-up':>9}")
    for n in range(4, 8):
        fast = rate(lambda p, t, k: visual_reward(p, t, k), pairs, n, args.seconds)
        slow = rate(per_patch_reward, pairs, n, args.seconds)
        print(f"{n:>3} {fast:>12.0f} {1e3 / fast:>8.2f} {slow:>18.0f} {fast / slow:>8.1f}x")


if __name__ == "__main__":
    main()

"""Throughput of the SVoT scoring functions, all measured in one run (no thresholds).

* ``r_v`` (:func:`svot.metrics.visual_reward`) on 256x256 rendered states: the
  prediction is the true next state's image with one object moved, or blurred;
* ``r_z`` (:func:`svot.metrics.state_reward`) on step texts ``z_i`` (the truth,
  and a copy with the player one cell off);
* ``r_c`` (:func:`svot.metrics.reasoning_reward`) on reasoning chains ``c_i^z``;
* object-level metrics (:func:`svot.metrics.object_metrics`, Table 7) on the same images;
* goal parsing (:func:`svot.metrics.extract_choice`, :func:`svot.metrics.answer_correct`).

Inputs come from instances built with :func:`svot.dataset.iter_split` (test_id
and test_ood) of every domain at its largest Table 5 size.

    python benchmarks/bench_metrics.py [--seconds 1.0] [--maps 6]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time

import numpy as np

try:
    import svot  # noqa: F401
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from PIL import Image, ImageFilter  # noqa: E402

from svot.dataset import iter_split  # noqa: E402
from svot.domains import get_spec  # noqa: E402
from svot.metrics import (  # noqa: E402
    answer_correct,
    extract_choice,
    object_metrics,
    reasoning_reward,
    state_reward,
    visual_reward,
)
from svot.render import render_state  # noqa: E402

DOMAINS = (("maze", 7), ("frozenlake", 6), ("sokoban", 6), ("pacman", 6), ("gather", 6))


def rate(fn, items, seconds: float) -> float:
    """Calls per second of ``fn(item)`` cycling over ``items`` for about ``seconds``."""
    n, t0 = 0, time.perf_counter()
    deadline = t0 + seconds
    while True:
        for it in items:
            fn(it)
        n += len(items)
        t = time.perf_counter()
        if t >= deadline:
            return n / (t - t0)


def _shift(text: str) -> str:
    return re.sub(r"Player: \((\d+), (\d+)\)", lambda m: f"Player: ({m.group(1)}, {int(m.group(2)) + 1})", text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1.0)")
    ap.add_argument("--maps", type=int, default=6, help="maps per split used as inputs (default 6)")
    args = ap.parse_args(argv)

    steps, images, goals = [], [], []
    for domain, size in DOMAINS:
        spec = get_spec(domain)
        for split in ("test_id", "test_ood"):
            for inst in iter_split(domain, size, split, seed=0, maps_per_split={split: args.maps}):
                goals.append((inst, inst.answer, f"The answer is ({inst.correct_letter})"))
                prev = inst.initial_state
                for s in inst.steps:
                    steps.append((domain, s))
                    if len(images) < 200:
                        truth = render_state(spec, s.state)
                        wrong = render_state(spec, prev)  # the previous state: objects in the wrong cells
                        blurred = np.asarray(Image.fromarray(truth).filter(ImageFilter.GaussianBlur(2)))
                        images += [(domain, size, s.labels, wrong, truth), (domain, size, s.labels, blurred, truth)]
                    prev = s.state

    rows = []
    r_v = rate(lambda it: visual_reward(it[3], it[4], it[1]), images, args.seconds)
    rows.append(("r_v  visual_reward, 256x256", r_v, len(images)))
    rows.append(("FGAcc/BkgErr  object_metrics, 256x256", rate(lambda it: object_metrics(it[3], it[2], it[0]), images, args.seconds), len(images)))
    z_items = [(d, s.z_text, s) for d, s in steps] + [(d, _shift(s.z_text), s) for d, s in steps]
    rows.append(("r_z  state_reward", rate(lambda it: state_reward(it[1], it[2].state, action=it[2].action_text, domain=it[0]), z_items, args.seconds), len(z_items)))
    c_items = [(s.reasoning, s.keywords) for _d, s in steps] + [(_shift(s.reasoning), s.keywords) for _d, s in steps]
    rows.append(("r_c  reasoning_reward", rate(lambda it: reasoning_reward(it[0], it[1]), c_items, args.seconds), len(c_items)))
    rows.append(("C  extract_choice", rate(lambda it: extract_choice(it[2], it[0].choices), goals, args.seconds), len(goals)))
    rows.append(("F  answer_correct", rate(lambda it: answer_correct(it[0].domain, it[1], it[0].goal), goals, args.seconds), len(goals)))

    print(f"svot.metrics throughput ({platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, one thread, {args.seconds:g} s per row)")
    w = max(len(r[0]) for r in rows)
    print(f"{'metric'.ljust(w)}  {'calls/s':>10}  {'inputs':>6}")
    for name, r, n in rows:
        print(f"{name.ljust(w)}  {r:>10,.0f}  {n:>6}")
    print(f"ratio r_z / r_v: {rows[2][1] / rows[0][1]:.0f}x; r_c / r_v: {rows[3][1] / rows[0][1]:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

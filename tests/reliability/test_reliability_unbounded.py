"""Issue 13, class 3: no input makes work unbounded.

* Every text parser and scorer is linear in its input: each is fed
  adversarial text (long whitespace and newline runs, one long word, repeated
  brackets, cells and keywords) of 32 KiB, 256 KiB and 1 MiB, and its time
  growth is compared with the input's, against a reference linear scan of
  the same text (a ratio, no wall-clock limit; a quadratic parser's time
  grows k times faster than its input at k x, and is stopped early).
* A rule's numeric bound does not set the validator's work.
* Recursion depth is bounded by construction: a long flat AND/OR chain or a
  deep nesting is a clear ``RuleError``, never a bare ``RecursionError``.
* Numeric options are bounded (``--image-size``).
"""

from __future__ import annotations

import re
import time

import pytest

from svot.errors import ConfigError, RuleError
from svot.metrics.goal import answer_correct, extract_choice
from svot.metrics.reasoning import extract_keywords, reasoning_reward, visual_chain_fields
from svot.metrics.state import parse_state
from svot.rulemaze.evaluate import answer_of
from svot.rulemaze.metrics import parse_actions
from svot.rulemaze.rules import compile_rule, parse_formula
from svot.rulemaze.rules import ast as A
from svot.rulemaze.trajectory import Trajectory

# text families that make backtracking regexes and naive scanners quadratic
INPUTS = {
    "spaces": lambda n: " " * n,
    "newlines": lambda n: "\n" * n,
    "one-word": lambda n: "a" * n,
    "brackets": lambda n: "(" * n,
    "cell-then-words": lambda n: "(1, 2): " + "x " * (n // 2),
    "keywords": lambda n: ("answer: player is at (1, 2) leaves blocked by action is coin at " * (n // 64 + 1))[:n],
}

SCORERS = {
    "extract_choice": lambda t: extract_choice(t, ["Player: (1, 1)"] * 4, domain="maze"),
    "answer_correct": lambda t: answer_correct("maze", t, {"player": [1, 1]}),
    "parse_state": lambda t: parse_state("gather", t),
    "extract_keywords": extract_keywords,
    "reasoning_reward": lambda t: reasoning_reward(t, [{"field": "action", "value": "move up"}]),
    "visual_chain_fields": visual_chain_fields,
    "rulemaze_parse_actions": parse_actions,
    "rulemaze_answer_of": lambda t: answer_of({"answer": t}),
}

_REFERENCE = re.compile(r"\x00")  # one linear pass over the text, no match


def _best(fn, text, reps=3) -> float:
    """Seconds per call of ``fn(text)``: the best of ``reps`` rounds, each long enough (~20 ms, repeating
    the call on small inputs) that the timer and a stray interruption do not decide the ratio."""
    t0 = time.perf_counter()
    fn(text)
    once = max(time.perf_counter() - t0, 1e-7)
    calls = max(1, min(10_000, int(0.02 / once)))
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _call in range(calls):
            fn(text)
        best = min(best, (time.perf_counter() - t0) / calls)
    return max(best, 1e-9)


def _reference(text):
    return _REFERENCE.search(text), text.lower()


def growth(fn, make, n: int, factor: int = 8) -> float:
    """How much more time ``fn`` takes on ``make(factor*n)`` than on ``make(n)``, relative to a linear scan.

    A linear scan of the same texts sets the yardstick: past the CPU caches a
    megabyte costs more per byte for any code, which is not the parser's doing.
    """
    small, large = make(n), make(factor * n)
    ratio = _best(fn, large) / _best(fn, small)
    reference = _best(_reference, large) / _best(_reference, small)
    return ratio / max(1.0, reference / factor)


# Linear code stays near 1, but a machine shared by many processes has pushed single measurements to
# ~4; a quadratic parser reaches ~8 at the 8x size and ~32 at 1 MiB, far past this bound.
SLACK = 5.0


def _calls(fn, text) -> tuple[int, float]:
    """How many calls of ``fn(text)`` take ~20 ms (so the timer's grain and a stray pause do not decide),
    and the seconds the one trial call took."""
    t0 = time.perf_counter()
    fn(text)
    once = max(time.perf_counter() - t0, 1e-7)
    return max(1, min(10_000, int(0.02 / once))), once


def _interleaved(fns_texts, rounds: int = 3) -> list[float]:
    """Seconds per call of each ``(fn, text)``, measured in turns within each round and kept at the best
    round: every measurement sees the same machine load, which is what a ratio needs.

    Where one call already takes the ~20 ms a round needs (the megabyte inputs), the trial call that sized
    the round counts as its first round: it is the same single timed call, and it is the costly one."""
    plan, best = [], []
    for fn, text in fns_texts:
        calls, once = _calls(fn, text)
        plan.append((fn, text, calls))
        best.append(once if calls == 1 else float("inf"))
    for round_ in range(rounds):
        for i, (fn, text, calls) in enumerate(plan):
            if round_ == 0 and calls == 1:
                continue  # this round is the trial call
            t0 = time.perf_counter()
            for _call in range(calls):
                fn(text)
            best[i] = min(best[i], (time.perf_counter() - t0) / calls)
    return [max(b, 1e-9) for b in best]


def ladder(fn, make, start: int = 32 * 1024, top: int = 1024 * 1024, slack: float = SLACK) -> tuple[int, float]:
    """Grow the input from ``start`` to 8x, then to ``top``; stop at the first size where the time has
    grown more than ``slack`` times faster than the input (against a linear scan of the same texts). Returns (size
    reached, growth over size there). A quadratic parser is stopped after a few doublings.
    (The start is 32 KiB: below that, texts fit the CPU's fastest caches and every parser looks
    several times faster per byte, which would read as super-linear growth.)"""
    base = make(start)
    r = 0.0
    for n in (8 * start, top):  # two rungs (8x, then the top) keep the test short; 8x already shows a square
        k = n // start
        text = make(n)
        for _attempt in range(3):  # a shared machine can stall a whole round
            t0, t, r0, ref = _interleaved([(fn, base), (fn, text), (_reference, base), (_reference, text)])
            r = (t / t0) / max(1.0, (ref / r0) / k) / k
            if r < slack:
                break
        if r >= slack:
            return n, r
    return top, r


@pytest.mark.slow
@pytest.mark.parametrize("scorer", list(SCORERS))
@pytest.mark.parametrize("family", list(INPUTS))
def test_every_parser_and_scorer_is_linear_on_1mb_inputs(scorer, family):
    """From 32 KiB to 256 KiB and to 1 MiB: at each size the time may grow at most SLACK times faster than
    the input (the issue's "< 20x for 8x", with room for a loaded machine); a quadratic parser grows k
    times faster at k x the input, and fails early."""
    n, r = ladder(SCORERS[scorer], INPUTS[family])
    assert r < SLACK, f"{scorer} on {family}: at {n} bytes the time grew {r:.1f}x faster than the input"


def test_growth_measure_catches_a_quadratic_parser():
    """The measure itself: a known-quadratic regex (the old letter pattern) on whitespace is flagged."""
    quadratic = re.compile(r"^\s*[\(\[]?\s*([A-D])\s*$")
    # small sizes: a quadratic pattern at 16 KiB took minutes of the fast lane on a loaded machine,
    # and 8x the input already multiplies its time by ~64
    assert growth(quadratic.match, INPUTS["spaces"], 1024) > 20
    _n, r = ladder(quadratic.match, INPUTS["spaces"], start=512, top=8 * 1024)
    assert r >= SLACK
    assert ladder(lambda t: re.compile(r"\s+").sub(" ", t), INPUTS["spaces"])[1] < SLACK


# --------------------------------------------------------------------------- numeric bounds of rules


@pytest.mark.parametrize("op", ["<", "<=", "==", ">=", ">"])
def test_count_bound_does_not_set_the_work(op):
    """``Count(Food, op, 999999999)``: the partial-trajectory verdict costs the same as with a bound of 3
    (it used to loop up to the bound), and equals the brute-force answer for small bounds."""
    traj = Trajectory(("prince", "food", "grass", "food"), ("right", "down", "left"))
    big = compile_rule(f'Count("Food", {op}, 999999999)')
    small = compile_rule(f'Count("Food", {op}, 3)')
    assert _best(big.status, traj) < 50 * _best(small.status, traj) + 1e-3
    from svot.rulemaze.rules.compiler import COMPARE, _possible

    for current in range(6):
        for bound in range(6):
            values = {COMPARE[op](n, bound) for n in range(current, current + bound + 10)}
            want = values.pop() if len(values) == 1 else None
            assert _possible(op, current, bound) == want, (op, current, bound)


def test_an_env_with_a_huge_count_bound_resets_and_steps():
    import gymnasium as gym
    import numpy as np

    from svot.rulemaze.pool import generate_maze

    env = gym.make("RuleMaze/QuestMaze-3x3-v0")
    maze = generate_maze("QuestMaze", 3, np.random.default_rng(0), layout="walls")
    env.reset(seed=0, options={"maze": maze, "rule": 'Count("Food", <=, 999999999)'})
    for a in range(4):
        env.step(a)


# --------------------------------------------------------------------------- recursion depth


@pytest.mark.parametrize("op", ["AND", "OR", "->", "∧"])
@pytest.mark.parametrize("n", [101, 500, 5000])
def test_long_flat_chains_are_a_clear_rule_error(op, n):
    text = f" {op} ".join(['Seen("Key")'] * n)
    with pytest.raises(RuleError, match="levels deep"):
        compile_rule(text)


@pytest.mark.parametrize("shape", ["parens", "nots", "mixed"])
def test_deep_nesting_is_a_clear_rule_error(shape):
    n = 5000
    text = {"parens": "(" * n + 'Seen("Key")' + ")" * n, "nots": "NOT " * n + 'Seen("Key")',
            "mixed": "(NOT " * n + 'Seen("Key")' + ")" * n}[shape]
    with pytest.raises(RuleError, match="levels deep"):
        parse_formula(text)


def test_the_longest_allowed_chain_compiles_and_runs():
    from svot.rulemaze.rules.parser import MAX_DEPTH

    v = compile_rule(" AND ".join(['Seen("Key")'] * MAX_DEPTH))
    assert v.check(Trajectory(("prince", "key"), ("up",))) is True


def test_a_deep_tree_built_in_code_is_refused_before_hashing():
    node = A.Seen("key")
    for _ in range(10_000):
        node = A.And(node, A.Seen("key"))
    with pytest.raises(RuleError, match="levels deep"):
        compile_rule(node)
    assert A.height(node) == 10_001


# --------------------------------------------------------------------------- numeric options


@pytest.mark.parametrize("size", [4097, 10**9])
def test_image_size_has_an_upper_bound(size, tmp_path):
    from svot.dataset import make_config
    from svot.rulemaze import dataset as RD

    with pytest.raises(ConfigError, match="image size"):
        make_config(tmp_path, domains=["maze"], image_size=size)
    with pytest.raises(ConfigError, match="image size"):
        RD.make_config(tmp_path, image_size=size)


def test_image_size_bound_is_a_one_line_cli_error(tmp_path, capsys):
    from svot.cli import main

    assert main(["export", "--domains", "maze", "--out", str(tmp_path / "o"), "--image-size", "100000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "image size" in err
    assert not (tmp_path / "o").exists()

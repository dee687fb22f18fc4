"""RuleMaze datasets: rule-maze items with images, candidates and tool-call traces, exported at paper scale.

Per scenario (RegularMaze, QuestMaze) the paper has 3,600 training and 400
test items; the test items are 100 on seen rules and 100 on each of the
unseen easy / medium / hard rules (§5.1). Here:

**Rules.** Seen rules make the train items and the ``seen`` test group;
unseen rules of difficulty d make the ``unseen-<d>`` group. The bank's 30
rules per scenario split 6 seen / 4 unseen per difficulty; ``--rules`` adds
rules (their ``split`` field; ``unseen`` when absent).

**Selection** (:func:`select_items`, main process, deterministic). The maze
pool (generated from the seed, or read from a pool file) is cut once into a
test part (``test_fraction`` of it) and a train part, so no maze is in both
splits. A group's item count is spread evenly over its rules (the remainder
to the first rules in order, :func:`quotas`); each rule scans its part of the
pool in its own seeded order and takes the first mazes that pass matching
with a unique compliant path (:func:`svot.rulemaze.matching.match`) of at
least ``min_moves`` moves (default 3: the paper reports its test set by action
lengths 3-8, appendix D, Fig. 2). A maze
may serve several rules; a (rule, maze) pair appears once. Items are then
shuffled within their split (test: within each group, groups in order).

**An item** (:func:`build_item`): the maze image, the goal instruction, the
rule (natural language + logic + difficulty + semantic types), the ground
truth actions and path, every candidate path with its verdict, and the
tool-call trace produced by *running* the image tools
(:func:`svot.rulemaze.tools.run_trace`): LocateStart, InspectGrid on the
start, per move ExecuteMove / InspectGrid / VerifyRule, and VerifyEndpoint,
with each tool's output and every image in between. The trace is checked
against the ground truth (marker positions, all VerifyRule true, endpoint
true) as it is built.

**Detect-and-revise traces** (paper Fig. 6 and supp. F: the DMP model makes
an invalid move, VerifyRule answers false, it revises). A seeded share
``revise_share`` (default 0.2) of the *train* items (test traces stay clean)
first follows a wrong candidate path (the first non-compliant one) up to its
first violation: ExecuteMove / InspectGrid / VerifyRule per move, the last
VerifyRule false. The marker is then moved back with the opposite moves to
where that path left the ground truth, and the trace goes on along the ground
truth (VerifyRule judging the revised moves only) to VerifyEndpoint. The item
records ``wrong_actions`` (the wrong moves made) and ``wrong_idx`` (0-based
index of the move whose VerifyRule failed, as the authors' ``wrong_idx``
records the first violation of a wrong path; -1 for items without a wrong
step). A violation only a finished path shows (``Seen("Key")`` on a path
without a key) is caught at the path's end, on the goal. Messages in the ShareGPT layout (``user`` prompt with
the maze image, ``function_call`` / ``observation`` pairs, the final
``assistant`` answer) come with it.

**Files** (:func:`export`)::

    out/<regularmaze|questmaze>/train.parquet, test.parquet      --formats parquet
    out/<...>/sharegpt/{train,test}.json, images/<sha256>.png,   --formats sharegpt
                       {train,test}_stepwise.json,               (LLaMA-Factory; see
                       test_predict.json, dataset_info.json       docs/training.md)
    out/<...>/trl/{train,test}_stepwise.parquet,                 --formats trl (opt-in; TRL's
                  test_predict.parquet                            conversational records)
    out/manifest.json                                            arguments, pools, rules, counts, sha256 of every file

Parquet rows keep images as Hugging Face ``Image`` structs ``{bytes, path}``
(PNG bytes; :mod:`svot.dataset.records` layout and schema metadata), so
``datasets.load_dataset("parquet", ...)`` decodes them. The writing machinery
is the SVoT exporter's (:mod:`svot.dataset.writers`: atomic ``.tmp`` +
rename, deterministic Parquet, sha256). Work is cut into chunks of
``chunk_items`` items, each a pure function of the arguments written as an
Arrow part by a worker process; a split's parts are merged in order. So the
bytes do not depend on the number of workers, and an interrupted export
rerun with ``resume=True`` reuses finished parts and ends identical.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy
import numpy as np
import PIL
import pyarrow as pa

from svot.dataset.records import (
    BOOL,
    I32,
    IMAGE,
    STR,
    arrow_schema,
    encode_png,
    png_name,
)
from svot.dataset.chat import content_parts
from svot.dataset.orchestrator import SplitWork, Task, part_path, run_export, write_part
from svot.dataset.outdir import MANIFEST, PARTS  # noqa: F401  (the export's layout, named by callers)
from svot.dataset.reader import find_split_files, read_table_rows
from svot.dataset.writers import atomic_write_bytes, atomic_write_json, sha256_file, write_parquet
from svot._version import EXPORT_FORMAT, __version__
from svot.errors import ConfigError, DatasetError
from svot.rulemaze import symbols as S
from svot.rulemaze.matching import evaluate_paths
from svot.rulemaze.maze import Maze
from svot.rulemaze.errors import PoolError
from svot.rulemaze.pool import COLORINGS, LAYOUTS, check_size, generate_pool, read_pool
from svot.rulemaze.open_grid import maze_side
from svot.rulemaze.pool_stats import pool_report
from svot.rulemaze.rules.analysis import DIFFICULTIES, TIERS
from svot.rulemaze.rules.bank import builtin_rules, load_rules
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.scenario import layout_for, scenarios
from svot.rulemaze.tools_logic import TOOL_SCHEMAS, first_violation
from svot.rulemaze.trajectory import path_to_actions
from svot.rulemaze.render import render_maze, min_image_size
from svot.rulemaze.tools import run_trace

SPLITS = ("train", "test")
SCENARIO_DIRS = S.DOMAIN_OF  # one directory per scenario, named after its domain
SHAREGPT_DIR = "sharegpt"
#: Where an export's test splits are, in the order they are preferred (Parquet, then ShareGPT).
TEST_PATTERNS = ("test.parquet", "*/test.parquet", f"{SHAREGPT_DIR}/test.json", f"*/{SHAREGPT_DIR}/test.json")
TEST_GROUPS = ("seen",) + tuple(f"unseen-{d}" for d in DIFFICULTIES)
GROUPS = ("train",) + TEST_GROUPS
PAPER_TRAIN = 3600
PAPER_TEST_PER_GROUP = 100
DEFAULT_POOL_SIZE = 20_000
DEFAULT_TEST_FRACTION = 0.2
DEFAULT_CHUNK_ITEMS = 100
#: Share of train items whose trace takes a wrong move, gets VerifyRule false and revises
#: (paper Fig. 6 / supp. F; the authors' data keeps wrong-trajectory samples cut at the violation).
DEFAULT_REVISE_SHARE = 0.2
#: Shortest ground truth kept: the paper reports its RegularMaze test set by action lengths
#: [3-4], [5-6], [7-8] (appendix D, Fig. 2), i.e. no item is solved in one or two moves.
DEFAULT_MIN_MOVES = 3
FORMATS = ("parquet", "sharegpt", "trl")
DEFAULT_FORMATS = ("parquet", "sharegpt")
MAX_IMAGE_SIZE = 4096  # pixels a side: the most svot.safe_paths lets a reader decode
TRL_DIR = "trl"


# --------------------------------------------------------------------------- reading an export back


def find_test_splits(data) -> list[Path]:
    """The test split files of ``data``: one file, a scenario directory or an export root
    (every ``*/test.parquet``, else every ``*/sharegpt/test.json``); read by svot/dataset's reader."""
    return find_split_files(data, TEST_PATTERNS, what="test split")


def read_rows(path: Path, columns: Sequence[str] | None = None) -> list[dict]:
    """The items of one Parquet file (``columns`` only, if given) or one ShareGPT JSON list."""
    return read_table_rows(path, columns)


def scenario_rows(data, scenario: str) -> list[dict]:
    """Every item of one scenario's Parquet test split (``data``: that file or the export root)."""
    root = Path(data)
    path = root if root.suffix == ".parquet" else root / SCENARIO_DIRS[scenario] / "test.parquet"
    if not path.is_file():
        raise DatasetError(f"no RuleMaze test split at {str(path)!r} (svot rulemaze export --formats parquet)")
    return [r for r in read_rows(path) if r["scenario"] == scenario]


# --------------------------------------------------------------------------- seeds


def _entropy(seed: int, *keys) -> int:
    text = "svot.rulemaze.dataset/v1/" + "/".join(str(k) for k in (int(seed),) + keys)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big")


def _rng(seed: int, *keys) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(_entropy(seed, *keys)))


# --------------------------------------------------------------------------- selection


@dataclass(frozen=True)
class ItemSpec:
    """What one item is made of (its content follows from this and the image size)."""

    scenario: str
    split: str
    group: str
    index: int
    rule: Rule
    maze: Maze
    maze_index: int
    revise: bool = False  # the trace makes a wrong move first (detect-and-revise)

    @property
    def id(self) -> str:
        return f"{SCENARIO_DIRS[self.scenario]}-{self.split}-{self.index:05d}"


def rule_groups(rules: Sequence[Rule], tiers: str = "paper") -> dict[str, list[Rule]]:
    """Rules per group: ``train`` and ``seen`` take the seen rules, ``unseen-<d>`` the unseen
    rules of difficulty d under ``tiers`` (rules without a split count as unseen), in the
    given order."""
    out: dict[str, list[Rule]] = {g: [] for g in GROUPS}
    for r in rules:
        if r.split == "seen":
            out["train"].append(r)
            out["seen"].append(r)
        else:
            out[f"unseen-{r.difficulty_under(tiers)}"].append(r)
    return out


def quotas(n_rules: int, total: int) -> list[int]:
    """``total`` items spread over ``n_rules`` rules: equal shares, one more for the first
    ``total % n_rules`` rules."""
    if n_rules <= 0:
        return []
    base, extra = divmod(int(total), n_rules)
    return [base + (1 if i < extra else 0) for i in range(n_rules)]


def group_counts(train: int = PAPER_TRAIN, test_per_group: int = PAPER_TEST_PER_GROUP) -> dict[str, int]:
    """Items per group: ``train`` for the train split, ``test_per_group`` for each test group."""
    return {g: (train if g == "train" else test_per_group) for g in GROUPS}


def split_pool(n_mazes: int, scenario: str, seed: int, test_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """``(train indices, test indices)``: a seeded permutation of the pool cut at ``test_fraction``."""
    perm = _rng(seed, scenario, "pool-split").permutation(n_mazes)
    k = int(round(n_mazes * float(test_fraction)))
    return np.sort(perm[k:]), np.sort(perm[:k])


def split_mazes(mazes: Sequence[Maze], scenario: str, seed: int, test_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`split_pool` over a pool's mazes, where a maze the pool holds more than once (a pool
    file may) serves once, from its first place: so no maze, and no (maze, rule) pair, is in both
    splits. A generated pool holds each maze once, and its split is :func:`split_pool`'s."""
    train_idx, test_idx = split_pool(len(mazes), scenario, seed, test_fraction)
    first: dict[Maze, int] = {}
    repeats = {i for i, m in enumerate(mazes) if first.setdefault(m, i) != i}
    if repeats:
        train_idx = np.array([i for i in train_idx.tolist() if i not in repeats], dtype=train_idx.dtype)
        test_idx = np.array([i for i in test_idx.tolist() if i not in repeats], dtype=test_idx.dtype)
    return train_idx, test_idx


def select_items(scenario: str, mazes: Sequence[Maze], rules: Sequence[Rule], seed: int = 0, *,
                 train: int = PAPER_TRAIN, test_per_group: int = PAPER_TEST_PER_GROUP,
                 test_fraction: float = DEFAULT_TEST_FRACTION,
                 min_moves: int = DEFAULT_MIN_MOVES, tiers: str = "paper",
                 revise_share: float = 0.0) -> dict[str, list[ItemSpec]]:
    """The items of both splits (see the module docstring). Raises :class:`DatasetError`
    when a group has no rule or a rule finds too few matching mazes."""
    scenario = S.normalize_scenario(scenario)
    rules = [r for r in rules if r.scenario == scenario]
    groups = rule_groups(rules, tiers)
    counts = group_counts(train, test_per_group)
    train_idx, test_idx = split_mazes(mazes, scenario, seed, test_fraction)
    out: dict[str, list[ItemSpec]] = {"train": [], "test": []}
    for group in GROUPS:
        split = "train" if group == "train" else "test"
        want = counts[group]
        if want == 0:
            continue
        members = groups[group]
        if not members:
            raise DatasetError(f"{scenario}: no rules for group {group!r} (need {want} items)")
        part = train_idx if split == "train" else test_idx
        chosen: list[tuple[Rule, int]] = []
        for rule, q in zip(members, quotas(len(members), want)):
            if q == 0:
                continue
            order = part[_rng(seed, scenario, split, "rule-order", rule.id).permutation(len(part))]
            found = []
            for i in order.tolist():
                result = evaluate_paths(rule, mazes[i])
                if result.accepted(unique=True) and len(result.ground_truth) >= min_moves:
                    found.append(i)
                    if len(found) == q:
                        break
            if len(found) < q:
                raise DatasetError(
                    f"{scenario}: rule {rule.id} ({rule.logic}) matched only {len(found)} of the "
                    f"{len(part)} {split} mazes with at least {min_moves} moves, {q} needed; "
                    f"use a larger pool (--pool-size)")
            chosen += [(rule, i) for i in found]
        perm = _rng(seed, scenario, group, "item-order").permutation(len(chosen))
        # detect-and-revise traces: a seeded share of the train items (test traces stay clean)
        revise = (_rng(seed, scenario, group, "revise").random(len(chosen)) < revise_share
                  if group == "train" else np.zeros(len(chosen), dtype=bool))
        for n, j in enumerate(perm.tolist()):
            rule, i = chosen[j]
            out[split].append(ItemSpec(scenario, split, group, len(out[split]), rule, mazes[i], int(i),
                                       bool(revise[n])))
    return out


# --------------------------------------------------------------------------- items

#: Each scenario's goal sentence (its ``goal_text``).
GOALS = {s.name: s.goal_text for s in scenarios()}

#: Each scenario's scene description per layout (its ``scene_texts``), with ``{n}`` for the side.
SCENE = {s.name: dict(s.scene_texts) for s in scenarios()}

INSTRUCTIONS = ("Each move goes one cell up, down, left or right. Plan a path that reaches the goal "
                "and obeys the rule at every step. You may call the tools: LocateStart marks your "
                "position on the image, ExecuteMove moves the marker (it does not check walls), "
                "InspectGrid reads the cell under the marker, VerifyRule checks the moves and cells "
                "so far against the rule, and VerifyEndpoint tells whether the marker is on the goal. "
                "End with 'Final answer:' followed by the moves, e.g. 'Final answer: up, right'.")

#: How a final answer names each goal symbol (its scenario's ``goal_words``).
TARGET_WORDS = {sym: words for s in scenarios() for sym, words in s.goal_words.items()}


def prompt_text(scenario: str, n: int, rule: Rule, open_grid: bool = False) -> str:
    """The user prompt (without the image placeholder)."""
    scene = SCENE[scenario]["open" if open_grid else "walls"]
    return (f"{scene.format(n=n)}\nGoal: {GOALS[scenario]}\nRule: {rule.natural_language}\n"
            f"{INSTRUCTIONS}")


def final_answer(actions: Sequence[str], target: str) -> str:
    return (f"The moves reach {TARGET_WORDS.get(target, target)} and obey the rule at every step. "
            f"Final answer: {', '.join(actions)}")


def tools_json() -> str:
    """The tools in LLaMA-Factory's ``tools`` column form (a JSON list of function descriptions)."""
    return json.dumps([t["function"] for t in TOOL_SCHEMAS], separators=(",", ":"))


STEP_FEATURES = {"tool": STR, "arguments": STR, "output": STR, "image": I32}
CANDIDATE_FEATURES = {"actions": [STR], "path": STR, "valid": BOOL, "target": STR}
MESSAGE_FEATURES = {"role": STR, "content": STR}
ITEM_FEATURES = {
    "id": STR,
    "scenario": STR,
    "size": I32,
    "split": STR,
    "group": STR,
    "rule_id": STR,
    "rule": STR,
    "rule_logic": STR,
    "difficulty": STR,
    "semantic_type": [STR],
    "rule_split": STR,
    "goal": STR,
    "maze": STR,
    "maze_index": I32,
    "maze_text": STR,
    "image": IMAGE,
    "ground_truth": [STR],
    "ground_truth_path": STR,
    "answer": STR,
    "target": STR,
    "candidates": [CANDIDATE_FEATURES],
    "trace": [STEP_FEATURES],
    "images": [IMAGE],
    "prompt": STR,
    "messages": [MESSAGE_FEATURES],
    "tools": STR,
    "wrong_actions": [STR],
    "wrong_idx": I32,
}
ITEM_SCHEMA = arrow_schema(ITEM_FEATURES)


def _j(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def build_item(spec: ItemSpec, image_size: int = 256) -> dict:
    """The record of one item (see the module docstring and :data:`ITEM_FEATURES`).

    Raises :class:`DatasetError` when the pair is not matched or the tool chain
    does not reproduce the ground truth (a self-check; it never fires on the
    shipped renderer).
    """
    maze, rule = spec.maze, spec.rule
    result = evaluate_paths(rule, maze)
    if not result.accepted(unique=True):
        raise DatasetError(f"{spec.id}: rule {rule.id} and maze {spec.maze_index} do not pass matching")
    gt = list(result.ground_truth)
    gt_path = result.ground_truth_path
    target = maze.symbol(gt_path[-1])
    image = render_maze(maze, image_size)
    wrong_actions: list[str] = []
    wrong_idx = -1
    expected_cells = list(gt_path)
    if spec.revise:
        wrong_path, moves = revise_detour(rule, maze, result)
        wrong_actions = path_to_actions(wrong_path)[:moves]
        wrong_idx = moves - 1
        shared = _common_prefix(wrong_actions, gt)
        # out along the wrong path, back to where it left the ground truth, then on along it
        expected_cells = (list(wrong_path[:moves + 1]) + list(wrong_path[shared:moves][::-1])
                          + list(gt_path[shared + 1:]))
    steps = run_trace(image, rule, gt, detour=wrong_actions)
    positions = [tuple(s["output"]) for s in steps if s["tool"] in ("LocateStart", "ExecuteMove")]
    verdicts = [s["output"] for s in steps if s["tool"] == "VerifyRule"]
    shared = _common_prefix(wrong_actions, gt)
    expected = ([True] * wrong_idx + [False] if wrong_actions else []) + [True] * (len(gt) - shared)
    if positions != [tuple(c) for c in expected_cells] or verdicts != expected or not steps[-1]["output"]:
        raise DatasetError(f"{spec.id}: the tool chain does not reproduce the ground truth")

    images = [encode_png(image)]
    trace, messages = [], []
    prompt = prompt_text(maze.scenario, maze.size, rule, maze.open_grid)
    messages.append({"role": "user", "content": "<image>" + prompt})
    current = "input"
    for s in steps:
        args = dict(s["arguments"])
        if s["tool"] == "VerifyRule":
            args["rule"] = rule.natural_language
        else:
            args = {"image": current, **args}
        out_index = -1
        if s["image"] is not None:
            images.append(encode_png(s["image"]))
            out_index = len(images) - 1
            current = f"image_{out_index}"
            output = {"image": current, "position": s["output"]}
            observation = f"<image>{current}"
        else:
            output = s["output"]
            observation = output if isinstance(output, str) else json.dumps(output)
        call = {"name": s["tool"], "arguments": args}
        trace.append({"tool": s["tool"], "arguments": _j(args), "output": _j(output), "image": out_index})
        messages.append({"role": "function_call", "content": json.dumps(call, separators=(", ", ": "))})
        messages.append({"role": "observation", "content": observation})
    messages.append({"role": "assistant", "content": final_answer(gt, target)})

    candidates = [{"actions": path_to_actions(p), "path": _j([list(c) for c in p]), "valid": bool(ok),
                   "target": maze.symbol(p[-1])} for p, ok in zip(result.paths, result.verdicts)]
    return {
        "id": spec.id,
        "scenario": maze.scenario,
        "size": maze.size,
        "split": spec.split,
        "group": spec.group,
        "rule_id": rule.id,
        "rule": rule.natural_language,
        "rule_logic": rule.logic,
        "difficulty": rule.difficulty,
        "semantic_type": list(rule.semantic_type),
        "rule_split": rule.split or "unseen",
        "goal": GOALS[maze.scenario],
        "maze": _j(maze.to_dict()),
        "maze_index": spec.maze_index,
        "maze_text": maze.to_text(),
        "image": {"bytes": images[0], "path": None},
        "ground_truth": gt,
        "ground_truth_path": _j([list(c) for c in gt_path]),
        "answer": ", ".join(gt),
        "target": target,
        "candidates": candidates,
        "trace": trace,
        "images": [{"bytes": b, "path": None} for b in images],
        "prompt": prompt,
        "messages": messages,
        "tools": tools_json(),
        "wrong_actions": wrong_actions,
        "wrong_idx": wrong_idx,
    }


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def revise_detour(rule: Rule, maze: Maze, result) -> tuple[tuple, int]:
    """The wrong path a detect-and-revise trace follows and how many of its moves it makes:
    the first non-compliant candidate (candidate order), up to its first violation
    (:func:`svot.rulemaze.tools_logic.first_violation`)."""
    for path, ok in zip(result.paths, result.verdicts):
        if not ok:
            moves = first_violation(rule, maze, path)
            if moves is not None:
                return path, moves
    raise DatasetError(f"rule {rule.id}: maze has no wrong candidate to revise from")


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class ExportConfig:
    """What to export; everything here (and nothing else) determines the bytes written."""

    out: str
    scenarios: tuple[str, ...] = S.SCENARIOS
    seed: int = 0
    size: int = 3
    train: int = PAPER_TRAIN
    test_per_group: int = PAPER_TEST_PER_GROUP
    pool_size: int = DEFAULT_POOL_SIZE
    pool_files: tuple = ()  # ((scenario, path), ...): read these pools instead of generating
    test_fraction: float = DEFAULT_TEST_FRACTION
    min_moves: int = DEFAULT_MIN_MOVES
    extra_rules: str | None = None  # a rules JSON file
    formats: tuple[str, ...] = DEFAULT_FORMATS
    image_size: int = 256
    chunk_items: int = DEFAULT_CHUNK_ITEMS
    coloring: str = "paper"  # RegularMaze pool colouring when generated (svot.rulemaze.pool.COLORINGS)
    difficulty_tiers: str = "paper"  # unseen-<difficulty> grouping (svot.rulemaze.rules.analysis.TIERS)
    revise_share: float = DEFAULT_REVISE_SHARE  # train items with a detect-and-revise trace
    quest_layout: str = "open"  # QuestMaze: "open" (paper Fig. 3, 2N-1 grid) or "walls" (N x N walled)

    def maze_size(self, scenario: str) -> int:
        """The grid side of a scenario's mazes: ``size``, or ``2 size - 1`` on the open grid."""
        return maze_side(self.size, self.layout(scenario))

    def layout(self, scenario: str) -> str:
        """``quest_layout`` for a scenario that has it (an open grid), else ``"walls"``."""
        return layout_for(scenario, self.quest_layout)

    def fingerprint(self) -> dict:
        return {
            "version": __version__,
            "scenarios": list(self.scenarios),
            "seed": self.seed,
            "size": self.size,
            "train": self.train,
            "test_per_group": self.test_per_group,
            "pool_size": self.pool_size,
            "pool_files": {sc: _file_digest(p) for sc, p in self.pool_files},
            "test_fraction": self.test_fraction,
            "min_moves": self.min_moves,
            "extra_rules": None if self.extra_rules is None else _file_digest(self.extra_rules),
            "formats": list(self.formats),
            "image_size": self.image_size,
            "chunk_items": self.chunk_items,
            "coloring": self.coloring,
            "difficulty_tiers": self.difficulty_tiers,
            "revise_share": self.revise_share,
            "quest_layout": self.quest_layout,
        }


def _file_digest(path) -> dict:
    return {"file": os.path.basename(os.fspath(path)), "sha256": sha256_file(Path(path))}


def pool_file_name(scenario: str, size: int) -> str:
    """The file the ``pool`` command writes for a scenario: ``RegularMaze-3x3.jsonl``."""
    return f"{S.normalize_scenario(scenario)}-{size}x{size}.jsonl"


def make_config(out, scenarios=None, *, seed: int = 0, size: int = 3, train: int = PAPER_TRAIN,
                test_per_group: int = PAPER_TEST_PER_GROUP, pool_size: int = DEFAULT_POOL_SIZE,
                pool: str | os.PathLike | None = None, test_fraction: float = DEFAULT_TEST_FRACTION,
                min_moves: int = DEFAULT_MIN_MOVES,
                rules: str | os.PathLike | None = None, formats=DEFAULT_FORMATS, image_size: int = 256,
                chunk_items: int = DEFAULT_CHUNK_ITEMS, coloring: str = "paper",
                difficulty_tiers: str = "paper",
                revise_share: float = DEFAULT_REVISE_SHARE, quest_layout: str = "open") -> ExportConfig:
    """Check the arguments and resolve them into an :class:`ExportConfig`.

    ``pool``: a pool file (one scenario) or a directory holding the ``pool``
    command's files (:func:`pool_file_name`); without it each scenario's pool
    is generated with ``pool_size`` mazes from ``seed``. ``train`` and
    ``test_per_group`` default to the paper's 3,600 and 100. ``coloring``
    picks the RegularMaze colouring of generated pools (``paper``: Alg. 4,
    ``authors``: whole path interiors), ``difficulty_tiers`` the grouping of
    unseen rules (``paper``: connective count, ``authors``: the authors'
    prompt tiers), ``revise_share`` the share of train items whose trace makes
    a wrong move, sees VerifyRule fail and revises, ``quest_layout`` the
    QuestMaze layout (``open``, the default: the paper's open (2N-1) x (2N-1)
    grid with monsters, 5x5 for N = 3; ``walls``: the walled N x N maze).
    ``size`` is the logical maze side N in every layout (2 to
    :data:`svot.rulemaze.pool.MAX_SIZE`).
    """
    try:
        scs = tuple(dict.fromkeys(S.normalize_scenario(s) for s in (scenarios or S.SCENARIOS)))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None

    def pos_int(name, v, minimum=1):
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            raise ConfigError(f"{name} must be an integer >= {minimum}, got {v!r}")
        return int(v)

    seed = pos_int("seed", seed, 0)
    try:
        for sc in scs:
            check_size(sc, size, layout_for(sc, quest_layout))
    except PoolError as exc:
        raise ConfigError(str(exc)) from None
    train = pos_int("train", train, 0)
    test_per_group = pos_int("test_per_group", test_per_group, 0)
    pool_size = pos_int("pool_size", pool_size, 1)
    chunk_items = pos_int("chunk_items", chunk_items, 1)
    min_moves = pos_int("min_moves", min_moves, 1)
    image_size = pos_int("image_size", image_size, 1)
    if image_size > MAX_IMAGE_SIZE:
        raise ConfigError(f"image size {image_size} is more than {MAX_IMAGE_SIZE} pixels a side")
    biggest = max(maze_side(size, layout_for(sc, quest_layout)) for sc in scs)
    if image_size < min_image_size(biggest):
        raise ConfigError(f"image size {image_size} is too small for {biggest}x{biggest} mazes "
                          f"(at least {min_image_size(biggest)})")
    if not 0 < float(test_fraction) < 1:
        raise ConfigError(f"test_fraction must lie strictly between 0 and 1, got {test_fraction!r}")
    formats = tuple(formats) if not isinstance(formats, str) else tuple(
        f.strip() for f in formats.split(",") if f.strip())
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise ConfigError(f"unknown format {bad[0] if bad else ''!r}; choose from {', '.join(FORMATS)}")
    pool_files = []
    if pool is not None:
        p = Path(pool)
        if p.is_dir():
            for sc in scs:
                f = p / pool_file_name(sc, maze_side(size, layout_for(sc, quest_layout)))
                if not f.is_file():
                    raise ConfigError(f"pool directory {str(p)!r} has no {f.name} (write it with "
                                      f"'svot rulemaze pool --scenario {sc} --size {size} --out {p}')")
                pool_files.append((sc, str(f)))
        elif p.is_file():
            if len(scs) != 1:
                raise ConfigError("a pool file holds one scenario: pass --scenario too, or a pool directory")
            pool_files.append((scs[0], str(p)))
        else:
            raise ConfigError(f"pool {str(p)!r} does not exist")
    if quest_layout not in LAYOUTS:
        raise ConfigError(f"quest_layout must be one of {list(LAYOUTS)}, got {quest_layout!r}")
    if coloring not in COLORINGS:
        raise ConfigError(f"coloring must be one of {list(COLORINGS)}, got {coloring!r}")
    if difficulty_tiers not in TIERS:
        raise ConfigError(f"difficulty_tiers must be one of {list(TIERS)}, got {difficulty_tiers!r}")
    if isinstance(revise_share, bool) or not isinstance(revise_share, (int, float)) \
            or not 0 <= revise_share <= 1:
        raise ConfigError(f"revise_share must lie between 0 and 1, got {revise_share!r}")
    if rules is not None:
        load_rules(rules, tiers=difficulty_tiers)  # fail early, with the file's own message
    return ExportConfig(out=str(out), scenarios=scs, seed=seed, size=size, train=train,
                        test_per_group=test_per_group, pool_size=pool_size, pool_files=tuple(pool_files),
                        test_fraction=float(test_fraction), min_moves=min_moves,
                        extra_rules=None if rules is None else str(rules),
                        formats=tuple(f for f in FORMATS if f in formats), image_size=image_size,
                        chunk_items=chunk_items, coloring=coloring, difficulty_tiers=difficulty_tiers,
                        revise_share=float(revise_share), quest_layout=quest_layout)


def config_rules(cfg: ExportConfig, scenario: str) -> list[Rule]:
    """The bank's rules of a scenario followed by the extra rules file's."""
    rules = builtin_rules(scenario)
    if cfg.extra_rules is not None:
        rules += [r for r in load_rules(cfg.extra_rules, tiers=cfg.difficulty_tiers)
                  if r.scenario == scenario]
    return rules


def config_pool(cfg: ExportConfig, scenario: str, workers: int = 1, progress=None) -> list[Maze]:
    files = dict(cfg.pool_files)
    if scenario in files:
        mazes = read_pool(files[scenario])
        n, open_grid = cfg.maze_size(scenario), cfg.layout(scenario) == "open"
        wrong = [m for m in mazes if m.scenario != scenario or m.size != n or m.open_grid != open_grid]
        if wrong:
            raise DatasetError(f"pool {files[scenario]!r} holds a {wrong[0].size}x{wrong[0].size} "
                               f"{wrong[0].scenario}{' (open grid)' if wrong[0].open_grid else ''}; "
                               f"expected {n}x{n} {scenario} mazes ({cfg.layout(scenario)} layout)")
        return mazes
    return generate_pool(scenario, cfg.size, cfg.pool_size, seed=cfg.seed, workers=workers,
                         progress=progress, coloring=cfg.coloring, layout=cfg.layout(scenario))


def plan(cfg: ExportConfig, scenario: str, workers: int = 1, mazes=None) -> dict[str, list[ItemSpec]]:
    """The items of one scenario's splits (pool, rules and selection; no images)."""
    if mazes is None:
        mazes = config_pool(cfg, scenario, workers)
    return select_items(scenario, mazes, config_rules(cfg, scenario), cfg.seed, train=cfg.train,
                        test_per_group=cfg.test_per_group, test_fraction=cfg.test_fraction,
                        min_moves=cfg.min_moves, tiers=cfg.difficulty_tiers,
                        revise_share=cfg.revise_share)


def iter_items(specs: Iterable[ItemSpec], image_size: int = 256):
    """Records of items, lazily."""
    for spec in specs:
        yield build_item(spec, image_size)


# --------------------------------------------------------------------------- export


@dataclass
class SplitJob:
    """A scenario's split: its items, the product's data of its orchestrator
    :class:`~svot.dataset.orchestrator.SplitWork`."""

    scenario: str
    split: str
    specs: list

    @property
    def dir(self) -> str:
        return SCENARIO_DIRS[self.scenario]


def _final_paths(out: Path, cfg: ExportConfig, job: SplitJob) -> list[Path]:
    paths = []
    if "parquet" in cfg.formats:
        paths.append(out / job.dir / f"{job.split}.parquet")
    if "sharegpt" in cfg.formats:
        paths += [out / job.dir / SHAREGPT_DIR / f"{stem}.json" for stem in SHAREGPT_KINDS[job.split]]
    if "trl" in cfg.formats:
        paths += [out / job.dir / TRL_DIR / f"{stem}.parquet" for stem in TRL_KINDS[job.split]]
    return paths


def _chunk_task(args: tuple) -> tuple:
    key, k, specs, image_size, path = args
    rows = [build_item(spec, image_size) for spec in specs]
    table = pa.Table.from_pylist(rows, schema=ITEM_SCHEMA)
    stats = Counter()
    for r in rows:
        stats["items"] += 1
        stats["moves"] += len(r["ground_truth"])
        stats["images"] += len(r["images"])
        stats["tool_calls"] += len(r["trace"])
        stats[f"group:{r['group']}"] += 1
    write_part(table, dict(sorted(stats.items())), Path(path))
    return key, k, dict(stats)


@dataclass
class ExportResult:
    out: Path
    manifest: dict
    rows: list
    pool_lines: list = field(default_factory=list)  # pool figures and bank match rates, per scenario

    def summary(self) -> str:
        return format_summary(self.rows)


def export(cfg: ExportConfig, *, workers: int = 1, resume: bool = False, overwrite: bool = False,
           quiet: bool = False, command: list[str] | None = None) -> ExportResult:
    """Run an export (see the module docstring); returns the manifest and summary rows. The output
    directory, lock, resume, workers and manifest are :func:`svot.dataset.orchestrator.run_export`'s,
    as for every svot export."""
    product = RuleMazeExport(cfg, workers)
    return run_export(product, workers=workers, resume=resume, overwrite=overwrite, quiet=quiet,
                      command=command, desc="rulemaze items", unit="item")


class RuleMazeExport:
    """The RuleMaze items as an orchestrator product (:class:`svot.dataset.orchestrator.Product`)."""

    def __init__(self, cfg: ExportConfig, workers: int = 1):
        self.cfg, self.workers = cfg, workers
        self.out = Path(cfg.out)
        self.pool_lines: list[str] = []

    def fingerprint(self) -> dict:
        return self.cfg.fingerprint()

    def folders(self) -> list[str]:
        return [SCENARIO_DIRS[sc] for sc in self.cfg.scenarios]

    def saved_stats(self, manifest: dict):
        for sc_dir, splits in manifest.get("counts", {}).items():
            for split, st in splits.items():
                yield sc_dir, split, st

    def splits(self) -> list[SplitWork]:
        cfg, works = self.cfg, []
        self.pool_lines = []
        for sc in cfg.scenarios:
            mazes = config_pool(cfg, sc, self.workers)
            self.pool_lines.append(pool_report(sc, mazes, cfg.coloring))
            items = plan(cfg, sc, self.workers, mazes)
            for split in SPLITS:
                job = SplitJob(sc, split, items[split])
                n = len(job.specs)
                units = [min(n, (k + 1) * cfg.chunk_items) - k * cfg.chunk_items for k in range(-(-n // cfg.chunk_items))]
                works.append(SplitWork(job.dir, split, units, job))
        return works

    def final_files(self, work: SplitWork) -> list[Path]:
        return _final_paths(self.out, self.cfg, work.data)

    def split_files(self, work: SplitWork) -> list[Path]:
        return _job_files(self.out, self.cfg, work.data)

    def before_workers(self, pending: list[SplitWork]) -> None:
        pass  # items draw nothing that forked workers could share

    def tasks(self, pending: list[SplitWork], note):
        size = self.cfg.chunk_items
        for w in pending:
            job = w.data
            for k in sorted(w.remaining):
                specs = job.specs[k * size:(k + 1) * size]
                yield Task(w, k, _chunk_task, ((job.scenario, job.split), k, specs, self.cfg.image_size,
                                               str(part_path(self.out, w, k))))

    def part_schema(self, work: SplitWork) -> pa.Schema:
        return ITEM_SCHEMA

    def write_split(self, work: SplitWork, table: pa.Table) -> None:
        cfg, job, out = self.cfg, work.data, self.out
        if "parquet" in cfg.formats:
            write_parquet(table, out / job.dir / f"{job.split}.parquet")
        if "sharegpt" in cfg.formats:
            write_sharegpt(table, out / job.dir / SHAREGPT_DIR, job.split)
        if "trl" in cfg.formats:
            write_trl(table, out / job.dir / TRL_DIR, job.split)

    def split_stats(self, stats: Counter) -> dict:
        return dict(sorted(stats.items()))

    def finish(self, works: list[SplitWork], stats: list[dict], files, command):
        rows = [(w.data.scenario, w.split, st) for w, st in zip(works, stats)]
        manifest = _manifest(self.cfg, rows, command, files(_files(self.out, self.cfg, [w.data for w in works])))
        return manifest, ExportResult(self.out, manifest, rows, self.pool_lines)


def sharegpt_records(table: pa.Table, images_dir: Path, rel: str = "images") -> list[dict]:
    """ShareGPT records of a table of items; image files are written content-addressed
    into ``images_dir`` (an existing file of that name holds the same bytes)."""
    images_dir.mkdir(parents=True, exist_ok=True)
    cols = table.select(["id", "scenario", "group", "rule", "rule_logic", "ground_truth", "answer",
                         "messages", "images", "tools"]).to_pylist()
    out = []
    for row in cols:
        names = []
        for img in row["images"]:
            name = png_name(img["bytes"])
            path = images_dir / name
            if not path.exists():
                atomic_write_bytes(path, img["bytes"])
            names.append(f"{rel}/{name}")
        out.append({"id": row["id"], "scenario": row["scenario"], "group": row["group"], "rule": row["rule"],
                    "rule_logic": row["rule_logic"], "ground_truth": row["ground_truth"],
                    "answer": row["answer"], "messages": row["messages"], "images": names,
                    "tools": row["tools"]})
    return out


#: ShareGPT files per split: (file stem, what it holds). ``<split>``: whole tool-call conversations;
#: ``<split>_stepwise``: one sample per step; ``test_predict``: prompts for generation.
SHAREGPT_KINDS = {"train": ("train", "train_stepwise"), "test": ("test", "test_stepwise", "test_predict")}


def _observation_text(content: str) -> str:
    """An observation as history text: an image output is named, not shown (one image per step-wise sample)."""
    return content.replace("<image>", "", 1) + " (marker image)" if content.startswith("<image>") else content


def stepwise_records(record: dict) -> list[dict]:
    """One ShareGPT sample per step of a conversation (DMP, §4.3: "the input at step t consists of the
    goal instruction G, the rule specification R, the updated maze image I_t, and the accumulated
    reasoning trace H_t"; the model generates the next tool call c_t).

    Each sample: a user turn with the one current image (``<image>``), the task and the trace so far
    as text, and the next ``function_call`` (or the final ``assistant`` answer) as the response.
    """
    msgs = record["messages"]
    task = msgs[0]["content"].replace("<image>", "", 1)
    images = record["images"]
    current, history, out = 0, [], []
    for k, m in enumerate(msgs[1:], 1):
        if m["role"] in ("function_call", "assistant"):
            trace = ("\n\nTool calls so far:\n" + "\n".join(history)) if history else ""
            shown = "the input maze" if current == 0 else f"image_{current}, the latest marker image"
            user = f"<image>{task}{trace}\n\nThe image shows {shown}. Give the next tool call or the final answer."
            out.append({"id": f"{record['id']}-step{len(out):02d}", "scenario": record["scenario"],
                        "group": record["group"], "step": len(out),
                        "messages": [{"role": "user", "content": user}, {"role": m["role"], "content": m["content"]}],
                        "images": [images[current]], "tools": record["tools"]})
            if m["role"] == "function_call":
                history.append(f"Call: {m['content']}")
        else:  # an observation
            history.append(f"Result: {_observation_text(m['content'])}")
            if m["content"].startswith("<image>image_"):
                current = int(m["content"][len("<image>image_"):])
    return out


def predict_record(record: dict) -> dict:
    """A test item for generation: the user turn (maze image, goal, rule, tools) and the final answer as
    the label. Unlike ``test.json``, no tool call or observation of the ground truth is in the prompt,
    so LLaMA-Factory's predict mode (prompt = every message but the last) sees only what a model may."""
    msgs = record["messages"]
    return {**{k: record[k] for k in ("id", "scenario", "group", "rule", "rule_logic", "ground_truth", "answer")},
            "messages": [msgs[0], msgs[-1]], "images": record["images"][:1], "tools": record["tools"]}


def dataset_info(prefix: str, stems: Sequence[str]) -> dict:
    """LLaMA-Factory's ``dataset_info.json`` entries for the ShareGPT files (one per file stem)."""
    return {f"{prefix}_{stem}": {
        "file_name": f"{stem}.json",
        "formatting": "sharegpt",
        "columns": {"messages": "messages", "images": "images", "tools": "tools"},
        "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user",
                 "assistant_tag": "assistant", "observation_tag": "observation",
                 "function_tag": "function_call"},
    } for stem in stems}


def _json_list(records: list[dict]) -> bytes:
    return ("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
            + "\n]\n").encode()


def write_sharegpt(table: pa.Table, sdir: Path, split: str) -> None:
    """``<sdir>/<split>.json`` (a JSON list, one item per line), ``<split>_stepwise.json``, for the test
    split ``test_predict.json``, ``<sdir>/images/*.png`` and ``<sdir>/dataset_info.json`` (every file
    written so far)."""
    records = sharegpt_records(table, sdir / "images")
    files = {split: records, f"{split}_stepwise": [x for r in records for x in stepwise_records(r)]}
    if split == "test":
        files["test_predict"] = [predict_record(r) for r in records]
    for stem, recs in files.items():
        atomic_write_bytes(sdir / f"{stem}.json", _json_list(recs))
    have = [stem for sp in SPLITS for stem in SHAREGPT_KINDS[sp] if (sdir / f"{stem}.json").exists()]
    atomic_write_json(sdir / "dataset_info.json", dataset_info(f"rulemaze_{sdir.parent.name}", have))


#: TRL files per split (conversational prompt-completion Parquet, images as Image structs).
TRL_KINDS = {"train": ("train_stepwise",), "test": ("test_stepwise", "test_predict")}
_TRL_PART = {"type": STR, "text": STR}
_TRL_MESSAGE = {"role": STR, "content": [_TRL_PART]}
TRL_FEATURES = {"id": STR, "scenario": STR, "group": STR, "step": I32, "prompt": [_TRL_MESSAGE],
                "completion": [_TRL_MESSAGE], "images": [IMAGE], "ground_truth": [STR]}
TRL_SCHEMA = arrow_schema(TRL_FEATURES)


def trl_record(sample: dict, ground_truth: list[str]) -> dict:
    """A ShareGPT step-wise or predict sample as TRL's conversational prompt-completion record: the user
    turn cut into text and image parts at its ``<image>``, the response (tool call JSON or final
    answer) as the assistant's text."""
    user, reply = sample["messages"][0], sample["messages"][-1]
    return {"id": sample["id"], "scenario": sample["scenario"], "group": sample["group"],
            "step": int(sample.get("step", 0)),
            "prompt": [{"role": "user", "content": content_parts(user["content"])}],
            "completion": [{"role": "assistant", "content": [{"type": "text", "text": reply["content"]}]}],
            "images": sample["images"], "ground_truth": list(ground_truth)}


def write_trl(table: pa.Table, tdir: Path, split: str) -> None:
    """``<tdir>/<split>_stepwise.parquet`` and, for the test split, ``test_predict.parquet``."""
    rows = table.select(["id", "scenario", "group", "rule", "rule_logic", "ground_truth", "answer",
                         "messages", "images", "tools"]).to_pylist()
    files = {f"{split}_stepwise": [trl_record(x, r["ground_truth"]) for r in rows for x in stepwise_records(r)]}
    if split == "test":
        files["test_predict"] = [trl_record(predict_record(r), r["ground_truth"]) for r in rows]
    for stem, recs in files.items():
        write_parquet(pa.Table.from_pylist(recs, schema=TRL_SCHEMA), tdir / f"{stem}.parquet")


def _job_files(out: Path, cfg: ExportConfig, job: SplitJob) -> list[Path]:
    """The files a finished split leaves (its scenario's shared ShareGPT images and info included)."""
    files = _final_paths(out, cfg, job)
    if "sharegpt" in cfg.formats:
        sdir = out / job.dir / SHAREGPT_DIR
        files.append(sdir / "dataset_info.json")
        files.extend(sorted((sdir / "images").iterdir()))
    return files


def _files(out: Path, cfg: ExportConfig, jobs: list[SplitJob]) -> list[Path]:
    files = []
    for j in jobs:
        files.extend(_final_paths(out, cfg, j))
    if "sharegpt" in cfg.formats:
        for sc in cfg.scenarios:
            sdir = out / SCENARIO_DIRS[sc] / SHAREGPT_DIR
            files.append(sdir / "dataset_info.json")
            files.extend(sorted((sdir / "images").iterdir()))
    return files


def _manifest(cfg: ExportConfig, rows, command, files: dict) -> dict:
    counts: dict = {}
    for sc, split, st in rows:
        counts.setdefault(SCENARIO_DIRS[sc], {})[split] = st
    rules = {}
    for sc in cfg.scenarios:
        groups = rule_groups(config_rules(cfg, sc), cfg.difficulty_tiers)
        rules[SCENARIO_DIRS[sc]] = {g: [r.id for r in rs] for g, rs in groups.items()}
    return {
        "package": "svot",
        "dataset": "rulemaze",
        "version": __version__,
        "format_version": EXPORT_FORMAT,
        "command": list(command) if command is not None else None,
        "arguments": cfg.fingerprint(),
        "seed": cfg.seed,
        "pools": {SCENARIO_DIRS[sc]: ({"file": dict(cfg.pool_files)[sc]} if sc in dict(cfg.pool_files)
                                      else {"generated": True, "count": cfg.pool_size, "seed": cfg.seed,
                                            "size": cfg.size, "side": cfg.maze_size(sc),
                                            "layout": cfg.layout(sc)})
                  for sc in cfg.scenarios},
        "rules": rules,
        "counts": counts,
        "libraries": {"pyarrow": pa.__version__, "pillow": PIL.__version__, "numpy": numpy.__version__},
        "files": files,
    }


def format_summary(rows) -> str:
    """Items per scenario x split and per group, with moves, tool calls and images."""
    head = ("dataset", "split", "items", "groups", "moves/item", "tool calls", "images")
    lines = []
    for sc, split, st in rows:
        n = st.get("items", 0)
        groups = ", ".join(f"{g}={st[f'group:{g}']}" for g in GROUPS if st.get(f"group:{g}"))
        lines.append((SCENARIO_DIRS[sc], split, str(n), groups, f"{st.get('moves', 0) / n:.2f}" if n else "-",
                      str(st.get("tool_calls", 0)), str(st.get("images", 0))))
    widths = [max(len(h), *(len(x[i]) for x in lines)) if lines else len(h) for i, h in enumerate(head)]

    def fmt(cols):
        return "  ".join(c.ljust(w) if i < 2 or i == 3 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))

    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(x) for x in lines])

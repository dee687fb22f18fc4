"""Maps, action sequences and instances.

**Maps.** :func:`plan_maps` draws the maps of every split of one (domain,
size) in the fixed order train, val, test_id, test_ood: map ``m`` of a split,
attempt ``a``, comes from ``generate(domain, size, distribution, rng)`` with
``rng`` seeded by ``SeedSequence(entropy(seed, domain, size, split),
spawn_key=(0, m, a))``. A map whose initial state equals one drawn before (in
an earlier split or at a lower index) is rejected and the next attempt drawn,
as is one whose player can reach a pocket with no room for a four-choice set
(:func:`answer_space_ok`), so no map is in two splits, and a split's maps never depend on which other
splits an export asks for or on the number of workers.

**Sequences** (per map, rng ``spawn_key=(1, m)``): drawn lengths come from
:func:`split_lengths` (Table 5's range, the mean its counts imply, balanced over
the split). Train maps are drawn so that their goal-reaching plan (a shortest
one; ``generator_params.plan_optimal`` says so) fits the ID range
(:func:`plan_fits`), and the plan is their first sequence; every other sequence is random: at each
step, with probability :data:`~svot.dataset.spec.P_APPLICABLE` an action drawn
uniformly from those applicable in the current state, otherwise one drawn
uniformly from all actions (so some are inapplicable: walls, edges, blocked
pushes, moves off the grid). "Applicable" here also excludes moves into a
failure state (the spec's ``is_failure``), so the random walker steps into one only through
the uniform draw. A sequence stops early when it enters a terminal state from
which no action applies (a failure state or goal that is absorbing in the PDDL):
its remaining actions
are dropped. A sequence that stops before the range's minimum length is
redrawn, so every sequence length lies in Table 5's range. Sequences of a map
are distinct; a sequence whose four-choice set cannot satisfy A.7 is redrawn.

**Instances** hold the problem, every state dict, text and label grid, the
reasoning chains, the goal, and the choice set; images are rendered on demand
(:meth:`Instance.image`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from svot.dataset import prompts
from svot.dataset.choices import build_choices, near_cells
from svot.dataset.spec import (
    KEY_LENGTHS,
    KEY_MAP,
    KEY_SEQ,
    P_APPLICABLE,
    SPLIT_NAMES,
    SPLITS,
    check_split,
    correct_letters,
    early_stop_allowance,
    implied_mean_length,
    length_probs,
    lengths_for,
    maps_for,
    rng_for,
)
from svot.dataset.transitions import build_chain
from svot.dataset.wording import answer_text, goal_of
from svot.domains import get_domain, get_spec
from svot.kernel import DomainSpec, GridDomain
from svot.errors import ConfigError, DatasetError
from svot.pddl import Problem, load_domain
from svot.problem_gen import generate, has_plan_length_floor, plan_length_floor
from svot.problem_gen.common import layout_json
from svot.render.image import render_state
from svot.render.labels import label_grid
from svot.render.text import describe

MAX_MAP_ATTEMPTS = 20_000
MAX_SEQUENCE_ATTEMPTS = 2_000
#: How many distinct goal configurations the per-map reachability search collects at most
#: (small goal spaces finish well below it; large maps of a multi-colour domain stop there, see
#: MapContext.reachable_goals).
REACH_CAP = 200


@dataclass(frozen=True)
class MapPlan:
    """One map of a split: which draw it came from and what was drawn."""

    domain: str
    size: int
    split: str
    index: int
    attempt: int
    generated: object  # svot.problem_gen.Generated

    @property
    def problem(self) -> Problem:
        return self.generated.problem


def layout_key(state: dict) -> str:
    return layout_json(state)  # json.dumps(state, sort_keys=True, separators=(",", ":")), one kept encoder


def _check_domain_size(domain: str, size: int, allow_any_size: bool) -> tuple[str, int]:
    spec = get_spec(domain)
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ConfigError(f"size must be an int, got {size!r}")
    spec.check_size(int(size), allow_any=allow_any_size)
    return spec.name, int(size)


def _draw_map(args: tuple):
    """Map ``m`` of a split, attempt ``a`` (a pure function of its arguments; runs in workers), or None
    where the draw is a train map whose plan cannot fit (:func:`plan_cannot_fit`): planning it would
    only see :func:`plan_fits` reject it."""
    name, size, split, m, attempt, seed = args
    domain = get_domain(name)  # looked up once: svot.problem_gen takes the domain object
    distribution = SPLITS[split].distribution
    if split == "train" and domain.spec.plan_optional and has_plan_length_floor(domain):
        unplanned = generate(domain, size, distribution, rng_for(seed, name, size, split, KEY_MAP, m, attempt),
                             plan=False, allow_any_size=True)
        if plan_cannot_fit(domain, size, unplanned):
            return None
    rng = rng_for(seed, name, size, split, KEY_MAP, m, attempt)
    return generate(domain, size, distribution, rng, allow_any_size=True)


def answer_space_ok(state: dict) -> bool:
    """Whether every cell the player can reach leaves room for three position distractors.

    A.7 puts distractor positions within distance 2 of the truth and off the
    walls; a player boxed into a pocket with fewer than three free cells that
    close (possible at OOD wall densities) has no valid four-choice set
    wherever a sequence ends, so such a map is redrawn rather than used.
    """
    walls = {tuple(w) for w in state.get("walls", ())}
    if not walls:
        return True
    size = state["size"]
    start = tuple(state["player"])
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        if len(near_cells((r, c), size, walls)) < 3:
            return False
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < size and 0 <= nc < size and (nr, nc) not in walls and (nr, nc) not in seen:
                seen.add((nr, nc))
                todo.append((nr, nc))
    return True


def plan_floor(generated) -> int:
    """A lower bound on any goal-reaching plan's length for this map's generator parameters.

    The domain's :meth:`~svot.kernel.DomainSpec.min_plan_length` (e.g. a domain
    that collects at most one item per move needs at least one move per item,
    which Table 5's densities can put above the ID maximum of 10). Default: 1.
    """
    return get_spec(generated.domain).min_plan_length(generated.params)


def plan_fits(split: str, size: int, generated) -> bool:
    """Whether a map may serve ``split``: a train map's plan must fit Table 5's ID length range.

    A.5: "For each solvable map, we extract a goal-reaching plan via BFS for the
    training set" (and likewise for every domain), so every train map carries
    its plan as one of its sequences; the plan is a sequence, so its length
    must lie in the range. Train maps whose plan does not fit are redrawn. Where
    no plan can fit (:func:`plan_floor` above the range's maximum),
    the draw is not filtered and those maps get random sequences only.
    """
    if split != "train":
        return True
    lo, hi = lengths_for(size, SPLITS[split].distribution)
    if plan_floor(generated) > hi:
        return True
    return lo <= len(generated.plan) <= hi


def plan_cannot_fit(domain: GridDomain, size: int, generated) -> bool:
    """Whether a train draw (of ``domain``) has a shortest plan provably longer than Table 5's ID range, from
    the domain's :func:`~svot.problem_gen.plan_length_floor` (a bound on the unplanned layout), where
    :func:`plan_fits` would filter the draw at all. Where a size keeps about one draw in a hundred
    (many items, a short range), the bound turns the other ninety-nine away without planning them.
    """
    hi = lengths_for(size, SPLITS["train"].distribution)[1]
    return plan_floor(generated) <= hi and plan_length_floor(domain, generated.state) > hi


def plan_maps(
    domain: str,
    size: int,
    seed: int = 0,
    maps_per_split: dict[str, int] | None = None,
    *,
    upto: str = SPLIT_NAMES[-1],
    allow_any_size: bool = False,
    map_fn=map,
) -> dict[str, list[MapPlan]]:
    """The deduplicated maps of every split up to ``upto`` (in train, val, test_id, test_ood order).

    ``map_fn`` (e.g. an executor's ``map``) draws the first attempt of every map
    in parallel; deduplication then runs in order, drawing later attempts for
    the (few) repeated layouts. The result does not depend on ``map_fn``.
    """
    domain, size = _check_domain_size(domain, size, allow_any_size)
    check_split(upto)
    splits = SPLIT_NAMES[: SPLIT_NAMES.index(upto) + 1]
    first_args = [(domain, size, sp, m, 0, seed) for sp in splits for m in range(maps_for(sp, maps_per_split))]
    first = dict(zip([(a[2], a[3]) for a in first_args], map_fn(_draw_map, first_args)))
    seen: set[str] = set()
    out: dict[str, list[MapPlan]] = {}
    for split in splits:
        maps = []
        for m in range(maps_for(split, maps_per_split)):
            for attempt in range(MAX_MAP_ATTEMPTS):
                g = first[(split, m)] if attempt == 0 else _draw_map((domain, size, split, m, attempt, seed))
                if g is None:  # a train draw whose plan cannot fit: plan_fits would reject it
                    continue
                key = layout_key(g.state)
                if key not in seen and answer_space_ok(g.state) and plan_fits(split, size, g):
                    seen.add(key)
                    maps.append(MapPlan(domain, size, split, m, attempt, g))
                    break
            else:
                raise DatasetError(
                    f"{domain} {size}x{size} {split}: no new map after {MAX_MAP_ATTEMPTS} draws for map {m}; "
                    "the generator has too few distinct layouts for this many maps"
                )
        out[split] = maps
    return out


# --------------------------------------------------------------------------- instances


@dataclass
class Step:
    index: int  # 1-based
    action: int
    action_text: str
    applicable: bool
    state: dict
    state_text: str
    z_text: str
    reasoning: str  # c_i^z
    reasoning_visual: str  # c_i^v
    keywords: list[dict]
    labels: list[list[str]]


@dataclass
class Instance:
    id: str
    domain: str
    size: int
    split: str
    distribution: str
    map_index: int
    seq_index: int
    sequence_kind: str  # "plan" or "random"
    problem: Problem
    initial_state: dict
    initial_text: str
    initial_labels: list[list[str]]
    actions: list[int]  # as applied (a sequence stops at its terminal step)
    action_texts: list[str]
    drawn_length: int  # length drawn before any early stop
    ended_early: bool
    steps: list[Step]
    goal: dict
    answer: str
    choices: list[dict]
    correct: int  # index into choices (0..3 = A..D)
    task: str  # X = ⟨d, s0, v0, A⟩ with one <image> placeholder
    generator_params: dict = field(default_factory=dict)

    @property
    def states(self) -> list[dict]:
        return [self.initial_state] + [s.state for s in self.steps]

    @property
    def final_state(self) -> dict:
        return self.states[-1]

    @property
    def correct_letter(self) -> str:
        return "ABCD"[self.correct]

    @property
    def n_steps(self) -> int:
        return len(self.steps)

    def image(self, i: int, image_size: int = 256) -> np.ndarray:
        """The image v_i (i = 0: the initial state)."""
        return render_state(get_spec(self.domain), self.states[i], image_size)



class MapContext:
    """A map's engine and how its states read, shared by all its sequences."""

    def __init__(self, domain: str, size: int, problem: Problem):
        self.spec = get_spec(domain)
        self.domain = self.spec.name
        self.size = size
        self.problem = problem
        self.pddl = load_domain(self.spec.pddl)
        self.engine = self.spec.make_engine(problem)
        self.n_actions = self.spec.n_actions(size)
        self.keys = [self.spec.action_key(a, size) for a in range(self.n_actions)]
        self.texts = [self.spec.dataset_action_text(a, size) for a in range(self.n_actions)]
        self._dicts: dict = {}
        self._steps: dict = {}
        self._goal_keys: dict = {}
        self._reads: dict = {}
        self._reach: set | None = None
        self._goal_fields = self.spec.goal_fields()
        # a spec that keeps DomainSpec.is_failure has no failure states: no state dict to read for it
        self._has_failures = type(self.spec).is_failure is not DomainSpec.is_failure
        # the problem's own atoms suffice for a state dict; true_atoms adds hundreds of shared grid statics
        self._atoms_of = getattr(self.engine, "state_atoms", None) or self.engine.true_atoms

    def state_dict(self, s) -> dict:
        d = self._dicts.get(s)
        if d is None:
            d = self._dicts[s] = self.spec.state_dict(self._atoms_of(s), self.size)
        return d

    def step(self, s, a: int) -> tuple[int, bool]:
        r = self._steps.get((s, a))
        if r is None:
            r = self._steps[(s, a)] = self.engine.step(s, self.keys[a])
        return r

    def applicable(self, s) -> list[int]:
        return [a for a in range(self.n_actions) if self.step(s, a)[1]]

    def failure(self, s) -> bool:
        """The spec's ``is_failure`` on engine state ``s``."""
        return self._has_failures and self.spec.is_failure(self.state_dict(s))

    def safe(self, s) -> list[int]:
        """Applicable actions that do not lead into a failure state (the spec's ``is_failure``)."""
        out = []
        for a in range(self.n_actions):
            t, ok = self.step(s, a)
            if ok and not self.failure(t):
                out.append(a)
        return out

    def absorbing_terminal(self, s) -> bool:
        """Terminal (goal or failure) and no action applies: the sequence must stop here."""
        terminal = self.engine.is_goal(s) or self.failure(s)
        return terminal and not self.applicable(s)

    def reading(self, s) -> tuple[str, list[list[str]]]:
        """The text and label grid of engine state ``s`` (a map's sequences revisit states: read once).
        The grid is a fresh copy per call, so no two steps share lists."""
        r = self._reads.get(s)
        if r is None:
            d = self.state_dict(s)
            r = self._reads[s] = (describe(self.spec, d), label_grid(self.spec, d))
        return r[0], [row[:] for row in r[1]]

    def goal_key(self, s) -> str:
        k = self._goal_keys.get(s)  # the reachability search asks for the same states many times
        if k is None:
            d = self._dicts.get(s)
            # goal_key(goal_of(...)) without goal_of's copies: the same JSON. Most states the search
            # meets are only keyed: their goal fields alone (DomainSpec.goal_state), no state dict
            goal = self.spec.goal_state(self._atoms_of(s), self.size) if d is None else d
            k = self._goal_keys[s] = layout_json({f: goal[f] for f in self._goal_fields})
        return k

    def reachable_goals(self) -> set[str]:
        """Goal configurations some action sequence reaches (witnessed by the engine).

        Breadth-first from the initial state, keeping one engine state per
        goal configuration (so the search is bounded by the number of goal
        configurations, not of states) and stopping at :data:`REACH_CAP` of
        them. Every key returned is truly reachable; a configuration missing
        from the set may still be reachable through a state the search merged
        away or did not reach before the cap (:func:`reach_of` adds the
        sequence's own neighbourhood for that reason).
        """
        if self._reach is None:
            s0 = self.engine.initial()
            seen, front = {self.goal_key(s0)}, [s0]
            while front and len(seen) < REACH_CAP:
                nxt = []
                for s in front:
                    for a in range(self.n_actions):
                        if len(seen) >= REACH_CAP:  # capped mid-level: the rest would add nothing
                            break
                        t, ok = self.step(s, a)
                        if not ok:
                            continue
                        k = self.goal_key(t)
                        if k not in seen:
                            seen.add(k)
                            nxt.append(t)
                front = nxt
            self._reach = seen
        return self._reach

    def run(self, actions: list[int]) -> tuple[list[int], list]:
        """Replay ``actions``, stopping after an absorbing terminal state: (actions kept, engine states)."""
        s = self.engine.initial()
        states = [s]
        kept = []
        if self.absorbing_terminal(s):
            return kept, states
        for a in actions:
            s, _ = self.step(s, a)
            kept.append(a)
            states.append(s)
            if self.absorbing_terminal(s):
                break
        return kept, states


def goal_key(goal: dict) -> str:
    return layout_json(goal)  # json.dumps(goal, sort_keys=True, separators=(",", ":")), one kept encoder


def reach_of(ctx: MapContext, engine_states: list):
    """A predicate: is this goal configuration reachable on the map? (None unless the domain's
    distractors prefer reachable ones: ``DomainSpec.reachable_distractors``)

    Reachable = found by :meth:`MapContext.reachable_goals`, or one action away
    from a state of the sequence itself.
    """
    if not ctx.spec.reachable_distractors:
        return None
    keys = set(ctx.reachable_goals())
    for s in engine_states:
        keys.add(ctx.goal_key(s))
        for a in range(ctx.n_actions):
            keys.add(ctx.goal_key(ctx.step(s, a)[0]))
    return lambda choice: goal_key(choice) in keys


def random_sequence(ctx: MapContext, length: int, rng: np.random.Generator) -> list[int]:
    """Up to ``length`` random actions (see the module docstring); stops at an absorbing terminal state."""
    s = ctx.engine.initial()
    out = []
    for _ in range(length):
        safe = ctx.safe(s)
        if safe and rng.random() < P_APPLICABLE:
            a = safe[int(rng.integers(len(safe)))]
        else:
            a = int(rng.integers(ctx.n_actions))
        out.append(a)
        s, _ = ctx.step(s, a)
        if ctx.absorbing_terminal(s):
            break
    return out


def instance_id(domain: str, size: int, split: str, map_index: int, seq_index: int) -> str:
    return f"{domain}-{size}x{size}-{split}-{map_index:03d}-{seq_index}"


def build_instance(
    domain: str,
    problem: Problem,
    actions: list[int],
    *,
    split: str = "custom",
    distribution: str = "id",
    map_index: int = 0,
    seq_index: int = 0,
    sequence_kind: str = "given",
    drawn_length: int | None = None,
    correct: int = 0,
    rng: np.random.Generator | None = None,
    ctx: MapContext | None = None,
    generator_params: dict | None = None,
) -> Instance | None:
    """One instance from a problem and an action sequence (stopped early at an absorbing terminal state).

    ``correct`` is where the truth goes among the four choices, ``rng`` draws
    the distractors (default: ``default_rng(0)``). Returns None when no
    choice set satisfying A.7 exists for this sequence's final state.
    """
    spec = get_spec(domain)
    size = spec.size_of(problem)
    if isinstance(correct, bool) or not isinstance(correct, (int, np.integer)) or not 0 <= int(correct) < 4:
        raise ConfigError(f"correct must be the index of a choice, 0..3 (A..D), got {correct!r}")
    ctx = ctx or MapContext(spec.name, size, problem)
    rng = rng if rng is not None else np.random.default_rng(0)
    drawn = [spec.check_action(a, size) for a in actions]  # ActionError for "up" or 1.5, not a bare int()
    kept, engine_states = ctx.run(drawn)
    s0 = ctx.state_dict(engine_states[0])
    initial = _copy(s0)
    final = ctx.state_dict(engine_states[-1])
    goal = goal_of(spec.name, final)
    choices = build_choices(spec.name, goal, initial, int(correct), rng, reach_of(ctx, engine_states))
    if choices is None:
        return None
    steps = []
    for i, a in enumerate(kept, 1):
        s_prev, s_next = engine_states[i - 1], engine_states[i]
        key = ctx.keys[a]
        s_after, applied = ctx.engine.trace(s_prev, key)
        if s_after != s_next:
            raise DatasetError(f"{problem.name}: step {i} traced to a different state than it stepped to")
        before, after = ctx.state_dict(s_prev), ctx.state_dict(s_next)
        chain = build_chain(
            spec.name,
            ctx.pddl,
            ctx.texts[a],
            before,
            after,
            applied,
            ctx.engine.true_atoms(s_prev),
            key,
            spec.cell_kinds(before),
            spec.cell_kinds(after),
            i,
        )
        state_text, labels = ctx.reading(s_next)
        steps.append(
            Step(
                index=i,
                action=a,
                action_text=ctx.texts[a],
                applicable=bool(applied),
                state=_copy(after),
                state_text=state_text,
                z_text=prompts.z_text(i, ctx.texts[a], state_text),
                reasoning=chain.text,
                reasoning_visual=chain.visual,
                keywords=chain.keywords,
                labels=labels,
            )
        )
    initial_text, initial_labels = ctx.reading(engine_states[0])
    colours = spec.description_colours(initial)
    task = prompts.task_text(spec.name, size, initial_text, [ctx.texts[a] for a in kept], colours)
    return Instance(
        id=instance_id(spec.name, size, split, map_index, seq_index),
        domain=spec.name,
        size=size,
        split=split,
        distribution=distribution,
        map_index=map_index,
        seq_index=seq_index,
        sequence_kind=sequence_kind,
        problem=problem,
        initial_state=initial,
        initial_text=initial_text,
        initial_labels=initial_labels,
        actions=kept,
        action_texts=[ctx.texts[a] for a in kept],
        drawn_length=len(drawn) if drawn_length is None else int(drawn_length),
        ended_early=len(kept) < (len(drawn) if drawn_length is None else int(drawn_length)),
        steps=steps,
        goal=goal,
        answer=answer_text(spec.name, goal),
        choices=choices,
        correct=int(correct),
        task=task,
        generator_params=dict(generator_params or {}),
    )


def _copy(state: dict) -> dict:
    return json.loads(json.dumps(state))


def carries_plan(plan: MapPlan) -> bool:
    """Whether the map's goal-reaching plan is its first sequence (train maps whose plan fits the range)."""
    lo, hi = lengths_for(plan.size, SPLITS[plan.split].distribution)
    return plan.split == "train" and lo <= len(plan.generated.plan) <= hi


def map_instances(plan: MapPlan, seed: int, letters: list[int], lengths: list | None = None) -> list[Instance]:
    """The instances of one map: ``SPLITS[split].sequences`` sequences, ``letters[j]`` the correct choice of the j-th.

    ``lengths[j]``: the drawn length of the j-th sequence when it is random
    (:func:`split_lengths`; None entries and ``lengths=None`` draw it from
    :func:`sequence_length_probs`). A sequence redrawn many times (duplicates,
    a walk stopping early below the minimum) falls back to that law too.
    """
    split = SPLITS[plan.split]
    dist = split.distribution
    lo, hi = lengths_for(plan.size, dist)
    rng = rng_for(seed, plan.domain, plan.size, plan.split, KEY_SEQ, plan.index)
    ctx = MapContext(plan.domain, plan.size, plan.problem)
    g = plan.generated
    params = {**g.params, "plan_length": len(g.plan), "plan_optimal": g.plan_optimal, "map_attempt": plan.attempt}
    out: list[Instance] = []
    seen: set[tuple] = set()
    use_plan = carries_plan(plan)
    probs = sequence_length_probs(plan, len(g.plan) if use_plan else None)
    for j, correct in enumerate(letters):
        for attempt in range(MAX_SEQUENCE_ATTEMPTS):
            if j == 0 and use_plan and attempt == 0:
                kind, actions = "plan", list(g.plan)
                drawn = len(actions)
            else:
                given = lengths[j] if lengths is not None else None
                if given is not None and attempt < MAX_SEQUENCE_ATTEMPTS // 2:
                    drawn = int(given)
                else:
                    drawn = lo + int(rng.choice(len(probs), p=probs))
                kind, actions = "random", random_sequence(ctx, drawn, rng)
            kept, _ = ctx.run(actions)
            if tuple(kept) in seen or len(kept) < lo:
                continue
            inst = build_instance(
                plan.domain,
                plan.problem,
                actions,
                split=plan.split,
                distribution=dist,
                map_index=plan.index,
                seq_index=j,
                sequence_kind=kind,
                drawn_length=drawn,
                correct=correct,
                rng=rng,
                ctx=ctx,
                generator_params={**params, "sequence_attempts": attempt + 1},
            )
            if inst is None:
                continue
            seen.add(tuple(kept))
            out.append(inst)
            break
        else:
            raise DatasetError(
                f"{plan.problem.name}: no new valid action sequence after {MAX_SEQUENCE_ATTEMPTS} draws"
            )
    return out


def sequence_length_probs(plan: MapPlan, plan_length: int | None) -> np.ndarray:
    """The law of a random sequence's drawn length on Table 5's range, for one map.

    Mean: the one Table 5's counts imply for the split
    (:func:`~svot.dataset.spec.implied_mean_length`), raised by
    :func:`~svot.dataset.spec.early_stop_allowance` where sequences can stop early
    (``DomainSpec.early_stop_allowance``); on a train map whose plan is one of its sequences, the random
    ones make up the plan's difference so that the map's mean stays on target.
    Law: the maximum-entropy one with that mean (:func:`~svot.dataset.spec.length_probs`).
    """
    lo, hi = lengths_for(plan.size, SPLITS[plan.split].distribution)
    mean = implied_mean_length(plan.domain, plan.size, plan.split)
    if mean is not None:
        mean += early_stop_allowance(plan.domain, plan.size, SPLITS[plan.split].distribution)
        if plan_length is not None:
            n = SPLITS[plan.split].sequences
            mean = (n * mean - plan_length) / (n - 1)
    return length_probs(lo, hi, mean)


def split_lengths(seed: int, plans: list[MapPlan]) -> list[list[int | None]]:
    """Per map, the drawn lengths of its random sequences (None where the map's plan goes).

    Like the correct letters, lengths are balanced over the whole split rather
    than drawn independently: the split's random sequences take the lengths
    ``lo..hi`` in the proportions of :func:`~svot.dataset.spec.length_probs`
    (largest-remainder rounding), shuffled by the split's seed. The law's mean
    is set so that the split's mean *kept* length, plans included, is the one
    Table 5's count implies (:func:`~svot.dataset.spec.implied_mean_length`,
    plus :func:`~svot.dataset.spec.early_stop_allowance` per random sequence
    where sequences stop early). So a 60-instance split lands on its Table 5
    count instead of scattering around it by sampling noise (±3-5 %).
    """
    if not plans:
        return []
    p0 = plans[0]
    split = SPLITS[p0.split]
    lo, hi = lengths_for(p0.size, split.distribution)
    slots = [[None if (j == 0 and carries_plan(pl)) else 0 for j in range(split.sequences)] for pl in plans]
    n_random = sum(x is not None for row in slots for x in row)
    mean = implied_mean_length(p0.domain, p0.size, p0.split)
    if mean is not None and n_random:
        total = mean * len(plans) * split.sequences - sum(len(pl.generated.plan) for pl in plans if carries_plan(pl))
        mean = total / n_random + early_stop_allowance(p0.domain, p0.size, split.distribution)
    probs = length_probs(lo, hi, mean)
    raw = probs * n_random
    counts = np.floor(raw).astype(int)
    for i in np.argsort(-(raw - counts), kind="stable")[: n_random - int(counts.sum())]:
        counts[i] += 1
    pool = np.repeat(np.arange(lo, hi + 1), counts)
    rng_for(seed, p0.domain, p0.size, p0.split, KEY_LENGTHS).shuffle(pool)
    it = iter(int(x) for x in pool)
    return [[None if x is None else next(it) for x in row] for row in slots]


def split_letters(seed: int, domain: str, size: int, split: str, maps: int) -> list[list[int]]:
    """Per map, the correct-choice indices of its sequences (balanced over the whole split)."""
    n_seq = SPLITS[split].sequences
    flat = correct_letters(seed, domain, size, split, maps * n_seq)
    return [flat[m * n_seq : (m + 1) * n_seq] for m in range(maps)]


def iter_split(
    domain: str,
    size: int,
    split: str,
    seed: int = 0,
    maps_per_split: dict[str, int] | None = None,
    *,
    allow_any_size: bool = False,
) -> Iterator[Instance]:
    """The instances of one split, built lazily map by map (the maps are drawn first)."""
    check_split(split)
    plans = plan_maps(domain, size, seed, maps_per_split, upto=split, allow_any_size=allow_any_size)[split]
    letters = split_letters(seed, plans[0].domain if plans else domain, size, split, len(plans))
    for plan, lt, ln in zip(plans, letters, split_lengths(seed, plans)):
        yield from map_instances(plan, seed, lt, ln)

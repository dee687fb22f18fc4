"""DomainSpec: what the env, renderer and dataset need to know about one domain.

The dynamics live in the PDDL file; a spec only says how to build a problem
from a layout, how to read a state dict back from ground atoms, which object
kinds sit in which cell, and how agent actions map to PDDL action literals.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Mapping

import numpy as np

from svot.kernel import grid
from svot.kernel.distractors import generic_pools, generic_problems, same_line
from svot.kernel.grid import DIRECTIONS, Cell
from svot.kernel.phrases import (
    ADJ,
    FORMATS,
    Phrase,
    answer_line,
    answer_value,
    coordinates_text,
    effect_field,
    effect_value,
    generic_conclusion,
    generic_operator_text,
    literal_text,
    question_clause,
)
from svot.errors import ActionError, ConfigError, ProblemError
from svot.pddl import load_domain
from svot.pddl.domain import Operator
from svot.pddl.problem import Atom, Problem
from svot.engine import make_engine
from svot.engine.grounded import SharedGroundedEngine, shared_grounding


@dataclass(frozen=True)
class Field:
    """One line of the state description: ``<label>: <value>``.

    ``kind`` is one of: ``cell``, ``cells``, ``int``, ``word``, ``colour_cells``,
    ``colour_counts``.
    """

    key: str
    label: str
    kind: str


# What the generic description says of the grid's adjacency predicate (svot.kernel.grid).
ADJ_MEANING = " and (adj ?a ?dir ?b) that cell ?b is next to cell ?a in direction ?dir, inside the grid"

# A spec may declare its domain's ``look`` and ``wording`` modules (svot/domains/<name>/look.py and
# wording.py) instead of forwarding each of their names by hand. What such a module may define, and
# which hook of the spec each name becomes (a name the spec's class body sets itself wins):
#: look: values that become spec attributes.
LOOK_VALUES = {
    "FLOOR": "floor",
    "FLOOR_SHEEN": "floor_sheen",
    "SPRITES": "sprites",
    "LABEL_COMBOS": "label_combos",
    "ANSI_CHARS": "ansi_chars",
    "EMPTY_CELL_NAME": "empty_cell_name",
}
#: wording: values that become spec attributes.
WORDING_VALUES = {"PHRASES": "phrases", "CONCLUSIONS": "conclusions", "KIND_WORDS": "kind_words", "SILENT": "silent_predicates"}
#: wording: values that the spec's hook method returns.
WORDING_ANSWERS = {"GOAL_FIELDS": "goal_fields", "QUESTION": "question", "ANSWER_FORMAT": "answer_format"}
#: wording: functions that are the spec's hook method of the same name, with its parameters (no ``self``).
WORDING_HOOKS = ("describe", "effect_clauses", "distractor_pools", "is_partial", "choice_problems", "min_plan_length")


def _answer_hook(name: str, value):
    def hook(self):
        return value

    hook.__name__ = hook.__qualname__ = name
    hook.__doc__ = getattr(DomainSpec, name).__doc__
    return hook


def _module_hook(spec: type, module: ModuleType, name: str):
    """The module's function ``name`` as the spec's hook, once its parameters are checked against the hook's."""
    fn = vars(module)[name]
    want = list(inspect.signature(getattr(DomainSpec, name)).parameters)[1:]
    got = list(inspect.signature(fn).parameters)
    if got != want:
        raise TypeError(
            f"{module.__name__}.{name}({', '.join(got)}) cannot be {spec.__name__}.{name}: "
            f"a wording hook takes ({', '.join(want)})"
        )
    return staticmethod(fn)


class DomainSpec:
    """Base class; subclasses fill the class attributes and the layout hooks.

    ``look`` and ``wording``, where a subclass sets them, are its domain's modules: the names they
    define from :data:`LOOK_VALUES`, :data:`WORDING_VALUES`, :data:`WORDING_ANSWERS` and
    :data:`WORDING_HOOKS` become the spec's attributes and hooks (see ``__init_subclass__``).
    """

    look: ClassVar[ModuleType | None] = None
    wording: ClassVar[ModuleType | None] = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        look, wording = own.get("look"), own.get("wording")
        names = {} if look is None else vars(look)
        for key, attr in LOOK_VALUES.items():
            if key in names and attr not in own:
                setattr(cls, attr, names[key])
        names = {} if wording is None else vars(wording)
        for key, attr in WORDING_VALUES.items():
            if key in names and attr not in own:
                setattr(cls, attr, names[key])
        for key, hook in WORDING_ANSWERS.items():
            if key in names and hook not in own:
                setattr(cls, hook, _answer_hook(hook, names[key]))
        for hook in WORDING_HOOKS:
            if hook in names and hook not in own:
                setattr(cls, hook, _module_hook(cls, wording, hook))

    name: ClassVar[str]
    title: ClassVar[str]
    pddl: ClassVar[str]
    sizes: ClassVar[tuple[int, ...]]
    internal: ClassVar[tuple[str, ...]] = ()
    kinds: ClassVar[tuple[str, ...]]  # object kinds, bit i of the observation = kinds[i]
    fields: ClassVar[tuple[Field, ...]]
    # The values a ``word`` field can take (field key -> words), which the lenient text parser
    # (svot.render.text) accepts; a word field not listed takes any word.
    word_values: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    # Invariants PDDL cannot state: predicates true of exactly one object in every state ->
    # what that object is. An env refuses a problem that breaks one (svot.envs.problem_check).
    unique_predicates: ClassVar[dict[str, str]] = {"at": "the player's cell"}

    # --- actions ----------------------------------------------------------------
    def n_actions(self, size: int) -> int:
        return 4

    def action_key(self, action: int, size: int) -> tuple:
        return ("move", DIRECTIONS[action])

    def action_text(self, action: int, size: int) -> str:
        return f"move {DIRECTIONS[action]}"

    def parse_action(self, text: str, size: int) -> int:
        words = " ".join(str(text).lower().replace("_", " ").split())
        for a in range(self.n_actions(size)):
            if words in (self.action_text(a, size), self.action_text(a, size).removeprefix("move ")):
                return a
        raise ActionError(
            f"cannot read action {text!r} for {self.name}; expected e.g. {self.action_text(0, size)!r}"
        )

    def check_action(self, action: Any, size: int) -> int:
        n = self.n_actions(size)
        try:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
                    action = int(action)
                else:
                    raise TypeError
        except TypeError:
            raise ActionError(f"{self.name} actions are integers in 0..{n - 1}, got {action!r} ({type(action).__name__})") from None
        if not 0 <= int(action) < n:
            raise ActionError(f"{self.name} action {int(action)} is out of range 0..{n - 1}")
        return int(action)

    # --- problems ------------------------------------------------------------------
    def check_size(self, size: int, allow_any: bool = False) -> int:
        if not isinstance(size, int) or size < 2 or (not allow_any and size not in self.sizes):
            raise ConfigError(
                f"{self.name} has no size {size!r}; Table 5 sizes are {', '.join(map(str, self.sizes))}"
            )
        return size

    def base_objects(self, size: int) -> list[tuple[str, str]]:
        return grid.grid_objects(size)

    def base_atoms(self, size: int) -> list[Atom]:
        return grid.adjacency_atoms(size)

    def _per_size(self, what, size: int, build):
        """``build()`` once per (what, size) for this spec: the grid atoms are the same for every problem."""
        cache = self.__dict__.setdefault("_size_cache", {})
        value = cache.get((what, size))
        if value is None:
            value = cache[(what, size)] = build()
        return value

    def problem(self, size: int, name: str, init: list[Atom], goal: list[Atom], objects=None) -> Problem:
        objs = self._per_size("objects", size, lambda: tuple(self.base_objects(size))) if objects is None else tuple(objects)
        base = self._per_size("atoms", size, lambda: frozenset(self.base_atoms(size)))
        return Problem(domain=self.name, name=name, objects=objs, init=base | frozenset(init), goal=tuple(sorted(goal)))

    def make_engine(self, problem: Problem, kind: str = "grounded"):
        """An engine for ``problem``.

        ``"grounded"`` binds the problem to the grounding every problem of its
        size shares (:func:`svot.engine.grounded.shared_grounding`: grid statics
        folded, walls/holes/goals as bits), so nothing is grounded per problem;
        a problem with other objects or grid atoms gets its own
        :class:`~svot.engine.GroundedEngine`. ``"pddlgym"`` is the reference.
        """
        domain = load_domain(self.pddl)
        if kind == "grounded" and domain.unsupported is None:
            # the grounding of the last objects tuple seen (a generated problem's objects are the
            # size's one tuple, so a reset skips counting its cells)
            last = self.__dict__.get("_last_grounding")
            if last is not None and last[0] is problem.objects and last[1] is domain:
                shared = last[2]
            else:
                size = self.size_of(problem)
                shared = self._per_size(
                    ("grounding", domain),
                    size,
                    lambda: shared_grounding(
                        domain,
                        self.base_objects(size),
                        # the very atom objects this spec's problems hold: set differences then match by identity
                        [a for a in self._per_size("atoms", size, lambda: frozenset(self.base_atoms(size)))
                         if a[0] in domain.static_predicates],
                        self.internal,
                    ),
                )
                if type(problem.objects) is tuple:
                    self.__dict__["_last_grounding"] = (problem.objects, domain, shared)
            try:
                return SharedGroundedEngine(shared, problem)
            except ProblemError:
                pass
        return make_engine(kind, domain, problem, self.internal)

    def size_of(self, problem: Problem) -> int:
        return int(round(len(problem.objects_of("cell")) ** 0.5))

    def problem_from_state(self, state: dict, name: str) -> Problem:
        """The PDDL problem whose initial state is ``state`` (the inverse of :meth:`state_dict`).

        Generation, solving and ``reset(options={"problem": state})`` build problems with it;
        :meth:`problem` adds the atoms every problem of the size shares.
        """
        raise NotImplementedError

    # --- reading states ----------------------------------------------------------
    def state_dict(self, atoms, size: int) -> dict:
        """The state dict from the true atoms (any iterable of atom tuples).

        It must read only the problem's own atoms (``at``, ``wall``, ``ball``...):
        engines may leave out the grid statics all problems of a size share
        (``adj``, ``ray``).
        """
        raise NotImplementedError

    def goal_state(self, atoms, size: int) -> dict:
        """instance: the goal fields of :meth:`state_dict` (:meth:`goal_fields`, in its order), and only them.

        The datasets' distractor search keys hundreds of states per map by their goal configuration
        alone. The default builds the whole state dict; a domain whose goal fields cost much less
        than the rest of it (e.g. counts collected and the player) builds just
        those. It must give what the default gives (a test reads both on every registered domain).
        """
        d = self.state_dict(atoms, size)
        return {k: d[k] for k in self.goal_fields()}

    def cell_kinds(self, state: dict) -> dict[Cell, set[str]]:
        """Which kinds occupy each cell (cells with none are absent)."""
        raise NotImplementedError

    def is_failure(self, state: dict) -> bool:
        """A terminal state that is not the goal (e.g. a hole, absorbing in the PDDL)."""
        return False

    # The same verdict as is_failure, as atoms: a state is a failure exactly when, for some object,
    # every atom of the pattern holds with ``?x`` bound to it (e.g. ``(("at", "?x"), ("hole", "?x"))``).
    # Optional: the env then tests state bits instead of building a state dict
    # (svot.envs.failure; tests/envs/test_failure_atoms.py holds it equal to is_failure).
    failure_atoms: ClassVar[tuple[tuple[str, str], ...]] = ()

    # --- envs and rendering: sprites, ANSI characters, labels ------------------------------------
    # (a domain's env classes are its folder's env.py, bound to the registry by svot.domains)
    # predicates whose other argument is the kind they draw: (item-at ?c key) draws the kind "key"
    kind_argument_predicates: ClassVar[frozenset[str]] = frozenset()
    # RuleMaze: the scenario object (svot.rulemaze.scenario.Scenario) of a domain whose mazes carry
    # rules, or None. Typed loosely: the RuleMaze layer sits above the domains and checks the protocol.
    rulemaze_scenario: ClassVar[Any] = None

    def atom_kind_names(self, pred: str, rest: list[str]) -> list[str]:
        """The kinds an atom of ``pred`` may draw in its cell, most specific first (``rest``: its other arguments).

        svot.envs.observation reads the observation grid straight off the engine's state bits,
        one atom per (cell, kind), found by these names and checked against ``cell_kinds``. The
        default reads predicate names: ``(at ?c)`` draws ``player``, ``(p ?c)`` kind ``p``,
        ``(p ?c x)`` kind ``p_x`` (else ``p``), and a predicate of ``kind_argument_predicates``
        the kind its argument names. A kind no atom draws (a wall that is the absence of a
        passage) must stay as it is within an episode: the envs take it from the spec's grid of
        the episode's first state.
        """
        if pred in self.kind_argument_predicates:
            return list(rest)
        names = ["_".join([pred, *rest])] if rest else []
        names.append("player" if pred == "at" else pred)
        return names

    # svot.render.sprites: the floor (background) colour of every cell, whether empty cells carry
    # a faint ice sheen, and the sprite each kind is drawn with (kind -> sprite name of the
    # renderer's library: "player", "wall", "crate", "target", "flag", "gift", "coin", "hole",
    # "start", "ball_<colour>"). A kind not listed draws the library sprite of its own name if
    # there is one (so "player" and "wall" need no entry; "block" is a crate and "goal" a flag),
    # else a generic shape of its own.
    floor: ClassVar[tuple[int, int, int]] = (230, 230, 230)
    floor_sheen: ClassVar[bool] = False
    sprites: ClassVar[dict[str, str]] = {}

    # svot.render.labels: which kinds may share a cell, as labels ("player+goal"); every single
    # kind may occur alone. None: the player with every other kind.
    label_combos: ClassVar[tuple[str, ...] | None] = None

    # svot.render.ansi: the text-grid character of each label, and the legend's word for an empty
    # cell. A label with no character here takes the one another registered domain gives it (a
    # character means the same everywhere), else the first free letter of its kinds.
    ansi_chars: ClassVar[dict[str, str]] = {}
    empty_cell_name: ClassVar[str] = "empty"

    def kinds_at(self, size: int) -> tuple[str, ...]:
        """The kinds that can appear at ``size`` (svot.render.labels' label vocabulary)."""
        return tuple(self.kinds)

    def random_state(self, size: int, rng, density: float | None) -> dict:
        """A random valid-looking state dict (svot.render.samples.random_state, for tests and benchmarks).

        ``rng`` is a :class:`numpy.random.Generator`; ``density`` the share of free cells
        holding obstacles or items (None: drawn from ``rng``). Not checked for solvability.
        """
        raise ConfigError(
            f"random_state knows no domain {self.name!r}: its DomainSpec defines no random_state(size, rng, density)"
        )

    # --- generation and solving: the Table 5 row ----------------------------------------------------
    # Read by svot.problem_gen. The sampler and the solver are not the spec's: they import it, and a
    # GridDomain (svot.kernel.domain) binds the three.

    # Table 5's sampling parameters (ID and OOD values: densities, counts), as data; the sizes are
    # ``sizes``. svot.domains.PARAMS[name] is {"sizes": sizes, **table5}. A new domain has none.
    table5: ClassVar[dict[str, Any]] = {}

    # True when the sampler can tell a layout solvable without a plan (its own check, no obstacles, or
    # a search asked only for its verdict): svot.problem_gen.generate(..., plan=False) then leaves the
    # plan to be computed when asked for. False: generate always plans.
    plan_optional: ClassVar[bool] = False

    def item_layout(self, size: int, player: Cell, items: list[Cell]) -> dict:
        """A state dict with the player on ``player`` and one item on each of ``items``.

        For collect-everything domains (a move sweeps the items on the cells it
        crosses): :func:`svot.problem_gen.optimal.move_table` probes the engine's
        moves from such layouts. No default: other domains have no items.
        """
        raise ConfigError(f"domain {self.name!r} has no item_layout hook: svot.problem_gen.optimal's move table needs it")

    def item_cells(self, state: dict) -> list[Cell]:
        """The cells of the items left in ``state`` (see :meth:`item_layout`)."""
        raise ConfigError(f"domain {self.name!r} has no item_cells hook: svot.problem_gen.optimal's move table needs it")

    # --- the dataset: wording, distractor rules, Table 5 prediction counts -------------------------
    # Read by svot.dataset. The defaults derive generic words from the PDDL predicate and operator
    # names, the kinds and the fields, so a domain registered from outside builds datasets as it is;
    # the built-in domains override them with their own words (svot/domains/<name>/wording.py).

    #: transitions: how a precondition predicate reads (predicate -> Phrase); a predicate not
    #: listed reads from its name (:func:`svot.kernel.phrases.generic_phrase`).
    phrases: ClassVar[Mapping[str, Phrase]] = {"adj": ADJ}
    #: transitions: predicates a chain never states (the player's own position, bookkeeping).
    silent_predicates: ClassVar[frozenset[str]] = frozenset({"at"})
    #: transitions: what the agent's operator does when it applies, by operator name, formatted
    #: with its parameters by name (``{to}``); an operator not listed is read off its effects.
    conclusions: ClassVar[Mapping[str, str]] = {}
    #: transitions (c^v): how a kind is named when it leaves or enters a cell; others: its name.
    kind_words: ClassVar[Mapping[str, str]] = {"player": "the player"}
    #: instance: whether distractors prefer goal configurations some action sequence reaches
    #: (issue 14: A.7's "all candidates valid" read as "reachable").
    reachable_distractors: ClassVar[bool] = False
    #: spec: Table 5's prediction counts, size -> split -> count (empty: not in Table 5).
    table5_predictions: ClassVar[Mapping[int, Mapping[str, int]]] = {}
    #: instance: how much longer a random sequence's drawn length must be than the kept one,
    #: (size, distribution) -> mean shortfall, for domains whose sequences stop early (issue 14).
    early_stop_allowance: ClassVar[Mapping[tuple[int, str], float]] = {}

    def goal_fields(self) -> tuple[str, ...]:
        """wording/choices: the state fields the goal g asks for (SVoT §4), in answer order.

        Default: the player, then every ``cells`` field named after a predicate the
        actions change (``lit`` for the lamps' ``(lit ?c)``; ``blocks`` for ``(block ?c)``).
        """
        changing = load_domain(self.pddl).fluent_predicates
        keys = [f.key for f in self.fields if f.kind == "cells" and (f.key in changing or f.key.removesuffix("s") in changing)]
        return ("player", *keys)

    def dataset_action_text(self, action: int, size: int) -> str:
        """instance: how the datasets write an action (default: as the envs do)."""
        return self.action_text(action, size)

    def describe(self, size: int, colours: tuple[str, ...] = ()) -> str:
        """prompts: the domain description d (objects, actions, preconditions, effects).

        Default: the kinds, the actions and each operator's PDDL preconditions and effects.
        """
        domain = load_domain(self.pddl)
        actions = ", ".join(self.action_text(a, size) for a in range(self.n_actions(size)))
        literals = sorted({literal_text(*op.action) for op in domain.operators})
        ops = "\n".join(generic_operator_text(op) for op in domain.operators)
        return (
            f"{self.title} on a {size}x{size} grid. Object kinds on the grid: "
            f"{', '.join(self.kind_word(k) for k in self.kinds)}.\n{coordinates_text(size)}\n"
            f"Actions: {actions}. An action is the PDDL literal {' or '.join(literals)}, its arguments "
            "the action's words; it applies the operator whose preconditions hold, (at ?c) meaning that "
            f"the player is on cell ?c{ADJ_MEANING if 'adj' in domain.predicates else ''}:\n{ops}\n"
            "If no operator's preconditions hold, the action is not applicable and nothing changes."
        )

    def description_colours(self, state: dict) -> tuple[str, ...]:
        """prompts: the colours :meth:`describe` names for a map (its coloured items); default none."""
        return ()

    def question(self) -> str:
        """prompts: the goal question (default: one clause per goal field, by its kind)."""
        clauses = [question_clause(self.field_named(k)) for k in self.goal_fields()]
        what = ", ".join(clauses[:-1]) + " and " + clauses[-1] if len(clauses) > 1 else clauses[0]
        return f"After all the actions, {what}?"

    def answer_format(self) -> str:
        """prompts: the form of a free-response answer (see :meth:`answer_text`)."""
        return answer_line([(self.field_named(k), FORMATS.get(self.field_named(k).kind, "<value>")) for k in self.goal_fields()])

    def answer_text(self, goal: dict) -> str:
        """wording: the free-response answer, e.g. ``Player: (1, 2); blocks: (2, 2), (3, 3)``."""
        return answer_line([(self.field_named(k), answer_value(self.field_named(k).kind, goal[k])) for k in self.goal_fields()])

    def field_named(self, key: str) -> Field:
        """The :class:`Field` with this key (ConfigError naming the domain if there is none)."""
        for f in self.fields:
            if f.key == key:
                return f
        raise ConfigError(f"{self.name} has no state field {key!r}; its fields are {', '.join(f.key for f in self.fields)}")

    def conclusion(self, op: Operator, binding: dict) -> str:
        """transitions: what the applied operator does, its parameters formatted (``{"to": "(1, 2)"}``)."""
        template = self.conclusions.get(op.name)
        return generic_conclusion(op, binding) if template is None else template.format(**binding)

    def kind_word(self, kind: str) -> str:
        """transitions (c^v): a kind in words (``a wall``)."""
        return self.kind_words.get(kind, kind.replace("_", " "))

    def effect_clauses(self, before: dict, after: dict, applied: list, add) -> list[str]:
        """transitions: the domain's effect clauses after the player's; ``add(field, value)`` records a
        keyword and returns the value. Default: each field other than the player that changed."""
        out = []
        for f in self.fields:
            if f.key != "player" and before.get(f.key) != after.get(f.key):
                out.append(f"{f.label.lower()}: {add(effect_field(f.label), effect_value(f.kind, after[f.key]))}")
        return out

    def distractor_pools(self, truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
        """choices: (partially correct, other) valid distractors of a goal ``truth``, in a fixed order."""
        return generic_pools({k: self.field_named(k).kind for k in self.goal_fields()}, truth, initial)

    def is_partial(self, truth: dict, choice: dict, initial: dict | None = None) -> bool:
        """choices: whether a distractor (not the truth) is partially correct: one field right
        (a one-field answer: a cell that keeps one coordinate)."""
        fields = self.goal_fields()
        if len(fields) == 1:
            return self.field_named(fields[0]).kind == "cell" and same_line(truth, choice, fields[0])
        return any(choice[f] == truth[f] for f in fields)

    def choice_problems(self, truth: dict, choice: dict, initial: dict) -> list[str]:
        """choices: how a distractor breaks the domain's validity rules, beyond the player's cell."""
        kinds = {k: self.field_named(k).kind for k in self.goal_fields() if k != "player"}
        return generic_problems(kinds, truth, choice, initial)

    def min_plan_length(self, params: dict) -> int:
        """instance: a lower bound on a goal-reaching plan's length for these generator parameters."""
        return 1

    # --- scoring: what svot.metrics asks of a domain -----------------------------------------------------

    # svot.metrics.state: the fields of P(z) the state reward r_z counts by default (the action and
    # every state field that can change; None: "action" and every field), and the state fields
    # left out of them because no action changes them.
    state_fields: ClassVar[tuple[str, ...] | None] = None
    constant_fields: ClassVar[tuple[str, ...]] = ()


#: What a spec must set itself: the class attributes without a default, and the hooks whose base
#: version only raises. Every other hook above has a default that works for any grid domain.
REQUIRED_ATTRIBUTES = ("name", "title", "pddl", "sizes", "kinds", "fields")
REQUIRED_HOOKS = ("problem_from_state", "state_dict", "cell_kinds")


def check_spec(spec: DomainSpec) -> None:
    """Refuse a spec that leaves out a required piece or sets one of the wrong shape.

    :func:`svot.domains.register` calls it, so that a new domain fails at registration,
    with every missing name in one message, rather than deep inside an env or an export.
    """
    cls = type(spec)
    where = f"{cls.__module__}.{cls.__qualname__}"
    if not isinstance(spec, DomainSpec):
        raise ConfigError(f"a domain spec must be a svot.kernel.DomainSpec instance, got {where}")
    missing = [a for a in REQUIRED_ATTRIBUTES if not hasattr(spec, a)]
    missing += [f"{h}()" for h in REQUIRED_HOOKS if getattr(cls, h) is getattr(DomainSpec, h)]
    if missing:
        raise ConfigError(f"{where} does not set {', '.join(missing)}: every DomainSpec must (svot.kernel.spec)")
    problems = []
    if not isinstance(spec.name, str) or not spec.name or spec.name != spec.name.lower():
        problems.append(f"name {spec.name!r} must be a non-empty lower-case string (the registry key)")
    if not isinstance(spec.title, str) or not spec.title:
        problems.append(f"title {spec.title!r} must be a non-empty string")
    if not isinstance(spec.sizes, tuple) or not spec.sizes or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 2 for n in spec.sizes
    ):
        problems.append(f"sizes {spec.sizes!r} must be a non-empty tuple of integers >= 2")
    if not isinstance(spec.kinds, tuple) or not all(isinstance(k, str) and k for k in spec.kinds) \
            or len(set(spec.kinds)) != len(spec.kinds):
        problems.append(f"kinds {spec.kinds!r} must be a tuple of distinct non-empty strings")
    if not isinstance(spec.fields, tuple) or not all(isinstance(f, Field) for f in spec.fields):
        problems.append("fields must be a tuple of svot.kernel.Field")
    elif len({f.key for f in spec.fields}) != len(spec.fields):
        problems.append(f"field keys {[f.key for f in spec.fields]} must be distinct")
    if problems:
        raise ConfigError(f"{where}: " + "; ".join(problems))


def player_of(atoms) -> Cell:
    for a in atoms:
        if a[0] == "at":
            return grid.parse_cell(a[1])
    raise ValueError("state has no (at ?c) atom")


def cells_of(atoms, pred: str) -> list[list[int]]:
    return grid.sorted_cells(grid.parse_cell(a[1]) for a in atoms if a[0] == pred)


def add_kind(out: dict, cell, kind: str) -> None:
    out.setdefault(tuple(cell), set()).add(kind)

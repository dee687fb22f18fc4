"""Transition reasoning chains c_i, derived from what the engine did.

For one step the engine's :meth:`~svot.engine.GroundedEngine.trace` says which
ground actions applied (none when the move is inapplicable). From that:

* **applicable**: the chosen operator's preconditions, instantiated with its
  binding, are listed in words (grouped by cell), followed by its effect and the
  state changes read off the state dicts before and after;
* **inapplicable**: :func:`diagnose` joins every operator whose action literal
  matches against the true atoms (static ones included), precondition by
  precondition, and reports the candidate that got furthest and the
  precondition it failed on (e.g. a ``push`` operator failing ``(not (wall
  ?beyond))``). That failure names the reason (``blocked_by``: edge, wall,
  block, hole, goal) through the domain's phrase table (``DomainSpec.phrases``,
  from ``svot/domains/<name>/wording.py``; a predicate it does not list reads
  from its name, :func:`svot.kernel.phrases.generic_phrase`).

Every chain comes with its keyword fields, a list of ``{"field", "value"}``
dicts; each value occurs verbatim in the chain text. Templates (stable, so a
scorer can also parse predictions by field):

* ``The player is at {player_before} and the action is {action}.``
* ``{checks}, so the action applies: {conclusion}.`` or
  ``{checks}, but {failure}, so the action is not applicable and nothing changes.``
* ``Player position changes to {player_after}`` / ``Player position remains {player_after}``
* then the domain's effect clauses (``DomainSpec.effect_clauses``; by default
  ``<field>: {<field>_after}`` for each field other than the player that changed):
* e.g. a ``cells`` field: ``block positions change: {block_pushed_from} → {block_pushed_to}`` /
  ``block positions remain the same``
* a tile and status: ``tile: {tile_after}; status: {status_after}``
* eaten items: ``the coin at {coin_eaten_at} is eaten`` / ``no coin is eaten``, ``collected coins: {collected_after} of N``
* coloured collections: ``the player collects {balls_collected}`` in the paper's words (§5:
  "collects 1 red ball and 1 blue ball"; ``no ball``) and
  ``collected so far: {collected_<colour>}, ...`` with values such as ``red 1``.

Fields: ``action``, ``player_before``, ``applicable`` (``applies`` / ``not
applicable``), ``blocked_by`` and ``blocked_cell`` (inapplicable only), one
``pre <object> (r, c)`` per object precondition stated (§3: "P(c_i) contains
keywords extracted from action preconditions and effects"; values such as
``has no block`` / ``is a wall``, :data:`~svot.dataset.wording.PRECONDITION_WORDS`),
``player_after``, then the domain's effect fields above.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from svot.dataset.wording import PRECONDITION_WORDS, fmt_arg, fmt_cell, phrase, precondition_field
from svot.domains import get_spec
from svot.pddl.domain import Domain, Operator, match_atom


@dataclass(frozen=True)
class Check:
    """One precondition as evaluated: ground arguments (None where unbound), polarity, outcome."""

    pred: str
    args: tuple
    positive: bool
    holds: bool


@dataclass
class Diagnosis:
    """The operator that explains a step and its preconditions, in the order checked.

    For an applicable step every check holds; otherwise the last one fails.
    """

    op: str
    binding: dict
    checks: list[Check]
    applicable: bool

    @property
    def failure(self) -> Check | None:
        return None if self.applicable or not self.checks else self.checks[-1]


# --------------------------------------------------------------------------- diagnosis


def _index(atoms) -> dict[str, list[tuple]]:
    by: dict[str, list[tuple]] = {}
    for a in atoms:
        by.setdefault(a[0], []).append(tuple(a[1:]))
    for v in by.values():
        v.sort()
    return by


def _ground(args: tuple, binding: dict) -> tuple:
    return tuple(binding.get(v) if v.startswith("?") else v for v in args)


def _bind_literal(op: Operator, key: tuple) -> dict | None:
    pred, args = op.action
    if pred != key[0] or len(args) != len(key) - 1:
        return None
    return match_atom(args, key[1:], {})


def _operator(domain: Domain, op_name: str) -> Operator:
    return next(o for o in domain.operators if o.name == op_name)


def explain_applied(domain: Domain, op_name: str, args: tuple) -> Diagnosis:
    """The (all holding) preconditions of an applied ground action."""
    op = _operator(domain, op_name)
    binding = {var: val for (var, _t), val in zip(op.params, args)}
    checks = [Check(p, _ground(a, binding), True, True) for p, a in op.pre_pos]
    checks += [Check(p, _ground(a, binding), False, True) for p, a in op.pre_neg]
    return Diagnosis(op.name, binding, checks, True)


def diagnose(domain: Domain, atoms, key: tuple) -> Diagnosis | None:
    """Why no operator applies to action literal ``key`` in the state ``atoms``.

    Each operator whose action literal matches is joined against ``atoms``,
    positive preconditions first, then negative ones in PDDL order. The join
    grows from the player outwards: the next positive precondition is one that
    shares a variable bound by an earlier precondition (not by the action
    literal) if any does, preferring one with a matching atom, then the fewest
    matches, then PDDL order; with none anchored, the one with the fewest
    matching atoms (at least one preferred). So preconditions are checked in
    the order a person would: where the player is, the cell it moves to, what
    is in it, the cell beyond.

    Of all branches, the one ranked highest by (positive *fluent*
    preconditions satisfied, failed on a negative precondition, checks passed)
    explains the failure: the operator whose situation matched best (a block in
    front makes ``push`` the relevant one) and the obstacle that stopped it (a
    wall beyond). Returns None if some branch applies.
    """
    by = _index(atoms)
    fact_sets = {p: set(v) for p, v in by.items()}
    static = domain.static_predicates
    best: tuple | None = None
    best_diag: Diagnosis | None = None
    at: dict = {}  # (pred, position) -> {object: facts with it there, in by's order}

    def candidates(pred: str, args: tuple, binding: dict):
        """The facts of ``pred`` that can match: those holding the first fixed argument in place (all that
        match_atom would not reject there, in the same order)."""
        facts = by.get(pred, ())
        for j, v in enumerate(args):
            obj = binding.get(v) if v.startswith("?") else v
            if obj is None:
                continue
            index = at.get((pred, j))
            if index is None:
                if any(len(f) <= j for f in facts):  # match_atom's zip would not look at position j
                    return facts
                index = at[(pred, j)] = {}
                for f in facts:
                    index.setdefault(f[j], []).append(f)
            return index.get(obj, ())
        return facts

    for op in domain.operators:
        literal = _bind_literal(op, key)
        if literal is None:
            continue
        results: list = []

        def matches(pred: str, args: tuple, binding: dict) -> list[dict]:
            found = (match_atom(args, fact, binding) for fact in candidates(pred, args, binding))
            return [b for b in found if b is not None]

        def rec(binding: dict, anchored: set, todo: list, checks: list, nfluent: int) -> None:
            if todo:
                options = []
                for i, (pred, args) in enumerate(todo):
                    m = matches(pred, args, binding)
                    linked = any(v in anchored for v in args)
                    options.append((0 if linked else 1, 0 if m else 1, len(m), i, m))
                if any(o[0] == 0 for o in options):
                    options = [o for o in options if o[0] == 0]
                _l, _z, _n, i, found = min(options, key=lambda o: o[:4])
                pred, args = todo[i]
                rest = todo[:i] + todo[i + 1 :]
                gain = 0 if pred in static else 1
                if not found:
                    fail = Check(pred, _ground(args, binding), True, False)
                    results.append(((nfluent, 0, len(checks)), Diagnosis(op.name, binding, checks + [fail], False)))
                    return
                now_anchored = anchored | {v for v in args if v.startswith("?")}
                for new in found:
                    ok = Check(pred, _ground(args, new), True, True)
                    rec(new, now_anchored, rest, checks + [ok], nfluent + gain)
                return
            done = list(checks)
            for pred, args in op.pre_neg:
                g = _ground(args, binding)
                if g in fact_sets.get(pred, ()):
                    done.append(Check(pred, g, False, False))
                    results.append(((nfluent, 1, len(done) - 1), Diagnosis(op.name, binding, done, False)))
                    return
                done.append(Check(pred, g, False, True))
            results.append(((nfluent, 2, len(done)), Diagnosis(op.name, binding, done, True)))

        rec(literal, set(), list(op.pre_pos), [], 0)
        for score, diag in results:
            if diag.applicable:
                return None
            if best is None or score > best:
                best, best_diag = score, diag
    return best_diag


# --------------------------------------------------------------------------- narration


@dataclass
class Chain:
    """A reasoning chain: text plus the keyword fields it was built from."""

    text: str
    keywords: list[dict] = field(default_factory=list)
    visual: str = ""  # c^v: what changes in the image


def _fmt_args(args: tuple) -> list:
    return [fmt_arg(a) for a in args]


def _check_words(domain: str, check: Check) -> tuple[str | None, str] | None:
    """(subject, predicate words) for a holding check, or None if it is not narrated."""
    if check.pred in get_spec(domain).silent_predicates:
        return None
    ph = phrase(domain, check.pred)
    args = _fmt_args(check.args)
    words = ph.pos if check.positive else ph.neg
    if not words:
        return None
    return (args[ph.subject] if ph.subject < len(args) else None, words.format(*args))


def _failure_words(domain: str, check: Check) -> tuple[str, str, str | None]:
    """(clause, reason keyword, blocked cell) for a failed check."""
    ph = phrase(domain, check.pred)
    args = _fmt_args(check.args)
    tmpl = ph.pos_fail if check.positive else ph.neg_fail
    clause = tmpl(args) if callable(tmpl) else tmpl.format(*args)
    subject = args[ph.subject] if ph.subject < len(args) else None
    if subject is None:  # e.g. the edge: the cell the move would leave the grid from
        subject = args[0]
    return clause, ph.reason or check.pred, subject


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _grouped(domain: str, checks: list[Check], first: str | None = None) -> str:
    """Holding checks as words, grouped by the cell they are about (``first``, the player's cell, leads)."""
    groups: dict = {}
    order: list = []
    for c in checks:
        w = _check_words(domain, c)
        if w is None:
            continue
        subject, words = w
        if subject not in groups:
            groups[subject] = []
            order.append(subject)
        if words not in groups[subject]:
            groups[subject].append(words)
    if first in groups:
        order.remove(first)
        order.insert(0, first)
    clauses = []
    for s in order:
        clauses.append(f"{s} {_join(groups[s])}" if s is not None else _join(groups[s]))
    return "; ".join(clauses)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def build_chain(
    domain_name: str,
    pddl: Domain,
    action_text: str,
    before: dict,
    after: dict,
    applied: list,
    atoms_before,
    key: tuple,
    kinds_before: dict,
    kinds_after: dict,
    step: int,
) -> Chain:
    """The chain c_i^z (text + keywords) and c_i^v for one step.

    ``applied``: the ground actions the engine applied (``GroundAction`` values,
    the agent's first, internal ones after); empty when inapplicable.
    """
    spec = get_spec(domain_name)
    kw: list[dict] = []

    def add(fieldname: str, value) -> str:
        kw.append({"field": fieldname, "value": str(value)})
        return str(value)

    p0 = fmt_cell(before["player"])
    sentences = [f"The player is at {add('player_before', p0)} and the action is {add('action', action_text)}."]
    if applied:
        first = applied[0]
        diag = explain_applied(pddl, first.name, first.args)
        pre = _grouped(domain_name, diag.checks, p0)
        binding = {k.lstrip("?"): fmt_arg(v) for k, v in diag.binding.items()}
        concl = spec.conclusion(_operator(pddl, first.name), binding)
        ok = add("applicable", "applies")
        sentences.append(f"{_cap(pre)}, so the action {ok}: {concl}." if pre else f"The action {ok}: {concl}.")
    else:
        diag = diagnose(pddl, atoms_before, key)
        if diag is None or diag.failure is None:  # no operator at all for this literal
            clause, reason, cell = f"no operator of {domain_name} takes {action_text}", "unknown", None
            pre = ""
        else:
            clause, reason, cell = _failure_words(domain_name, diag.failure)
            pre = _grouped(domain_name, diag.checks[:-1], p0)
        add("blocked_by", reason)
        if cell is not None:
            add("blocked_cell", cell)
        na = add("applicable", "not applicable")
        body = f"{_cap(pre)}, but {clause}" if pre else _cap(clause)
        sentences.append(f"{body}, so the action is {na} and nothing changes.")

    _precondition_keywords(diag, add)
    p1 = fmt_cell(after["player"])
    if after["player"] != before["player"]:
        effects = [f"Player position changes to {add('player_after', p1)}"]
    else:
        effects = [f"Player position remains {add('player_after', p1)}"]
    effects += spec.effect_clauses(before, after, applied, add)
    sentences.append("; ".join(effects) + ".")
    text = " ".join(sentences)
    visual = _visual_chain(domain_name, step, action_text, kinds_before, kinds_after)
    return Chain(text=text, keywords=kw, visual=visual)


def _precondition_keywords(diag: Diagnosis | None, add) -> None:
    """``pre <object> (r, c)`` fields for the object preconditions the chain states (§3: keywords
    "extracted from action preconditions"), the failed one included; each cell and object once."""
    if diag is None:
        return
    done = set()
    for check in diag.checks:
        words = PRECONDITION_WORDS.get(check.pred)
        cell = fmt_arg(check.args[0]) if check.args else None
        if words is None or cell is None or not cell.startswith("(") or (check.pred, cell) in done:
            continue
        done.add((check.pred, cell))
        present = check.positive == check.holds
        add(precondition_field(check.pred, cell), words[0] if present else words[1])


def _visual_chain(domain: str, step: int, action_text: str, kb: dict, ka: dict) -> str:
    """c^v: which cells of the image change, from the per-cell kinds before and after."""
    spec = get_spec(domain)
    changes = []
    for cell in sorted(set(kb) | set(ka)):
        a, b = kb.get(cell, set()), ka.get(cell, set())
        if a == b:
            continue
        parts = [f"{spec.kind_word(k)} leaves" for k in sorted(a - b)]
        parts += [f"{spec.kind_word(k)} arrives" for k in sorted(b - a)]
        changes.append(f"{fmt_cell(cell)}: " + ", ".join(parts))
    head = f"Drawing the image after action {step} ({action_text}): "
    if not changes:
        return head + "no cell changes, so the image is the same as the previous one."
    return head + "; ".join(changes) + ". Every other cell stays as it was."

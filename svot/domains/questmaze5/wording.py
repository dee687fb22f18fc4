"""OpenQuestMaze in the datasets' words: its preconditions and what each move does.

Read through :class:`~svot.domains.questmaze5.OpenQuestMazeSpec` by :mod:`svot.dataset`; every
other wording hook keeps the generic default (:class:`~svot.kernel.DomainSpec`).
"""

from __future__ import annotations

from svot.kernel.phrases import ADJ, Phrase


def _no_way_in(args: list) -> str:
    # Every cell but a monster's holds exactly one of (free), (item-at) and (target-at) all episode
    # (collecting frees a cell), so a move whose three operators all fail enters a monster's cell:
    # the explanation reports the last of them, arrive's (target-at ?to ?t). The clause names the
    # predicate as the r_c scorer's generic reason pattern reads it ("<pred> holds for").
    return f"{args[0]} is not free and holds no item or target: monster holds for {args[0]}"


PHRASES = {
    "adjacent": ADJ,  # (adjacent ?from ?dir ?to) reads as the grid's (adj ?from ?dir ?to)
    "monster": Phrase(subject=0, neg="holds no monster", neg_fail="monster holds for {0}", reason="monster"),
    "free": Phrase(subject=0, pos="holds nothing to collect", pos_fail="{0} holds an item or a target"),
    "item-at": Phrase(subject=0, pos="holds the {1}", pos_fail="{0} holds no {1}"),
    "target-at": Phrase(subject=0, pos="is the {1}'s cell", pos_fail=_no_way_in, reason="monster"),
    "ended": Phrase(subject=0, neg="the quest goes on", neg_fail="the quest has already reached its goal", reason="goal"),
}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {
    "walk": "the player moves to {to}",
    "collect": "the player moves to {to} and collects the {i}",
    "arrive": "the player moves to {to} and reaches the {t}, which ends the quest",
}

#: The state fields the goal g asks for: where the prince ends and which target he reached.
GOAL_FIELDS = ("player", "reached")

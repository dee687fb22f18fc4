"""Shared fixtures: hand-made initial states for every domain."""

from __future__ import annotations

import importlib.util

import pytest

HAVE_PDDLGYM = importlib.util.find_spec("pddlgym") is not None


@pytest.fixture(autouse=True)
def _sb3_logs_in_tmp_path(monkeypatch, tmp_path_factory):
    """Stable-Baselines3 makes an ``SB3-<date>`` folder in the system temp dir for every model it
    logs nowhere else ($SB3_LOGDIR first): the tests' models log under pytest's own temp dirs."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path_factory.getbasetemp() / "sb3"))


def pytest_collection_modifyitems(config, items):
    """Tests marked ``pddlgym`` need the reference engine: skip them, with the reason, where it is absent."""
    if HAVE_PDDLGYM:
        return
    skip = pytest.mark.skip(
        reason="PDDLGym is not installed (the 'pddlgym' extra; it installs on Python 3.10 and 3.11 only)"
    )
    for item in items:
        if "pddlgym" in item.keywords:
            item.add_marker(skip)

SAMPLE_STATES = {
    "maze": {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[1, 1], [2, 2], [0, 3]], "goal": [4, 4]},
    "frozenlake": {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[1, 1], [2, 3]], "goal": [3, 3]},
    "sokoban": {
        "domain": "sokoban",
        "size": 5,
        "player": [0, 0],
        "walls": [[4, 4]],
        "blocks": [[1, 1], [2, 2]],
        "goals": [[3, 1], [2, 4]],
    },
    "pacman": {"domain": "pacman", "size": 4, "player": [0, 0], "coins": [[0, 1], [2, 2], [3, 3]]},
    "gather": {
        "domain": "gather",
        "size": 5,
        "player": [0, 0],
        "balls": {"red": [[0, 2], [0, 3]], "green": [[4, 0]], "blue": [[2, 2]]},
    },
    "regularmaze": {
        "domain": "regularmaze",
        "size": 3,
        "player": [0, 0],
        "start": [0, 0],
        "goal": [2, 2],
        "zones": {"blue": [[1, 1]], "orange": [[0, 2], [2, 0]]},
        "walls_right": [[0, 0], [2, 1]],
        "walls_down": [[0, 1], [1, 2]],
    },
    "questmaze": {
        "domain": "questmaze",
        "size": 3,
        "player": [0, 0],
        "princess": [2, 2],
        "treasure": [0, 2],
        "items": {"key": [[1, 1]], "food": [[2, 0]]},
        "collected": {},
        "reached": "none",
        "walls_right": [[0, 1], [1, 0]],
        "walls_down": [[0, 2], [1, 1]],
    },
    "questmaze5": {
        "domain": "questmaze5",
        "size": 5,
        "player": [0, 0],
        "targets": {"princess": [[4, 4]], "treasure": [[0, 4]]},
        "items": {"key": [[2, 2]], "heart": [[4, 0]]},
        "collected": {},
        "reached": "none",
        "monsters": [[1, 1], [1, 3], [2, 1], [3, 1], [3, 3]],
    },
}


@pytest.fixture(params=sorted(SAMPLE_STATES))
def sample(request):
    return request.param, SAMPLE_STATES[request.param]

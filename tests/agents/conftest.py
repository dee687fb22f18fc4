"""Every registered svot id (grid domains and RuleMaze) plus the toy lamps domain, for the agent adapters' tests."""

from __future__ import annotations

import gymnasium as gym
import pytest

import svot  # noqa: F401 - registers the ids
from svot.extend import register_domain, unregister_domain

from tests.toy_domain.lamps import LampsGenerator, LampsSpec

SVOT_IDS = sorted(i for i in gym.registry if i.startswith(("SVoT/", "RuleMaze/")))
LAMPS_IDS = ["SVoT/Lamps-4x4-v0", "SVoT/Lamps-5x5-OOD-v0"]


@pytest.fixture(scope="session")
def lamps():
    ids = register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield ids
    unregister_domain("lamps")


@pytest.fixture(params=SVOT_IDS + LAMPS_IDS)
def any_id(request):
    """Each registered id; the lamps ids register the toy domain first."""
    if "Lamps" in request.param:
        request.getfixturevalue("lamps")
    return request.param

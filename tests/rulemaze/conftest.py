"""Shared fixtures for the RuleMaze tests: small seeded pools of 3x3 mazes."""

from __future__ import annotations

import pytest

from svot.rulemaze.pool import generate_pool

POOL_SIZE = 1000  # the hardest rules match ~1% of 3x3 mazes: 500 test mazes hold a few for each


@pytest.fixture(scope="session")
def regular_pool():
    return generate_pool("RegularMaze", 3, POOL_SIZE, seed=11)


@pytest.fixture(scope="session")
def quest_pool():
    return generate_pool("QuestMaze", 3, POOL_SIZE, seed=12, layout="walls")


@pytest.fixture(scope="session")
def pools(regular_pool, quest_pool):
    return {"RegularMaze": regular_pool, "QuestMaze": quest_pool}

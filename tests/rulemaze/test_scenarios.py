"""The scenarios the domain folders declare, and how the RuleMaze layer finds them (issue 17)."""

from __future__ import annotations

import pytest

from svot import rulemaze
from svot.domains import SPECS
from svot.errors import ConfigError
from svot.rulemaze import symbols as S
from svot.rulemaze.rules.ast import FAMILIES
from svot.rulemaze.pool import PAINTINGS
from svot.rulemaze.scenario import (Scenario, get_scenario, layout_for, normalize_scenario, scenario_names,
                                    scenario_of_symbols, scenarios)

SCENARIOS = scenarios()


def test_both_scenarios_are_declared_in_registry_order():
    assert scenario_names() == ("RegularMaze", "QuestMaze") == S.SCENARIOS


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_a_scenario_answers_every_hook_consistently(scenario):
    assert isinstance(scenario, Scenario)
    assert next(iter(scenario.domains)) == "walls" and all(d in SPECS for d in scenario.domains.values())
    cells = set(scenario.cell_symbols)
    assert {scenario.start_symbol, scenario.plain_symbol, *scenario.goal_symbols, *scenario.paint_symbols,
            *scenario.collected_symbols} <= cells
    assert (scenario.obstacle_symbol is None) == ("open" not in scenario.domains)
    assert scenario.pool_painting in PAINTINGS and scenario.rule_family in FAMILIES
    assert len(scenario.rule_bank) == 30 and all(r[0].startswith(scenario.rule_id_prefix + "-")
                                                 for r in scenario.rule_bank)
    assert set(scenario.scene_texts) == set(scenario.domains) and set(scenario.goal_words) == set(scenario.goal_symbols)
    assert scenario.goal_error(list(scenario.goal_symbols[:1])) is None


@pytest.mark.parametrize("spelling, name", [("regular", "RegularMaze"), ("Regular_Maze", "RegularMaze"),
                                            ("QUEST", "QuestMaze"), ("quest-maze", "QuestMaze")])
def test_the_old_spellings_still_work(spelling, name):
    assert normalize_scenario(spelling) == name == S.normalize_scenario(spelling) == get_scenario(spelling).name


def test_an_unknown_scenario_is_a_config_error_naming_the_known_ones():
    with pytest.raises(ConfigError, match=r"unknown scenario 'maze' \(expected 'RegularMaze' or 'QuestMaze'\)"):
        get_scenario("maze")


def test_old_constants_are_still_answered():
    assert (rulemaze.REGULAR, rulemaze.QUEST) == ("RegularMaze", "QuestMaze")
    assert S.REGULAR_CELL_SYMBOLS[:3] == ("green", "red", "white") and S.START_QUEST == "prince"
    assert S.OPEN_QUEST_DOMAIN == "questmaze5" and S.MONSTER == "monster"
    with pytest.raises(AttributeError):
        S.NO_SUCH_NAME  # noqa: B018


def test_layouts_and_symbols_pick_the_scenario_that_has_them():
    assert layout_for("QuestMaze", "open") == "open" and layout_for("RegularMaze", "open") == "walls"
    assert scenario_of_symbols(["green", "blue", "normal"], default="QuestMaze") == "RegularMaze"
    assert scenario_of_symbols(["prince", "key"], default="RegularMaze") == "QuestMaze"
    assert scenario_of_symbols(["normal"], default="RegularMaze") == "RegularMaze"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_the_rule_language_speaks_of_every_scenario_symbol(scenario):
    """The rule language's values (svot.rulemaze.symbols) cover what a scenario's rules can name."""
    if scenario.rule_family == "time-indexed":  # Zone(t, colour): start, goal and zone colours
        assert {scenario.start_symbol, *scenario.goal_symbols, *scenario.paint_symbols} <= set(S.ZONE_COLOURS)
    else:  # Seen / Count(item), TargetIs(target)
        assert set(scenario.paint_symbols) <= set(S.ITEMS) and set(scenario.goal_symbols) <= set(S.TARGETS)

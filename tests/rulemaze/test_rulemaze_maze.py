import json

import pytest

from svot.rulemaze.errors import MazeError
from svot.rulemaze.maze import Maze
from svot.rulemaze.trajectory import Trajectory, path_to_actions


def small_maze():
    # 2x2: passages (0,0)-(0,1), (0,1)-(1,1); (0,0)-(1,0) open; (1,0)-(1,1) wall.
    return Maze("RegularMaze", 2, (0, 0), ((1, 1),),
                (((0, 1), (1, 1)), ((0, 0), (0, 1)), ((0, 0), (1, 0))),
                (("green", "blue"), ("white", "red")))


def test_passages_are_normalised_and_sorted():
    m = small_maze()
    assert m.passages == (((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)))
    same = Maze("regular", 2, [0, 0], [[1, 1]], [[[1, 1], [0, 1]], [[1, 0], [0, 0]], [[0, 1], [0, 0]]],
                [["green", "blue"], ["white", "red"]])
    assert same == m and hash(same) == hash(m)


def test_neighbors_and_move_honour_walls():
    m = small_maze()
    assert m.neighbors((0, 0)) == ((1, 0), (0, 1))  # down before right
    assert m.neighbors((1, 0)) == ((0, 0),)
    assert m.move((1, 0), "right") is None  # wall
    assert m.move((0, 0), "up") is None  # border
    assert m.move((0, 0), "right") == (0, 1)
    assert m.move((0, 1), "down") == (1, 1)
    assert m.walls == (((1, 0), (1, 1)),)
    assert m.walk(["right", "down"]) == [(0, 0), (0, 1), (1, 1)]
    assert m.walk(["down", "right"]) is None


def test_dict_roundtrip_is_json_safe(regular_pool, quest_pool):
    for m in regular_pool[:50] + quest_pool[:50]:
        d = json.loads(json.dumps(m.to_dict()))
        assert Maze.from_dict(d) == m
        assert Maze.from_dict(d).canonical() == m.canonical()


@pytest.mark.parametrize("field, value, needle", [
    ("size", 1, "maze.size"),
    ("start", [5, 0], "maze.start"),
    ("start", "a", "maze.start"),
    ("goals", [], "maze.goals"),
    ("goals", [[0, 0]], "maze.goals"),
    ("passages", [[[0, 0], [1, 1]]], "maze.passages[0]"),
    ("passages", [[[0, 0], [0, 1]], [[0, 1], [0, 0]]], "maze.passages"),
    ("cells", [["green", "blue"], ["white"]], "maze.cells[1]"),
    ("cells", [["green", "teal"], ["white", "red"]], "maze.cells[0][1]"),
    ("cells", [["white", "blue"], ["white", "red"]], "maze.cells[0][0]"),
    ("cells", [["green", "red"], ["white", "red"]], "maze.cells[0][1]"),
    ("scenario", "Sokoban", "maze.scenario"),
])
def test_from_dict_errors_name_the_field(field, value, needle):
    d = small_maze().to_dict()
    d[field] = value
    with pytest.raises(MazeError) as info:
        Maze.from_dict(d)
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_from_dict_missing_and_unknown_fields():
    d = small_maze().to_dict()
    del d["cells"]
    with pytest.raises(MazeError, match="maze.cells: missing"):
        Maze.from_dict(d)
    d = small_maze().to_dict()
    d["colour"] = 1
    with pytest.raises(MazeError, match="maze.colour: unknown"):
        Maze.from_dict(d)
    with pytest.raises(MazeError):
        Maze.from_dict([1, 2])


def test_quest_targets_validated():
    cells = [["prince", "princess"], ["key", "treasure"]]
    m = Maze("QuestMaze", 2, (0, 0), ((0, 1), (1, 1)), (((0, 0), (0, 1)),), cells)
    assert m.target_at((0, 1)) == "princess" and m.target_at((1, 0)) is None
    with pytest.raises(MazeError, match="maze.goals: each QuestMaze target appears once"):
        Maze("QuestMaze", 2, (0, 0), ((0, 1), (1, 1)), (), [["prince", "princess"], ["key", "princess"]])
    with pytest.raises(MazeError, match="exactly one goal"):
        Maze("RegularMaze", 2, (0, 0), ((0, 1), (1, 1)), (), [["green", "red"], ["white", "red"]])


def test_trajectory_from_path_and_item_consumption():
    cells = [["prince", "food"], ["grass", "treasure"]]
    m = Maze("QuestMaze", 2, (0, 0), ((1, 1),), (((0, 0), (0, 1)), ((0, 1), (1, 1))), cells)
    path = [(0, 0), (0, 1), (0, 0), (0, 1), (1, 1)]
    t = Trajectory.from_path(m, path)
    assert t.symbols == ("prince", "food", "prince", "normal", "treasure")
    assert t.actions == ("right", "left", "right", "down")
    assert path_to_actions(path) == list(t.actions)
    assert Trajectory.from_actions(m, t.actions) == t
    with pytest.raises(ValueError, match="blocked"):
        Trajectory.from_actions(m, ["down"])
    with pytest.raises(ValueError):
        Trajectory(("a", "b"), ())
    with pytest.raises(ValueError):
        Trajectory(("a", "b"), ("north",))

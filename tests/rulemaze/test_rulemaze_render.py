"""RuleMaze images: layout, determinism, legend, and perception reading every cell back."""

import numpy as np
import pytest

from svot.errors import ConfigError
from svot.rulemaze import symbols as S
from svot.rulemaze.pool import generate_pool
from svot.rulemaze.render import (LINE_COLOURS, MARKER_COLOUR, STYLE, layout, legend, legend_image,
                                  render_maze)
from svot.rulemaze.sprites import tile
from svot.rulemaze.vision import (PerceptionError, find_marker, grid_geometry, line_mask, read_cells,
                                  read_maze, read_walls)


@pytest.fixture(scope="module")
def mazes():
    """Several seeds, sizes 3 and 4, both scenarios."""
    return {(sc, n): [m for seed in (1, 2, 3) for m in generate_pool(sc, n, 12, seed=100 * seed + n, layout="walls")]
            for sc in S.SCENARIOS for n in (3, 4)}


def test_layout_and_pixels():
    lay = layout(256, 3)
    assert lay.bounds == (8, 88, 168, 248) and lay.hw == 3 and lay.inset == 4
    with pytest.raises(ConfigError, match="too small"):
        layout(40, 3)
    m = generate_pool("RegularMaze", 3, 1, seed=0)[0]
    img = render_maze(m, 256)
    assert img.shape == (256, 256, 3) and img.dtype == np.uint8
    assert np.array_equal(img, render_maze(m, 256))  # deterministic
    y0, y1, x0, x1 = lay.interior_box(m.start)
    assert (img[y0:y1, x0:x1] == (67, 176, 71)).all()  # the green start's interior is untouched
    wall = STYLE["RegularMaze"][0]
    assert (img[lay.bounds[0] - 3:lay.bounds[0] + 3, 100] == wall).all()  # the frame


def test_tiles_avoid_line_and_marker_colours():
    """Perception finds the grid and the marker by colour: no tile may use those colours
    beyond a few antialiased pixels."""
    from svot.rulemaze.vision import colour_flags

    for sym in S.REGULAR_CELL_SYMBOLS + S.QUEST_CELL_SYMBOLS:
        t = tile(sym, 80, 80)
        flags = colour_flags(t)
        assert (flags & 1).mean() < 0.01, sym
        assert (flags & 2).sum() == 0, sym


def test_legend():
    for sc in S.SCENARIOS:
        leg = legend(sc, 32)
        assert list(leg) == list(S.cell_symbols(sc))
        assert all(t.shape == (32, 32, 3) for t in leg.values())
        tiles = [t.tobytes() for t in leg.values()]
        assert len(set(tiles)) == len(tiles)  # every symbol looks different
        panel = legend_image(sc)
        assert panel.ndim == 3 and panel.shape[2] == 3 and panel.shape[0] > 48 * len(leg)


@pytest.mark.parametrize("scenario", S.SCENARIOS)
@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("image_size", [256, 384])
def test_perception_reads_every_cell_and_wall(mazes, scenario, n, image_size):
    cells = walls = 0
    for maze in mazes[(scenario, n)]:
        img = render_maze(maze, image_size)
        geo = grid_geometry(img)
        assert geo.n == n and geo.rows == layout(image_size, n).bounds
        read = read_cells(img, geo)
        assert read == [list(row) for row in maze.cells]
        assert read_walls(img, geo) == maze.passages
        assert read_maze(img) == maze
        assert find_marker(img, geo) is None
        cells += n * n
        walls += len(maze.passages)
        for cell in (maze.start, maze.goals[-1]):  # with the marker, the cell still reads right
            marked = render_maze(maze, image_size, marker=cell)
            assert find_marker(marked) == cell
            assert read_cells(marked) == read
    assert cells >= 9 * 36


def test_collected_items_render_as_grass():
    maze = next(m for m in generate_pool("QuestMaze", 3, 50, seed=5) if any(
        s in S.ITEMS for row in m.cells for s in row))
    cell = next((r, c) for r in range(3) for c in range(3) if maze.cells[r][c] in S.ITEMS)
    img = render_maze(maze, 256, collected=[cell])
    assert read_cells(img)[cell[0]][cell[1]] == "grass"


def test_perception_errors_are_clear():
    blank = np.full((256, 256, 3), 255, np.uint8)
    with pytest.raises(PerceptionError, match="no maze grid"):
        grid_geometry(blank)
    maze = generate_pool("RegularMaze", 3, 1, seed=0)[0]
    img = render_maze(maze, 256, marker=(0, 0))
    lay = layout(256, 3)
    y0, y1, x0, x1 = lay.interior_box((2, 2))
    img[y0 + 10:y0 + 30, x0 + 10:x0 + 30] = MARKER_COLOUR  # a second marker
    with pytest.raises(PerceptionError, match="ambiguous"):
        find_marker(img)
    assert line_mask(render_maze(maze, 256)).mean() < 0.2
    assert len(LINE_COLOURS) == 4

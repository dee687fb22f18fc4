"""Maze's row of Table 5 of the SVoT paper (ID → OOD), as data.

Densities are fractions of the grid's cells (:func:`svot.problem_gen.common.count_for`
turns them into counts); the sizes are ``MazeSpec.sizes``. ``MazeSpec.table5``
exposes the row; ``svot.problem_gen.PARAMS`` and the generator read it there.
"""

TABLE5 = {
    "wall_density": {"id": 0.3, "ood": 0.5},
}

"""Sokoban's row of Table 5 of the SVoT paper (ID → OOD), as data.

The wall density is a fraction of the grid's cells; the sizes are
``SokobanSpec.sizes``. ``SokobanSpec.table5`` exposes the row.
"""

TABLE5 = {
    "wall_density": {"id": 0.2, "ood": 0.3},
    # (min, max) number of blocks, inclusive. Table 5 leaves size 6 blank:
    # we assume size 5's values (1–2 → 3).
    "blocks": {
        4: {"id": (1, 2), "ood": (2, 2)},
        5: {"id": (1, 2), "ood": (3, 3)},
        6: {"id": (1, 2), "ood": (3, 3)},
    },
}

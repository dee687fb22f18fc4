"""Pacman's row of Table 5 of the SVoT paper (ID → OOD), as data.

The coin density is a fraction of the cells other than the player's; the sizes
are ``PacmanSpec.sizes``. ``PacmanSpec.table5`` exposes the row.
"""

TABLE5 = {
    "coin_density": {"id": 0.3, "ood": 0.5},
}

"""Gather's row of Table 5 of the SVoT paper (ID → OOD), as data.

The ball density is a fraction of the cells other than the player's; the
colours are the ones each size uses; the sizes are ``GatherSpec.sizes``.
``GatherSpec.table5`` exposes the row.
"""

TABLE5 = {
    "ball_density": {"id": 0.3, "ood": 0.5},
    "colours": {
        4: ("red", "green"),
        5: ("red", "green", "blue"),
        6: ("red", "green", "blue", "yellow"),
    },
}

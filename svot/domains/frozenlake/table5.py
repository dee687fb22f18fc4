"""FrozenLake's row of Table 5 of the SVoT paper (ID → OOD), as data.

The hole density is each tile's probability of being a hole (Gymnasium's
``generate_random_map``); the sizes are ``FrozenLakeSpec.sizes``.
``FrozenLakeSpec.table5`` exposes the row.
"""

TABLE5 = {
    "hole_density": {"id": 0.2, "ood": 0.4},
}

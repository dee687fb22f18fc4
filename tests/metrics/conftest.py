"""Shared fixtures for the scoring tests: small exports built once per session through the dataset API."""

from __future__ import annotations

from pathlib import Path

import pytest

# smallest Table 5 size of every domain; two test splits (ID and OOD) of 4 maps x 2 sequences
EXPORT_TARGETS = (("maze", 5), ("frozenlake", 4), ("sokoban", 4), ("pacman", 4), ("gather", 4))
EXPORT_SPLITS = ("test_id", "test_ood")
MAPS = 4


def _export(out: Path, *, domains, sizes, splits, view="instances", fmt="parquet", maps=MAPS):
    from svot.dataset import export, make_config

    cfg = make_config(
        out, domains=list(domains), sizes=list(sizes), splits=list(splits), view=view, format=fmt,
        maps_per_split={s: maps for s in splits},
    )
    export(cfg, quiet=True)
    return out


@pytest.fixture(scope="session")
def exported(tmp_path_factory) -> Path:
    """Instances view, Parquet: every domain at its smallest size, test_id and test_ood (80 instances).

    One export per domain, each under ``data/<domain>/`` (``svot evaluate`` finds splits at any depth).
    """
    out = tmp_path_factory.mktemp("export") / "data"
    for d, n in EXPORT_TARGETS:
        _export(out / d, domains=[d], sizes=[n], splits=EXPORT_SPLITS)
    return out


@pytest.fixture(scope="session")
def exported_rows(exported) -> list[dict]:
    """Every instance row of :func:`exported`, as plain dicts (image bytes included)."""
    import pyarrow.parquet as pq

    rows = []
    for p in sorted(exported.rglob("*.parquet")):
        rows += pq.read_table(p).to_pylist()
    return rows


@pytest.fixture(scope="session")
def exported_views(tmp_path_factory) -> dict[str, Path]:
    """Sokoban 4x4 val (3 maps) in the other layouts: predictions view (Parquet) and instances as JSONL."""
    base = tmp_path_factory.mktemp("views")
    return {
        "parquet_instances": _export(base / "pi", domains=["sokoban"], sizes=[4], splits=["val"], maps=3),
        "parquet_predictions": _export(base / "pp", domains=["sokoban"], sizes=[4], splits=["val"], view="predictions", maps=3),
        "jsonl_instances": _export(base / "ji", domains=["sokoban"], sizes=[4], splits=["val"], fmt="jsonl", maps=3),
        "jsonl_predictions": _export(base / "jp", domains=["sokoban"], sizes=[4], splits=["val"], fmt="jsonl", view="predictions", maps=3),
    }

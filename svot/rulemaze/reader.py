"""Reading a RuleMaze export back: the one reader of what :mod:`.dataset` writes.

An export holds, per scenario directory (``regularmaze/``, ``questmaze/``), a
``test.parquet`` (``--formats parquet``) and/or ``sharegpt/test.json``
(``--formats sharegpt``). The scorer (:mod:`.evaluate`) and the Inspect tasks
(:mod:`svot.inspect.rulemaze`) read them through :func:`find_test_splits`,
:func:`read_rows` and :func:`scenario_rows`; an unreadable file is a
:class:`~svot.errors.DatasetError` that names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pyarrow.parquet as pq

from svot.errors import DatasetError
from svot.jsonl import loads
from svot.rulemaze import symbols as S

SCENARIO_DIRS = S.DOMAIN_OF  # one directory per scenario, named after its domain
SHAREGPT_DIR = "sharegpt"

TEST_PATTERNS = ("test.parquet", "*/test.parquet", f"{SHAREGPT_DIR}/test.json", f"*/{SHAREGPT_DIR}/test.json")


def find_test_splits(data) -> list[Path]:
    """The test split files of ``data``: one file, a scenario directory or an export root
    (every ``*/test.parquet``, else every ``*/sharegpt/test.json``)."""
    data = Path(data)
    if data.is_file():
        return [data]
    if not data.is_dir():
        raise DatasetError(f"data {str(data)!r} does not exist")
    for pattern in TEST_PATTERNS:
        found = sorted(data.glob(pattern))
        if found:
            return found
    raise DatasetError(f"no test split under {str(data)!r} (looked for */test.parquet and */sharegpt/test.json)")


def read_rows(path: Path, columns: Sequence[str] | None = None) -> list[dict]:
    """The items of one Parquet file (``columns`` only, if given) or one ShareGPT JSON list."""
    path = Path(path)
    if path.suffix == ".parquet":
        try:
            return pq.read_table(path, columns=None if columns is None else list(columns)).to_pylist()
        except (OSError, KeyError, ValueError) as exc:
            what = f"the columns {list(columns)}" if columns is not None else "a Parquet table"
            raise DatasetError(f"{path}: cannot read {what}: {exc}") from None
    try:
        data = loads(path.read_text(encoding="utf-8-sig"))  # nesting too deep is a ValueError here
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path}: cannot read a ShareGPT JSON list: {exc}") from None
    if not isinstance(data, list) or any(not isinstance(r, dict) for r in data):
        raise DatasetError(f"{path}: expected a JSON list of items")
    return data


def scenario_rows(data, scenario: str) -> list[dict]:
    """Every item of one scenario's Parquet test split (``data``: that file or the export root)."""
    root = Path(data)
    path = root if root.suffix == ".parquet" else root / SCENARIO_DIRS[scenario] / "test.parquet"
    if not path.is_file():
        raise DatasetError(f"no RuleMaze test split at {str(path)!r} (svot rulemaze export --formats parquet)")
    return [r for r in read_rows(path) if r["scenario"] == scenario]

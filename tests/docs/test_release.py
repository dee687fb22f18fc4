"""What a release needs, checked without building one (.ci/run's wheel lane builds and installs the wheel).

* ``CHANGELOG.md`` follows Keep a Changelog (https://keepachangelog.com/en/1.1.0/): an
  ``## [Unreleased]`` section first, then one ``## [X.Y.Z] - YYYY-MM-DD`` section per release,
  newest first; the version the package reports has its section.
* Every file under ``svot/`` that is not Python is declared package data in ``pyproject.toml``,
  so a wheel cannot ship without a PDDL file, a template or a static asset.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import pytest

from svot._version import __version__

REPO = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"^## \[(?P<name>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?\s*$", re.M)


def _sections() -> list[tuple[str, str | None]]:
    return [(m["name"], m["date"]) for m in SECTION.finditer((REPO / "CHANGELOG.md").read_text(encoding="utf-8"))]


def _release_key(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in name.split("."))


def test_changelog_has_unreleased_first_then_dated_releases_newest_first():
    sections = _sections()
    assert sections and sections[0] == ("Unreleased", None), sections[:1]
    releases = sections[1:]
    assert releases, "no release section"
    for name, date in releases:
        assert re.fullmatch(r"\d+\.\d+\.\d+", name), f"release {name!r} is not X.Y.Z"
        assert date, f"release {name} has no date"
    keys = [_release_key(n) for n, _ in releases]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys), [n for n, _ in releases]


def test_the_package_version_has_its_changelog_section():
    released = [n for n, _ in _sections()[1:]]
    assert __version__ in released, (
        f"svot._version.__version__ is {__version__!r} but CHANGELOG.md has no '## [{__version__}] - date' "
        f"section (releases: {released}); move [Unreleased]'s lines into one when the version changes"
    )
    # the newest release is the version: a release section is written together with the bump
    assert released[0] == __version__


def _package_data_patterns() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]


def test_every_non_python_file_under_svot_is_package_data():
    patterns = _package_data_patterns()
    missing = []
    for path in sorted((REPO / "svot").rglob("*")):
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(REPO)
        covered = False
        for package, globs in patterns.items():
            pkg_dir = Path(*package.split("."))
            if pkg_dir in rel.parents:
                inner = rel.relative_to(pkg_dir).as_posix()
                covered |= any(fnmatch.fnmatchcase(inner, g) for g in globs)
        if not covered:
            missing.append(rel.as_posix())
    assert not missing, f"not declared in [tool.setuptools.package-data] of pyproject.toml: {missing}"

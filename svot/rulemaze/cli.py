"""``svot rulemaze ...``: maze pools, dataset export and EM/PR evaluation.

The ``svot`` command (:mod:`svot.cli`) registers the group ``rulemaze`` and
hands its parser to :func:`add_arguments` and the parsed arguments to
:func:`run`; :func:`register` does the same for any ``argparse`` subparsers
object. Subcommands::

    svot rulemaze pool --size 3 --count 50000 --workers 2 --out pool/ [--scenario all] [--seed 0]
    svot rulemaze export --out data/ [--pool pool/] [--workers 2] [--seed 0] [--formats parquet,sharegpt]
    svot rulemaze evaluate --data data/ --predictions preds.jsonl [--json scores.json]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from svot._version import __version__
from svot.cli_support import EXIT_NOTHING_SCORED, check_writable


def _scenarios(text: str) -> list[str]:
    # lazy: argparse calls this while parsing; keeps building the parser free of these imports
    from svot.errors import ConfigError
    from svot.rulemaze import symbols as S

    out = []
    for part in [x.strip() for x in text.split(",") if x.strip()]:
        if part.lower() == "all":
            out += list(S.SCENARIOS)
            continue
        try:
            out.append(S.normalize_scenario(part))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    return list(dict.fromkeys(out))


def _coloring(p: argparse.ArgumentParser) -> None:
    p.add_argument("--coloring", choices=("paper", "authors"), default="paper",
                   help="RegularMaze colouring: 'paper' = Alg. 4 as printed (default), 'authors' = whole "
                        "solution-path interiors painted, as the authors' pool generator does")


def _open_layout_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quest-layout", choices=("open", "walls"), default="open",
                   help="QuestMaze layout: 'open' = the paper's open (2N-1)x(2N-1) cell grid with monsters, "
                        "5x5 for N=3 (default, RuleMaze/QuestMaze-5x5-v1), 'walls' = the walled NxN maze "
                        "(RuleMaze/QuestMaze-3x3-v0)")


SIZE_HELP = ("the logical maze side N, 2 to 8 (default 3, the paper's); QuestMaze's open grid is "
             "(2N-1)x(2N-1) cells, 5x5 for N=3")


def _tiers(p: argparse.ArgumentParser) -> None:
    p.add_argument("--difficulty-tiers", choices=("paper", "authors"), default="paper",
                   help="how rules are grouped into easy/medium/hard: 'paper' = number of AND/OR/-> "
                        "(default), 'authors' = the tiers of the authors' generation prompts")


def _common(p: argparse.ArgumentParser) -> None:
    # also accepted after the subcommand; the parent parser holds the defaults
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="no progress bar (it is off anyway when stderr is not a terminal)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``pool`` / ``export`` / ``evaluate`` subcommands to the ``rulemaze`` parser."""
    sub = parser.add_subparsers(dest="rulemaze_command", metavar="<subcommand>", parser_class=type(parser))

    p = sub.add_parser("pool", help="generate maze pools (Alg. 1-4) as JSON lines",
                       description="Generate RuleMaze maze pools (Alg. 1-4), one JSON-lines file per "
                                   "scenario, deterministic by seed whatever the number of workers.")
    p.add_argument("--out", required=True, help="output directory (<Scenario>-NxN.jsonl and manifest.json)")
    p.add_argument("--size", type=int, default=3, help=SIZE_HELP)
    p.add_argument("--count", type=int, default=50_000, help="mazes per scenario (default 50000)")
    p.add_argument("--scenario", default="all", help="RegularMaze, QuestMaze or all (default; comma-separated)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--overwrite", action="store_true", help="replace existing pool files")
    p.add_argument("--resume", action="store_true",
                   help="keep pool files that the manifest shows complete for these arguments; make the rest")
    _coloring(p)
    _open_layout_option(p)
    _common(p)

    p = sub.add_parser("export", help="export the datasets (Parquet and ShareGPT JSON) with a manifest",
                       description="Export RuleMaze datasets: per scenario 3,600 train and 400 test items "
                                   "(100 seen-rule, 100 each unseen easy/medium/hard) with images, "
                                   "candidates and tool-call traces.")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--scenario", default="all", help="RegularMaze, QuestMaze or all (default)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--size", type=int, default=3, help=SIZE_HELP)
    p.add_argument("--pool", help="a pool directory written by 'svot rulemaze pool' (or one pool file "
                                  "with --scenario); default: generate --pool-size mazes from --seed")
    p.add_argument("--pool-size", type=int, help="mazes to generate per scenario when --pool is not "
                                                 "given (default 20000)")
    p.add_argument("--rules", help="extra rules: JSON list of {id, natural_language, logic, scenario, "
                                   "split} (split defaults to unseen), or the RuleMaze authors' rule "
                                   "files as they are (lists of lists, cnf_style, Easy/Medium/Hard)")
    _coloring(p)
    _open_layout_option(p)
    _tiers(p)
    p.add_argument("--revise-share", type=float,
                   help="share of train items whose trace makes a wrong move, gets VerifyRule false "
                        "and revises (default 0.2; 0 for none)")
    p.add_argument("--train", type=int, help="train items per scenario (default 3600)")
    p.add_argument("--test-per-group", type=int, help="test items per group (default 100)")
    p.add_argument("--test-fraction", type=float, help="share of the pool reserved for test mazes (default 0.2)")
    p.add_argument("--min-moves", type=int, help="shortest ground truth kept (default 3, the paper's test "
                                                 "lengths 3-8)")
    p.add_argument("--formats", default="parquet,sharegpt", help="parquet, sharegpt and/or trl (step-wise and predict records for TRL); "
                        "default parquet,sharegpt")
    p.add_argument("--image-size", type=int, default=256, help="image side in pixels (default 256)")
    p.add_argument("--chunk-items", type=int, help="items per work unit (default 100)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (output is the same for any number)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--resume", action="store_true", help="continue an interrupted export in --out")
    g.add_argument("--overwrite", action="store_true", help="replace an existing export in --out")
    _common(p)

    p = sub.add_parser("evaluate", help="EM / PR of predictions against an exported test split (Table 2 layout)",
                       description="Score predictions (JSON lines with an id and the moves) against an "
                                   "export's ground truth; prints EM/PR for seen rules and unseen "
                                   "easy/medium/hard rules. Malformed lines are counted, never fatal.")
    p.add_argument("--data", required=True, help="export root, scenario directory, test.parquet or ShareGPT test.json")
    p.add_argument("--predictions", required=True,
                   help="JSON lines: {\"id\": ..., \"moves\" (or \"actions\"): [...] or text}, or LLaMA-Factory's "
                        "generated_predictions.jsonl (no ids: matched by position to --data, one file such as "
                        "sharegpt/test_predict.json)")
    p.add_argument("--json", dest="json_out", help="also write the scores as JSON to this file")
    p.add_argument("--lenient", action="store_true", help="EM as printed in Eq. 2 (extra trailing moves ignored)")
    _common(p)


def register(subparsers) -> argparse.ArgumentParser:
    """Add a ``rulemaze`` parser to an ``argparse`` subparsers object; its ``run`` default is :func:`run`."""
    p = subparsers.add_parser("rulemaze", help="RuleMaze: maze pools, datasets and EM/PR evaluation")
    add_arguments(p)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.errors import ConfigError

    from svot.errors import DatasetError

    cmd = getattr(args, "rulemaze_command", None)
    if cmd in ("pool", "export"):
        try:
            return _pool(args) if cmd == "pool" else _export(args)
        except BrokenPipeError:  # stdout closed (| head): svot.cli ends quietly
            raise
        except OSError as exc:  # unwritable or full output: one line, not an internal error
            where = exc.filename or args.out
            raise DatasetError(f"cannot write {where}: {exc.strerror or exc}; fix --out and rerun") from exc
    if cmd == "evaluate":
        return _evaluate(args)
    raise ConfigError("choose a subcommand: pool, export or evaluate (svot rulemaze -h for help)")


def _bar(total: int, desc: str, quiet: bool):
    from tqdm import tqdm  # lazy, like this module's commands: `svot -h` imports this module and stays fast

    return tqdm(total=total, desc=desc, unit="maze", file=sys.stderr, dynamic_ncols=True,
                disable=quiet or not sys.stderr.isatty())


def _pool(args) -> int:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.errors import ConfigError

    if args.count < 1 or args.workers < 1 or args.seed < 0:
        raise ConfigError("--count and --workers must be positive, --seed non-negative")
    # lazy, as above
    from svot.rulemaze.pool import check_size

    for sc in _scenarios(args.scenario):
        check_size(sc, args.size, args.quest_layout)
    # lazy, as above
    from svot.dataset.outdir import lock_output

    with lock_output(Path(args.out)):
        return _pool_locked(args)


def _pool_locked(args) -> int:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.dataset.outdir import read_json_object
    from svot.dataset.writers import atomic_write_json, sha256_file
    from svot.errors import DatasetError
    from svot.rulemaze.dataset import pool_file_name
    from svot.rulemaze.pool import generate_pool, write_pool

    out = Path(args.out)
    quiet = getattr(args, "quiet", False)
    scenarios = _scenarios(args.scenario)
    # lazy, as above
    from svot.rulemaze.open_grid import maze_side
    from svot.rulemaze.scenario import layout_for

    # --quest-layout applies to the scenarios that have that layout; an open grid of an N x N maze
    # is 2N - 1 cells wide
    layout_of = {sc: layout_for(sc, args.quest_layout) for sc in scenarios}
    side = {sc: maze_side(args.size, layout_of[sc]) for sc in scenarios}
    paths = {sc: out / pool_file_name(sc, side[sc]) for sc in scenarios}
    manifest_path = out / "manifest.json"
    # a manifest that is not a JSON object with a "pools" object vouches for nothing: start a new one
    manifest = read_json_object(manifest_path) or {}
    if not isinstance(manifest.get("pools"), dict):
        manifest["pools"] = {}
    manifest.update({"package": "svot", "version": __version__, "command": ["svot", *getattr(args, "_argv", [])]})

    def complete(sc) -> bool:  # written by an earlier run with these arguments, bytes as recorded
        entry = manifest["pools"].get(paths[sc].name)
        return bool(
            isinstance(entry, dict) and paths[sc].is_file() and not paths[sc].is_symlink()
            and (entry.get("scenario"), entry.get("size"), entry.get("side"), entry.get("count"),
                 entry.get("seed"), entry.get("coloring", "paper"), entry.get("layout", "walls"))
            == (sc, args.size, side[sc], args.count, args.seed, args.coloring, layout_of[sc])
            and entry.get("sha256") == sha256_file(paths[sc])
        )

    existing = [p for sc, p in paths.items() if p.exists() and not (args.resume and complete(sc))]
    if existing and not args.overwrite:
        raise DatasetError(f"{existing[0]} exists; pass --overwrite to replace it (or --resume to keep complete files)")
    todo = [sc for sc in scenarios if not (args.resume and complete(sc))]
    # the manifest never vouches for a file being replaced: drop their entries first, add each back once written
    for sc in todo:
        manifest["pools"].pop(paths[sc].name, None)
    atomic_write_json(manifest_path, manifest)
    for sc in scenarios:
        if sc not in todo:
            print(f"{sc}: kept {paths[sc]} (complete)")
            continue
        bar = _bar(args.count, sc, quiet)
        t0 = time.perf_counter()
        try:
            mazes = generate_pool(sc, args.size, args.count, seed=args.seed, workers=args.workers,
                                  progress=lambda done, total, bar=bar: bar.update(done - bar.n),
                                  coloring=args.coloring, layout=layout_of[sc])
        finally:
            bar.close()
        dt = time.perf_counter() - t0
        write_pool(paths[sc], mazes)
        manifest["pools"][paths[sc].name] = {
            "scenario": sc, "size": args.size, "side": side[sc], "count": len(mazes), "seed": args.seed,
            "coloring": args.coloring, "layout": layout_of[sc],
            "sha256": sha256_file(paths[sc]), "bytes": paths[sc].stat().st_size,
        }
        atomic_write_json(manifest_path, manifest)
        print(f"{sc}: {len(mazes)} mazes in {dt:.1f} s ({len(mazes) / dt:.0f} mazes/s, "
              f"{args.workers} worker(s)) -> {paths[sc]}")
        print(_stats_line(sc, mazes, args.coloring))  # the pool's measured figures: its result, not a progress table
    return 0


def _stats_line(scenario: str, mazes, coloring: str) -> str:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.rulemaze.pool_stats import pool_report

    return "  " + pool_report(scenario, mazes, coloring)


def _export(args) -> int:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.rulemaze import dataset as D

    kwargs = {}
    for name, attr in (("pool_size", "pool_size"), ("train", "train"), ("test_per_group", "test_per_group"),
                       ("test_fraction", "test_fraction"), ("chunk_items", "chunk_items"),
                       ("min_moves", "min_moves")):
        if getattr(args, attr) is not None:
            kwargs[name] = getattr(args, attr)
    cfg = D.make_config(args.out, _scenarios(args.scenario), seed=args.seed, size=args.size, pool=args.pool,
                        rules=args.rules, formats=args.formats, image_size=args.image_size,
                        coloring=args.coloring, difficulty_tiers=args.difficulty_tiers,
                        quest_layout=args.quest_layout, **kwargs)
    t0 = time.perf_counter()
    result = D.export(cfg, workers=args.workers, resume=args.resume, overwrite=args.overwrite,
                      quiet=getattr(args, "quiet", False), command=["svot", *getattr(args, "_argv", [])])
    dt = time.perf_counter() - t0
    for line in result.pool_lines:  # the pools' measured figures: a result, not a progress table
        print(line)
    if not getattr(args, "quiet", False):
        print(result.summary())
    items = sum(st.get("items", 0) for _, _, st in result.rows)
    print(f"{items} items in {dt:.1f} s ({items / dt:.1f} items/s, {args.workers} worker(s)); "
          f"wrote {len(result.manifest['files'])} files and {result.out / D.MANIFEST}")
    return 0


def _evaluate(args) -> int:
    # lazy: loaded only when this command runs, so that `svot --version` and `svot -h` stay fast
    from svot.dataset.writers import atomic_write_json
    from svot.rulemaze.evaluate import evaluate, format_table

    if args.json_out:
        check_writable(args.json_out)
    report = evaluate(args.data, args.predictions, strict=not args.lenient)
    print(format_table(report))
    if args.json_out:
        atomic_write_json(Path(args.json_out), report.as_dict())
    if report.matched == 0:
        sys.stderr.write(f"svot rulemaze evaluate: error: none of the {report.lines} prediction lines matched an "
                         f"item of {args.data!r}; nothing was scored\n")
        return EXIT_NOTHING_SCORED
    return 0

"""The ``svot`` command line: a thin layer over the packages.

Each subcommand is two functions, one that adds its arguments to a parser and
one that runs it (returning the exit code), registered with :func:`command`::

    @command("gallery", "render sample images of every domain")
    def _gallery_args(p): p.add_argument("--out", required=True)

    @_gallery_args.runner
    def _gallery(args): ...; return 0

Errors the packages raise on bad input (:class:`svot.errors.SvotError`) and
argument errors print one line, ``svot <command>: error: <message>``, and exit
with status 2; ``--debug`` shows the traceback instead. Outputs named on the
command line are checked before the work starts (:func:`check_writable`). A
closed standard output (``svot evaluate ... | head``) ends the command quietly
with status 141, as a Unix tool killed by SIGPIPE does. ``svot evaluate`` exits
with status 3 when not one prediction was scored.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from svot._version import __version__
from svot.atomic import atomic_write_text
from svot.numbers import argparse_float, argparse_int, is_ascii_digits, parse_int
from svot.cli_support import (EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_NOTHING_SCORED,  # noqa: F401
                              EXIT_USAGE, CLIError, check_writable)


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line (no usage dump) and exits with status 2, and ``type=int`` /
    ``type=float`` read ASCII digits only (:mod:`svot.numbers`: ``int('٣')`` is 3, ``'²'.isdigit()``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("type", int, argparse_int)
        self.register("type", float, argparse_float)

    def error(self, message: str):  # noqa: D401 - argparse's hook
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


@dataclass
class Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int] | None = None

    def runner(self, fn: Callable[[argparse.Namespace], int]) -> Callable:
        self.run = fn
        return fn


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str) -> Callable[[Callable], Command]:
    """Register a subcommand: decorate its argument function, then its runner with ``.runner``."""

    def deco(add_arguments: Callable) -> Command:
        cmd = Command(name, help, add_arguments)
        COMMANDS[name] = cmd
        return cmd

    return deco


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--debug", action="store_true", help="show tracebacks instead of one-line errors")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar and no summary table: only the closing line (what was written) and errors")


def _csv(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _int_list(text: str, what: str) -> list[int]:
    out = []
    for x in _csv(text):
        out.append(parse_int(x, what=what, error=CLIError))
    return out


def _maps_per_split(text: str | None):
    if text is None:
        return None
    text = text.strip()
    if is_ascii_digits(text):
        return int(text)
    out = {}
    for item in _csv(text):
        split, sep, n = item.partition("=")
        if not sep or not is_ascii_digits(n.strip()):
            raise CLIError(f"--maps-per-split: expected N or split=N,... (e.g. train=10,val=2), got {item!r}")
        out[split.strip()] = int(n)
    return out


# --------------------------------------------------------------------------- export


@command("export", "export SVoT datasets (Parquet or ImageFolder JSONL) with a manifest")
def _export_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--domains", help="comma-separated registered domains, or 'all' (Table 5's); an unknown name lists the known ones")
    p.add_argument("--sizes", help="comma-separated grid sizes (default: each domain's Table 5 sizes)")
    p.add_argument("--splits", help="comma-separated splits from train,val,test_id,test_ood (default: all)")
    p.add_argument("--paper", action="store_true", help="every domain x Table 5 size x split")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (output is the same for any number)")
    p.add_argument("--engine", default="local", choices=("local", "ray"),
                   help="local (default: this process or --workers processes) or ray (Ray tasks; same bytes out; "
                        "needs svot[ray]; --workers sets the local Ray instance's CPUs, default all)")
    p.add_argument("--address", help="with --engine ray: a running Ray cluster (host:port or auto) instead of a local instance")
    p.add_argument("--format", default="parquet", help="parquet (default) or jsonl (ImageFolder: metadata.jsonl + PNG files)")
    p.add_argument("--view", default="instances",
                   help="instances (default: one row per instance), predictions (one row per prediction), or a method "
                        "view as TRL conversational records: svot, wo-v, wo-rl-c, mvot, tcot, stepwise (docs/training.md)")
    p.add_argument("--image-size", type=int, default=256, help="image side in pixels (default 256)")
    p.add_argument("--maps-per-split", help="override the paper's map counts: N, or split=N,... (quick runs, tests)")
    p.add_argument("--chunk-maps", type=int, default=10, help="maps per work unit (default 10)")
    p.add_argument("--allow-any-size", action="store_true", help="allow sizes outside Table 5")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--resume", action="store_true", help="continue an interrupted export in --out")
    g.add_argument("--overwrite", action="store_true", help="replace an existing export in --out")


@_export_args.runner
def _export(args: argparse.Namespace) -> int:
    # lazy: this command's packages load only when it runs, so that `svot --version` and `svot -h` stay fast
    from svot.dataset import export, make_config
    from svot.dataset.spec import TABLE5_SIZES

    domains = None
    if args.domains:
        domains = list(TABLE5_SIZES) if args.domains.strip().lower() == "all" else _csv(args.domains)
    cfg = make_config(
        args.out,
        domains=domains,
        sizes=_int_list(args.sizes, "--sizes") if args.sizes else None,
        splits=_csv(args.splits) if args.splits else None,
        paper=args.paper,
        seed=args.seed,
        format=args.format,
        view=args.view,
        image_size=args.image_size,
        maps_per_split=_maps_per_split(args.maps_per_split),
        allow_any_size=args.allow_any_size,
        chunk_maps=args.chunk_maps,
    )
    result = export(
        cfg,
        workers=args.workers,
        resume=args.resume,
        overwrite=args.overwrite,
        quiet=args.quiet,
        command=["svot", *args._argv],
        engine=args.engine,
        address=args.address,
    )
    if not args.quiet:
        print(result.summary())
    print(f"wrote {len(result.manifest['files'])} files and {result.out / 'manifest.json'}")
    return 0


# --------------------------------------------------------------------------- gallery


@command("gallery", "write a static HTML gallery of an export (every instance, paged; optional model predictions)")
def _gallery_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", help="an export directory (svot export --out)")
    p.add_argument("--out", required=True, help="output directory (new, empty, or a previous gallery)")
    p.add_argument("--per-page", type=int, default=20, help="instances per page (default 20)")
    p.add_argument("--predictions", help="a predictions file (JSON lines, as svot evaluate reads): the model's "
                                         "answers beside the truth, with 'wrong only' and metric filters")


@_gallery_args.runner
def _gallery(args: argparse.Namespace) -> int:
    # lazy: this command's packages load only when it runs, so that `svot --version` and `svot -h` stay fast
    from svot.gallery import build_gallery

    result = build_gallery(args.data, args.out, per_page=args.per_page, predictions=args.predictions)
    print(f"wrote {len(result.pages)} pages and {result.images} images; open {result.index}")
    return 0


# --------------------------------------------------------------------------- evaluate


@command("evaluate", "score model predictions against exported data (the paper's Tables 1, 2, 3 and 7)")
def _evaluate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=True, help="an export directory (svot export --out), a split .parquet or a metadata.jsonl")
    p.add_argument("--predictions", required=True, help="JSON Lines, one object per instance (see svot.metrics.evaluation)")
    p.add_argument("--json", metavar="OUT", help="also write every number and every issue to this JSON file")
    p.add_argument("--images-root", metavar="DIR",
                   help="read predicted image paths under DIR (default: the predictions file's folder); "
                        "paths that lead outside it are not read")
    p.add_argument("--max-issues", type=int, default=20, help="issues listed in the printed report (default 20; all go to --json)")


@_evaluate_args.runner
def _evaluate(args: argparse.Namespace) -> int:
    # lazy: this command's packages load only when it runs, so that `svot --version` and `svot -h` stay fast
    from svot.metrics import evaluate

    if args.json:
        check_writable(args.json)
    report = evaluate(args.data, args.predictions, images_root=args.images_root)
    print(report.tables(max_issues=args.max_issues))
    if args.json:
        out = Path(args.json)
        atomic_write_text(out, json.dumps(report.to_dict(), indent=2) + "\n")  # fresh O_EXCL|O_NOFOLLOW temp file
        print(f"wrote {out}")
    if report.scored == 0:
        sys.stderr.write(f"svot evaluate: error: none of the {report.lines} prediction records matched an "
                         f"instance in {args.data!r}; nothing was scored\n")
        return EXIT_NOTHING_SCORED
    return 0


# --------------------------------------------------------------------------- pddl


@command("pddl", "planner-ready PDDL: domain + problem files and svot's plans for classical planners")
def _pddl_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("export",), help="export: write domain.pddl, p<seed>.pddl, p<seed>.plan")
    p.add_argument("--domain", required=True, help="a registered domain (an unknown name lists the known ones)")
    p.add_argument("--size", type=int, required=True, help="grid size (a Table 5 size unless --allow-any-size)")
    p.add_argument("--ood", action="store_true", help="OOD sampling parameters (default: ID)")
    p.add_argument("--seeds", default="0:10", help="seed range A:B, one problem per seed (default 0:10)")
    p.add_argument("--form", default="shipped", choices=("shipped", "positive"),
                   help="shipped: the domain file as shipped (needs negative preconditions); "
                        "positive: negative preconditions compiled away (pyperplan and other STRIPS planners)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--allow-any-size", action="store_true", help="allow sizes outside Table 5")
    p.add_argument("--overwrite", action="store_true", help="replace a previous svot pddl export in --out")


@_pddl_args.runner
def _pddl(args: argparse.Namespace) -> int:
    # lazy: this command's packages load only when it runs, so that `svot --version` and `svot -h` stay fast
    from svot.domains import get_domain
    from svot.problem_gen.planner_files import export_planner_files, generate_for_seeds, parse_seeds, prepare_out

    split = "ood" if args.ood else "id"
    seeds = parse_seeds(args.seeds)
    domain = get_domain(args.domain)
    prepare_out(args.out, overwrite=args.overwrite)  # before the work: a file, a foreign folder, a previous export
    generated = generate_for_seeds(domain, args.size, split, seeds, allow_any_size=args.allow_any_size)
    manifest = export_planner_files(domain.spec, generated, args.form, args.out, overwrite=args.overwrite)
    print(f"wrote domain.pddl and {len(manifest['problems'])} problem/plan pairs ({args.form} form) to {args.out}")
    return 0


# --------------------------------------------------------------------------- rulemaze


@command("rulemaze", "RuleMaze: maze pools, datasets (Parquet, ShareGPT) and EM/PR evaluation")
def _rulemaze_args(p: argparse.ArgumentParser) -> None:
    # lazy, but light: svot.rulemaze.cli imports its commands' packages only when one runs
    from svot.rulemaze.cli import add_arguments

    add_arguments(p)


@_rulemaze_args.runner
def _rulemaze(args: argparse.Namespace) -> int:
    # lazy: this command's packages load only when it runs, so that `svot --version` and `svot -h` stay fast
    from svot.rulemaze.cli import run

    return run(args)


# --------------------------------------------------------------------------- serve


@command("serve", "serve episodes of every registered id to agents over OpenEnv (the agents extra; docs/agents.md)")
def _serve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--max-sessions", type=int, default=64, help="concurrent sessions (default 64)")
    p.add_argument("--observation", choices=("text", "image", "both"), default="text", help="what a turn returns")
    p.add_argument("--image-size", type=int, default=128, help="image side in pixels (default 128)")
    p.add_argument("--lifetime", type=float, default=None, help="stop after this many seconds (tests)")


@_serve_args.runner
def _serve(args: argparse.Namespace) -> int:
    try:
        from svot.agents.openenv_env import serve  # the agents extra (openenv-core)
    except ImportError as exc:
        raise CLIError(f"svot serve needs the agents extra: pip install 'svot[agents]' ({exc})") from None
    serve(host=args.host, port=args.port, max_sessions=args.max_sessions, observation=args.observation,
          image_size=args.image_size, lifetime=args.lifetime)
    return 0


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="svot", description="SVoT grid domains: datasets and tools")
    parser.add_argument("--version", action="version", version=f"svot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="<command>", parser_class=_Parser)
    for cmd in COMMANDS.values():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.add_arguments(p)
        _common(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        sys.stderr.write(f"svot: error: choose a command: {', '.join(COMMANDS)} (svot -h for help)\n")
        return EXIT_USAGE
    args._argv = argv
    prog = f"svot {args.command}"
    # kept beside the commands' lazy imports; svot.errors is a cheap leaf and could as well be at the top
    from svot.errors import SvotError

    try:
        code = int(COMMANDS[args.command].run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except (SvotError, CLIError) as exc:
        if args.debug:
            raise
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        if args.debug:
            raise
        sys.stderr.write(f"{prog}: interrupted (finished work is kept; rerun with --resume to continue)\n")
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - one line unless --debug
        if args.debug:
            raise
        sys.stderr.write(f"{prog}: internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)\n")
        return EXIT_INTERNAL


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (captured in tests)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["COMMANDS", "CLIError", "Command", "build_parser", "command", "main"]

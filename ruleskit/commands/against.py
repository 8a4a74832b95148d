"""The `--against` options of `ruleskit test`: a differential run of two packs in lockstep."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ..errors import PackError
from ..limits import MAX_GAMES
from .options import name_text, path_text

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")


def parse_duration(text: str | float | int) -> float:
    """Seconds from `90`, `90s`, `3m` or `1h`."""
    if isinstance(text, int | float):
        return float(text)
    match = _DURATION.match(str(text))
    if not match:
        raise argparse.ArgumentTypeError(f"a duration is like 90s, 3m or 1h, not {text!r}")
    return float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2) or "s"]


def add_options(parser: argparse.ArgumentParser) -> None:
    """Add --against, --against-backend, --expect-diff (and --time unless the parser has it already)."""
    group = parser.add_argument_group("differential runs")
    group.add_argument("--against", metavar="OTHER", type=name_text, default=None,
                       help="play PACK and OTHER in lockstep on the same seeds and decisions and report the first "
                            "difference in state, offered actions, chance or result (shrunk, written as logs)")
    group.add_argument("--against-backend", choices=["compiled", "closures"], default=None,
                       help="run PACK on its default backend against the same pack on this backend")
    group.add_argument("--expect-diff", metavar="PATH", type=path_text, action="append", default=[],
                       help="a path where the packs are meant to differ, e.g. 'players[*].coins' or "
                            "'legal_actions.anchor' (repeatable; * is any text within a part, ** any text)")
    try:
        group.add_argument("--time", dest="time_budget", metavar="DURATION", default=None,
                           help="a time budget, e.g. 90s or 3m: then report the best found so far")
    except argparse.ArgumentError:
        pass  # the runner already offers --time


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.against or args.against_backend)


def run(args: argparse.Namespace) -> int:
    from ..game import load
    from ..testing.differential import DiffReport, check_against
    from ..testing.strategies import game_of
    from .test import safe_file_stem

    if args.pack is None:
        raise PackError("name a pack to test against another")
    budget = getattr(args, "time_budget", None)
    try:
        seconds = parse_duration(budget) if budget is not None else None
    except argparse.ArgumentTypeError as exc:
        raise PackError(f"--time: {exc}") from None
    games = args.games if args.games is not None else (MAX_GAMES if seconds is not None else 100)
    if args.against and args.against_backend:
        raise PackError("give --against OTHER or --against-backend, not both")
    if args.against_backend:
        game = load(args.pack)
        other = load(args.pack, backend=args.against_backend)
        if game.backend == other.backend:
            game = load(args.pack, backend="compiled" if other.backend == "closures" else "closures")
    else:
        game, other = game_of(args.pack), game_of(args.against)
    stem = safe_file_stem(game.name) + "-vs-" + safe_file_stem(other.name if not args.against_backend
                                                                else other.backend)
    out = args.out or Path(f"{stem}-divergence.jsonl")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), disable=args.quiet or args.json, transient=True)
    with progress:
        task = progress.add_task("lockstep games", total=None if seconds is not None and args.games is None
                                 else games)

        def advance(report: DiffReport) -> None:
            games = sum(report.games.values())
            found = report.divergence is not None or report.seconds_to_first is not None
            progress.update(task, completed=games, description="shrinking a divergence" if found else "lockstep games")

        report = check_against(game, other, games=games, players=args.players, seed=args.seed,
                               expect=args.expect_diff, max_decisions=args.max_decisions,
                               shrink=not args.no_shrink, seconds=seconds, out=out, progress=advance)
    if args.json:
        print(json.dumps(report.to_json()))
        return 0 if report.ok else 1
    print(report.summary())
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if report.divergence is not None:
        print(report.divergence.describe(), file=sys.stderr)
    return 0 if report.ok else 1

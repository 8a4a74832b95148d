"""`ruleskit test PACK`: play random legal games and check every invariant at every step."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

NAME = "test"
HELP = ("Property-test a pack: play random legal games (hypothesis), check engine and pack invariants "
        "after every decision, shrink a failure to the shortest game and write it as a replay log.")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", nargs="?", help="pack folder, or a built-in pack name")
    parser.add_argument("--games", type=int, default=100, help="games to play in all (default 100)")
    parser.add_argument("--players", type=_counts, default=None,
                        help="player counts, e.g. 3 or 2,3,4 (default: every count the pack allows)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the test run (default 0)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the failing game's replay log (default: PACKNAME-failure.jsonl)")
    parser.add_argument("--apply-limit", type=int, default=None,
                        help="try at most this many listed actions per step (default: all of them)")
    parser.add_argument("--thorough-every", type=int, default=1, metavar="K",
                        help="run the costly engine checks (every listed action, JSON round trip, views) "
                             "every K decisions and at the end (default 1: every decision)")
    parser.add_argument("--max-decisions", type=int, default=None, metavar="N",
                        help="stop each game after N decisions (default: play to the end)")
    parser.add_argument("--no-shrink", action="store_true", help="report the first failure as found")
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="run here (default) or on a Ray cluster, one task per player count; same results")
    parser.add_argument("--address", metavar="ADDR", default=None,
                        help="the Ray cluster to join (default: a local Ray instance); see docs/SCALING.md")
    parser.add_argument("--log", type=Path, default=None,
                        help="instead of playing, re-check a replay log written by a failing run")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON instead of sentences")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    from . import against

    against.add_options(parser)
    return run


def safe_file_stem(name: str) -> str:
    """A pack name made safe as a file name in the working folder: no separators, no leading dot."""
    stem = re.sub(r"[^A-Za-z0-9_.+-]+", "_", name).lstrip(".")[:64]
    return stem or "pack"


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts are numbers like 2,3,4, not {text!r}") from None
    if not counts:
        raise argparse.ArgumentTypeError("give at least one player count")
    return counts


def run(args: argparse.Namespace) -> int:
    from ..errors import PackError
    from ..testing.runner import Report, check_log, check_pack

    if args.log is not None:
        failure = check_log(args.log, args.pack, apply_limit=args.apply_limit)
        if args.json:
            print(json.dumps({"log": str(args.log), "ok": failure is None,
                              "failure": None if failure is None else failure.describe()}))
            return 0 if failure is None else 1
        if failure is None:
            print(f"{args.log}: every check held")
            return 0
        print(failure.describe(), file=sys.stderr)
        return 1
    from . import against

    if against.wanted(args):
        return against.run(args)
    if args.pack is None:
        raise PackError("name a pack to test (or give --log LOG)")
    if args.games < 1:
        raise PackError(f"--games must be at least 1, not {args.games}")
    from ..testing.strategies import game_of

    game = game_of(args.pack)
    out = args.out or Path(f"{safe_file_stem(game.name)}-failure.jsonl")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), disable=args.quiet or args.json, transient=True)

    def advance(report: Report) -> None:
        done = sum(report.games.values())
        shrinking = report.failure is not None or report.attempts > done + 1
        progress.update(task, completed=done, description="shrinking a failure" if shrinking else "testing")

    with progress:
        task = progress.add_task("testing", total=args.games)
        report = check_pack(game, games=args.games, players=args.players, seed=args.seed, out=out,
                            apply_limit=args.apply_limit, shrink=not args.no_shrink,
                            thorough_every=max(1, args.thorough_every), max_decisions=args.max_decisions,
                            progress=advance, backend=args.backend, address=args.address)
    if args.json:
        print(json.dumps({"pack": report.pack, "ok": report.ok, "games": {str(k): v for k, v in report.games.items()},
                          "attempts": report.attempts, "decisions": report.decisions, "cut_short": report.cut_short,
                          "invariants": report.invariants, "seconds": round(report.seconds, 3),
                          "problems": report.problems,
                          "failure": None if report.failure is None else report.failure.describe(),
                          "failure_log": None if report.failure is None or report.failure.log_path is None
                          else str(report.failure.log_path)}))
        return 0 if report.ok else 1
    print(report.summary())
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if report.failure is not None:
        print(report.failure.describe(), file=sys.stderr)
    return 0 if report.ok else 1

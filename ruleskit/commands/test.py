"""`ruleskit test PACK`: play random legal games and check every invariant at every step."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..testing.defaults import DEFAULT_GAMES, DEFAULT_THOROUGH_EVERY
from .options import GAMES_RANGE, games_count, name_text, path_value
from .simulate import positive_int

if TYPE_CHECKING:
    from ..testing.runner import Report

NAME = "test"
HELP = ("Test a pack: run its scenario tests (PACK/tests), then play random legal games checking the engine's "
        "and the pack's invariants and properties after every decision; a failure is written at once as a "
        "replay log, then shrunk. --against OTHER plays two packs in lockstep.")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", nargs="?", type=name_text, help="pack folder, or a built-in pack name")
    parser.add_argument("--games", type=games_count, default=None,
                        help=f"games to play in all, {GAMES_RANGE}, the player counts taking turns (default "
                             f"{DEFAULT_GAMES}; with --time and no --games: as many as the time allows)")
    parser.add_argument("--time", dest="time_budget", metavar="DURATION", default=None,
                        help="stop after this long (90s, 3m, 2m30s, 1h), shrinking included, "
                             "with the shortest failing game found so far")
    parser.add_argument("--players", type=player_counts, default=None,
                        help="player counts, e.g. 3 or 2,3,4 (default: every count the pack allows)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the test run (default 0)")
    parser.add_argument("--out", type=path_value, default=None,
                        help="where to write the failing game's replay log (default: PACKNAME-failure.jsonl)")
    parser.add_argument("--apply-limit", type=positive_int, default=None,
                        help="try at most this many listed actions per step (default: all of them)")
    parser.add_argument("--thorough-every", type=positive_int, default=DEFAULT_THOROUGH_EVERY, metavar="K",
                        help="run the costly engine checks (every listed action, JSON round trip, views) "
                             f"every K decisions and at the end (default {DEFAULT_THOROUGH_EVERY}; 1: every decision)")
    parser.add_argument("--max-decisions", type=positive_int, default=None, metavar="N",
                        help="stop each game after N decisions (default: play to the end)")
    parser.add_argument("--no-shrink", action="store_true", help="report the first failure as found")
    parser.add_argument("--policy", choices=["random", "explore"], default="random",
                        help="how decisions are picked: uniformly at random (default), or 'explore': steered "
                             "toward actions, branches and end conditions no game has reached yet")
    parser.add_argument("--coverage", action="store_true",
                        help="count the actions, end conditions, limits, rules, procedures, hooks and if arms "
                             "the games reached, per player count, and list those never reached")
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="run here (default) or on a Ray cluster, one task per player count; same results")
    parser.add_argument("--address", metavar="ADDR", type=name_text, default=None,
                        help="the Ray cluster to join (default: a local Ray instance); see docs/SCALING.md")
    parser.add_argument("--log", type=path_value, default=None,
                        help="instead of playing, re-check a replay log written by a failing run")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON instead of sentences")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    from ..testing.scenario_tests import add_arguments

    add_arguments(parser)
    from . import against

    against.add_options(parser)
    return run


def safe_file_stem(name: str) -> str:
    """A pack name made safe as a file name in the working folder: no separators, no leading dot."""
    stem = re.sub(r"[^A-Za-z0-9_.+-]+", "_", name).lstrip(".")[:64]
    return stem or "pack"


def player_counts(text: str) -> list[int]:
    """The player counts of `--players` (2 or 2,3,4); anything else is an argparse error, not a traceback."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts are numbers like 2,3,4, not {text!r}") from None
    if not counts:
        raise argparse.ArgumentTypeError("give at least one player count")
    return counts


def run(args: argparse.Namespace) -> int:
    from ..errors import PackError
    from ..testing.runner import check_log, check_pack

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
    from ..raybackend import check_address

    check_address(args.backend, args.address)  # before the scenario tests
    from ..testing.budget import parse_duration
    from ..testing.progress import ProgressDisplay
    from ..testing.strategies import game_of

    budget = parse_duration(args.time_budget) if args.time_budget is not None else None
    games = args.games if args.games is not None or budget is not None else DEFAULT_GAMES
    game = game_of(args.pack)
    for count in args.players or []:  # before the scenario tests, which would run for nothing
        if not game.min_players <= count <= game.max_players:
            raise game.players_refused(count)
    from ..testing.scenario_tests import run_for_command

    scenarios = run_for_command(args, game, quiet=args.json)
    if args.scenarios_only:
        if args.json:
            print(json.dumps({"pack": game.name, "ok": scenarios is None or scenarios.ok,
                              "scenarios": scenarios and scenarios.to_json()}))
        return 0 if scenarios is None or scenarios.ok else 1
    if args.out is not None:  # before the games: a failure found after minutes was then not written
        from ..outputs import check_output_file
        from ..packs import pack_folders

        check_output_file(args.out, "--out", pack_folders(args.pack))
    out = args.out or Path(f"{safe_file_stem(game.name)}-failure.jsonl")
    display = ProgressDisplay(games, budget, enabled=not (args.quiet or args.json))
    with display:
        report = check_pack(game, games=games, players=args.players, seed=args.seed, out=out,
                            apply_limit=args.apply_limit, shrink=not args.no_shrink,
                            thorough_every=args.thorough_every, max_decisions=args.max_decisions,
                            progress=display, backend=args.backend, address=args.address, address_checked=True,
                            time_budget=budget,
                            policy=args.policy, coverage=args.coverage)
    return _print_report(report, args.json, args.coverage, scenarios)


def _print_report(report: Report, as_json: bool, coverage: bool, scenarios: Any) -> int:
    """The outcome, the failure (already written as a log) and the coverage; the exit code."""
    if as_json:
        print(json.dumps({"pack": report.pack, "ok": report.ok, "games": {str(k): v for k, v in report.games.items()},
                          "attempts": report.attempts, "decisions": report.decisions, "cut_short": report.cut_short,
                          "invariants": report.invariants, "properties": report.properties, "seconds": round(report.seconds, 3),
                          "problems": report.problems, "stopped": report.stopped, "policy": report.policy,
                          "failure": None if report.failure is None else report.failure.describe(),
                          "failure_log": None if report.failure is None or report.failure.log_path is None
                          else str(report.failure.log_path),
                          "coverage": None if report.coverage is None or not coverage
                          else report.coverage.to_json(),
                          "scenarios": scenarios and scenarios.to_json()}))
        return _exit_code(report, scenarios)
    print(report.summary())
    if report.coverage is not None and coverage:
        print(report.coverage.table())
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if report.failure is not None:
        print(report.failure.describe(), file=sys.stderr)
    return _exit_code(report, scenarios)


def _exit_code(report: Report, scenarios: Any) -> int:
    """1 for a failure; 130, as for any command stopped by Ctrl-C, for a run interrupted before it found one (a
    script must not read it as a pass); else 0. A time budget that runs out is a bound asked for: 0."""
    if not report.ok or (scenarios is not None and not scenarios.ok):
        return 1
    return 130 if report.interrupted else 0

"""`ruleskit simulate PACK`: bots against bots over many games, with a summary."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable

from .options import GAMES_RANGE, add_decision_limit, games_count, list_text, name_text, path_text

NAME = "simulate"
HELP = "Play many bot games and report win rates (with 95% intervals), game lengths, end reasons and speed."


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {value}")
    return value


def seed_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be an integer, not '{text}'") from None


WORKERS_PER_CPU = 4
"""The most worker processes --workers may ask for, per CPU: more only share the same CPUs, each with its own
memory and start-up."""


def local_workers(asked: int | None, games: int) -> int:
    """The worker processes to start: `asked` (refused above `WORKERS_PER_CPU` per CPU), else the number of CPUs
    (at most 4); never more than there are games."""
    from ..errors import PackError

    cpus = os.cpu_count() or 1
    if asked is not None and asked > WORKERS_PER_CPU * cpus:
        raise PackError(f"--workers {asked} is too many for {cpus} CPU{'s' if cpus != 1 else ''}: "
                        f"at most {WORKERS_PER_CPU * cpus} ({WORKERS_PER_CPU} per CPU)")
    return min(asked if asked is not None else max(1, min(4, cpus)), games)


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", help="pack or variant folder, or the name of a built-in pack")
    parser.add_argument("--games", "-n", type=games_count, default=200,
                        help=f"number of games, {GAMES_RANGE} (default 200)")
    add_decision_limit(parser)
    parser.add_argument("--players", "-p", type=positive_int, default=None,
                        help="players per game (default: one per bot when --bots names several, else 4 "
                             "or the pack's nearest player count)")
    parser.add_argument("--bots", type=list_text, default="random",
                        help="one bot for every seat, or a comma-separated bot per seat: random, greedy, "
                             "mcts[:ITERATIONS|:SECONDSs], package.module:Class (see docs/BOTS.md; default random)")
    parser.add_argument("--rotate", action="store_true",
                        help="rotate the bots one seat per game, so win rates by bot are not seat-biased")
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed (default 0); game i uses a seed "
                        "derived from it, so results do not depend on --workers")
    parser.add_argument("--workers", "-w", type=positive_int, default=None,
                        help="local worker processes, at most 4 per CPU (default: the number of CPUs, at most 4)")
    parser.add_argument("--json", metavar="FILE", type=path_text, help="also write the summary as JSON to FILE ('-': print only "
                        "the JSON, to standard output)")
    parser.add_argument("--plot", metavar="FILE", type=path_text, help="draw win rates (95 percent intervals) and game lengths to "
                        "FILE (.png or .svg; needs the 'plot' extra: pip install 'ruleskit[plot]')")
    parser.add_argument("--log-dir", metavar="DIR", type=path_text, help="write one JSON Lines log per game to DIR, a new or "
                        "empty folder or one holding no game-*.jsonl logs of an earlier run")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="local processes (default) or a Ray cluster; the same results either way")
    parser.add_argument("--address", metavar="ADDR", type=name_text, default=None,
                        help="the Ray cluster to join (default: a local Ray instance); see docs/SCALING.md")
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..bots import seat_bots
    from ..game import load
    from ..packs import pack_folders
    from ..report import print_summary
    from ..simulate import simulate

    packs = pack_folders(args.pack)
    if args.plot:
        from ..plots import check_plot_path

        check_plot_path(args.plot, packs)
    from ..outputs import check_fresh_folder, check_output_file
    from ..simulate import LOG_PATTERN

    workers = local_workers(args.workers, args.games)
    if args.json and args.json != "-":
        check_output_file(args.json, "--json", packs)
    if args.log_dir:
        check_fresh_folder(args.log_dir, "--log-dir", LOG_PATTERN, "game logs")
    game = load(args.pack)
    names = args.bots.split(",")
    if args.players is not None:
        players = args.players
    elif len(names) > 1:  # a bot per seat says how many seats there are
        players = len(names)
    else:
        players = max(game.min_players, min(4, game.max_players))
    if not game.min_players <= players <= game.max_players:  # before a bot is named for each of them
        raise game.players_refused(players)
    bots = seat_bots(names, players)
    console = Console(stderr=True)
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=console, disable=args.quiet, transient=True)
    with progress:
        task = progress.add_task("games", total=args.games)
        summary = simulate(game, args.games, players, bots, seed=args.seed, workers=workers, rotate=args.rotate,
                           log_dir=args.log_dir, progress=lambda n: progress.advance(task, n),
                           backend=args.backend, address=args.address, max_decisions=args.max_decisions)
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    else:
        print_summary(Console(), summary, logs=args.log_dir is not None)
    if args.plot:
        from ..plots import plot_simulation

        plot_simulation(summary, args.plot)
    if args.json and args.json != "-":
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=2)
            out.write("\n")
    return 1 if summary["errors"] else 0

"""`ruleskit tournament PACK --bots A,B,C`: every pairing, every seat, ratings with uncertainty."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .options import GAMES_RANGE, add_decision_limit, games_count, list_text, path_text
from .simulate import local_workers, positive_int, seed_int

NAME = "tournament"
HELP = "Play every pairing of bots with rotating seats and rate them (openskill: skill and uncertainty)."


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("pack", metavar="PACK", help="pack or variant folder, or the name of a built-in pack")
    parser.add_argument("--bots", type=list_text, required=True, help="comma-separated bots, e.g. random,greedy,mcts:500")
    parser.add_argument("--games", "-n", type=games_count, default=20,
                        help=f"games per pairing, seats rotating one place per game (default 20): {GAMES_RANGE}, "
                             "and at most that many in all the pairings")
    add_decision_limit(parser)
    parser.add_argument("--players", "-p", type=positive_int, default=None,
                        help="players per game (default: the pack's fewest)")
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed (default 0)")
    parser.add_argument("--workers", "-w", type=positive_int, default=None,
                        help="local worker processes, at most 4 per CPU (default: the number of CPUs, at most 4)")
    parser.add_argument("--json", metavar="FILE", type=path_text, help="also write the results as JSON to FILE")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return run


def print_tournament(console: Any, result: dict[str, Any]) -> None:
    from rich.table import Table

    from ..limits import MAX_DECISIONS
    from ..report import decision_limit_note

    table = Table(title=f"{result['pack']}: {result['games']} games, {result['players']} players a game",
                  title_justify="left")
    for column in ("rank", "bot", "rating (mu - 3 sigma)", "mu", "sigma", "wins", "win rate", "95% CI"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, row in enumerate(result["ratings"], start=1):
        low, high = row["ci95"]
        table.add_row(str(rank), row["bot"], f"{row['ordinal']:.2f}", f"{row['mu']:.2f}", f"{row['sigma']:.2f}",
                      f"{row['wins']:g}/{row['games']}", f"{100 * row['rate']:.1f}%",
                      f"{100 * low:.1f}-{100 * high:.1f}%")
    console.print(table)
    pairs = Table(title="Pairings (wins; a shared win counts a share)", title_justify="left")
    pairs.add_column("bots")
    pairs.add_column("wins")
    for match in result["pairings"]:
        pairs.add_row(" vs ".join(match["bots"]), ", ".join(f"{b} {w:g}" for b, w in match["wins"].items()))
    console.print(pairs)
    for error in result["errors"][:10]:
        console.print(f"[red]error[/red] {error}")
    note = decision_limit_note(result.get("cut_at_decision_limit", 0), result["games"],
                               result.get("decision_limit", MAX_DECISIONS), outcome="unrated")
    if note:
        console.print(f"[yellow]note:[/yellow] {note}", highlight=False)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..game import load
    from ..outputs import check_output_file
    from ..tournament import pairings, rating_model, tournament

    workers = local_workers(args.workers, args.games)
    if args.json:
        from ..packs import pack_folders

        check_output_file(args.json, "--json", pack_folders(args.pack))
    game = load(args.pack)
    players = args.players if args.players is not None else game.min_players
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    rating_model()  # fail before playing if openskill is missing
    total = len(pairings(bots, players)) * args.games
    console = Console(stderr=True)
    progress = Progress(TextColumn("tournament"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=console, disable=args.quiet, transient=True)
    with progress:
        task = progress.add_task("games", total=total)
        result = tournament(game, bots, args.games, players, seed=args.seed, workers=workers,
                            progress=lambda n: progress.advance(task, n), max_decisions=args.max_decisions)
    print_tournament(Console(), result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
            out.write("\n")
    return 1 if result["errors"] else 0

"""`ruleskit compare BASE VARIANT`: both packs played on the same seeds, their differences tested."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .options import GAMES_RANGE, add_decision_limit, games_count, list_text, path_text
from .simulate import local_workers, positive_int, seed_int

NAME = "compare"
HELP = ("Play BASE and VARIANT with the same seeds and bots; report win rates by seat and grouping, game "
        "length and end reasons side by side, with 95% intervals, flagging significant differences.")


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not '{text}'") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {value}")
    return value


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.add_argument("base", metavar="BASE", help="the base pack (folder or built-in name)")
    parser.add_argument("variant", metavar="VARIANT", help="the variant pack (folder or built-in name)")
    parser.add_argument("--games", "-n", type=games_count, default=200,
                        help=f"games per pack, {GAMES_RANGE} (default 200)")
    add_decision_limit(parser)
    parser.add_argument("--players", "-p", type=positive_int, default=None,
                        help="players per game (default 4, or the nearest count both packs allow)")
    parser.add_argument("--bots", type=list_text, default="random",
                        help="one bot for every seat, or a comma-separated bot per seat (default random)")
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed, the same for both packs (default 0)")
    parser.add_argument("--workers", "-w", type=positive_int, default=None,
                        help="local worker processes, at most 4 per CPU (default: the number of CPUs, at most 4)")
    parser.add_argument("--alpha", type=_alpha, default=0.05,
                        help="significance level after Holm's adjustment (default 0.05)")
    parser.add_argument("--json", metavar="FILE", type=path_text, help="also write the comparison as JSON to FILE ('-': print only "
                        "the JSON, to standard output)")
    parser.add_argument("--plot", metavar="FILE", type=path_text, help="draw base against variant (win rates with 95 percent "
                        "intervals, game lengths, end reasons) to FILE (.png or .svg; needs the 'plot' extra)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    return run


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..bots import seat_bots
    from ..compare import compare
    from ..errors import PackError
    from ..game import load
    from ..packs import pack_folders

    packs = pack_folders(args.base) + pack_folders(args.variant)
    if args.plot:
        from ..plots import check_plot_path

        check_plot_path(args.plot, packs)
    from ..outputs import check_output_file

    workers = local_workers(args.workers, args.games)
    if args.json and args.json != "-":
        check_output_file(args.json, "--json", packs)
    base, variant = load(args.base), load(args.variant)
    low, high = max(base.min_players, variant.min_players), min(base.max_players, variant.max_players)
    if low > high:  # it read "both packs are played by 3-2 players"
        raise PackError(f"{base.name} is for {base.player_range} players and {variant.name} for "
                        f"{variant.player_range}: no number of players plays both")
    players = args.players if args.players is not None else max(low, min(4, high))
    if not low <= players <= high:  # before a bot is named for each of them
        raise PackError(f"both packs are played by {low}-{high} players, not {players}")
    bots = seat_bots(args.bots.split(","), players)
    progress = Progress(TextColumn("playing both packs"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=Console(stderr=True), disable=args.quiet, transient=True)
    with progress:
        task = progress.add_task("games", total=2 * args.games)
        result = compare(base, variant, args.games, players, bots, seed=args.seed, workers=workers,
                         alpha=args.alpha, progress=lambda n: progress.advance(task, n),
                         max_decisions=args.max_decisions)
    if args.json == "-":
        print(json.dumps(result, indent=2))
    else:
        print_comparison(Console(highlight=False), result)
    if args.plot:
        from ..plots import plot_comparison

        plot_comparison(result, args.plot)
    if args.json and args.json != "-":
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
            out.write("\n")
    return 1 if result["errors"]["base"] or result["errors"]["variant"] else 0


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _table(title: str, first: str) -> Any:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column(first)
    for name in ("base", "variant", "change", "95% CI", "p", "sig."):
        table.add_column(name, justify="right")
    return table


def _add(table: Any, row: dict[str, Any], rate: bool) -> None:
    from ..safetext import markup_safe

    low, high = row["ci95"]
    if rate:
        base, variant = _percent(row["base"]["rate"]), _percent(row["variant"]["rate"])
        scale = 100.0
    else:
        base, variant = f"{row['base']['mean']:.1f}", f"{row['variant']['mean']:.1f}"
        scale = 1.0
    flag = "[bold red]*[/]" if row["significant"] else ""
    table.add_row(markup_safe(row["what"]), base, variant, f"{scale * row['difference']:+.1f}",
                  f"{scale * low:+.1f}..{scale * high:+.1f}", f"{row['p_adjusted']:.3f}", flag)


def print_comparison(console: Any, result: dict[str, Any]) -> None:
    from ..limits import MAX_DECISIONS
    from ..report import decision_limit_note
    from ..safetext import markup_safe

    base, variant = result["base"], result["variant"]
    console.print(f"[bold]{markup_safe(variant['pack'])}[/] against [bold]{markup_safe(base['pack'])}[/]: {result['games']} games each, "
                  f"{result['players']} players, bots {','.join(result['bots'])}, seed {result['seed']} "
                  f"(the same seeds for both)")
    sections = [("Win rate by seat (change in points of %)", "seat", result["seats"], True)]
    if result["groups"]:
        sections.append(("Win rate by grouping (change in points of %)", "grouping", result["groups"], True))
    sections.append(("Game length (mean)", "measure", result["lengths"], False))
    sections.append(("End reasons (share of games)", "reason", result["end_reasons"], True))
    for title, first, rows, rate in sections:
        table = _table(title, first)
        for row in rows:
            _add(table, row, rate)
        console.print(table)
    overall = result["end_reasons_overall"]
    console.print(f"End reasons overall: chi-square {overall['statistic']:.2f} on {overall['df']} df, "
                  f"p {overall['p_adjusted']:.3f}{' [bold red]*[/]' if overall['significant'] else ''}")
    for note in result["group_notes"]:
        console.print(f"[dim]note:[/] {markup_safe(note)}")
    flagged = result["significant"]
    if flagged:
        console.print(f"[bold]{len(flagged)} significant difference{'s' if len(flagged) != 1 else ''}[/] "
                      f"(alpha {result['alpha']}): {', '.join(flagged)}")
    else:
        console.print(f"[bold]No significant difference[/] (alpha {result['alpha']}).")
    if result["identical_games"] == result["games"]:
        console.print("Every game ended exactly alike in both packs.")
    console.print("[dim]* significant. p: two-sided, Holm-adjusted over every row. Tests: two-proportion z "
                  "(win rates, end reasons) with Newcombe intervals; Welch's t (lengths); chi-square (end "
                  "reasons overall).[/]")
    for side in ("base", "variant"):
        for error in result["errors"][side][:3]:
            console.print(f"[red]error[/red] ({side}) {markup_safe(error)}")
    cut = result.get("cut_at_decision_limit", {})
    for side in ("base", "variant"):
        note = decision_limit_note(cut.get(side, 0), result["games"], result.get("decision_limit", MAX_DECISIONS))
        if note:
            console.print(f"[yellow]note:[/yellow] ({side}) {note}")

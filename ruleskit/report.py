"""Printing a simulation summary as rich tables."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.table import Table

from .limits import MAX_DECISIONS
from .safetext import markup_safe


def decision_limit_note(cut: int, games: int, limit: int, logs: bool = False,
                        outcome: str = "without a winner") -> str | None:
    """What to tell of the games stopped at the decision limit, and the option that sets it; None if none was.

    Such a game has no winner (`outcome`): many of them skew the win rates, and at mcts's seconds a decision
    each one took hours, so the note says how to stop them sooner or let them run longer. `logs`: the run wrote
    game logs, the place to look at such a game."""
    if not cut:
        return None
    games_text = "game" if games == 1 else "games"
    were = "was" if cut == 1 else "were"
    told = (f"{cut} of {games} {games_text} reached the decision limit ({limit:,} decisions) and {were} stopped "
            f"before the end, {outcome} (ended: decision limit).")
    if limit < MAX_DECISIONS:
        return f"{told} If they are only long, let them run longer with --max-decisions (at most {MAX_DECISIONS:,})."
    where = " (their logs, with --log-dir, show what keeps them going)" if logs else ""
    return (f"{told} Games this long may never end{where}: --max-decisions N stops them sooner, which saves hours "
            "with slow bots such as mcts.")


def _rate_row(label: str, entry: dict[str, Any], extra: list[str] | None = None) -> list[str]:
    low, high = entry["ci95"]
    return [markup_safe(label), *(markup_safe(e) for e in extra or []), f"{entry['wins']:g}/{entry['games']}", f"{100 * entry['rate']:.1f}%",
            f"{100 * low:.1f}-{100 * high:.1f}%"]


def _rate_table(title: str, first: str, extra: list[str] | None = None) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first)
    for name in extra or []:
        table.add_column(name)
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    return table


def summary_tables(summary: dict[str, Any]) -> Group:
    parts: list[Any] = []
    seats = _rate_table("Wins by seat", "seat", ["bot"])
    for entry in summary["wins_by_seat"]:
        seats.add_row(*_rate_row(f"Player {entry['seat']}", entry, [entry["bot"]]))
    parts.append(seats)
    if len(summary["wins_by_bot"]) > 1 or summary.get("rotate"):
        bots = _rate_table("Wins by bot (all its seats)", "bot")
        for bot, entry in summary["wins_by_bot"].items():
            bots.add_row(*_rate_row(bot, entry))
        parts.append(bots)
    for name, values in summary["groups"].items():
        table = _rate_table(f"Wins by {markup_safe(name)}", markup_safe(name))
        for value, entry in values.items():
            table.add_row(*_rate_row(value, entry))
        parts.append(table)
    lengths = Table(title="Games", title_justify="left", show_header=False)
    lengths.add_column("what")
    lengths.add_column("value", justify="right")
    lengths.add_row("mean turns", f"{summary['mean_turns']:.1f}")
    lengths.add_row("mean decisions", f"{summary['mean_decisions']:.1f}")
    lengths.add_row("decisions (min-max)", f"{summary['min_decisions']}-{summary['max_decisions']}")
    for reason, count in summary["end_reasons"].items():
        lengths.add_row(f"ended: {markup_safe(reason)}", str(count))
    lengths.add_row("games/s", f"{summary['games_per_second']:.1f}")
    lengths.add_row("decisions/s", f"{summary['decisions_per_second']:.0f}")
    parts.append(lengths)
    return Group(*parts)


def print_summary(console: Console, summary: dict[str, Any], logs: bool = False) -> None:
    """The summary's tables, its errors and a note on games stopped at the decision limit (`decision_limit_note`)."""
    bots = ",".join(summary["bots"]) + (" (rotating seats)" if summary.get("rotate") else "")
    console.print(f"[bold]{markup_safe(summary['pack'])} {markup_safe(summary['version'])}[/bold]: {summary['games']} games, "
                  f"{summary['players']} players, bots {bots}, seed {summary['seed']}, "
                  f"{summary['seconds']:.1f}s on {summary['workers']} worker(s)")
    console.print(summary_tables(summary))
    for error in summary["errors"][:5]:
        console.print(f"[red]error[/red] {markup_safe(error)}", highlight=False)
    if len(summary["errors"]) > 5:
        console.print(f"... and {len(summary['errors']) - 5} more errors")
    note = decision_limit_note(summary.get("cut_at_decision_limit", 0), summary["games"],
                               summary.get("decision_limit", MAX_DECISIONS), logs)
    if note:
        console.print(f"[yellow]note:[/yellow] {note}", highlight=False)

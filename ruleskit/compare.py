"""Playing a base pack and a variant with the same seeds and bots, and testing what differs.

Both packs play games 0..N-1 with the same game seeds and the same bots in the
same seats (`simulate.run_games`), so a variant identical to its base plays
identical games. Each measure a designer reads is compared with a test from
`significance` (see there); the p-values of one comparison are adjusted together
(Holm), so a difference is flagged only when it stands out of the whole family.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .errors import PackError
from .game import Game
from .significance import chi_square_homogeneity, holm_adjusted, mean_difference, proportion_difference
from .simulate import MAX_DECISIONS, GameRecord, check_decision_limit, run_games, summarize

ALPHA = 0.05


def _check_players(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise game.players_refused(players)


def _rate_row(what: str, wins_a: float, n_a: int, wins_b: float, n_b: int) -> dict[str, Any]:
    difference, low, high, p_value = proportion_difference(wins_a, n_a, wins_b, n_b)
    return {
        "what": what, "test": "two-proportion z",
        "base": {"wins": round(wins_a, 6), "games": n_a, "rate": round(wins_a / n_a, 6) if n_a else None},
        "variant": {"wins": round(wins_b, 6), "games": n_b, "rate": round(wins_b / n_b, 6) if n_b else None},
        "difference": round(difference, 6), "ci95": [round(low, 6), round(high, 6)], "p": p_value,
    }


def _mean_row(what: str, a: list[float], b: list[float]) -> dict[str, Any]:
    difference, low, high, p_value = mean_difference(a, b)
    return {
        "what": what, "test": "Welch t",
        "base": {"mean": round(sum(a) / len(a), 3) if a else None},
        "variant": {"mean": round(sum(b) / len(b), 3) if b else None},
        "difference": round(difference, 3), "ci95": [round(low, 3), round(high, 3)], "p": p_value,
    }


def _reason_counts(records: list[GameRecord]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record.reason] = counts.get(record.reason, 0) + 1
    return counts


def _group_rows(base: dict[str, Any], variant: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Win rates per value of each grouping both packs declare; values one side never has are listed apart."""
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for name in base["groups"]:
        if name not in variant["groups"]:
            notes.append(f"grouping '{name}' is declared by the base only")
            continue
        values_a, values_b = base["groups"][name], variant["groups"][name]
        for value in sorted(set(values_a) | set(values_b)):
            if value not in values_b:
                notes.append(f"{name} {value}: never seen in the variant's games")
            elif value not in values_a:
                entry = values_b[value]
                notes.append(f"{name} {value}: only in the variant's games, won {entry['wins']:g} of {entry['games']}")
            else:
                a, b = values_a[value], values_b[value]
                rows.append(_rate_row(f"{name} {value}", a["wins"], a["games"], b["wins"], b["games"]))
    for name in variant["groups"]:
        if name not in base["groups"]:
            notes.append(f"grouping '{name}' is declared by the variant only")
    return rows, notes


def compare(base: Game, variant: Game, games: int, players: int, bots: list[str], seed: int = 0,
            workers: int = 1, alpha: float = ALPHA,
            progress: Callable[[int], None] | None = None, max_decisions: int = MAX_DECISIONS) -> dict[str, Any]:
    """Play both packs on the same seeds and return every comparison, flagged where significant.

    A game still running after `max_decisions` decisions is stopped without a winner, in either pack."""
    _check_players(base, players)
    _check_players(variant, players)
    if not 0 < alpha < 1:
        raise PackError(f"the significance level must be between 0 and 1, not {alpha}")
    check_decision_limit(max_decisions)
    started = time.perf_counter()
    records_a = run_games(base, games, players, bots, seed, workers, progress=progress, max_decisions=max_decisions)
    records_b = run_games(variant, games, players, bots, seed, workers, progress=progress,
                          max_decisions=max_decisions)
    seconds = time.perf_counter() - started
    summary_a = summarize(base, records_a, players, seed, bots, seconds, workers, max_decisions=max_decisions)
    summary_b = summarize(variant, records_b, players, seed, bots, seconds, workers, max_decisions=max_decisions)

    seats = [_rate_row(f"Player {a['seat']}", a["wins"], a["games"], b["wins"], b["games"])
             for a, b in zip(summary_a["wins_by_seat"], summary_b["wins_by_seat"], strict=True)]
    groups, group_notes = _group_rows(summary_a, summary_b)
    lengths = [
        _mean_row("turns", [float(r.turns) for r in records_a], [float(r.turns) for r in records_b]),
        _mean_row("decisions", [float(r.decisions) for r in records_a], [float(r.decisions) for r in records_b]),
    ]
    counts_a, counts_b = _reason_counts(records_a), _reason_counts(records_b)
    reasons = [_rate_row(reason, counts_a.get(reason, 0), len(records_a), counts_b.get(reason, 0), len(records_b))
               for reason in sorted(set(counts_a) | set(counts_b))]
    statistic, df, p_reasons = chi_square_homogeneity(counts_a, counts_b)
    overall = {"what": "end reasons (all)", "test": "chi-square", "statistic": round(statistic, 6), "df": df,
               "p": p_reasons}

    family = seats + groups + lengths + reasons + [overall]
    for row, adjusted in zip(family, holm_adjusted([row["p"] for row in family]), strict=True):
        row["p"] = round(row["p"], 6)
        row["p_adjusted"] = round(adjusted, 6)
        row["significant"] = adjusted < alpha
    flagged = [row["what"] for row in family if row["significant"]]
    return {
        "base": {"pack": base.name, "version": base.version},
        "variant": {"pack": variant.name, "version": variant.version},
        "games": games, "players": players, "seed": seed, "bots": list(bots), "alpha": alpha,
        "identical_games": _same_games(records_a, records_b),
        "seats": seats, "groups": groups, "group_notes": group_notes, "lengths": lengths,
        "turns_per_game": {"base": [r.turns for r in records_a], "variant": [r.turns for r in records_b]},
        "end_reasons": reasons, "end_reasons_overall": overall,
        "significant": flagged,
        "errors": {"base": summary_a["errors"], "variant": summary_b["errors"]},
        "decision_limit": max_decisions,
        "cut_at_decision_limit": {"base": summary_a["cut_at_decision_limit"],
                                  "variant": summary_b["cut_at_decision_limit"]},
        "seconds": round(seconds, 3), "workers": workers,
    }


def _same_games(a: list[GameRecord], b: list[GameRecord]) -> int:
    """How many games ended alike in both packs (same winners, reason and length)."""
    return sum(1 for x, y in zip(a, b, strict=True)
               if (x.winners, x.reason, x.turns, x.decisions) == (y.winners, y.reason, y.turns, y.decisions))

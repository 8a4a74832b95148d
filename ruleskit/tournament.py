"""Tournaments: every group of bots plays every seat rotation; ratings with uncertainty.

With P players a game and B bots, every combination of P bots (a pairing when
P is 2) plays `games` games, rotated one seat per game so each bot takes every
seat. Pairing k uses the master seed mixed with k, and its game i the seed
derived from that, as in `simulate`: results do not depend on the number of
worker processes.

Ratings come from openskill's Plackett-Luce model (a TrueSkill-like Bayesian
rating): each bot has a mean skill `mu` and an uncertainty `sigma`; the
conservative `ordinal` (mu - 3 sigma) orders the table. Games are rated in a
fixed order (pairing, then game), so ratings repeat exactly. A game stopped
before its end (error, or the decision limit `max_decisions`) is not rated.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import Any

from .bots import derive_seed, seat_bots
from .errors import PackError
from .game import Game
from .limits import MAX_GAMES
from .simulate import MAX_DECISIONS, GameRecord, check_decision_limit, cut_short, run_games
from .stats import rate_entry

TOURNAMENT_SALT = 104729
MAX_GROUPS = 10_000
"""The most groups of bots a tournament plays (pairings, for two-player games): 200 bots in five-player games are
2.5 billion groups, whose list alone ran out of memory before a game was played."""


def pairings(bots: list[str], players: int) -> list[list[str]]:
    """Every combination of `players` different bots, in the order the bots were named."""
    if len(set(bots)) != len(bots):
        raise PackError("a tournament names each bot once")
    if len(bots) < players:
        raise PackError(f"a {players}-player tournament needs at least {players} bots, not {len(bots)}")
    groups = math.comb(len(bots), players)
    if groups > MAX_GROUPS:
        raise PackError(f"{len(bots)} bots make {groups} groups of {players}, more than a tournament plays "
                        f"({MAX_GROUPS}): name fewer bots")
    return [list(group) for group in itertools.combinations(bots, players)]


def rating_model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise PackError("tournaments rate bots with openskill: pip install 'ruleskit[tournament]'") from None
    return PlackettLuce()


def rate(records: list[GameRecord], bots: list[str]) -> dict[str, Any]:
    """Each bot's openskill rating after the finished games, rated in order."""
    model = rating_model()
    ratings = {bot: model.rating(name=bot) for bot in bots}
    for record in records:
        if record.error is not None or not record.places:
            continue
        teams = [[ratings[bot]] for bot in record.bots]
        rated = model.rate(teams, ranks=[float(place) for place in record.places])
        for bot, (new,) in zip(record.bots, rated, strict=True):
            ratings[bot] = new
    return ratings


def tournament(game: Game, bots: list[str], games: int, players: int, seed: int = 0, workers: int = 1,
               progress: Callable[[int], None] | None = None,
               max_decisions: int = MAX_DECISIONS) -> dict[str, Any]:
    """Play every pairing `games` times with rotating seats; wins, shared wins and ratings by bot.

    A game still running after `max_decisions` decisions is stopped, unrated."""
    if not game.min_players <= players <= game.max_players:
        raise game.players_refused(players)
    if players < 2:  # a bot alone ranks against no other: the rating model refused its games with a traceback
        raise PackError(f"a tournament rates bots against each other: it needs games of at least 2 players, "
                        f"not {players} (ruleskit simulate gives one bot's win rate)")
    seat_bots(bots, len(bots))  # every spec names a bot
    check_decision_limit(max_decisions)
    groups = pairings(bots, players)
    if games * len(groups) > MAX_GAMES:  # every game's record is kept for the ratings
        raise PackError(f"{games:,} games for each of {len(groups):,} pairings are {games * len(groups):,} games, more "
                        f"than a tournament plays ({MAX_GAMES:,}): ask for fewer games or name fewer bots")
    started = time.perf_counter()
    records: list[GameRecord] = []
    matches = []
    for k, group in enumerate(groups):
        played = run_games(game, games, players, group, seed=derive_seed(seed, TOURNAMENT_SALT, k),
                           workers=workers, rotate=True, progress=progress, max_decisions=max_decisions)
        records.extend(played)
        wins = {bot: 0.0 for bot in group}
        for record in played:
            for winner in record.winners:
                wins[record.bots[winner]] += 1.0 / len(record.winners)
        matches.append({"bots": group, "games": len(played), "wins": {b: round(w, 6) for b, w in wins.items()},
                        "errors": sum(1 for r in played if r.error is not None),
                        "cut_at_decision_limit": sum(1 for r in played if cut_short(r))})
    seconds = time.perf_counter() - started
    ratings = rate(records, bots)
    table = []
    for bot in bots:
        won = sum(1.0 / len(r.winners) for r in records for s in r.winners if r.bots[s] == bot)
        played_games = sum(1 for r in records if bot in r.bots)
        rating = ratings[bot]
        table.append({"bot": bot, "mu": round(rating.mu, 4), "sigma": round(rating.sigma, 4),
                      "ordinal": round(rating.ordinal(), 4), **rate_entry(won, played_games)})
    table.sort(key=lambda row: (-row["ordinal"], row["bot"]))
    errors = [f"{', '.join(r.bots)} game {r.index} (seed {r.seed}): {r.error}" for r in records if r.error]
    reasons: dict[str, int] = {}
    for record in records:
        reasons[record.reason] = reasons.get(record.reason, 0) + 1
    return {"pack": game.name, "version": game.version, "players": players, "seed": seed,
            "games_per_pairing": games, "games": len(records), "bots": list(bots), "ratings": table,
            "pairings": matches, "errors": errors, "rating_model": "openskill PlackettLuce",
            "end_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            "decision_limit": max_decisions, "cut_at_decision_limit": sum(1 for r in records if cut_short(r)),
            "seconds": round(seconds, 3), "workers": workers}

"""Engine speed for one pack: load+compile, random playouts, legal_actions, apply, clone, JSON.

    python benchmarks/bench.py                       # Ophir with 2, 3 and 4 players
    python benchmarks/bench.py --pack tests/packs/card_duel --players 2,3 --json bench.json

Every figure is measured on positions from real random games, with
`time.perf_counter`; costs are per call, in microseconds (median of the
sampled positions, so a few slow positions do not hide the typical cost).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import ruleskit
from ruleskit.bots import RandomBot
from ruleskit.runtime.state import State


def load_time(pack: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        ruleskit.load(pack)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def playouts(game: ruleskit.Game, players: int, games: int, seed: int) -> tuple[float, float, list[State]]:
    """Random games: games/s, decisions/s, and a sample of the positions met."""
    decisions = 0
    samples: list[State] = []
    started = time.perf_counter()
    for i in range(games):
        state = game.new_game(players=players, seed=seed + i)
        bot = RandomBot(game, seed + i)
        while not state.is_terminal:
            player = state.players_to_decide()[0]
            state.apply(bot.choose(state, player))
            decisions += 1
            if decisions % 37 == 0:
                samples.append(state.clone())
    seconds = time.perf_counter() - started
    return games / seconds, decisions / seconds, [s for s in samples if not s.is_terminal]


def per_call(samples: list[State], run: Any) -> float:
    """Median microseconds of `run(state)` over the samples (`run` returns the seconds it measured)."""
    return statistics.median(run(s) for s in samples) * 1e6


def time_legal(state: State) -> float:
    copy = state.clone()
    copy._legal = None  # measure the computation, not the cache
    started = time.perf_counter()
    copy.legal_actions()
    return time.perf_counter() - started


def time_apply(state: State, rng: random.Random) -> float:
    copy = state.clone()
    actions = copy.legal_actions()
    action = actions[rng.randrange(len(actions))]
    started = time.perf_counter()
    copy.apply(action)
    return time.perf_counter() - started


def time_clone(state: State) -> float:
    started = time.perf_counter()
    state.clone()
    return time.perf_counter() - started


def time_json(state: State) -> float:
    started = time.perf_counter()
    State.from_json(state.game, json.loads(state.dumps()))
    return time.perf_counter() - started


def measure(pack: str, players_list: list[int], games: int, seed: int) -> dict[str, Any]:
    results: dict[str, Any] = {"pack": pack, "python": sys.version.split()[0], "games_per_count": games,
                               "load_compile_ms": round(load_time(pack, 3) * 1e3, 1), "players": {}}
    game = ruleskit.load(pack)
    for players in players_list:
        games_per_s, decisions_per_s, samples = playouts(game, players, games, seed)
        rng = random.Random(seed)
        results["players"][str(players)] = {
            "games_per_second": round(games_per_s, 2),
            "decisions_per_second": round(decisions_per_s, 0),
            "positions_sampled": len(samples),
            "legal_actions_us": round(per_call(samples, time_legal), 1),
            "apply_us": round(per_call(samples, lambda s, rng=rng: time_apply(s, rng)), 1),
            "clone_us": round(per_call(samples, time_clone), 1),
            "json_round_trip_us": round(per_call(samples, time_json), 1),
        }
    return results


def print_table(results: dict[str, Any]) -> None:
    table = Table(title=f"{results['pack']}: load+compile {results['load_compile_ms']} ms "
                        f"(Python {results['python']}, {results['games_per_count']} random games per row)",
                  title_justify="left")
    for column in ("players", "games/s", "decisions/s", "legal_actions µs", "apply µs", "clone µs", "JSON µs"):
        table.add_column(column, justify="right")
    for players, row in results["players"].items():
        table.add_row(players, f"{row['games_per_second']:.2f}", f"{row['decisions_per_second']:.0f}",
                      f"{row['legal_actions_us']:.0f}", f"{row['apply_us']:.0f}", f"{row['clone_us']:.0f}",
                      f"{row['json_round_trip_us']:.0f}")
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="ophir", help="pack to measure (default ophir)")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated (default 2,3,4)")
    parser.add_argument("--games", type=int, default=5, help="random games per player count (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    try:
        players = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes numbers such as 2,3,4, not '{args.players}'")
    try:
        results = measure(args.pack, players, args.games, args.seed)
    except ruleskit.RulesError as exc:
        print(exc, file=sys.stderr)
        return 1
    print_table(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Each example pack against its hand-written baseline: CPU time per decision on the same games.

    python benchmarks/compare_baselines.py                         # Connect Four and Envoys, 5 rounds
    python benchmarks/compare_baselines.py --game envoys --rounds 3 --json baselines.json

For each game, the pack (run by ruleskit through its public API) and the plain-Python baseline
of benchmarks/baselines/ play the same random games: the same seeds, the same deal (the baseline
is dealt the deck order the pack's setup shuffled) and the same random policy (game i's choices
come from random.Random(seed i), each picking an index into the legal actions, which both sides
list in the same order), so both sides make the same decisions. Each round plays every game on
one side, then on the other (the order alternates between rounds); CPU time (time.process_time)
covers creating each game and every legal_actions and apply. The ratio is the pack's CPU time
per decision over the baseline's, per round; the table shows its median over the rounds.

Games are short (Envoys: about seven decisions), so creating one weighs on its decisions: each
side's new_game shuffles its deck with its own random stream (the baseline too, before it deals the
pack's order). The ratio "play only" leaves creation out on both sides: each round also times
creating every game alone, and takes that from the side's total.

Per-call costs (µs, median over positions sampled from the same games, time.perf_counter):
`apply` applies a random legal action to a copy of a position whose actions were already listed;
`legal_actions` is the first listing of the position that apply produced (an engine that works
out the next actions inside apply shows that cost under apply); `clone` copies a position; for a
pack, `legal_actions from JSON` lists the actions of a position just restored with
State.from_json, which has nothing worked out in advance.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

import ruleskit

HERE = Path(__file__).resolve().parent
GAMES = {
    # game: (built-in pack, baseline module, player counts cycled over the seeds, games per round,
    #        whether the baseline is dealt the pack's shuffled deck)
    "connect_four": ("connect_four", "connect_four", [2], 60, False),
    "envoys": ("envoys", "envoys", [2, 3, 4], 150, True),
}
SAMPLE_EVERY = 3


def load_baseline(name: str) -> ModuleType:
    """A module of benchmarks/baselines/ (a folder of scripts, not a package)."""
    path = HERE / "baselines" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"baseline_{name}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the baseline {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pack_deals = load_baseline("pack_deals")


class PackSide:
    """A pack driven through the public API, shaped like a baseline module."""

    def __init__(self, game: ruleskit.Game) -> None:
        self.game = game

    def new_game(self, setup: dict[str, Any]) -> ruleskit.State:
        return self.game.new_game(players=setup["players"], seed=setup["seed"])

    @staticmethod
    def legal_actions(state: ruleskit.State) -> list[Any]:
        return state.legal_actions()

    @staticmethod
    def apply(state: ruleskit.State, action: Any) -> None:
        state.apply(action)

    @staticmethod
    def clone(state: ruleskit.State) -> ruleskit.State:
        return state.clone()

    @staticmethod
    def is_terminal(state: ruleskit.State) -> bool:
        return state.is_terminal

    @staticmethod
    def winners(state: ruleskit.State) -> list[int]:
        return sorted((state.result or {}).get("winners", []))


class BaselineSide:
    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.legal_actions = module.legal_actions
        self.apply = module.apply
        self.clone = module.clone
        self.is_terminal = module.is_terminal

    def new_game(self, setup: dict[str, Any]) -> Any:
        if "order" in setup:
            return self.module.new_game(setup["players"], setup["seed"], order=setup["order"])
        return self.module.new_game(setup["players"], setup["seed"])

    def winners(self, state: Any) -> list[int]:
        return sorted(self.module.winners(state))


def setups(game: ruleskit.Game, ranks: dict[str, int] | None, count: int, counts: list[int],
           first_seed: int) -> list[dict[str, Any]]:
    """The games to play: players and seed, and for a card game the deck order the pack deals."""
    result = []
    for i in range(count):
        setup: dict[str, Any] = {"players": counts[i % len(counts)], "seed": first_seed + i}
        if ranks is not None:
            order = pack_deals.deck_order(game.new_game(players=setup["players"], seed=setup["seed"]))
            setup["order"] = [ranks[card] for card in order]
        result.append(setup)
    return result


def play(side: Any, games: list[dict[str, Any]], repeats: int = 1) -> tuple[float, int, list[tuple[int, list[int]]]]:
    """Play the games with the seeded random policy: (CPU seconds, decisions, per game (decisions, winners))."""
    outcomes: list[tuple[int, list[int]]] = []
    decisions = 0
    gc.collect()
    started = time.process_time()
    for _ in range(repeats):
        outcomes = []
        for setup in games:
            state = side.new_game(setup)
            chooser = random.Random(setup["seed"])
            made = 0
            while not side.is_terminal(state):
                moves = side.legal_actions(state)
                side.apply(state, moves[chooser.randrange(len(moves))])
                made += 1
            decisions += made
            outcomes.append((made, side.winners(state)))
    return time.process_time() - started, decisions, outcomes


def create(side: Any, games: list[dict[str, Any]], repeats: int = 1) -> float:
    """CPU seconds to create the games (new_game alone), as `play` creates them."""
    gc.collect()
    started = time.process_time()
    for _ in range(repeats):
        for setup in games:
            side.new_game(setup)
    return time.process_time() - started


def positions(side: Any, games: list[dict[str, Any]]) -> list[Any]:
    """Positions met in the games (every SAMPLE_EVERY-th decision), as copies."""
    found = []
    for setup in games:
        state = side.new_game(setup)
        chooser = random.Random(setup["seed"])
        step = 0
        while not side.is_terminal(state):
            if step % SAMPLE_EVERY == 0:
                found.append(side.clone(state))
            moves = side.legal_actions(state)
            side.apply(state, moves[chooser.randrange(len(moves))])
            step += 1
    return found


def per_call(side: Any, samples: list[Any], seed: int) -> dict[str, float]:
    """Median µs of apply, of the next legal_actions, and of clone, over the sampled positions; for a
    pack also of legal_actions on a position just restored from JSON (listed from scratch)."""
    rng = random.Random(seed)
    applies, legals, clones, fresh = [], [], [], []
    for position in samples:
        if isinstance(position, ruleskit.State):
            restored = ruleskit.State.from_json(position.game, position.to_json())
            started = time.perf_counter()
            restored.legal_actions()
            fresh.append(time.perf_counter() - started)
        started = time.perf_counter()
        copy = side.clone(position)
        clones.append(time.perf_counter() - started)
        moves = side.legal_actions(copy)
        action = moves[rng.randrange(len(moves))]
        started = time.perf_counter()
        side.apply(copy, action)
        applies.append(time.perf_counter() - started)
        if side.is_terminal(copy):
            continue
        started = time.perf_counter()
        side.legal_actions(copy)
        legals.append(time.perf_counter() - started)
    costs = {"legal_actions_us": round(statistics.median(legals) * 1e6, 2),
             "apply_us": round(statistics.median(applies) * 1e6, 2),
             "clone_us": round(statistics.median(clones) * 1e6, 2)}
    if fresh:
        costs["legal_actions_from_json_us"] = round(statistics.median(fresh) * 1e6, 2)
    return costs


def compare(game_name: str, rounds: int, games_per_round: int | None, repeats: int, seed: int,
            say: Callable[[str], None]) -> dict[str, Any]:
    pack_ref, module_name, counts, default_games, dealt = GAMES[game_name]
    game = ruleskit.load(pack_ref)
    module = load_baseline(module_name)
    ranks = pack_deals.card_ranks(pack_ref) if dealt else None
    games = setups(game, ranks, games_per_round or default_games, counts, seed)
    pack, baseline = PackSide(game), BaselineSide(module)
    per_round = []
    same_games = True
    for number in range(rounds):
        order = [("pack", pack), ("baseline", baseline)]
        if number % 2:
            order.reverse()
        measured: dict[str, tuple[float, int, list[tuple[int, list[int]]]]] = {}
        created: dict[str, float] = {}
        for name, side in order:
            measured[name] = play(side, games, repeats if name == "baseline" else 1)
            created[name] = create(side, games, repeats if name == "baseline" else 1)
        pack_cpu, pack_decisions, pack_outcomes = measured["pack"]
        base_cpu, base_decisions, base_outcomes = measured["baseline"]
        same_games = same_games and pack_outcomes == base_outcomes
        pack_us = pack_cpu / pack_decisions * 1e6
        base_us = base_cpu / base_decisions * 1e6
        play_ratio = (pack_cpu - created["pack"]) / pack_decisions / ((base_cpu - created["baseline"]) / base_decisions)
        per_round.append({"pack_us_per_decision": round(pack_us, 2), "baseline_us_per_decision": round(base_us, 3),
                          "ratio": round(pack_us / base_us, 2), "decisions": pack_decisions,
                          "pack_us_per_game_created": round(created["pack"] / len(games) * 1e6, 2),
                          "baseline_us_per_game_created": round(created["baseline"] / len(games) / repeats * 1e6, 2),
                          "play_only_ratio": round(play_ratio, 2)})
        say(f"{game_name} round {number + 1}/{rounds}: pack {pack_us:.1f} µs/decision, "
            f"baseline {base_us:.2f} µs/decision, ratio {pack_us / base_us:.1f} (play only {play_ratio:.1f})")
    pack_samples = positions(pack, games[: max(1, len(games) // 3)])
    base_samples = positions(baseline, games[: max(1, len(games) // 3)])
    ratios = [r["ratio"] for r in per_round]
    return {
        "game": game_name, "pack": pack_ref, "players": counts, "games_per_round": len(games),
        "decisions_per_round": per_round[0]["decisions"], "baseline_repeats": repeats,
        "same_games": same_games, "rounds": per_round,
        "pack_us_per_decision": round(statistics.median(r["pack_us_per_decision"] for r in per_round), 2),
        "baseline_us_per_decision": round(statistics.median(r["baseline_us_per_decision"] for r in per_round), 3),
        "ratio_median": round(statistics.median(ratios), 2), "ratio_min": min(ratios), "ratio_max": max(ratios),
        "play_only_ratio_median": round(statistics.median(r["play_only_ratio"] for r in per_round), 2),
        "pack_us_per_game_created": round(statistics.median(r["pack_us_per_game_created"] for r in per_round), 2),
        "baseline_us_per_game_created": round(statistics.median(r["baseline_us_per_game_created"]
                                                                for r in per_round), 2),
        "pack_calls": per_call(pack, pack_samples, seed), "baseline_calls": per_call(baseline, base_samples, seed),
        "positions_sampled": len(pack_samples),
    }


def print_table(results: dict[str, Any]) -> None:
    table = Table(title=f"Packs against hand-written baselines ({results['rounds']} interleaved rounds, "
                        f"Python {results['python']}, CPU time; games and decisions per round)", title_justify="left")
    for column in ("game", "players", "games", "decisions", "same games", "pack µs/dec",
                   "baseline µs/dec", "ratio (median)", "ratio range", "new game µs pack/base",
                   "play-only ratio"):
        table.add_column(column, justify="right")
    for row in results["games"]:
        table.add_row(row["game"], ",".join(map(str, row["players"])), str(row["games_per_round"]),
                      str(row["decisions_per_round"]), "yes" if row["same_games"] else "NO",
                      f"{row['pack_us_per_decision']:.1f}", f"{row['baseline_us_per_decision']:.2f}",
                      f"{row['ratio_median']:.1f}×", f"{row['ratio_min']:.1f}-{row['ratio_max']:.1f}",
                      f"{row['pack_us_per_game_created']:.1f} / {row['baseline_us_per_game_created']:.1f}",
                      f"{row['play_only_ratio_median']:.1f}×")
    calls = Table(title="Per call, µs (median over sampled positions)", title_justify="left")
    for column in ("game", "side", "legal_actions", "apply", "clone", "legal_actions from JSON"):
        calls.add_column(column, justify="right")
    for row in results["games"]:
        for side in ("pack", "baseline"):
            c = row[f"{side}_calls"]
            fresh = c.get("legal_actions_from_json_us")
            calls.add_row(row["game"], side, f"{c['legal_actions_us']:.1f}", f"{c['apply_us']:.1f}",
                          f"{c['clone_us']:.1f}", "-" if fresh is None else f"{fresh:.1f}")
    console = Console(width=max(150, Console().width))
    console.print(table)
    console.print(calls)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="a game to compare (repeatable; default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds, at least 3 (default 5)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per round (default: 60 for Connect Four, 150 for Envoys)")
    parser.add_argument("--baseline-repeats", type=int, default=3,
                        help="times the baseline plays each round's games, so its time is long enough to "
                             "measure well (default 3; the time per decision counts every repeat)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error("--rounds must be at least 3")
    console = Console(stderr=True)
    results: dict[str, Any] = {"python": platform.python_version(), "rounds": args.rounds,
                               "machine": platform.machine(), "games": []}
    for name in args.game or sorted(GAMES):
        results["games"].append(compare(name, args.rounds, args.games, max(1, args.baseline_repeats), args.seed,
                                        lambda text: console.print(text, highlight=False)))
    print_table(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

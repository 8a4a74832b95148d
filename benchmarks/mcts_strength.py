"""How strong the mcts bot is: win rates with 95% intervals against the simpler bots.

    python benchmarks/mcts_strength.py                          # both matches, default budgets
    python benchmarks/mcts_strength.py --c4-games 100 --c4-bot mcts:300 --ophir-games 0

Connect Four: mcts against random, the seats swapped every game (target: at
least 95% wins). Ophir: mcts against greedy with two players, seats swapped
(target: more than half the games). Every game is seeded, so a run repeats;
only the timing differs between machines. Shared wins count a half.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import ruleskit
from ruleskit.simulate import simulate


def match(pack: str, bots: list[str], games: int, seed: int, workers: int) -> dict[str, Any]:
    game = ruleskit.load(pack)
    started = time.perf_counter()
    summary = simulate(game, games, len(bots), bots, seed=seed, workers=workers, rotate=True)
    seconds = time.perf_counter() - started
    first = summary["wins_by_bot"][bots[0]]
    return {"pack": pack, "bots": bots, "games": games, "seed": seed, "wins": first["wins"],
            "rate": first["rate"], "ci95": first["ci95"], "end_reasons": summary["end_reasons"],
            "errors": summary["errors"], "mean_decisions": summary["mean_decisions"],
            "seconds": round(seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--c4-games", type=int, default=40)
    parser.add_argument("--c4-bot", default="mcts:200")
    parser.add_argument("--ophir-games", type=int, default=10)
    parser.add_argument("--ophir-bot", default="mcts:40:depth=8")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    results = []
    if args.c4_games:
        results.append(match("connect_four", [args.c4_bot, "random"], args.c4_games, args.seed, args.workers))
    if args.ophir_games:
        results.append(match("ophir", [args.ophir_bot, "greedy"], args.ophir_games, args.seed, args.workers))
    for r in results:
        low, high = r["ci95"]
        print(f"{r['pack']}: {r['bots'][0]} vs {r['bots'][1]}: {r['wins']:g}/{r['games']} = {r['rate']:.1%} "
              f"(95% interval {low:.1%}-{high:.1%}), {r['seconds']} s, errors {len(r['errors'])}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main()

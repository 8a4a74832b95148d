"""What property checks cost: random Ophir games played normally and with every `ensure` and property checked.

    python benchmarks/properties_cost.py                 # 12 games per round, 5 rounds
    python benchmarks/properties_cost.py --normal-only   # only normal play (runs on versions without properties)

Both sides play the same games (seeds 0..N-1, 2-4 players, each decision drawn by random.Random(seed)),
in alternating rounds; the figure is the median of the rounds' decisions per CPU second
(time.process_time). Normal play is what play, simulate and the bots run: a game loaded with
`ruleskit.load(pack)`, whose checks are skipped. Checking is `game.with_property_checks()`, what
`ruleskit test` plays (without the engine invariants it adds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import ruleskit


def play(game: ruleskit.Game, games: int) -> tuple[int, float]:
    decisions = 0
    started = time.process_time()
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new_game(players=2 + seed % 3, seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rnd.randrange(len(legal))])
            decisions += 1
    return decisions, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="ophir")
    parser.add_argument("--games", type=int, default=12, help="games per round (default 12)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--normal-only", action="store_true", help="measure normal play only")
    args = parser.parse_args()
    game = ruleskit.load(args.pack)
    sides = {"normal play": game}
    if not args.normal_only:
        sides["checking properties"] = game.with_property_checks()
    rates: dict[str, list[float]] = {name: [] for name in sides}
    play(game, 2)  # warm up
    for _ in range(args.rounds):
        for name, side in sides.items():
            decisions, seconds = play(side, args.games)
            rates[name].append(decisions / seconds)
    for name, values in rates.items():
        print(f"{args.pack}, {name}: {statistics.median(values):,.0f} decisions/s "
              f"(median of {args.rounds} rounds of {args.games} games; rounds: "
              + ", ".join(f"{v:,.0f}" for v in values) + ")")


if __name__ == "__main__":
    main()

"""Play one seeded game of a pack with random decisions, print the result and write a replayable log.

    python examples/scripts/random_game.py ophir --players 3 --seed 7 --log game.jsonl
    ruleskit replay game.jsonl        # a pack folder is named again: ruleskit replay game.jsonl FOLDER
"""

from __future__ import annotations

import argparse
import random

import ruleskit
from ruleskit.log import write_log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="ophir")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", help="write the game's JSON Lines log here")
    args = parser.parse_args()

    game = ruleskit.load(args.pack)
    state = game.new_game(players=args.players, seed=args.seed)
    chooser = random.Random(args.seed)  # the decisions' own stream; chance uses the game's
    decisions = 0
    while not state.is_terminal:
        state.apply(chooser.choice(state.legal_actions()))
        decisions += 1
    result = state.result
    assert result is not None
    print(f"{game.name}: {decisions} decisions, ended because {result['reason']}")
    for player in result["ranking"]:
        print(f"  place {result['places'][player]}: Player {player + 1} with {result['scores'][player]}")
    if args.log:
        write_log(state, args.log)
        print(f"log written to {args.log}")


if __name__ == "__main__":
    main()

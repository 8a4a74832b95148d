"""How fast random play and the exploration policy reach every action and end of a pack, per player count.

    python benchmarks/exploration.py                         # Ophir, 2-4 players, 30 games a count
    python benchmarks/exploration.py --pack tests/packs/combination_lock --games 40

For each policy it plays games with the player counts taking turns (as
`ruleskit test` does), counting with the coverage watcher, and reports per
player count: after how many games every action and every end condition had
been reached (or "never"), the share of if arms, rules, procedures and hooks
reached, how many games ended in a tie for first place, and how many games
each end condition ended. Only pack invariants are checked (the engine's
checks do not change what a game reaches), so it runs faster than `ruleskit test`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from ruleskit.testing.coverage import Coverage, instrumented
from ruleskit.testing.policies import make_policy
from ruleskit.testing.runner import game_plan
from ruleskit.testing.strategies import GameRun, Watcher


class Outcomes(Watcher):
    def __init__(self) -> None:
        self.ties: Counter[int] = Counter()

    def ended(self, run: GameRun, state: Any) -> None:
        result = state.result
        if result is not None and result["places"].count(1) > 1:
            self.ties[run.players] += 1


def measure(pack: str, policy_name: str, counts: list[int], games_per_count: int, seed: int) -> dict[str, Any]:
    game, probe = instrumented(pack)
    coverage = Coverage(game, counts, probe)
    outcomes = Outcomes()
    policy = make_policy(policy_name, coverage)
    first_full: dict[int, int | None] = {c: None for c in counts}
    played: Counter[int] = Counter()
    started = time.process_time()
    for _, count, game_seed in game_plan(counts, games_per_count * len(counts), seed):
        run = GameRun(game, count, game_seed, policy.chooser(count, game_seed), check_engine=False, check_pack=False,
                      watchers=[coverage, outcomes])
        run.play()
        played[count] += 1
        if first_full[count] is None:
            wanted = [item for item in coverage.items() if item.kind in ("action", "end")]
            if all(item.hits[count] > 0 for item in wanted):
                first_full[count] = played[count]
    seconds = time.process_time() - started
    items = coverage.items()
    code = [item for item in items if item.kind in ("branch", "rule", "procedure", "hook")]
    return {
        "policy": policy_name,
        "cpu_seconds": round(seconds, 1),
        "per_count": {
            str(c): {
                "games": played[c],
                "every_action_and_end_after": first_full[c],
                "code_reached": f"{sum(1 for i in code if i.hits[c])}/{len(code)}",
                "ties_for_first": outcomes.ties[c],
                "ends": dict(coverage.ends[c]),
                "actions_never_taken": [i.name for i in items if i.kind == "action" and not i.hits[c]],
            } for c in counts
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pack", default="ophir")
    parser.add_argument("--players", default=None, help="e.g. 2,3,4 (default: every count the pack allows)")
    parser.add_argument("--games", type=int, default=30, help="games per player count and policy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()
    game, _ = instrumented(args.pack)
    counts = ([int(p) for p in args.players.split(",")] if args.players
              else list(range(game.min_players, game.max_players + 1)))
    results = [measure(args.pack, name, counts, args.games, args.seed) for name in ("random", "explore")]
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()

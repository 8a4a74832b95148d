"""What the engine's promises cost a game written by hand: Envoys plain, Envoys by hand with the promises
kept, and the Envoys pack, on the same games.

    python benchmarks/guarantees.py                      # 5 interleaved rounds of 150 games
    python benchmarks/guarantees.py --rounds 7 --json guarantees.json
    python benchmarks/guarantees.py --instructions       # instructions per decision under callgrind instead

benchmarks/baselines/envoys.py is Envoys written by hand with no promise beyond playing the rules.
benchmarks/baselines/envoys_guarded.py is the same game keeping, by hand, what ruleskit promises of every
pack's game: a step budget per decision, an `apply` that leaves the game as it was when an action fails
part-way, actions as values with ids and labels, players given as parameters checked to be seats, and a
history of the decisions. The three sides play the same games with compare_baselines.py's setups and
seeded random policy (the same deals, the same decisions; the script checks that each game ends with the
same winners on every side). Each round plays every game on each side, in an order that rotates between
rounds; CPU time per decision (time.process_time, creating the games included), median over the rounds,
and the ratios of the medians per round.

guarded / plain is what keeping the promises costs by hand; pack / guarded is what the engine costs beyond
them, for running any pack's rules rather than one game's.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIDES = ("plain", "guarded", "pack")

WORKER = """
import sys
sys.path.insert(0, sys.argv[1])
import compare_baselines as cb
import guarantees
side_name, count, mode = sys.argv[2], int(sys.argv[3]), sys.argv[4]
game, sides, games = guarantees.prepare(count, 0)
if mode == "play":
    print(cb.play(sides[side_name], games)[1])
else:
    import gc
    gc.collect()
    print(0)
"""


def prepare(count: int, seed: int) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """The Envoys pack, the three sides and `count` games' setups (compare_baselines.py's)."""
    import compare_baselines as cb

    import ruleskit

    game = ruleskit.load("envoys")
    ranks = cb.pack_deals.card_ranks("envoys")
    games = cb.setups(game, ranks, count, [2, 3, 4], seed)
    sides = {"plain": cb.BaselineSide(cb.load_baseline("envoys")),
             "guarded": cb.BaselineSide(cb.load_baseline("envoys_guarded")), "pack": cb.PackSide(game)}
    return game, sides, games


def timed(rounds: int, count: int, seed: int) -> dict[str, Any]:
    import compare_baselines as cb

    _, sides, games = prepare(count, seed)
    per_round: list[dict[str, float]] = []
    outcomes: dict[str, Any] = {}
    for number in range(rounds):
        order = SIDES[number % 3:] + SIDES[:number % 3]
        us: dict[str, float] = {}
        for name in order:
            cpu, decisions, outcomes[name] = cb.play(sides[name], games)
            us[name] = cpu / decisions * 1e6
        per_round.append(us)
        print(f"round {number + 1}/{rounds}: " + ", ".join(f"{name} {us[name]:.2f}" for name in SIDES)
              + " µs/decision", file=sys.stderr, flush=True)
    same = outcomes["plain"] == outcomes["guarded"] == outcomes["pack"]

    def ratio(top: str, bottom: str) -> dict[str, float]:
        values = [r[top] / r[bottom] for r in per_round]
        return {"median": round(statistics.median(values), 2), "min": round(min(values), 2),
                "max": round(max(values), 2)}

    return {"rounds": per_round, "same_games": same, "games_per_round": count,
            "us_per_decision": {name: round(statistics.median(r[name] for r in per_round), 2) for name in SIDES},
            "guarded_over_plain": ratio("guarded", "plain"), "pack_over_plain": ratio("pack", "plain"),
            "pack_over_guarded": ratio("pack", "guarded")}


def counted(count: int) -> dict[str, Any]:
    from count_instructions import run_counted, total_instructions

    per_decision: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="ruleskit-guarantees-") as temp:
        work = Path(temp)
        for name in SIDES:
            print(f"{name} under callgrind...", file=sys.stderr, flush=True)
            command = [sys.executable, "-c", WORKER, str(HERE), name, str(count)]
            run_counted([*command, "setup"], HERE.parent, work / "cache", None, name)  # fills the cache
            decisions = run_counted([*command, "play"], HERE.parent, work / "cache", work / f"{name}-play.out", name)
            run_counted([*command, "setup"], HERE.parent, work / "cache", work / f"{name}-setup.out", name)
            played = total_instructions(work / f"{name}-play.out") - total_instructions(work / f"{name}-setup.out")
            per_decision[name] = round(played / decisions)
    return {"games": count, "instructions_per_decision": per_decision,
            "guarded_over_plain": round(per_decision["guarded"] / per_decision["plain"], 2),
            "pack_over_plain": round(per_decision["pack"] / per_decision["plain"], 2),
            "pack_over_guarded": round(per_decision["pack"] / per_decision["guarded"], 2)}


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(HERE))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds, at least 3 (default 5)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per round (default 150; 60 with --instructions)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per decision under callgrind (valgrind) instead of timing")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 3:
        parser.error("--rounds must be at least 3")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    result: dict[str, Any] = {"python": platform.python_version()}
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
            return 2
        result.update(counted(args.games or 60))
        per = result["instructions_per_decision"]
        print("Envoys, instructions per decision (callgrind, random play, setup subtracted)")
        for name in SIDES:
            print(f"  {name:<8} {per[name]:>9,}")
    else:
        result.update(timed(args.rounds, args.games or 150, args.seed))
        print(f"Envoys, CPU µs per decision (median of {args.rounds} interleaved rounds, "
              f"{result['games_per_round']} games each; same games on every side: "
              f"{'yes' if result['same_games'] else 'NO'})")
        for name in SIDES:
            print(f"  {name:<8} {result['us_per_decision'][name]:>8.2f}")
    for key, what in (("guarded_over_plain", "the promises, kept by hand (guarded / plain)"),
                      ("pack_over_guarded", "the engine beyond them (pack / guarded)"),
                      ("pack_over_plain", "the pack against the plain game (pack / plain)")):
        value = result[key]
        text = f"{value:.2f}x" if isinstance(value, float) else \
            f"{value['median']:.2f}x ({value['min']:.2f}-{value['max']:.2f})"
        print(f"  {what:<52} {text}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

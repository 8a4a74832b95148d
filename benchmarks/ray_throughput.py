"""Simulation throughput on a local Ray instance with 1 and 2 worker CPUs, against the plain local run.

    python benchmarks/ray_throughput.py --pack ophir --players 3 --games 24

Each setting plays the same games (same seed), so the summaries must agree;
the script checks that and prints games and decisions per second. Ray's start-up
is not counted: a cluster is started once and used for many runs.
"""

from __future__ import annotations

import argparse
import time

import ray

import ruleskit
from ruleskit.simulate import TIMING_KEYS, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pack", default="ophir")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = ruleskit.load(args.pack)
    bots = args.bots.split(",")
    runs = []
    started = time.perf_counter()
    local = simulate(game, args.games, args.players, bots, seed=args.seed)
    runs.append(("local, 1 process", time.perf_counter() - started, local))
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        simulate(game, 2, args.players, bots, seed=args.seed + 1, backend="ray")  # warm the workers up
        started = time.perf_counter()
        summary = simulate(game, args.games, args.players, bots, seed=args.seed, backend="ray")
        runs.append((f"ray, {cpus} worker CPU{'s' if cpus > 1 else ''}", time.perf_counter() - started, summary))
        ray.shutdown()
    same = all({k: v for k, v in s.items() if k not in TIMING_KEYS}
               == {k: v for k, v in local.items() if k not in TIMING_KEYS} for _, _, s in runs)
    print(f"{args.pack}, {args.players} players, {args.games} games of {args.bots}; identical results: {same}")
    for label, seconds, summary in runs:
        decisions = summary["mean_decisions"] * summary["games"]
        print(f"  {label:22s} {seconds:7.1f} s  {summary['games'] / seconds:6.2f} games/s  "
              f"{decisions / seconds:8.0f} decisions/s")


if __name__ == "__main__":
    main()

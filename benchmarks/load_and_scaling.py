"""Start-up and parallel speed: `import ruleskit`, loading a pack cold and warm, `clone()`, `simulate --workers`.

    python benchmarks/load_and_scaling.py                       # Ophir, 5 repeats, 60 games
    python benchmarks/load_and_scaling.py --games 200 --rounds 2 --json scaling.json

Every load figure is measured in a fresh Python process (the way a user meets
it), as wall and CPU time, median of `--repeats`, with Python's bytecode cache on
and filled (as for an installed package, even if PYTHONDONTWRITEBYTECODE is set):

- `import ruleskit`;
- **cold**: `ruleskit.load(PACK)` with an empty cache folder (`RULESKIT_CACHE_DIR`);
- **warm**: the same in a new process once that folder holds the pack's entries;
- **no cache**: with `RULESKIT_NO_CACHE=1` (what every load cost before the cache);
- **again**: a second load in the same process as a warm one.

`clone()` is timed on positions from random games, one call at a time (median) and
in a tight loop of 1,000 clones (per clone, median over the positions). `simulate` runs as the command line
(`ruleskit simulate PACK --players N --games G --workers W`), alternating 1 and 2
workers `--rounds` times, with a warm cache; wall time comes from the run, CPU
time from the process and its children (`resource.getrusage`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent  # the checkout measured; --source names another

LOAD_PROBE = """
import json, sys, time
w0, c0 = time.perf_counter(), time.process_time()
import ruleskit
w1, c1 = time.perf_counter(), time.process_time()
ruleskit.load(sys.argv[1])
w2, c2 = time.perf_counter(), time.process_time()
ruleskit.load(sys.argv[1])
w3, c3 = time.perf_counter(), time.process_time()
print(json.dumps({"import": [w1 - w0, c1 - c0], "load": [w2 - w1, c2 - c1], "again": [w3 - w2, c3 - c2]}))
"""


def probe(pack: str, env: dict[str, str]) -> dict[str, list[float]]:
    out = subprocess.run([sys.executable, "-c", LOAD_PROBE, pack], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONHASHSEED"] = "0"
    env.pop("RULESKIT_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode; so must the measure
    return env


def loading(pack: str, repeats: int) -> dict[str, dict[str, float]]:
    """Median wall and CPU milliseconds of each way of loading, each in a fresh process."""
    found: dict[str, list[list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:  # once first, so that every module's bytecode is written
        probe(pack, base_env() | {"RULESKIT_CACHE_DIR": folder})
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            env = base_env() | {"RULESKIT_CACHE_DIR": folder}
            cold = probe(pack, env)
            warm = probe(pack, env)
            off = probe(pack, env | {"RULESKIT_NO_CACHE": "1"})
        for name, figures in (("import", cold["import"]), ("cold", cold["load"]), ("warm", warm["load"]),
                              ("no cache", off["load"]), ("again", warm["again"])):
            found.setdefault(name, []).append(figures)
    return {name: {"wall_ms": round(statistics.median(f[0] for f in runs) * 1e3, 1),
                   "cpu_ms": round(statistics.median(f[1] for f in runs) * 1e3, 1)}
            for name, runs in found.items()}


def clone_costs(pack: str, players: int, seed: int) -> dict[str, float]:
    import ruleskit
    from ruleskit.bots import RandomBot

    game = ruleskit.load(pack)
    samples = []
    for i in range(3):
        state = game.new_game(players=players, seed=seed + i)
        bot = RandomBot(game, seed + i)
        step = 0
        while not state.is_terminal:
            state.apply(bot.choose(state, state.players_to_decide()[0]))
            step += 1
            if step % 25 == 0:
                samples.append(state.clone())
    single = []
    for state in samples:
        started = time.perf_counter()
        state.clone()
        single.append(time.perf_counter() - started)
    loops = []
    for state in samples:
        started = time.perf_counter()
        for _ in range(1000):
            state.clone()
        loops.append((time.perf_counter() - started) / 1000)
    return {"positions": len(samples), "one_call_us": round(statistics.median(single) * 1e6, 2),
            "tight_loop_us": round(statistics.median(loops) * 1e6, 2)}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate_run(pack: str, players: int, games: int, workers: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "summary.json"
        before = children_cpu()
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ruleskit.cli", "simulate", pack, "--players", str(players),
                        "--games", str(games), "--workers", str(workers), "--seed", str(seed), "--quiet",
                        "--json", str(out)], env=base_env(), cwd=ROOT, check=True, capture_output=True)
        wall = time.perf_counter() - started
        cpu = children_cpu() - before
        summary = json.loads(out.read_text())
    return {"wall_s": wall, "cpu_s": cpu, "games_per_s": games / wall, "sim_seconds": summary["seconds"],
            "turns": sum(summary["turns_per_game"])}


def scaling(pack: str, players: int, games: int, rounds: int, seed: int) -> dict[str, Any]:
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    for round_index in range(rounds):
        for workers in ((1, 2) if round_index % 2 == 0 else (2, 1)):
            runs[workers].append(simulate_run(pack, players, games, workers, seed))
    assert len({r["turns"] for rs in runs.values() for r in rs}) == 1, "the same games with 1 and 2 workers"
    table = {w: {"wall_s": round(statistics.median(r["wall_s"] for r in rs), 2),
                 "cpu_s": round(statistics.median(r["cpu_s"] for r in rs), 2),
                 "games_per_s": round(statistics.median(r["games_per_s"] for r in rs), 2),
                 "simulate_s": round(statistics.median(r["sim_seconds"] for r in rs), 2)}
             for w, rs in runs.items()}
    speedups = [a["wall_s"] / b["wall_s"] for a, b in zip(runs[1], runs[2], strict=True)]
    inner = [a["sim_seconds"] / b["sim_seconds"] for a, b in zip(runs[1], runs[2], strict=True)]
    return {"games": games, "players": players, "rounds": rounds, "by_workers": table,
            "speedup_wall": round(statistics.median(speedups), 2),
            "speedup_range": [round(min(speedups), 2), round(max(speedups), 2)],
            "speedup_inside_simulate": round(statistics.median(inner), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="ophir")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per load figure (median)")
    parser.add_argument("--games", type=int, default=60, help="games per simulate run")
    parser.add_argument("--rounds", type=int, default=2, help="simulate runs per worker count, alternating")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--skip-simulate", action="store_true")
    parser.add_argument("--source", metavar="DIR",
                        help="measure the ruleskit of another checkout (e.g. a `git archive` of an older commit)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    if args.source:
        global ROOT
        ROOT = Path(args.source).resolve()
        sys.path.insert(0, str(ROOT))
    results: dict[str, Any] = {"source": str(ROOT), "pack": args.pack, "python": sys.version.split()[0], "cpus": os.cpu_count(),
                               "load_average_before": os.getloadavg()}
    results["loading_ms"] = loading(args.pack, args.repeats)
    print(f"{'':<10} {'wall ms':>9} {'CPU ms':>9}   (median of {args.repeats} fresh processes)")
    for name, figures in results["loading_ms"].items():
        print(f"{name:<10} {figures['wall_ms']:>9.1f} {figures['cpu_ms']:>9.1f}")
    results["clone"] = clone_costs(args.pack, args.players, args.seed)
    print(f"clone: {results['clone']['one_call_us']} µs one call (median), "
          f"{results['clone']['tight_loop_us']} µs in a loop, {results['clone']['positions']} positions")
    if not args.skip_simulate:
        random.seed(args.seed)
        results["simulate"] = scaling(args.pack, args.players, args.games, args.rounds, args.seed)
        sim = results["simulate"]
        print(f"simulate {args.pack}, {args.games} games, {args.players} players, {args.rounds} rounds:")
        for workers, row in sim["by_workers"].items():
            print(f"  {workers} worker(s): wall {row['wall_s']} s, CPU {row['cpu_s']} s, "
                  f"{row['games_per_s']} games/s (simulate's own timer: {row['simulate_s']} s)")
        print(f"  2 workers / 1: {sim['speedup_wall']}x wall (range {sim['speedup_range'][0]}-"
              f"{sim['speedup_range'][1]}), {sim['speedup_inside_simulate']}x inside simulate")
    results["load_average_after"] = os.getloadavg()
    print(f"load average before {results['load_average_before']}, after {results['load_average_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
